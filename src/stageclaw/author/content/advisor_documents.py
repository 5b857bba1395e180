"""What advisors ask their clients for (document-request): the papers, who issues them, what goes wrong in
a first version and why one comes late."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Doc:
    """One document an advisor may ask for, and who issues it."""

    key: str
    plain: str  # what everyone calls it, without its period
    stem: str  # the file name's stem before the period
    issuer: str  # '{root}' is filled in
    team: str
    code: str  # the document numbers' prefix
    figures: tuple[str, ...]  # the lines that carry amounts
    error: str  # what a correction or a reissue fixes
    monthly: bool = False
    late: str = ""  # why this year's is not out yet (only documents that can come late)
    current: bool = False  # dated this year (a letter), not for last year


@dataclass(frozen=True)
class Kind:
    """Who asks, for what, and the documents on their list."""

    key: str
    advisor: str  # their role, in the user's words
    advisor_title: str
    trade: str  # the practice's trade, in its name
    purpose: str
    meeting: str  # the calendar entry's title before the advisor's name
    folder: str  # where the user files these papers; '{year}' is filled in
    reminders: str  # the user's reminder list for the job
    received: tuple[str, ...]  # what the advisor already has
    other_job: tuple[str, str]  # (document key, a reminder about it that is a different job; '{issuer}' filled in)
    docs: tuple[Doc, ...]
    clash: tuple[str, ...] = ()  # the background's own vendors that would issue the same papers


TAX = Kind(
    "tax",
    "tax advisor",
    "Tax Advisor",
    "Tax Advisory",
    "my tax return",
    "Tax return meeting with",
    "Documents/Tax {year}",
    "Tax return",
    ("Copy of your ID", "Last year's tax assessment", "Your bank details for the refund"),
    ("utility", "Ask {issuer} why the heating share went up"),
    (
        Doc(
            "utility",
            "utility cost statement",
            "Utility_Statement_",
            "{root} Property Management",
            "Tenant accounts",
            "UC",
            ("Heating and hot water", "Water, waste, caretaker and insurance"),
            "the heating costs were split across the flats incorrectly",
        ),
        Doc(
            "earnings",
            "annual earnings statement",
            "Earnings_Statement_",
            "{root} Payroll Services",
            "Payroll",
            "ES",
            ("Gross pay", "Tax deducted", "Social security contributions"),
            "the December bonus was left out",
        ),
        Doc(
            "interest",
            "bank interest certificate",
            "Interest_Certificate_",
            "{root} Bank",
            "Customer service",
            "IC",
            ("Interest credited", "Tax withheld"),
            "the interest on your savings account was missing",
        ),
        Doc(
            "health",
            "health insurance certificate",
            "Health_Insurance_Certificate_",
            "{root} Health Insurance",
            "Member services",
            "HI",
            ("Contributions paid", "Of which basic cover"),
            "the contributions for December were missing",
            late="our certificates for the year are delayed by a change of our billing system",
        ),
        Doc(
            "donation",
            "donation receipt",
            "Donation_Receipt_",
            "{root} Children's Trust",
            "Supporter care",
            "DR",
            ("Donations received",),
            "one monthly donation was counted twice",
            late="we send all receipts for the year together once our accounts are closed",
        ),
        Doc(
            "childcare",
            "childcare fees statement",
            "Childcare_Fees_",
            "{root} Nursery",
            "Office",
            "CF",
            ("Fees paid", "Of which meals"),
            "the fees for the summer holiday club were missing",
        ),
        Doc(
            "pension",
            "pension contributions certificate",
            "Pension_Contributions_",
            "{root} Pensions",
            "Member services",
            "PC",
            ("Your contributions", "Employer contributions"),
            "last year's employer contributions were missing",
        ),
    ),
)
MORTGAGE = Kind(
    "mortgage",
    "mortgage broker",
    "Mortgage Adviser",
    "Mortgage Brokers",
    "the mortgage application",
    "Mortgage meeting with",
    "Documents/Mortgage",
    "Mortgage",
    ("Copy of your passport", "Proof of deposit source", "Signed client agreement"),
    ("payslip", "Ask {issuer} about the overtime rate"),
    (
        Doc(
            "payslip",
            "payslip",
            "Payslip_",
            "{root} Payroll Services",
            "Payroll",
            "PS",
            ("Gross pay", "Tax and contributions", "Net pay"),
            "the overtime hours were counted twice",
            monthly=True,
        ),
        Doc(
            "current",
            "current account statement",
            "Current_Account_Statement_",
            "{root} Bank",
            "Customer service",
            "CA",
            ("Money in", "Money out", "Closing balance"),
            "two card payments were booked twice",
            monthly=True,
        ),
        Doc(
            "savings",
            "savings account statement",
            "Savings_Statement_",
            "{root} Building Society",
            "Savings team",
            "SA",
            ("Deposits", "Interest", "Closing balance"),
            "the month's interest was booked in the wrong month",
            monthly=True,
        ),
        Doc(
            "card",
            "credit card statement",
            "Card_Statement_",
            "{root} Card Services",
            "Cardholder services",
            "CC",
            ("New purchases", "Payments received", "Balance owed"),
            "a refund was shown as a purchase",
            monthly=True,
        ),
        Doc(
            "energy",
            "electricity bill",
            "Electricity_Bill_",
            "{root} Energy",
            "Billing",
            "EB",
            ("Electricity used", "Standing charge", "Amount due"),
            "the meter reading was estimated instead of yours",
            monthly=True,
        ),
        Doc(
            "employment",
            "employment confirmation letter",
            "Employment_Confirmation_",
            "{root} Group HR",
            "People team",
            "EC",
            ("Annual base salary", "Guaranteed allowances"),
            "your start date was wrong",
            late="the letter has to be signed by the head of HR, who is away until then",
            current=True,
        ),
    ),
    ("Brightwire Energy", "Kite Bank", "Harbour Mutual"),
)

RETIREMENT = Kind(
    "retirement",
    "financial adviser",
    "Financial Adviser",
    "Financial Planning",
    "the retirement plan review",
    "Retirement plan review with",
    "Documents/Finances/{year}",
    "Retirement review",
    ("Your fact-find questionnaire", "Copy of your ID", "Your last review's notes"),
    ("isa", "Ask {issuer} about switching to the lower-risk fund"),
    (
        Doc(
            "pension",
            "annual pension statement",
            "Pension_Statement_",
            "{root} Pensions",
            "Member services",
            "PS",
            ("Contributions (you and your employer)", "Fund value at year end", "Projected annual pension at 67"),
            "last year's employer contributions were missing",
        ),
        Doc(
            "workplace",
            "workplace pension statement",
            "Workplace_Pension_",
            "{root} Workplace Savings",
            "Scheme administration",
            "WP",
            ("Contributions this year", "Pot value at year end"),
            "the fund switch in June was priced on the wrong day",
        ),
        Doc(
            "isa",
            "investment account statement",
            "Investment_Statement_",
            "{root} Investments",
            "Client services",
            "IA",
            ("Paid in this year", "Portfolio value at year end", "Fees charged"),
            "the platform fee was charged twice",
        ),
        Doc(
            "life",
            "life insurance policy schedule",
            "Life_Policy_Schedule_",
            "{root} Life",
            "Policy services",
            "LP",
            ("Sum assured", "Monthly premium"),
            "the sum assured did not include the indexation",
            late="policy schedules are reissued after each policy's annual review",
        ),
        Doc(
            "mortgage",
            "annual mortgage statement",
            "Mortgage_Statement_",
            "{root} Building Society",
            "Mortgage servicing",
            "MS",
            ("Payments made", "Interest charged", "Balance outstanding"),
            "an overpayment was not credited",
        ),
        Doc(
            "savings",
            "savings account annual statement",
            "Savings_Annual_Statement_",
            "{root} Bank",
            "Customer service",
            "SV",
            ("Interest credited", "Balance at year end"),
            "the bonus rate was not applied",
        ),
    ),
)
KINDS = (TAX, MORTGAGE, RETIREMENT)
