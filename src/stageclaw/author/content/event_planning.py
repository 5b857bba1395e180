"""What the event-planning family is made of: the occasions people organise, the suppliers each one
needs, and how suppliers write their quotes, corrections and withdrawals.

A supplier kind says how it appears everywhere: its line in the budget sheet and the plan note, the
words that name it in a calendar slot or a reminder, the businesses that offer it, what a quote costs
(in euros; `money` converts), and where its slot sits around the event. Placeholders in the texts:
{guests} {date} {start} {end} {amount} {deposit} {deadline} {tax} {what} {place}.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Business:
    name: str
    domain: str  # before the region's top-level domain
    local: str  # the mailbox quotes come from ("" : the owner's own address at the domain)
    title: str  # the signer's job title


@dataclass(frozen=True)
class Kind:
    key: str
    row: str  # the budget sheet's item and the plan note's line
    noun: str  # what names it in a plan line or a reminder's title (and no other kind)
    words: str  # what names it in a calendar slot's title, besides the business's name
    businesses: tuple[Business, ...]
    price: tuple[int, int]  # what a quote comes to, in euros
    slot: tuple[tuple[int, int], tuple[int, ...]]  # (minutes from the event's start: low, high), lengths
    enquiry: str  # the subject of the user's enquiry: {event}
    offer: tuple[str, ...]  # the heart of a quote
    timing: tuple[str, ...]  # when they come: {start} {end}
    summary: str  # a slot's title in the reference solution: {name}


VAT = {"uk": "including VAT", "us": "including tax", "au": "including GST"}
# Words of business names that say what they sell, not who they are ("Bloom & Wild Flowers").
GENERIC_WORDS = {
    "flowers", "bakery", "photography", "studio", "images", "workshops", "coaches", "travel", "kitchen",
    "catering", "florals", "sessions", "facilitation", "rooms", "house", "hall", "bakes", "coach", "hire", "trio",
    "groove", "djs", "duo",
}  # fmt: skip

KINDS: dict[str, Kind] = {
    k.key: k
    for k in (
        Kind(
            "venue",
            "Venue",
            r"\bvenue",
            r"venue|dinner|party|celebration|offsite|\bmeal\b",
            (
                Business("The Old Granary", "oldgranary", "events", "Events Manager"),
                Business("Hartwell House", "hartwellhouse", "bookings", "Private Dining Manager"),
                Business("The Lantern Rooms", "lanternrooms", "hello", "Events Coordinator"),
                Business("Fenwick Hall", "fenwickhall", "events", "Venue Manager"),
                Business("The Boathouse", "theboathouse", "functions", "Functions Manager"),
            ),
            (1400, 3400),
            ((0, 0), (0,)),
            "Private room for our {event}?",
            (
                "We'd be delighted to host you: the {place} for {guests} guests, with {package}, comes to "
                "{amount} {tax}.",
                "We can offer the {place} for your group of {guests}, with {package} and our staff, for {amount} "
                "{tax}.",
            ),
            (
                "The room would be yours from {start} to {end}.",
                "You'd have the room from {start} until {end}.",
            ),
            "{what} at {name}",
        ),
        Kind(
            "cake",
            "Cake",
            r"\bcakes?\b",
            r"cake|bak",
            (
                Business("Crumb & Co", "crumbandco", "orders", "Head Baker"),
                Business("Sugar Loaf Bakery", "sugarloafbakery", "", "Owner"),
                Business("The Cake Tin", "thecaketin", "hello", "Cake Designer"),
                Business("Butter Lane Bakes", "butterlanebakes", "", "Baker"),
            ),
            (120, 320),
            ((-180, -90), (30,)),
            "Cake for our {event}",
            (
                "A three-tier cake for {guests}, in the flavours you mentioned, comes to {amount} {tax}, "
                "delivery included.",
                "For {guests} guests I'd suggest a two-tier cake with a tray of cupcakes: {amount} {tax}, "
                "delivered and set up.",
            ),
            (
                "I'd deliver it to the venue between {start} and {end} on the day.",
                "Delivery to the venue would be between {start} and {end}.",
            ),
            "Cake delivery ({name})",
        ),
        Kind(
            "photographer",
            "Photographer",
            r"photograph",
            r"photo",
            (
                Business("Lensworks Studio", "lensworks", "", "Photographer"),
                Business("Brightframe Photography", "brightframe", "", "Photographer"),
                Business("Northlight Images", "northlightimages", "", "Photographer"),
                Business("Candid Crow", "candidcrow", "", "Photographer"),
            ),
            (420, 950),
            ((-30, 0), (180, 210, 240)),
            "Photographer for our {event}?",
            (
                "Full coverage, with around 200 edited photos in an online gallery, comes to {amount} {tax}.",
                "My events package (unlimited shots, the best 150 edited, an online gallery) is {amount} {tax}.",
            ),
            (
                "I'd cover it from {start} to {end}.",
                "I'd be with you from {start} until {end}.",
            ),
            "Photographer ({name})",
        ),
        Kind(
            "florist",
            "Flowers",
            r"flower|florist",
            r"flower|florist|floral",
            (
                Business("Bloom & Wild Flowers", "bloomandwildflowers", "hello", "Florist"),
                Business("Petal & Stem", "petalandstem", "studio", "Florist"),
                Business("The Flower Cart", "theflowercart", "orders", "Owner"),
                Business("Hedgerow Florals", "hedgerowflorals", "hello", "Florist"),
            ),
            (160, 480),
            ((-300, -180), (30, 60)),
            "Table flowers for our {event}",
            (
                "Table arrangements for {guests} guests and two larger pieces for the entrance come to {amount} {tax}.",
                "Low table centrepieces for {guests}, plus a statement piece for the bar, would be {amount} {tax}.",
            ),
            (
                "We'd bring them to the venue and set up between {start} and {end}.",
                "Set-up at the venue would be between {start} and {end}.",
            ),
            "Flowers set-up ({name})",
        ),
        Kind(
            "music",
            "Music",
            r"music|\bband\b|\bdj\b",
            r"music|band|\bdj\b|\bset\b|play",
            (
                Business("The Late Swing Trio", "lateswingtrio", "bookings", "Band Leader"),
                Business("Velvet Groove", "velvetgroove", "bookings", "Band Manager"),
                Business("Spin Cycle DJs", "spincycledjs", "hello", "DJ"),
                Business("Blue Note Duo", "bluenoteduo", "", "Musician"),
            ),
            (450, 1200),
            ((60, 120), (120, 150, 180)),
            "Live music for our {event}?",
            (
                "Two sets of live music with a playlist in between comes to {amount} {tax}, travel included.",
                "We can play for {guests} guests: two forty-five minute sets and a DJ mix after, for {amount} {tax}.",
            ),
            (
                "We'd play from {start} to {end}.",
                "Our set would run from {start} until {end}.",
            ),
            "Music ({name})",
        ),
        Kind(
            "catering",
            "Catering",
            r"cater",
            r"cater|food|lunch|buffet",
            (
                Business("Saffron Table", "saffrontable", "events", "Catering Manager"),
                Business("Greenleaf Kitchen", "greenleafkitchen", "hello", "Head Chef"),
                Business("The Busy Spoon", "thebusyspoon", "orders", "Events Lead"),
                Business("Harvest & Co", "harvestandco", "catering", "Owner"),
            ),
            (700, 1800),
            ((-60, -30), (60, 90)),
            "Catering for our {event}",
            (
                "A hot and cold buffet for {guests}, with drinks, plates and two staff, comes to {amount} {tax}.",
                "Our sharing menu for {guests} people, served buffet-style with soft drinks, is {amount} {tax}.",
            ),
            (
                "We'd arrive and set up between {start} and {end}.",
                "Our team would set up between {start} and {end}.",
            ),
            "Catering set-up ({name})",
        ),
        Kind(
            "coach",
            "Coach",
            r"\bcoach\b",
            r"coach|bus|transport|transfer",
            (
                Business("Greenway Coaches", "greenwaycoaches", "bookings", "Bookings Manager"),
                Business("Redline Travel", "redlinetravel", "hire", "Operations Manager"),
                Business("Westbrook Coach Hire", "westbrookcoachhire", "bookings", "Bookings Coordinator"),
            ),
            (320, 760),
            ((-90, -60), (30, 45)),
            "Coach hire for our {event}",
            (
                "A {guests}-seat coach with driver, there and back, comes to {amount} {tax}.",
                "We can send one coach for your group of {guests}, return trip with waiting time, for {amount} {tax}.",
            ),
            (
                "The coach would pick you up outside your office between {start} and {end}.",
                "Pick-up would be between {start} and {end}, from your office.",
            ),
            "Coach pick-up ({name})",
        ),
        Kind(
            "facilitator",
            "Facilitator",
            r"facilitat|workshop",
            r"facilitat|workshop|session",
            (
                Business("Clearpath Workshops", "clearpathworkshops", "", "Facilitator"),
                Business("Open Door Facilitation", "opendoorfacilitation", "", "Facilitator"),
                Business("Common Ground Sessions", "commongroundsessions", "", "Lead Facilitator"),
            ),
            (900, 2200),
            ((30, 60), (150, 180)),
            "Facilitator for our {event}?",
            (
                "A half-day strategy workshop for {guests}, with preparation calls and a written summary, comes "
                "to {amount} {tax}.",
                "I'd run a half-day session for your {guests} people, including the prep call and a write-up "
                "afterwards, for {amount} {tax}.",
            ),
            (
                "I'd run the workshop from {start} to {end}.",
                "The session itself would run from {start} until {end}.",
            ),
            "Workshop ({name})",
        ),
    )
}


@dataclass(frozen=True)
class Must:
    """A must-have of the occasion, told by a guest's contact card: the kind it rules a quote out of,
    what the card says, and how a quote shows it is met or not."""

    kind: str
    card: str
    met: str
    unmet: str


MUSTS = (
    Must(
        "venue",
        "Uses a wheelchair: needs step-free access (no stairs) wherever we go.",
        "Access is step-free from the street, with an accessible toilet on the same floor.",
        "Just so you know, the room is on the first floor, up a flight of stairs; there's no lift, I'm afraid.",
    ),
    Must(
        "cake",
        "Coeliac: anything {they} eat has to be strictly gluten-free.",
        "Everything can be made gluten-free; we bake in a kitchen with no wheat flour.",
        "One thing to flag: our kitchen handles wheat flour all day, so we can't make anything gluten-free.",
    ),
    Must(
        "catering",
        "Coeliac: anything {they} eat has to be strictly gluten-free.",
        "We can make the whole menu gluten-free on request, at no extra cost.",
        "Please note we can't guarantee anything gluten-free: our kitchen is too small to keep it separate.",
    ),
    Must(
        "coach",
        "Uses a wheelchair: needs step-free access (no stairs) wherever we go.",
        "The coach has a wheelchair lift and a space for a wheelchair.",
        "Our coaches have steps at the door and no wheelchair lift, I'm afraid.",
    ),
)


@dataclass(frozen=True)
class Occasion:
    key: str
    title: str  # the event: {who} {age}
    short: str  # what the user calls it (the reminder list, the file, the note): {who} {age}
    what: str  # the event's slot in a sentence ("the dinner")
    phrase: str  # in a supplier's mail: "your {phrase} on {date}"
    event: str  # in a subject line, without numbers: "birthday dinner"
    kinds: tuple[str, ...]
    weekdays: tuple[int, ...]
    start: tuple[tuple[int, int], ...]
    hours: tuple[int, ...]  # in minutes
    guests: tuple[int, int]
    work: bool  # planned from the user's work: the Work calendar and folder
    surprise: bool  # kept from whom it is for
    place: tuple[str, ...]  # the venue's room
    package: str  # what the venue's price includes


OCCASIONS = (
    Occasion(
        "birthday",
        "{who}'s {age}th birthday dinner",
        "{who}'s {age}th",
        "Dinner",
        "{age}th birthday dinner",
        "birthday dinner",
        ("venue", "cake", "photographer", "florist", "music"),
        (4, 5),
        ((19, 0), (19, 30)),
        (240, 270),
        (30, 55),
        False,
        True,
        ("private dining room", "Garden Room", "upstairs room"),
        "a three-course set menu and a glass of fizz on arrival",
    ),
    Occasion(
        "engagement",
        "{who}'s engagement party",
        "{who}'s engagement party",
        "Party",
        "engagement party",
        "engagement party",
        ("venue", "catering", "cake", "florist", "photographer"),
        (5, 6),
        ((14, 0), (15, 0)),
        (240,),
        (40, 70),
        False,
        False,
        ("conservatory", "Orchard Room", "main hall"),
        "the room set up with tables, a bar and a welcome drink",
    ),
    Occasion(
        "offsite",
        "{who} team offsite",
        "{who} offsite",
        "Offsite",
        "team offsite",
        "team offsite",
        ("venue", "catering", "coach", "facilitator", "photographer"),
        (1, 2, 3),
        ((9, 30), (10, 0)),
        (390, 420),
        (18, 32),
        True,
        False,
        ("Loft meeting room", "Library Room", "Barn"),
        "a projector, flip charts and coffee breaks all day",
    ),
)

WHY_WITHDRAWN = (
    "we'd already taken a booking for that day, which I missed when I wrote to you",
    "I've had a family emergency and am clearing my diary for that month",
    "we're short of staff that week and can't do it properly",
    "our diary for that day filled up before I could hold it for you",
)
WHY_REVISED = (
    ("I left out the delivery and set-up charge", 1),
    ("I priced it for the wrong number of guests", 1),
    ("we've been able to take off the service charge", -1),
    ("I applied last year's prices by mistake", 1),
)
THANKS = (
    "Thanks for getting in touch about your {phrase} on {date}.",
    "Thank you for your enquiry about your {phrase} on {date}.",
    "Lovely to hear from you about the {phrase} on {date}.",
)
# Which of the user's three dates a supplier can do: {free} {busy} {verb}. Every quote says it.
FREE_ALL = (
    "Good news: we're free on all three of your dates at the moment.",
    "All three of your dates are free for us at the moment.",
)
FREE_SOME = (
    "Of your dates, we're free on {free}; {busy} {verb} already booked, I'm afraid.",
    "We could do {free}, but not {busy}: we already have a booking then.",
)
# What the user's own calendar holds on one of their dates (the day is out: it overlaps the event by an hour or
# more) and a harmless thing on another (the day is still free: it is well clear of every slot):
# (summary, start hour, minutes long[, from work]); the family keeps those that fit the occasion's hours.
CLASH = (
    ("Hannah and Tom's wedding", 12, 690, False),
    ("Flight to Lisbon (Mum's 70th)", 16, 240, False),
    ("Concert with Jo", 18, 270, False),
    ("Client workshop in Leeds (all day)", 8, 570, True),
    ("Quarterly board review", 9, 480, True),
    ("Site visit: new warehouse", 8, 540, True),
)
HARMLESS = (
    ("Dentist", 8, 45),
    ("Haircut", 9, 60),
    ("Physio", 9, 45),
    ("Pilates", 19, 60),
    ("Book club", 20, 90),
    ("Five-a-side football", 20, 60),
)
DEPOSIT = (
    "To secure the booking we ask for a deposit of {deposit}, due by {deadline}.",
    "A deposit of {deposit} secures the date; it's due by {deadline}.",
    "We'd need a deposit of {deposit} by {deadline} to hold it for you.",
)
DEPOSIT_BEFORE = (
    "To secure the booking we ask for a deposit of {deposit}, due {days} days before the event.",
    "A deposit of {deposit} secures the date; it's due {days} days before the event.",
)
CONFIRM = (
    "Just reply to this email to confirm and I'll send the deposit invoice.",
    "If you're happy, reply to confirm and we'll send our invoice for the deposit.",
    "Let me know if you'd like to go ahead.",
)
ENQUIRY = (
    "I'm organising {title} on {date}, about {guests} people. Could you send me a quote, with your deposit terms?",
    "We're planning {title} for {date}, with around {guests} guests. Would you be able to quote for it, "
    "including when you'd need a deposit?",
)
ENQUIRY_ALIAS = (
    "{friend} gave me your details. I'm organising {title} on {date}, about {guests} people, and would love "
    "you to do it if you're free. Could you send me a quote?",
)
ALIAS_REPLY = "Replying from the studio account, which is where my bookings live."
