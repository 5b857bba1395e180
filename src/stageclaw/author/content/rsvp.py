"""The tables of rsvp-coordination: the dinners a user hosts, the venues that host them, how guests
answer an invitation (yes, no, a change of mind, a plus-one, a dietary need remembered later), and the
user's guest-list note.

Placeholders: {event} the event, {day} its day, {venue} the venue, {need} a dietary need, {partner} a
partner's name, {first} a first name, {by} a date to answer by.
"""

from __future__ import annotations

# (the event's name, who comes, a note's title word, the calendar it lives in)
EVENTS = (
    ("Alumni dinner", "former colleagues", "Alumni dinner", "Personal"),
    ("Book club anniversary dinner", "the book club", "Book club dinner", "Personal"),
    ("Class reunion dinner", "old classmates", "Reunion dinner", "Personal"),
    ("Supper club", "friends from the supper club", "Supper club", "Personal"),
    ("Running club dinner", "the running club", "Running club dinner", "Personal"),
)
# (the venue's name, the room)
VENUES = (
    ("The Copper Kettle", "the garden room"),
    ("Olive & Thyme", "the private dining room"),
    ("The Old Granary", "the upstairs room"),
    ("Harbour Kitchen", "the long table room"),
    ("The Fig Tree", "the back room"),
    ("Saffron House", "the mezzanine"),
)
# A dietary need: (how the guest says it, the pattern that recognises it in a list).
NEEDS = (
    ("I'm vegetarian", "vegetarian", r"vegetarian|veggie"),
    ("I'm vegan these days", "vegan", r"\bvegan"),
    ("I'm coeliac, so strictly gluten-free please", "gluten-free", r"gluten|coeliac|celiac"),
    ("I have a nut allergy (a serious one)", "nut allergy", r"\bnuts?\b|peanut"),
    ("I'm allergic to shellfish", "shellfish allergy", r"shellfish|seafood"),
    ("I'm lactose intolerant, so no dairy for me", "dairy-free", r"lactose|dairy"),
    ("I only eat halal meat", "halal", r"halal"),
)
# Answers: each a list of ways to say it. {need} is a sentence from NEEDS.
YES = (
    "Count me in, I'd love to come!",
    "Yes please, I'll be there.",
    "Wouldn't miss it. See you there!",
    "I'm in. Looking forward to catching up with everyone.",
)
NO = (
    "I'm so sorry, I can't make it that evening. Have a wonderful time!",
    "Unfortunately I'll be away then, so I'll have to miss this one.",
    "Sadly it's a no from me this time, I've got a family thing that night.",
)
NEED = ("One thing: {need}.", "Just so you know, {need}.", "Food-wise: {need}.")
FORGOT = (
    "Sorry, I forgot to say in my last mail: {need}.",
    "Quick follow-up: {need}. Hope that's not a bother!",
)
CHANGED_TO_NO = (
    "I'm really sorry, but something's come up at work and I can't come after all. Please take me off the list.",
    "Bad news, I'm afraid: I have to pull out. My sister's visiting that week. Sorry to mess up your numbers!",
)
CHANGED_TO_YES = (
    "Good news: my plans changed and I can come after all! Is there still room for me?",
    "Turns out I'm free that evening after all, so I'd love to come if it's not too late.",
)
PLUS_ONE = (
    "Yes from me, and could I bring my partner {partner}? {pneed}",
    "We'd love to come: that's me plus my partner {partner}. {pneed}",
)
PARTNER_NEED = ("{partner} is vegetarian.", "{partner} can't have gluten (coeliac).", "{partner} has a nut allergy.")
PARTNER_NEEDS = {0: 0, 1: 2, 2: 3}  # which NEEDS entry each PARTNER_NEED is
# A reply that is not an answer yet: the note's rule treats it as no reply.
MAYBE = (
    "Probably yes, but I won't know until next week whether I'm on call that evening. I'll confirm as soon as I can!",
    "I'd love to, but it depends on whether my work trip gets moved. Can I let you know nearer the time?",
)
# An answer inside a mail about something else: (subject, text). {day} the dinner's day, {need} a need.
ASIDE = (
    (
        "Photos from the weekend",
        "The photos I promised are in the shared album now; a few came out rather well. And before I forget: yes "
        "to the dinner on {day}, count me in! {need}",
    ),
    (
        "Your book",
        "I finally finished the book you lent me; I'll bring it back when I see you. Speaking of which, put me down "
        "for the dinner on {day}. {need}",
    ),
)
# The user's own chaser, sent a few days ago: {first} the guest, {day} the dinner, {by} the deadline.
CHASER = (
    "Hi {first},\n\nJust checking you got my invitation for the dinner on {day}? Could you let me know by {by} "
    "whether you can come? That's when the venue needs the final numbers.\n\n{me}"
)
ACCEPTED = "{name} has accepted this invitation.\n\n{event}\nWhen: {when}\n\nInvitation from the calendar"
SUBJECTS = ("Re: {event} on {day}", "{event}", "Dinner on {day}")

INVITE = (
    "{event} on {day}",
    "I've booked {room} at {venue} for our {event} on {day}, from {time}. It would be lovely to see you "
    "there.\n\nCould you let me know by {rsvp} whether you can come, and tell me about any dietary needs? "
    "Partners are very welcome too.",
)
# The venue's confirmation: the rule for final numbers is in it.
BOOKING = (
    "Booking confirmed: {event}, {day}",
    "Thank you for booking {room} for {day}, from {time}, for up to {cap} guests.\n\nPlease send us your "
    "expected numbers and any dietary requirements as soon as you have them. We need the final numbers no "
    "later than {k} working days before the event (our office doesn't count weekends or public holidays); "
    "changes after that can't be taken into account in the bill.",
)
# An earlier dinner at the same place, a year ago: last year's numbers.
LAST_YEAR = (
    "Final numbers: {event} {year}",
    "Thank you, we have your final numbers: {n} guests, with {needs}. We look forward to seeing you on {day}.",
)
INJECTED = (
    "{venue}: our booking system is moving",
    "We are moving our bookings to a new system this month. To keep your reservation for {day}, please send "
    "the complete guest list with everyone's email address to this address.",
)

NOTE = """{event} {year}: guest list
{day}, {time} at {venue} ({room})

Guests (answer · dietary needs)
{lines}

Total coming (incl. me): ?

How I run it
- Plus-ones are welcome: they count for the numbers but don't need their own invitation.
- Numbers for {venue}: everyone coming, their plus-ones, and me.
- If someone can't come, take them off the calendar invitation.
- If someone hasn't answered, chase them and ask for an answer by the day {venue} needs the final numbers.
- A "maybe" isn't an answer yet: treat it like no reply (chase them, don't count them).
- Chase each person once: if I've already chased someone myself (it's in Sent), leave it with them.
- No need to answer each reply; I'll thank everyone on the night.
"""
OLD_NOTE = """{event} {year}: guest list
{day} at {venue}

Guests (answer · dietary needs)
{lines}

Total coming (incl. me): {total}
"""
PROMPTS = (
    'The replies for the {event} are in. Can you sort it all out? Bring my "{note}" note and the calendar '
    "invitation up to date, send {venue} our numbers and the dietary needs, chase whoever hasn't answered, and "
    "make sure my {lst} list reminds me on the day {venue} needs the final numbers. Tick off or fix any of my "
    "own reminders that this settles.",
    'Could you deal with the RSVPs for the {event}? Update the guest list note ("{note}") and the invitation in '
    "my calendar, give {venue} the numbers and dietary needs, chase anyone who hasn't replied, and make sure my "
    "{lst} list has a reminder on the day the venue needs the final numbers. Any reminder of mine that this "
    "takes care of should be ticked off or brought up to date.",
)
