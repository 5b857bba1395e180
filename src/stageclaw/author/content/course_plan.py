"""What the course-plan family is made of: online courses run from another time zone, their assignments,
how a syllabus states deadlines, and how an instructor moves one.

A course pairs a university in one zone with learners anywhere; its syllabus gives every deadline as a
date and a time in the university's zone ("11:59 pm Pacific Time"), which is the whole trap: the
learner's own date and time differ, and by a different amount in the weeks when only one of the two
zones has changed its clocks.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class School:
    name: str
    domain: str
    tz: str
    zone: str  # how the syllabus names its time zone
    platform: str  # the learning platform that mails announcements


@dataclass(frozen=True)
class Course:
    code: str
    title: str
    assignments: tuple[str, ...]  # in term order
    words: tuple[str, ...]  # one pattern per assignment: what names it in a title or a line


SCHOOLS = (
    School("Northbridge University Online", "northbridge.edu", "America/Los_Angeles", "Pacific Time (PT)", "Canvas"),
    School("Eastlake College Extension", "eastlake.edu", "America/New_York", "Eastern Time (ET)", "Canvas"),
    School("Kingsgate University", "kingsgate.ac.uk", "Europe/London", "UK time", "Moodle"),
)
COURSES = (
    Course(
        "DV101",
        "Data Visualisation",
        ("Problem set 1", "Chart critique", "Problem set 2", "Peer review", "Problem set 3", "Project proposal",
         "Dashboard draft", "Final project"),
        (r"problem set 1\b|\bps ?1\b", r"critique", r"problem set 2\b|\bps ?2\b", r"peer review",
         r"problem set 3\b|\bps ?3\b", r"proposal", r"dashboard", r"final project"),
    ),
    Course(
        "PY110",
        "Python for Analysts",
        ("Exercise set 1", "Exercise set 2", "Mini project", "Exercise set 3", "Code review", "Data cleaning lab",
         "Capstone plan", "Capstone"),
        (r"exercise set 1\b|\bes ?1\b", r"exercise set 2\b|\bes ?2\b", r"mini project", r"exercise set 3\b|\bes ?3\b",
         r"code review", r"cleaning", r"capstone plan", r"capstone(?! plan)"),
    ),
    Course(
        "UX205",
        "User Research Methods",
        ("Interview plan", "Field notes", "Survey design", "Persona draft", "Synthesis memo", "Usability test",
         "Presentation", "Final report"),
        (r"interview plan", r"field notes", r"survey", r"persona", r"synthesis|memo", r"usability",
         r"presentation", r"final report"),
    ),
)  # fmt: skip
# The other course the user takes at the same time, whose deadlines are not this plan's.
OTHER = Course(
    "ST150",
    "Statistics Refresher",
    ("Quiz 1", "Quiz 2", "Assignment 1", "Quiz 3", "Assignment 2", "Quiz 4", "Assignment 3", "Exam"),
    (r"quiz 1", r"quiz 2", r"assignment 1", r"quiz 3", r"assignment 2", r"quiz 4", r"assignment 3", r"\bexam"),
)
# Learners' homes for each school's zone: both change their clocks in the term, on different days.
HOMES = {"America/Los_Angeles": ("uk", "au"), "America/New_York": ("uk", "au"), "Europe/London": ("us", "au")}
MOVED = (
    "Because of the platform outage last week, the {name} deadline moves to {day}, same time. All other dates "
    "stay as in the syllabus.",
    "Quick update: I'm giving everyone a few extra days for the {name}. It is now due {day}, at the usual time.",
)
GROUP_NOTE = "Study group for {code}: {names}. We meet on Thursday evenings."
GROUP_ASK = "Shall we keep Thursday evenings for the group? Same time as the first one."
# Each course's four live workshops (topic, what names it in a title or a line): none of them shares a word
# with the course's assignments, so an event for one is never taken for a deadline.
WORKSHOPS = {
    "DV101": (
        ("Choosing a chart", r"choosing a chart|chart choice"),
        ("Colour and type", r"colou?r"),
        ("Annotating charts", r"annotat"),
        ("Maps and geodata", r"\bmaps?\b|geodata"),
    ),
    "PY110": (
        ("Notebooks", r"notebook"),
        ("Joining tables", r"join"),
        ("Plotting", r"plotting"),
        ("Testing your code", r"testing"),
    ),
    "UX205": (
        ("Recruiting participants", r"recruit"),
        ("Moderating sessions", r"moderat"),
        ("Affinity mapping", r"affinity"),
        ("Writing up findings", r"findings|writing up"),
    ),
}
# What the user's work puts over a workshop sitting, by the hour it starts (their time).
WORK_BLOCKS = {
    "morning": ("Breakfast briefing with the regional leads", "Early site visit", "Board pre-read session"),
    "day": ("Quarterly planning", "Budget review with finance", "Supplier negotiation", "Interview panel", "All-hands"),
    "evening": ("Client dinner", "Team offsite dinner", "Industry awards evening", "Late release call"),
}
WORKSHOP_INTRO = (
    "Each workshop is 90 minutes, live on Zoom, and runs three times: come to one sitting of each.",
    "Workshop {later} builds on Workshop {first}: come to it after you have done Workshop {first}.",
)
# The TA's automatic reply (the fields of content.mail.AWAY): away at a conference while the sign-ups come in.
TA_AWAY = (
    "Thanks for your email. I'm at a conference from {today} until {back} and won't see my mail before then.\n\n"
    "For the live workshop sign-ups, please write to {colleague} at {address}, who is keeping the list while "
    "I'm away and will hold your seats.\n\n{first}",
    "Hello, I'm away until {back} with only occasional access to email.\n\nFor workshop sign-ups, my fellow "
    "TA {colleague} ({address}) has the list and is booking seats in the meantime, so please send your choices "
    "there.\n\nThanks,\n{first}",
)

TA_SIGNUP = (
    "The live workshops start soon. There are four, each run three times; the schedule is attached (times are "
    "{zone}). Please pick one sitting of each and reply to me with your choices so I can hold your seats.",
    "Sitting {full} is already full, so that one is out.",
    "Sittings {full} are already full, so those are out.",
)
