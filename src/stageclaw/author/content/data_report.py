"""The shops of the data-report family: what they sell, how their platform exports, what the owner's
routine note says, and the mails around the monthly summary."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Domain:
    """One kind of shop and its online platform: catalogue, export and vouchers."""

    names: tuple[str, ...]  # the shop, from a root word: "{root} Ceramics"
    platform: str
    ref: str  # the shape of an order number: "#{n}"
    lines: dict[str, tuple[tuple[str, int, int], ...]]  # product line -> (product, lowest, highest price in cents)
    excluded: str  # the product that is no sale (a gift card)
    excluded_prices: tuple[int, ...]
    most: int  # the most of one product in an order
    endings: tuple[int, ...]  # the cents a price ends in
    user_title: str
    partner_title: str
    refunds: tuple[str, str]  # why an order is refunded in full, why in part
    code: str  # the prefix of the thank-you codes
    aside: tuple[str, str]  # a file about something else: path, text


DOMAINS = (
    Domain(
        names=("{root} Ceramics", "{root} Pottery"),
        platform="Tillbox",
        ref="#{n}",
        lines={
            "Mugs": (("Tall mug", 2200, 2800), ("Espresso cup", 1400, 1800), ("Travel mug", 2600, 3200)),
            "Bowls": (("Ramen bowl", 3200, 3800), ("Breakfast bowl", 2400, 2800), ("Serving bowl", 5200, 6400)),
            "Plates": (("Side plate", 1800, 2200), ("Dinner plate", 2800, 3400)),
            "Vases": (("Bud vase", 1900, 2400), ("Tall vase", 4800, 6200)),
            "Workshops": (("Wheel-throwing taster", 4500, 6500), ("Glazing evening", 3500, 4500)),
        },
        excluded="Gift card",
        excluded_prices=(2500, 5000),
        most=3,
        endings=(0, 50, 95),
        user_title="Owner",
        partner_title="Co-owner",
        refunds=("returned, refunded in full", "arrived chipped, partial refund"),
        code="KILN",
        aside=(
            "Shop/packaging.md",
            "# Packaging\n\n- Boxes: Kraftline, 40 per pack, reorder at 10 left\n- Tissue: the recycled one, not the "
            "white\n- Fragile stickers: top drawer\n",
        ),
    ),
    Domain(
        names=("{root} Tea Co.", "{root} Tea House"),
        platform="Shopwell",
        ref="SW-{n}",
        lines={
            "Black tea": (
                ("Assam breakfast", 850, 1250),
                ("Darjeeling first flush", 1800, 2600),
                ("Earl Grey", 900, 1300),
            ),
            "Green tea": (("Sencha", 1100, 1600), ("Jasmine pearls", 1900, 2700), ("Genmaicha", 950, 1350)),
            "Herbal": (("Rooibos vanilla", 800, 1100), ("Peppermint leaf", 650, 900), ("Chamomile flowers", 700, 1000)),
            "Teaware": (("Glass teapot", 2800, 3900), ("Tea strainer", 650, 1200), ("Cast-iron kettle", 5400, 7800)),
            "Tasting boxes": (("Discovery box", 2400, 3200), ("Monthly tasting box", 1900, 2500)),
        },
        excluded="Gift card",
        excluded_prices=(2000, 4000),
        most=3,
        endings=(0, 50, 95),
        user_title="Founder",
        partner_title="Co-founder",
        refunds=("parcel lost, refunded in full", "arrived damaged, partial refund"),
        code="LEAF",
        aside=(
            "Shop/suppliers.md",
            "# Suppliers\n\n- Loose leaf: order on the 1st, arrives in about ten days\n- Tins: minimum order 200\n"
            "- Labels: the print shop on the high street\n",
        ),
    ),
    Domain(
        names=("{root} Books", "{root} Bookshop"),
        platform="Shelfside",
        ref="SS{n}",
        lines={
            "Fiction": (
                ("Paperback novel", 899, 1299),
                ("Hardback novel", 1699, 2299),
                ("Signed first edition", 2500, 4000),
            ),
            "Non-fiction": (("Cookbook", 1800, 2800), ("History hardback", 2000, 3000), ("Travel guide", 1200, 1800)),
            "Children's": (("Picture book", 699, 1299), ("Chapter book", 599, 899), ("Board book", 499, 799)),
            "Stationery": (("Notebook", 900, 1600), ("Fountain pen", 2400, 4200), ("Bookplate set", 600, 900)),
            "Events": (("Author evening ticket", 800, 1500), ("Book club season pass", 3500, 5000)),
        },
        excluded="Gift voucher",
        excluded_prices=(1500, 2500, 5000),
        most=2,
        endings=(0, 49, 99),
        user_title="Owner",
        partner_title="Co-owner",
        refunds=("order cancelled, refunded in full", "damaged copy, partial refund"),
        code="PAGE",
        aside=(
            "Shop/events.md",
            "# Events\n\n- Author evenings: first Thursday, chairs from the back room\n- Book club: the café corner, "
            "tea from the urn\n",
        ),
    ),
)

PROMPTS = (
    "Could you do the {month} summary? The routine's in my note. {first} is waiting for the numbers.",
    "Can you take care of the monthly summary for {month}, the usual way (it's all in my notes)? {first} asked "
    "for the figures.",
    "Time for the {month} numbers: could you do the summary like I always do? My note has the steps. {first} "
    "wants the totals too.",
)
ROUTINE_TITLE = "Monthly summary: how I do it"
ROUTINE = """{platform} exports a CSV per week (Monday to Sunday) into {folder}. It writes every time in UTC; an order \
counts in the month it was placed here in {city}.

1. Go through the weeks that cover the month. One order number is one order, even when an export repeats a row.
2. If there's a corrections file for the month, its amounts replace the export's (refunds). When I refund an order \
after {platform} has written that file, {platform} mails me a "Refund issued" notice with the order's new amount: that \
replaces the export's amount too.
3. {excluded}s aren't sales until someone spends them: leave them out.
4. Report in {reports}/ as "YYYY-MM sales summary.md", laid out like the last one: sales per product line, the \
total, and the top five customers by what they spent (a customer counts once, whichever address they ordered from).
5. Top five: a thank-you email each with one unused code from {vouchers} ({discount}% off their next order). Write \
their name and the date (YYYY-MM-DD) next to the code in the file. Always use the address on their contact card, not \
the one in the export. Nobody gets a second code within three months: if the file shows a code given to them in the \
last three months, they still get the thank-you, just without a code.
6. Send {partner} the sales per product line and the total, and {partner}'s share as we agreed: {share}% of the \
{share_line} sales (after any corrections), to the cent.
7. Keep my "{log}" note up to date: one line per month with its total.
"""
# The running record of each month's total sales, one line a month, that the routine keeps up.
LOG_TITLE = "Monthly sales"
LOG_NOTE = "Total sales per month (from the summaries).\n\n{lines}\n"
SHARES = (20, 25, 30, 40)
THANKS = r"thank|grateful|appreciat"

LINES_TITLE = "Product lines"
LINES_NOTE = "Which product line each product counts under:\n\n{mapping}\n\n{excluded}s aren't sales: leave them out.\n"
REQUEST = (
    "{Month} numbers?",
    "Could you send me the {month} sales per product line and the total once the month's done? I want to get them "
    "into the spreadsheet for the accountant. And the new split from the amendment we signed in {signed} starts "
    "with {month}, so my share changes this time: the signed copy is in the Shop folder.",
)
# The amendment to the partners' agreement that changes the partner's share; the routine note still has the old one.
AMENDMENT_PATH = "Shop/Partnership agreement - amendment {signed:%Y-%m}.md"
AMENDMENT = """# {shop}: amendment to the partnership agreement

Signed on {signed:%-d %B %Y} by {me} and {partner}.

1. From the {month} accounts onwards, {partner_first}'s share of the {line} sales (after refunds) is {new}% instead of \
{old}%.
2. The share is worked out every month from the monthly summary and paid with the next payout.
3. Everything else in the agreement of {founded} stays as it is.
"""
# The platform's notice of a refund made after it wrote the month's corrections file.
REFUND_SUBJECT = "Refund issued for order {ref}"
REFUND = """Hello,

you issued a refund of {refunded} on order {ref} ({customer}, {item}) on {day}.

Reason given: {reason}
New order amount: {now}

Refunds made after your monthly corrections file was created are not in it.

The {platform} team
"""
LATE_REFUND = "part of the order sent back, partial refund"
# The owner writes a running figure into the sales note partway through the month.
PROVISIONAL = "- {month}: {amount} so far (to {day:%-d %b})"
ALIAS = (
    "Order from my other address",
    "Quick one: I ordered the {item} from my personal address (this one) rather than my usual account. Could it "
    "still count towards my loyalty stamps? Do keep sending anything from the shop to my usual address, though. "
    "Thanks!",
)
REGULAR = "Regular customer, loyalty card."
CUSTOMER_NOTES = (
    "Customer.",
    "Regular at the market stall.",
    "Customer, prefers email.",
    "Customer since the opening.",
)
NOTES = ("", "", "", "", "Gift wrap please", "Leave with the neighbour if out", "Birthday present!", "No rush")
