"""The household's contracts: what each kind of provider is called, how its agreement words the term and
the notice, and the user's note that decides and tracks them.

Each kind: the note's name for it, providers (brand, legal suffix, notices mailbox), the agreement's
title, what its number is called and looks like ('#' a digit, 'A' a letter), the document format,
and how its term runs: a minimum term from a start date ("term") or a yearly renewal ("renewal").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    key: str
    label: str  # how the user's note names it
    words: str  # a pattern for it in a title ("broadband|fibre")
    providers: tuple[tuple[str, str], ...]  # (brand, legal suffix)
    title: str  # the agreement's title
    number: str  # what its number is called
    shape: str  # the number's shape
    form: str  # docx or pdf
    runs: str  # "term" (a minimum term from a start date) or "renewal" (renews each year)
    price: tuple[int, int]  # a month's price (a year's for those that renew yearly), in euros' worth
    reason_cancel: str
    reason_keep: str


KINDS = (
    Kind(
        "mobile",
        "Mobile phone",
        "mobile|phone",
        (("Tidewave Mobile", "Ltd"), ("Parrot Mobile", "Ltd"), ("Beacon Mobile", "Ltd")),
        "Mobile airtime agreement",
        "Account number",
        "TM-######",
        "pdf",
        "term",
        (18, 45),
        "I'm moving to a SIM-only deal",
        "the price is still fine",
    ),
    Kind(
        "broadband",
        "Broadband",
        "broadband|fibre|internet",
        (("Strata Broadband", "Ltd"), ("Kelp Fibre", "Ltd"), ("Hyperline Broadband", "Ltd")),
        "Broadband service agreement",
        "Agreement number",
        "SB########",
        "pdf",
        "term",
        (25, 55),
        "the new flat has fibre included",
        "nothing better on offer here",
    ),
    Kind(
        "gym",
        "Gym",
        "gym|fitness|membership",
        (("IronWorks Gym", "Ltd"), ("Pulse Fitness Club", "Ltd"), ("Summit Gyms", "Ltd")),
        "Membership agreement",
        "Membership number",
        "######",
        "docx",
        "term",
        (25, 60),
        "I'm going to the council pool instead",
        "I'm actually going",
    ),
    Kind(
        "insurance",
        "Home insurance",
        "insurance|home|policy",
        (("Oakshield Insurance", "plc"), ("Hearthguard Insurance", "Ltd"), ("Willowgate Insurance", "plc")),
        "Home insurance policy schedule",
        "Policy number",
        "HX/####/#####",
        "pdf",
        "renewal",
        (180, 420),
        "found a cheaper policy that starts on the renewal date",
        "check the renewal price when it comes",
    ),
    Kind(
        "software",
        "Photo software",
        "software|licen[cs]e|photo",
        (("Pixelforge Studio", "Ltd"), ("Lumio Photo", "Ltd"), ("Prism Editor", "Inc.")),
        "Subscription licence agreement",
        "Licence number",
        "PF-####-####",
        "docx",
        "renewal",
        (60, 140),
        "I use the free editor now",
        "I still use it every week",
    ),
    Kind(
        "storage",
        "Storage unit",
        "storage|unit",
        (("StowAway Self Storage", "Ltd"), ("Boxwell Storage", "Ltd"), ("Keepsafe Storage", "Ltd")),
        "Self storage agreement",
        "Agreement number",
        "BW-#####",
        "docx",
        "term",
        (60, 130),
        "everything is out of it now",
        "the boxes stay until the move",
    ),
    Kind(
        "breakdown",
        "Breakdown cover",
        "breakdown|roadside|recovery",
        (("RoadAngel Breakdown", "Ltd"), ("Rescue Direct", "Ltd"), ("Kerbside Recovery", "Ltd")),
        "Breakdown cover membership",
        "Membership number",
        "RA#######",
        "pdf",
        "renewal",
        (70, 160),
        "the new car comes with three years of cover",
        "the old car needs it",
    ),
)
NOTICE_BOXES = ("cancellations", "notices", "leaving", "customer.care", "accounts")

# Notice clauses. {n} days or {m} months; what the deadline is counted back from: the end of the
# term ("end"), the renewal date ("renewal").
CLAUSES = {
    "term": (
        ("days", "end", "You must give us at least {n} days' notice before the end of the minimum term."),
        ("months", "end", "Notice to end the agreement must reach us at least {m} before the end of the minimum term."),
        (
            "days",
            "end",
            "Either party may end this agreement at the end of the minimum term by giving at least {n} "
            "days' written notice.",
        ),
    ),
    "renewal": (
        ("days", "renewal", "To stop the renewal, tell us at least {n} days before your renewal date."),
        (
            "days",
            "renewal",
            "You can cancel at any time up to {n} days before your renewal date; after that the renewal goes ahead.",
        ),
    ),
}
DAYS = (14, 21, 28, 30, 45, 60)
MONTHS_WORDS = {1: "one month", 2: "two months", 3: "three months"}
TERMS = (12, 18, 24)
AFTER_TERM = "After the minimum term the agreement continues month to month until either of us ends it."
RENEWS = "This {what} runs for a year and renews automatically on {renewal} each year."
NOTICE_ADDRESS = "Notices: by email to {address}, quoting your {number_label}."
NOTICE_WELCOME = "Notices: by email to the address in your welcome email, quoting your {number_label}."
WELCOME = (
    "Welcome to {brand}",
    "Thanks for joining {brand}. Your {number_label} is {number}; please quote it whenever you contact us.\n\n"
    "If you ever need to give us notice or cancel, email {address}: that inbox handles all notices.",
)
AMENDMENT_TITLE = "Amendment to your agreement"
AMENDMENT = (
    "This letter amends agreement {number} of {start}.",
    "In return for {upgrade}, your minimum term is extended by {extra} months: it now ends on {end}.",
    "All other terms, including notice, stay as they were.",
)
UPGRADES = ("the free speed upgrade", "the new router at no charge", "the lower monthly price")
REPLACES = "This agreement replaces agreement {old}, which ended on {end}."
NOT_CONTRACTS = (
    (
        "{brand} price list {year}.pdf",
        "{brand}: prices from January {year}",
        ("Monthly fees are reviewed each January.",),
    ),
    ("{brand} terms of use.pdf", "{brand}: general terms of use", ("These terms apply to all customers.",)),
)

NOTE_TITLE = "Contracts"
NOTE = """Renewal round. What I've decided:

{decisions}

How I deal with them:
- Every contract gets a reminder (9am) in my Reminders list on the Friday before its notice deadline
  (the last day the contract lets me give notice). If that Friday is a bank holiday, the working day
  before it instead; the holidays are in my calendar. The title names the provider.
- The ones I'm cancelling: email the cancellation now to the address the contract gives for
  notices, quoting the contract number.
- Then a row per contract in the table below ("Term ends" is the last day of the current term).{rules}

| Contract | Provider | Number | Term ends | Notice deadline | Decision |
|---|---|---|---|---|---|
{rows}
"""
OLD_ROWS = (
    ("Energy", "Brightpath Energy", "BPE-55201", "cancelled"),
    ("Magazine", "The Weekly Review", "WR-30912", "cancelled"),
)
CANCEL_WORDS = r"cancel|terminat|end\b|ended|ending|notice (given|sent)|stop"
KEEP_WORDS = r"keep|kept|renew|continu|stay|retain"
PROMPTS = (
    "My contracts are coming up for renewal. Could you go through them and sort everything out the way my "
    "Contracts note says?",
    "Please deal with my contracts like the note says: reminders, the table, and the cancellations for the ones "
    "I'm dropping.",
    "Time for the contracts round. Can you handle it as described in my Contracts note?",
)
CANCEL_SUBJECT = "Cancellation of {number}"

# The standing rules the latent and budget levers add to the note: an exception to the reminder and the
# mail (a notice already confirmed), and a consequence in a second note (the budget's lines and total).
DONE_RULE = """
- Exception: if I've already emailed a cancellation and the provider has confirmed it, don't send
  another one and don't set a reminder for it. It still gets its row in the table."""
BUDGET_RULE = """
- Every contract I cancel (one already confirmed too) comes off my "{budget}" note: delete its
  line there and correct the monthly figure at the bottom so it's the sum of the lines that are left."""
BUDGET_TITLE = "Household budget"
# A budget line that says its contract is gone (struck through, marked cancelled) no longer counts it.
GONE_WORDS = r"~~|cancel|remov|ended|ending|stopp|dropp|gone|deleted"
# The budget's bottom line, however the assistant words it when correcting it.
BUDGET_TOTAL = r"monthly outgoings|\btotal\b|\bsum\b|per month in all"
BUDGET = """What goes out every month (yearly bills spread over twelve months).

{lines}

Monthly outgoings: {total}
"""
# Household costs that are no contract of the round: the budget's other lines, in euros' worth a month.
BUDGET_OTHERS = (
    ("Rent", 900, 1600),
    ("Travel pass", 60, 140),
    ("Energy", 80, 160),
    ("Water", 25, 45),
    ("Food shop", 300, 520),
    ("Savings transfer", 150, 400),
)
CONFIRM = (
    "Your notice for {number} has been received",
    "We've received your notice to end agreement {number}. Your agreement ends on {end} and there is "
    "nothing more you need to do: no further notice or reminder is needed from your side.",
)
DONE_BODY = "Hello,\n\nPlease cancel agreement {number} at the end of its current term.\n\nThanks,\n{me}"
