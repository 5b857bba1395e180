"""A month of card payments and their receipts: the shops (their brand on the receipt, their registered
name on the statement, the way the card network writes it), the payments that never have a receipt,
the places abroad, the bank's other lines, and the user's note on how they reconcile.

Descriptor styles: "legal" (the registered name, in capitals), "square" ("SQ *" and the brand run
together), "paypal" ("PAYPAL *" and the brand run together), "brand" (the brand and the town).
"""

from __future__ import annotations

# brand, registered name (without the legal form), what they sell, descriptor style, euros' worth low-high
SHOPS = (
    ("Northwind Home", "Tidewater Retail", "homeware", "legal", (18, 140)),
    ("The Daily Grind", "Daily Grind Coffee", "coffee and a pastry", "square", (4, 12)),
    ("Voltline", "Voltline Electronics", "a phone charger and a cable", "paypal", (25, 120)),
    ("Greenleaf Grocers", "Greenleaf Markets", "groceries", "brand", (20, 95)),
    ("Halcyon Books", "Halcyon Booksellers", "two paperbacks", "legal", (12, 40)),
    ("Ember & Oak", "EO Hospitality", "dinner for two", "legal", (35, 95)),
    ("Swift Fuel", "Swift Forecourts", "unleaded petrol", "brand", (40, 85)),
    ("Cobalt Cinemas", "Cobalt Leisure", "two cinema tickets", "legal", (14, 32)),
    ("Little Sprout Toys", "Sprout and Company", "a wooden puzzle", "legal", (12, 55)),
    ("Petal Street Florist", "Petal Street Flowers", "a bunch of tulips", "square", (18, 55)),
    ("Metro Pharmacy", "Metro Health Retail", "cold remedies", "brand", (6, 28)),
    ("Harbor Hardware", "HH Trading", "a drill bit set and screws", "legal", (12, 75)),
    ("Juniper Yoga", "Juniper Wellbeing", "a class pass", "paypal", (30, 90)),
)
LEGAL_FORM = {"uk": "Ltd", "us": "LLC"}
# One company, two shops on the user's street: a café whose card reader (Square) prints its own name, and a
# bakery whose payments show the company's registered name, which is also the café's. Both sell the same
# coffee and bread at the same prices, and the user pops into one or the other most days. (registered name
# without the legal form, the café, the bakery, the month's usual buys and their prices by region)
JOINT = (
    (
        "Kettle Hospitality",
        "The Copper Kettle",
        "Crumb & Crust",
        {
            "uk": (("3.85", "a flat white and a croissant"), ("4.60", "a sourdough loaf"), ("6.20", "two lattes")),
            "us": (("5.75", "a flat white and a croissant"), ("6.40", "a sourdough loaf"), ("8.25", "two lattes")),
        },
    ),
    (
        "Larkfield Food Co",
        "Bramble Café",
        "Oven Door Bakery",
        {
            "uk": (("4.10", "a latte and a cinnamon bun"), ("4.95", "a seeded loaf"), ("6.40", "two cappuccinos")),
            "us": (("5.40", "a latte and a cinnamon bun"), ("6.85", "a seeded loaf"), ("8.90", "two cappuccinos")),
        },
    ),
)
# Card payments that come with no receipt at all.
NO_RECEIPT = ("CITYPARK CAR PARKS", "SUMUP *FARMERS MARKET", "VENDCO SNACK MACHINE", "SQ *CORNER KIOSK")
# Abroad: brand, town, registered name, currency, euros' worth low-high, the country's domain.
ABROAD = (
    ("Café do Cais", "Lisboa", "Cais Restauracao Lda", "EUR", (30, 80), "pt"),
    ("Hotel Miradouro", "Lisboa", "Miradouro Hotelaria SA", "EUR", (140, 320), "pt"),
    ("Boulangerie du Port", "Marseille", "SARL Port Gourmand", "EUR", (12, 35), "fr"),
    ("Museo Nacional Shop", "Madrid", "Tiendas Museo SL", "EUR", (20, 60), "es"),
)
# Units of the home currency per euro on the day: the card network's rate, with its fee in it.
RATES = {"uk": (0.8520, 0.8790), "us": (1.0720, 1.1180)}
BANKS = {"uk": ("Heron Bank", "heronbank.co.uk"), "us": ("Cedar Federal Bank", "cedarfederal.com")}
# The bank's other lines: (description, type, euros' worth low-high, paid in)
OTHER_LINES = {
    "uk": (
        ("BRIGHTPATH ENERGY", "DD", (60, 140), False),
        ("COUNCIL TAX", "DD", (110, 190), False),
        ("SKYLINE MOBILE", "DD", (14, 35), False),
        ("TFR TO SAVINGS", "TFR", (150, 400), False),
    ),
    "us": (
        ("BRIGHTPATH ENERGY AUTOPAY", "ACH", (60, 140), False),
        ("CITY WATER UTIL", "ACH", (30, 70), False),
        ("SKYLINE WIRELESS", "ACH", (30, 60), False),
        ("TRANSFER TO SAVINGS", "Transfer", (150, 400), False),
    ),
}
SALARY = {"uk": ("{employer} SALARY", "FPI"), "us": ("{employer} PAYROLL", "Deposit")}
CARD_TYPE = {"uk": "CARD", "us": "Debit card"}
STATEMENT_COLUMNS = {
    "uk": ("Date", "Type", "Description", "Paid out", "Paid in", "Balance"),
    "us": ("Posting Date", "Description", "Type", "Amount", "Balance"),
}
CARDS = {"uk": ("Visa debit", "Mastercard"), "us": ("Visa debit", "Mastercard")}

RECEIPT_LINES = (
    "{brand}",
    "{address}",
    "Receipt no. {number}",
    "Date: {date}",
    "{items}",
    "Total: {total}",
    "Paid with: {card}",
    "Questions about this purchase? Write to {support}.",
    "{brand} is a trading name of {legal}.",
)
RECEIPT_MAIL = (
    "Your {brand} receipt ({number})",  # one subject per receipt: a shop mails several a month
    "Thanks for shopping with us. Here is your receipt.\n\n{lines}\n\nQuestions about this order? Just reply to "
    "this email.",
)
# A receipt reissued under a new number: the first one stays in the mail, this one replaces it.
REISSUE_MAIL = (
    "Corrected receipt {number} from {brand}",
    "Our till printed the wrong item code on the receipt we sent you ({old}), so we have cancelled it and "
    "issued a corrected one. Please keep this one for your records: receipt {old} is no longer valid.\n\n"
    "{lines}",
)
# The user's partner bought something with the user's card; the shop mailed the partner.
FORWARDED_MAIL = (
    "Fwd: {brand} order",
    "I used your card for this one, the shop sent the receipt to me. Forwarding it for your spreadsheet.\n\n"
    "---------- Forwarded message ----------\nFrom: {sender}\nSubject: Your {brand} order ({number})\n\n{lines}",
)
REMINDER = "Reconcile the {month} card statement"
REFUND_MAIL = (
    "Your refund for {number}",
    "We have refunded {total} to your {card} for order {number}. It can take a few days to show on your statement.",
)
STATEMENT_MAIL = (
    "Your {month} statement is ready",
    "Your statement for {month} is ready. We've also saved a copy where you asked: download it from the app "
    "whenever you like.",
)
NOTE_TITLE = "Reconciling the card statement"
NOTE = """Every month, once the statement for my {card} is in Downloads:

- Match each card payment ({card_type}) to its receipt. Receipts come by email or are in
  Documents/Receipts. Statements show the company's registered name; receipts show the shop's name,
  with the registered name at the bottom.
- The statement's date is the day the bank posted the payment: the day of the purchase or up to three
  days after it, never before. Each receipt belongs to exactly one card payment.
- Write Finance/Reconciliation/<YYYY-MM>.csv: one row per card payment with the date and the amount as
  the statement shows them (payments abroad in {currency}, as charged), the merchant, the receipt or
  order number (or "none"), and a status: matched, no receipt, double charge or refunded.
  "double charge" is the second of two identical charges for one purchase; "refunded" is a payment
  the shop paid back that month, and the refund itself.
- A double charge: email the shop (the contact on the receipt) with the receipt number, the amount and
  the date it was charged (as the statement shows it), asking for the extra charge back, and set a
  reminder (9am) to follow up {n} working days later in case they haven't answered.

Direct debits, transfers and salary don't need receipts. When the sheet is done, tick off that month's
"Reconcile" reminder.
"""
PROMPTS = (
    "My {month} card statement is in Downloads. Could you do the reconciliation?",
    "Can you reconcile my {month} statement against the receipts, the usual way?",
    "The {month} statement has arrived. Please go through it with the receipts like my note says.",
)
# What the user adds about the café and the bakery (they share an owner and a price list).
JOINT_ASIDES = (
    "Watch the ones from {cafe} and {bakery}: I'm in one or the other most days and buy the same few things.",
    "Receipts from {cafe} and {bakery} are the fiddly part: same owner, same prices, and I'm in nearly every day.",
    "Take care with {cafe} and {bakery}, it's the same handful of amounts over and over.",
)
STATUS_WORDS = {
    "double charge": r"double|duplicat|twice|charged again",
    "refunded": r"refund",
    "no receipt": r"no receipt|missing|no match|not found|unmatched|without|none",
    "matched": r"match|found|ok\b|yes\b|✓",
}
DOUBLE_WORDS = r"twice|double|duplicate|two (?:identical )?charges|charged 2|second charge"
