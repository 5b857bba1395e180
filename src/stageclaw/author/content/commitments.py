"""What the commitments-review family is made of: the things people ask a busy colleague for, how the user
promises them (each way of naming a due date), how they keep a promise, and the everyday mail around it
that promises nothing.

A `Thing` is what someone asks for: the request (subject and words), the object as the user names it in a
promise, the words that identify it in a reminder's title (and no other thing's), and, for the things the
user hands over, what they attach when they keep the promise.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thing:
    key: str
    subject: str  # the request's subject
    ask: str  # the request, in the asker's words
    object: str  # as the user promises it: "the Q3 figures"
    words: str  # what names it in a reminder title or a review line
    verb: str  # what the user will do: "Send", "Get back to"
    title: str  # the reminder in the reference solution: {verb} {first} {object}
    attachment: str  # the file that keeps the promise ("" : kept by a message alone)


THINGS = (
    Thing(
        "figures",
        "{quarter} figures for the board pack",
        "Could you send me the {quarter} figures for the board pack? No huge rush, but soon-ish would be great.",
        "the {quarter} figures",
        r"figures|numbers",
        "Send",
        "Send {first} the quarterly figures",
        "{quarter} figures.csv",
    ),
    Thing(
        "proposal",
        "Revised proposal?",
        "Thanks for the call. Could you send over a revised proposal with the smaller scope we discussed?",
        "the revised proposal",
        r"proposal",
        "Send",
        "Send {first} the revised proposal",
        "Proposal (revised).pdf",
    ),
    Thing(
        "slides",
        "Slides from the workshop",
        "Would you mind sharing the slides from the workshop? A couple of people missed it.",
        "the workshop slides",
        r"slides|deck",
        "Send",
        "Send {first} the workshop slides",
        "Workshop slides.pdf",
    ),
    Thing(
        "forecast",
        "Budget forecast for next year",
        "Finance are chasing me for next year's budget forecast. Can you send me yours?",
        "my budget forecast",
        r"forecast",
        "Send",
        "Send {first} the budget forecast",
        "Budget forecast.csv",
    ),
    Thing(
        "checklist",
        "Onboarding checklist for the new starter",
        "We've got a new starter on the team. Could you share the onboarding checklist you mentioned?",
        "the onboarding checklist",
        r"checklist|onboarding",
        "Send",
        "Send {first} the onboarding checklist",
        "Onboarding checklist.md",
    ),
    Thing(
        "intro",
        "Intro to your legal team?",
        "Could you introduce me to someone in your legal team about the data agreement?",
        "an intro to our legal team",
        r"intro|legal",
        "Introduce",
        "Introduce {first} to legal",
        "",
    ),
    Thing(
        "feedback",
        "Feedback on the brief",
        "I've attached the brief for the spring campaign. Could you give me your feedback on it?",
        "my feedback on the brief",
        r"feedback|brief",
        "Send",
        "Send {first} feedback on the brief",
        "",
    ),
    Thing(
        "timeline",
        "Updated project timeline",
        "Now that the dates have moved, could you send me an updated timeline for the project?",
        "the updated timeline",
        r"timeline|schedule",
        "Send",
        "Send {first} the updated timeline",
        "Timeline (updated).csv",
    ),
    Thing(
        "case_study",
        "Case study for the website",
        "We'd love to feature the project as a case study. Could you write us a short paragraph about it?",
        "a paragraph for the case study",
        r"case study|paragraph",
        "Write",
        "Write {first} the case study paragraph",
        "",
    ),
    Thing(
        "pricing",
        "Question about pricing",
        "Before we sign, could you confirm whether the pricing includes the support hours?",
        "an answer on the pricing",
        r"pricing|support hours",
        "Get back to",
        "Get back to {first} about the pricing",
        "",
    ),
    Thing(
        "reference",
        "Reference for Sam?",
        "Sam has applied for a role with us and gave your name. Could you write a short reference?",
        "the reference",
        r"reference",
        "Write",
        "Write {first} the reference",
        "",
    ),
    Thing(
        "contract",
        "Contract draft",
        "Legal have signed off on our side. Could you send me your comments on the contract draft?",
        "my comments on the contract",
        r"contract|comments",
        "Send",
        "Send {first} comments on the contract",
        "",
    ),
)

# How the user names a due date, by kind; {object} {weekday} {n} {event} {date}.
PROMISES = {
    "weekday": ("I'll send {object} over by {weekday}.", "You'll have {object} by {weekday}."),
    "tomorrow": ("I'll get {object} to you tomorrow.", "I'll send {object} over tomorrow."),
    "working_days": ("I'll get {object} to you within {n} working days.", "Give me {n} working days for {object}."),
    "next_week": ("I'll get {object} to you next week.", "I'll sort out {object} next week."),
    "after": ("Let me come back to you with {object} after the {event}.", "I'll send {object} after the {event}."),
    "before": ("I'll make sure you have {object} before the {event}.", "You'll get {object} before the {event}."),
    "month_end": ("You'll have {object} by the end of the month.", "I'll send {object} by the end of the month."),
    "date": ("I'll have {object} with you by {date}.", "You'll get {object} by {date}."),
}
OPENINGS = ("Of course.", "Sure, happy to.", "Good idea.", "No problem at all.", "Thanks for the nudge.")
KEPT = (
    "As promised, here {is} {object}.",
    "Here {is} {object}, as promised.",
    "Please find {object} attached, as promised.",
)
KEPT_NO_FILE = ("As promised: {answer}", "Following up as promised: {answer}")
ANSWERS = {
    "intro": "I've copied in our legal counsel, who'll pick it up from here.",
    "feedback": "the brief looks good; I'd shorten the second section and lead with the numbers.",
    "case_study": "here's a paragraph you can use, edit as you like.",
    "pricing": "yes, the support hours are included in the price.",
    "reference": "the reference is below; happy to talk on the phone too.",
    "contract": "my comments are inline below; nothing major.",
}
NO_RUSH = (
    "No rush at all, {date} would be fine.",
    "Actually, there's no hurry: could it wait until {date}?",
)
AGREED = ("Perfect, {date} it is.", "Great, thanks: I'll have it with you by {date} then.")
PUSH_BACK = ("Could we push it to {date}? The board moved.", "Would {date} work instead? Things have shifted here.")

# Everyday mail around the promises: (subject, their message, the user's answer). The answers commit the user
# to nothing: no promise to do, send or attend anything.
EXCHANGES = (
    ("New canteen menu", "The canteen has a new menu this week, the curry is excellent.", "Ooh, thanks for the tip."),
    ("Room for the planning session", "I've booked room 4 for the planning session.", "Thanks, that's perfect."),
    ("Quick question", "Is the shared drive down for you too?", "It's working for me now, try again?"),
    ("Welcome drinks", "Thanks to everyone who came to the welcome drinks!", "It was lovely, thanks for organising."),
    ("Minutes from Monday", "Here are the minutes from Monday's meeting.", "Thanks, all looks right to me."),
    ("Parking at the office", "Do you know if visitors can park on site?", "They can, just sign in at reception."),
    ("Holiday cover", "I'm off next week; Jo will cover for me.", "Thanks for letting me know, enjoy the break!"),
    ("Printer on the 3rd floor", "The printer on 3 is jammed again.", "Ugh, I've reported it to facilities."),
    ("Nice work", "Great presentation yesterday!", "Thank you, that's kind of you."),
    ("Re-org announcement", "Did you see the announcement about the new teams?", "I did, big changes ahead."),
    ("Conference tickets", "Tickets for the conference are out.", "Thanks, I've already got mine."),
    ("Team photo", "The team photo from the offsite is up on the intranet.", "Ha, great photo, thanks!"),
    ("Coffee?", "Fancy a coffee this afternoon?", "Can't today, I'm afraid: back to back."),
    ("Desk move", "Facilities say our desk move is confirmed for the 3rd.", "Noted, thanks for the heads-up."),
    ("Survey reminder", "Reminder: the staff survey closes soon.", "Done it already, thanks."),
    ("Visitor badge", "Your visitor is at reception.", "Thanks, on my way down."),
    ("Birthday card", "We're signing a card for Lee, it's on my desk.", "Signed it this morning."),
    ("Out of office", "I'll be out tomorrow, back Wednesday.", "Thanks, safe travels."),
)
# Promises other people made to the user: not the user's to keep.
THEIRS = (
    ("Contract signature", "I'll send you the signed contract by Friday."),
    ("Invoice", "I'll get the corrected invoice to you tomorrow."),
    ("The numbers you asked for", "Let me dig out those numbers, I'll send them next week."),
    ("Your access request", "I'll set up your access to the dashboard by Wednesday."),
)
EVENTS = {
    "after": ("Board meeting", "board meeting"),
    "before": ("Client workshop with {org}", "workshop"),
}
