"""The words of leave-cover: a manager's meetings, the HR system's mails, the user's leave checklist.

Placeholders: {team} the user's team, {other} another team, {project} a project, {client} a client
company, {first} a first name, {who} someone's first name, {covers} how the user names the account team,
{start} {end} {back} days as people write them, {days} a count of working days, {manager} a name.
"""

from __future__ import annotations

TEAMS = ("Platform", "Payments", "Mobile", "Search", "Growth", "Data", "Checkout", "Identity", "Billing", "Insights")
PROJECTS = ("Atlas", "Beacon", "Northstar", "Keystone", "Lighthouse", "Compass", "Orchid", "Juniper")
ROLES = ("backend engineer", "product designer", "data engineer", "QA lead", "site reliability engineer")
USER_TITLES = ("Engineering Manager", "Product Lead", "Delivery Manager", "Head of Engineering")

# The user's own series: (title, rule with {day}, minutes, earliest and latest hour, how a mail names it:
# a pattern with {team}, {other} and {project}).
OWN_SERIES = (
    ("{team} team sync", "FREQ=WEEKLY;BYDAY={day}", 45, (10, 11), r"\b{team}\b|(?<!{other} )team sync"),
    ("{project} stand-up", "FREQ=WEEKLY;BYDAY={day}", 15, (9, 9), r"stand-?\s?ups?\b"),
    ("Sprint planning: {team}", "FREQ=WEEKLY;INTERVAL=2;BYDAY={day}", 60, (13, 15), r"sprint"),
    ("{team} backlog refinement", "FREQ=WEEKLY;BYDAY={day}", 45, (11, 16), r"backlog|refinement"),
)
# The user's own one-off meetings in the leave: (title, minutes, hours, pattern)
OWN_SINGLES = (
    ("Interview debrief: {role}", 30, (15, 16), r"debrief"),
    ("Design review: {project} onboarding", 60, (14, 15), r"design review|onboarding"),
    ("{project} retro", 60, (14, 16), r"\bretro"),
    ("Pairing session: {project} migration", 90, (13, 15), r"pairing|migration"),
)
ONE_ON_ONE = "1:1 {me} / {who}"
ONE_TO_ONE = r"\b1:1\b|\b1-1\b|one[- ]to[- ]one|one[- ]on[- ]one|\b1 on 1\b"
# Other people's series the user attends: (title, rule, minutes, hours, pattern)
THEIR_SERIES = (
    ("Architecture review", "FREQ=WEEKLY;BYDAY={day}", 60, (14, 16), r"architecture"),
    ("Hiring committee", "FREQ=WEEKLY;INTERVAL=2;BYDAY={day}", 45, (11, 12), r"hiring"),
    ("Engineering leads sync", "FREQ=WEEKLY;BYDAY={day}", 30, (9, 10), r"leads"),
)
# The look-alike of the user's team sync, run by another team's lead (noisy_data).
THEIR_TEAM_SYNC = ("{other} team sync", r"\b{other}\b")
# Other people's one-off meetings in the leave: (title, minutes, hours, pattern)
THEIR_SINGLES = (
    ("Budget planning workshop", 90, (10, 14), r"budget"),
    ("Security awareness training", 60, (11, 15), r"security"),
    ("Quarterly roadmap review", 90, (10, 14), r"roadmap"),
    ("Office move briefing", 30, (12, 13), r"office move|briefing"),
)
# Client calls: a weekly check-in the client runs, a one-off review the user set up, and a call the user
# set up whose title names no client (only its guest, from the client, shows what it is).
CLIENT_SERIES = "{client} weekly check-in"
CLIENT_SINGLE = "Quarterly business review · {client}"
CLIENT_QUIET = ("Renewal terms: quick call", r"renewal")
CLIENT_LOCATIONS = ("Zoom", "Microsoft Teams", "Google Meet")
ROOMS = ("Room 2.14", "Room 3.02", "The Loft", "Room 1.07", "Boardroom", "Video call")

# The checklist the user keeps for time off (hidden_dependency: the rules live here).
CHECKLIST_TITLE = "Before I go on leave"
CHECKLIST = (
    "What to sort out before time off (so I don't have to think about it next time):\n\n"
    "- Meetings I organise: cancel only the days I'm away, never the whole series. Cancelling in the calendar "
    "sends the guests the cancellation.\n"
    "- Except the backlog refinement: {deputy} runs it when I'm away, so it goes ahead (this beats the rule "
    "above). Email {deputy} the dates they'll be running it.\n"
    "- 1:1s with my reports: don't drop them. Move each one to my first working day back, same time. If I have a "
    "prep reminder for one, move it to the new day too.\n"
    "- Everybody else's meetings: decline them by email to the organiser, so they know I won't be there.\n"
    "- Client calls (anything with someone from a client on it, whoever set it up): the account team ({covers}) "
    "take them. Don't cancel or decline those. Each call goes to someone who knows that client (the client cover "
    "sheet in my Documents says who does) and isn't out that day (their leave and trips are in the Team calendar; "
    "also read what they said when I asked them). Nobody takes more than {cap} of my calls, they have their own "
    "clients. Email each of them the calls they're taking: client, date and time of each.\n"
    "- Anything I've already sorted (declined, moved) stays as it is: no second email about it.\n"
    "{reminder}"
    "- Out-of-office on the laptop the evening before (I do that one myself)."
)
CHECKLIST_REMINDER = (
    "- Reminder in my Work list for my first day back: catch up with {covers} about the client calls.\n"
)
# The same rules when the prompt carries them (without hidden_dependency).
RULES_IN_PROMPT = (
    " Cancel my own meetings for just those days (except the backlog refinement: {deputy} runs it, so it stays and "
    "they get an email with its dates), decline everyone else's to the organiser unless I already have, move my "
    "1:1s with my reports to my first day back at the same time (with any prep reminder). My client calls (anything "
    "with someone from a client on it) go to the account team, {covers}: each call to one of them who knows that "
    "client (the client cover sheet in my Documents) and isn't out that day (Team calendar, and their replies when I "
    "asked), no more than {cap} each. Email each of them their calls (client, date, time)."
)
REMINDER_IN_PROMPT = " And put a reminder in my Work list for my first day back to catch up with {covers} about them."
PROMPTS = (
    "My leave got approved. Can you sort out my calendar for it and let people know?",
    "I'm off on leave soon (it's approved). Please sort out my calendar for the time I'm away and let people know.",
    "Could you get my calendar ready for my leave? It's been approved. Let everyone who needs to know know.",
)

# The HR system's mails.
HR_SENDER = "{org} People Team"
APPROVED_SUBJECT = ("Leave request approved", "Your annual leave has been approved", "Annual leave: approved")
APPROVED_BODY = (
    "Hi {first},\n\n"
    "Your annual leave request has been approved by {manager}.\n\n"
    "First day of leave: {start}\n"
    "Last day of leave: {end}\n"
    "Working days: {days}\n\n"
    "You have {left} days of allowance left for {year}.\n\n"
    "{org} People Team\n"
    "This is an automated message from the leave system."
)
CHANGED_SUBJECT = "Leave request changed: approved"
CHANGED_BODY = (
    "Hi {first},\n\n"
    "The change to your annual leave has been approved by {manager}. Your leave is now:\n\n"
    "First day of leave: {start}\n"
    "Last day of leave: {end}\n"
    "Working days: {days}\n\n"
    "This replaces your earlier approval for {old_start} to {old_end}, which has been withdrawn.\n\n"
    "{org} People Team\n"
    "This is an automated message from the leave system."
)
CHANGE_ASK = (
    "Would it be all right if I moved my leave? Family plans changed and {start} to {end} would work much better "
    "than the dates I booked. Nothing critical is due in either week."
)
CHANGE_OK = "Fine by me. Change it in the leave system and I'll approve it there."

# A colleague's out-of-office note (noisy_data): someone else's leave, someone else's cover.
COLLEAGUE_LEAVE_SUBJECT = "Out of office {start} to {end}"
COLLEAGUE_LEAVE = (
    "Heads up: I'm on leave from {start} to {end}. {stand_in} is covering the {project} release while I'm away, "
    "so please send anything urgent their way."
)
# A mail from the cover that shows the name they go by (entity_alignment).
COVER_THREAD_SUBJECT = "{client}: notes from today's call"
COVER_THREAD = (
    "Quick notes from today's call with {client}: they're happy with the last release and want to talk about "
    "the renewal next quarter. I've put the details in the account doc."
)
COVER_NOTE = "Goes by {short}. Account team."
# What others' invitations say.
# The user's own decline, already sent (latent state: nothing more to do for that meeting).
ALREADY_DECLINED = (
    "Thanks for the invite. I'm on annual leave that week, so I'll have to miss this one; I'll catch up on the "
    "notes when I'm back."
)
# A prep reminder the user keeps for one 1:1 (it moves with the 1:1).
PREP_REMINDER = ("Prep for 1:1 with {who}: {topic}", ("promotion case", "goals review", "feedback from the retro"))
INVITE_SUBJECT = "Invitation: {title} @ {day} {time}"
INVITE_BODY = (
    "Hi {first},\n\n{who} has invited you to {title} on {day} at {time} ({place}).\n\n"
    "Reply to let them know if you can make it.\n\nSent from the calendar"
)

# What the assistant writes (the reference solution and its alternatives).
DECLINE_SUBJECT = "Away on leave: {title}"
DECLINE_BODY = (
    "Hi {who},\n\nI'm on annual leave for those sessions, so I'll have to decline {titles} while I'm away. "
    "Sorry to miss them!\n\nBest,\n{me}"
)
COVER_SUBJECT = "Client calls while I'm on leave"
COVER_BODY = (
    "Hi {who},\n\nThanks for taking some of my client calls while I'm on leave. Yours are:\n\n{lines}\n\n"
    "Shout if you need the dial-in details for any of them.\n\nThanks again,\n{me}"
)
DEPUTY_SUBJECT = "Running the backlog refinement while I'm away"
DEPUTY_BODY = (
    "Hi {who},\n\nThanks for running the backlog refinement while I'm on leave. The sessions are:\n\n{lines}\n\n"
    "Same room and time as usual.\n\nThanks,\n{me}"
)
BACK_REMINDER = "Catch up with {covers} about the client calls"

# The account team who take the user's client calls (the joint decision): the user's ask, their replies,
# the sheet of who knows which client, and the Team calendar's entries.
CALLS_ASK_SUBJECT = "Cover for my client calls"
CALLS_ASK = (
    "I'm on leave from {start} to {end}, and I've got a handful of client calls in that stretch. Could the three of "
    "you share them out between you? I'll match each call to someone who knows the client and send you yours "
    "before I go. Let me know if there are days you can't do."
)
CALLS_REPLY_FREE = (
    "Happy to help. I'm around the whole time, so put me down for whatever suits.",
    "Sure, no problem. I'm in all of those weeks, send me whichever ones you need.",
)
CALLS_REPLY_CALENDAR = (
    "Yes, can do. I'm off for a bit of that stretch myself though, it's in the Team calendar.",
    "Happy to. Just check the Team calendar first: I've got some time off booked around then.",
)
CALLS_REPLY_MAIL = (
    "Of course. The one day I can't do is {day}: I'm at the {city} office all day for {why}. Any other day is fine.",
    "Sure. I'm out at {city} all {day} for {why}, so not that day, but the rest is fine.",
)
AWAY_REASONS = ("a client onboarding", "the quarterly account reviews", "a training day", "the partner summit")
TEAM_CALENDAR = "Team"
TEAM_LEAVE = ("{name}: annual leave", "{name} off", "{name}: holiday")
TEAM_TRIP = ("{name} at {city}", "{name}: {city} trip")
TEAM_NOISE_PLACES = ("Manchester", "Dublin", "Rotterdam", "Glasgow", "Leeds", "Bristol", "Munich", "Lyon")
COVER_SHEET = "Documents/Work/Client cover.csv"
COVER_SHEET_HEADER = ("Client", "Account lead", "Also knows the account", "Notes")
COVER_SHEET_NOTES = (
    "Monthly invoice review",
    "Renewal due next year",
    "Prefers Teams",
    "Weekly ops call",
    "Onboarding this quarter",
    "",
    "",
)
