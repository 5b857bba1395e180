"""The words of carpool-rota: a school-run carpool's group note, the parents' replies, the rota mail.

Placeholders: {school} the school, {spot} where the run leaves from, {start} {end} days as people write
them, {days} weekdays in words, {first} a first name, {family} a family name, {partner} the partner's
first name, {lines} the rota, one day a line.
"""

from __future__ import annotations

SCHOOLS = ("Hollybrook Primary", "St Mary's Primary", "Northfield Primary", "Greenway Primary", "Ashgrove Primary")
SPOTS = (
    "the corner of Elm Road and Park Lane",
    "the bus stop on Chester Road",
    "outside the library on Mill Street",
    "the church car park on Station Road",
)
NOTE_TITLE = "School run carpool"
NOTE = (
    "School run carpool ({school})\n\n"
    "Who's in: {members}.\n\n"
    "How it works:\n"
    "- One driver each school day. We leave from {spot} at 8.10 and get to school by 8.40.\n"
    "- Nobody drives more than twice in a week (Monday to Friday).\n"
    "- Fair shares: over a rota every family drives the same number of times, give or take one.\n"
    "- Only on days a family said they can do; if they change their mind, their latest message counts.\n"
    "- No run on days the school is closed (check the school calendar).\n"
    "- Whoever makes the rota: put each run in the calendar with the driver invited, write the rota here, and "
    "mail it to the group.\n"
    "{us}\n\n"
    "Rota {old_start} to {old_end}:\n{old_lines}\n"
)
US_LINE = "- Us: any morning except {days} ({why})."
US_REASONS = ("early team call", "gym class before work", "I start at 8 those days")
RULES_IN_PROMPT = (
    " One driver each school day, nobody more than twice a week, every family the same number of runs give or "
    "take one, only on days they said they can do (latest word counts), none when school's closed; put each run "
    "in the Family calendar with the driver invited, write the rota into the carpool note and mail it to the group."
)
PROMPTS = (
    "Can you sort out the school-run carpool rota for the next three weeks ({start} to {end})? Everyone's replied "
    "with when they can drive.",
    "I'm doing the carpool rota this time: {start} to {end}. The other parents have sent their availability. Can "
    "you put it together and send it round?",
    "Please make the school-run rota for {start} to {end} from what the parents said, and send it out.",
)
ASK_SUBJECT = "Carpool rota {start} to {end}: when can you drive?"
ASK_BODY = (
    "Hi all,\n\nI'm doing the rota for {start} to {end}. Could you let me know which mornings you can drive?\n\n"
    "Thanks,\n{me}"
)
# A parent's reply: the days they can do, and the exceptions.
CAN = (
    "We can do {days}.",
    "{days} work for us.",
    "Put us down for {days}, please.",
    "I can drive on {days}.",
)
EXCEPT = (" Not {when} though, we're away.", " Except {when}: dentist first thing.", " Apart from {when}.")
PARTNER = (
    "{partner} asked me to reply for both of us: {partner} can drive on {days}. I'm travelling for work, so it's "
    "just {partner} this time.",
    "Replying for {partner}, who's away from email this week: {days} are fine for {partner}. I can't drive at all "
    "this time.",
)
CHANGE = (
    "Sorry, change of plan: {old} no longer works for us. We can do {days} instead.",
    "Update: scrap what I said before. It's {days} for us now ({old} is off, new work shifts).",
)
NOISE_SUBJECT = "Swimming lift share"
NOISE_BODY = (
    "Hi all,\n\nFor Saturday swimming this month: I'll take them on the {first_sat}, then it's whoever's free. "
    "Reply-all with the Saturdays you can do.\n\n{first}"
)
# What the assistant writes.
EVENT = "School run: {driver} driving"
ROTA_SUBJECT = "Carpool rota {start} to {end}"
ROTA_BODY = (
    "Hi all,\n\nHere's the school-run rota for {start} to {end} (we leave {spot} at 8.10):\n\n{lines}\n\nThanks,\n{me}"
)
ROTA_NOTE = "Rota {start} to {end}:\n{lines}"
