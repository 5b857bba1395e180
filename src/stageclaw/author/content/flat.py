"""The tables of `bills-split`: a shared flat's suppliers and their bills, the house rules, the flatmates'
mail about moving in, moving out and new addresses, and the user's requests.

Placeholders: {first} a first name, {supplier}, {kind} (electricity, gas, water, broadband), {period}
the bill's period in words, {amount}, {due} and {date} days in words, {account} the flat's account
with the supplier, {address} a mail address.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    key: str
    words: str  # a pattern for how a reminder or ledger row may name the bill
    suppliers: tuple[str, ...]
    eur: tuple[float, float]  # a quarter's bill, in euros' worth
    plan: str = ""  # what the bill shows instead of a meter reading

    @property
    def label(self) -> str:
        return self.key.capitalize()


KINDS = (
    Kind(
        "electricity", r"electric|power", ("Voltwise Energy", "Northern Spark Electric", "Greenline Power"), (150, 330)
    ),
    Kind("gas", r"\bgas\b", ("Hearthgas", "Blue Flame Gas", "Calder Gas"), (120, 300)),
    Kind("water", r"water", ("Riverside Water", "Clearbrook Water", "Valley Water"), (55, 120)),
    Kind(
        "broadband",
        r"broadband|internet|wi-?fi|fibre|fiber",
        ("Skyline Fibre", "NetStream Broadband"),
        (70, 110),
        "Plan: fibre broadband, 150 Mbit/s",
    ),
)
# The fifth shared bill: the council tax in the United Kingdom, the flat's contents insurance elsewhere.
LOCAL = {"uk": Kind("council tax", r"council|\btax\b", ("City Council",), (480, 640), "Council tax band: C")}
COUNCILS = {  # the council that bills a flat in each city of the United Kingdom, and its domain
    "London": ("Hackney Council", "hackney.gov.uk"),
    "Manchester": ("Manchester City Council", "manchester.gov.uk"),
    "Edinburgh": ("City of Edinburgh Council", "edinburgh.gov.uk"),
}
INSURANCE = Kind(
    "contents insurance",
    r"insurance|contents",
    ("Keystone Insurance", "Shieldwell Insurance"),
    (30, 70),
    "Cover: the contents of a shared flat",
)

BILL = (
    "Your {kind} bill for {period}",
    "Hello {first},\n\nYour {kind} bill for {period} is ready: {amount}, to be paid by {due}.{estimated}\n\n"
    "Account: {account}\nBill date: {date}\n\nThe bill is attached as a PDF. Pay by bank transfer quoting your "
    "account number.\n\n{supplier}",
)
ESTIMATED = " We couldn't read your meter this time, so this bill is based on an estimated reading."
CORRECTED = (
    "Your corrected {kind} bill for {period}",
    "Hello {first},\n\nThanks for sending your meter reading. We've corrected your {kind} bill for {period}: the "
    "new amount is {amount}, to be paid by {due}. This bill replaces the estimated one we sent on {old}, so please "
    "ignore that one.\n\nAccount: {account}\nBill date: {date}\n\nThe corrected bill is attached as a PDF."
    "\n\n{supplier}",
)
PDF_LINES = (
    "Account: {account}",
    "Customer: {customer}",
    "Supply address: {address}",
    "Bill date: {date}",
    "Billing period: {period}",
    "{reading}",
    "Amount due: {amount}",
    "Please pay by: {due}",
)
READING = {True: "Meter reading: estimated", False: "Meter reading: actual (customer reading)"}

NOTE_TITLE = "Flat: how we split the bills"
NOTE = (
    "How we split the bills (agreed when we moved in)\n\n"
    "- I pay the shared bills ({bills}) and everyone pays me back. Phones and anything personal are not "
    "shared.\n"
    "- {rooms}\n"
    "- Each bill is shared by the nights each of us slept here during the bill's period: the night you move in "
    "counts, the night you move out doesn't (your last night is the night before you hand back the keys). An "
    "empty room pays nothing.\n"
    "- Away for {away} nights or more in a row and told us before you went? Those nights don't count for you (from "
    "your first night away to the night before you're back). Shorter trips count as usual.\n"
    "- So your part of a bill = bill x your shares x your nights / (everyone's shares x nights, added up). Round "
    "each part down to the {minor}; I cover whatever is left over.\n"
    "- At the end of each quarter: add the bills to the ledger (Flat/Flat bills ledger.csv) with everyone's part, "
    "and email each of you your total for the quarter.\n"
    "- I pay each bill two working days before it's due (transfers take a day), with a reminder in my {lst} list. "
    "Weekends and public holidays aren't working days (the dates are in my note {holidays})."
)
HOLIDAYS_TITLE = "Public holidays {year}"
HOLIDAYS = "The bank is shut on these, so no transfers go out:\n\n{days}"
ROOMS_EQUAL = "Every room counts as one share."
ROOMS_BIG = "The big room ({who}) counts as a share and a half; every other room as one share."
MINOR = {"GBP": "penny", "EUR": "cent", "USD": "cent", "SEK": "öre"}

LEAVING = (
    "Moving out",
    "Some news: I've got the job in {city}! So I'll be moving out {when}. I'll tell the landlord this week, and "
    "I'm happy to help find someone for my room.",
)
LEAVING_SOONER = (
    "Change of plan: they want me to start sooner, so my last night in the flat will be {last}. I'll hand the "
    "keys back the next morning. Sorry for the short notice!",
)
TRIP = (
    (
        "Away for a bit",
        "Heads up: I'm off to {place} for a while. My first night away is {first} and I'm back on {back}.",
    ),
    ("This weekend", "I'm visiting friends in {place}: my first night away is {first}, back on {back}."),
)
OFFER = (
    "The room",
    "Great to meet you at the viewing. The room is yours if you'd like it: it's free from {free}. Let me know "
    "when you want to move in.",
)
ACCEPT = ("Brilliant, thank you! I'll move in on {first_night}. See you then!",)
NEW_ADDRESS = (
    "New email address",
    "I'm leaving {org} at the end of the month, so this address stops working soon. Please use {address} for "
    "anything flat-related from now on.",
)
SERVICE = (
    "Planned maintenance on your {supplier} account",
    "Hello {first},\n\nOur online account will be unavailable on Sunday night while we upgrade it. Bills and "
    "payments are not affected.\n\n{supplier}",
)
LAST_QUARTER = (
    "Flat bills for {period}",
    "The bills for {period} are all in and in the ledger. Here's what everyone owes me:\n\n{parts}\n\n"
    "Transfer it whenever suits.",
)
PROMPTS = (
    "The last of the flat's bills for {period} is in. Can you do the quarter's split the usual way: update the "
    "ledger, email everyone what they owe, and set my reminders to pay the bills?",
    "Could you sort out this quarter's flat bills ({period})? Work out everyone's part as our house note says, put "
    "the bills in the ledger, send each flatmate their total and add the payment reminders.",
    "Time to settle the flat bills for {period}. Please split them by our rules, add them to the ledger, let "
    "everyone know what they owe me, and remind me when to pay each bill.",
)
LEDGER = "Flat/Flat bills ledger.csv"
BILLS = "Flat/Bills"
LEDGER_HEADER = ("date", "supplier", "bill", "amount", "paid by")
# Background content that would read as one of the flat's suppliers.
BACKGROUND_CLASHES = ("Brightwire", "Fibrelink", "electricity", "water bill", "broadband")
CITIES = ("Leeds", "Glasgow", "Bristol", "Lisbon", "Dublin", "Rotterdam", "Copenhagen")
