"""The English tables of a user's everyday life (see `volume`): the shops and services that mail them,
the meetings and appointments in their calendar, the threads at work and with friends, their files.

`life_zh` has the same tables for a Chinese user. Placeholders: {first} the user's first name,
{day} {date} {time} a day, a date and a time of day, {amount} money, {order} an order number,
{month} a month, {n} an issue number, {who} a person, {project} a project, {place} a place.
"""

from __future__ import annotations

# name, from address (local part; the domain is the vendor's), kind
# kinds: shop (orders: confirmation, shipping, delivery), bank (monthly statement), utility (monthly bill),
# ride and food (single receipts), newsletter (weekly issue), security (sign-in alerts), travel (bookings)
VENDORS = (
    ("Parcelly", "orders", "shop"),
    ("Bookshop Alley", "orders", "shop"),
    ("Hearth & Home", "shop", "shop"),
    ("Cobblestone Outdoor", "orders", "shop"),
    ("Pixel Yard", "store", "shop"),
    ("Kite Bank", "statements", "bank"),
    ("Harbour Mutual", "noreply", "bank"),
    ("Brightwire Energy", "billing", "utility"),
    ("Lumen Mobile", "billing", "utility"),
    ("Fibrelink Broadband", "accounts", "utility"),
    ("Zipcab", "receipts", "ride"),
    ("Swiftride", "receipts", "ride"),
    ("Forkful", "orders", "food"),
    ("Noodle Runner", "hello", "food"),
    ("The Morning Ledger", "newsletter", "newsletter"),
    ("Field Notes Weekly", "hello", "newsletter"),
    ("Product Pulse", "digest", "newsletter"),
    ("Cinema Nova", "members", "newsletter"),
    ("Cloudkeep", "security", "security"),
    ("Notebox", "no-reply", "security"),
    ("Skyway Rail", "tickets", "travel"),
    ("Northjet", "bookings", "travel"),
)
ITEMS = {
    "Parcelly": ("a USB-C charging cable", "a desk lamp", "two packs of AA batteries", "a phone case"),
    "Bookshop Alley": ("a paperback novel", "a cookbook", "a travel guide", "two notebooks"),
    "Hearth & Home": ("a set of bath towels", "a cast-iron pan", "a duvet cover", "a kettle"),
    "Cobblestone Outdoor": ("a rain jacket", "hiking socks", "a water bottle", "a daypack"),
    "Pixel Yard": ("wireless earbuds", "a laptop stand", "a webcam", "an HDMI adapter"),
}
# (euros' worth low, high) of a purchase or bill of each kind
PRICES = {
    "shop": (12, 180),
    "bank": (600, 2600),
    "utility": (25, 120),
    "ride": (8, 35),
    "food": (14, 45),
    "travel": (60, 420),
}
SHOP_MAIL = {
    "confirm": (
        "Order {order} confirmed",
        "Hi {first},\n\nThanks for your order {order}: {item}.\n\nTotal charged: {amount}.\n\n"
        "We'll email you again when it ships.\n\n{vendor}",
    ),
    "ship": (
        "Your order {order} has shipped",
        "Hi {first},\n\nGood news: order {order} ({item}) is on its way and should arrive by {day}.\n\n"
        "Track it any time from your account.\n\n{vendor}",
    ),
    "deliver": (
        "Delivered: order {order}",
        "Hi {first},\n\nYour parcel with order {order} was delivered today at {time}.\n\n"
        "Thanks for shopping with us.\n\n{vendor}",
    ),
}
BANK_MAIL = (
    "{vendor}: your {month} statement is ready",
    "Hi {first},\n\nYour statement for {month} is now available in the app. You spent {amount} "
    "across {count} card payments.\n\nKind regards,\n{vendor}",
)
UTILITY_MAIL = (
    "Your {vendor} bill for {month}",
    "Hi {first},\n\nYour bill for {month} is {amount}. It will be collected by direct debit on {day}.\n\n"
    "Thank you,\n{vendor}",
)
RIDE_MAIL = (
    "Your trip receipt",
    "Hi {first},\n\nThanks for riding with {vendor}. Your trip on {day} at {time} to {place} cost {amount}.\n\n"
    "{vendor}",
)
FOOD_MAIL = (
    "Your {vendor} order",
    "Hi {first},\n\nYour order from {place} is confirmed: {amount}, paid by card.\n\nEnjoy your meal!\n{vendor}",
)
NEWSLETTER_MAIL = (
    "{vendor}, issue {n}",
    "Hello {first},\n\nThis week: {topic}. Plus our readers' picks and what to watch for next week.\n\n"
    "Read the full issue on our website.\n\nUntil next time,\n{vendor}",
)
NEWSLETTER_TOPICS = (
    "how small teams plan a quarter",
    "the return of the long walk",
    "five tools we stopped using",
    "a short history of the spreadsheet",
    "what makes a meeting worth it",
    "cooking for one without waste",
    "the quiet rise of night trains",
    "reading more by reading less",
    "notes from a city garden",
    "the case for boring technology",
    "travelling light in winter",
    "how libraries are changing",
)
SECURITY_MAIL = (
    "New sign-in to your {vendor} account",
    "Hi {first},\n\nWe noticed a new sign-in to your account on {day} at {time} from a {device}.\n\n"
    "If this was you, there's nothing to do. If not, change your password straight away.\n\n"
    "The {vendor} security team",
)
DEVICES = ("Mac", "Windows PC", "iPhone", "Android phone")
TRAVEL_MAIL = (
    "Your booking {order}: {route}",
    "Hi {first},\n\nYour booking {order} is confirmed.\n\n{route}\nDeparts {day} at {time}\n"
    "Total paid: {amount}\n\nYour e-ticket is in the app; show it at the gate.\n\n{vendor}",
)
INVITE_MAIL = (
    "Invitation: {title} @ {day} {time}",
    "Hi {first},\n\n{who} has invited you to {title} on {day} at {time} ({place}).\n\n"
    "Reply to let them know if you can make it.\n\nSent from the calendar",
)
CANCEL_MAIL = (
    "Cancelled: {title} on {day}",
    "Hi {first},\n\n{title} on {day} at {time} has been cancelled by {who}.\n\nSent from the calendar",
)

# Work threads: subject, then the turns (the first opens it; each later turn replies to the one before).
WORK_THREADS = (
    (
        "Slides for {project} review",
        (
            "Could you send me your slides for the {project} review before Thursday? I'd like to put the deck "
            "together in one go.",
            "Sure, I'll have them to you by Wednesday evening. Are we keeping to ten minutes each?",
            "Ten minutes is right, with five for questions. Thanks!",
            "Attached the first draft. The numbers on slide four are still from last month.",
        ),
    ),
    (
        "{project}: timeline check",
        (
            "Quick check on the {project} timeline: are we still on track for the end of the month?",
            "Mostly. Testing is a week behind because of the supplier delay, but we can absorb it.",
            "Good to know. Let's flag it at the next team meeting so nobody is surprised.",
        ),
    ),
    (
        "Notes from today's {project} call",
        (
            "Here are my notes from today's call. Main points: scope stays as agreed, the client wants a demo "
            "next month, and we owe them a revised estimate.",
            "Thanks for writing these up. I can take the revised estimate.",
            "Great, I'll update the tracker.",
        ),
    ),
    (
        "Room for the workshop",
        (
            "Has anyone booked a room for the workshop yet? We'll need space for about twelve people.",
            "Not yet. The big room on the third floor is usually free in the afternoons.",
            "I'll try for that one and let you know.",
            "Booked it. Same time as last time.",
        ),
    ),
    (
        "Holiday cover",
        (
            "I'm off for a week from the 14th. Could someone keep an eye on the shared inbox while I'm away?",
            "Happy to cover the first half of the week.",
            "I can do the rest. Have a good break!",
        ),
    ),
    (
        "{project} budget question",
        (
            "Do you know whether the {project} budget includes the external design work, or is that separate?",
            "It's separate: it comes out of the marketing budget this year.",
            "That explains the gap. Thanks.",
        ),
    ),
    (
        "Onboarding plan for the new starter",
        (
            "Our new starter joins on Monday. I've drafted an onboarding plan for the first two weeks; comments "
            "welcome.",
            "Looks good. I'd add a session on the reporting tools in week one.",
            "Added. I'll share the final version on Friday.",
        ),
    ),
    (
        "Quarterly numbers",
        (
            "The quarterly numbers are in. Overall we're slightly ahead of plan; details in the usual sheet.",
            "Nice. Any surprises by region?",
            "The north did better than expected, the south a little worse. Nothing alarming.",
        ),
    ),
    (
        "Feedback on the draft proposal",
        (
            "I've read the draft proposal. The structure works; I'd shorten the background section and move "
            "the pricing up.",
            "Fair points. I'll rework it tomorrow and send a new version.",
        ),
    ),
    (
        "Team lunch",
        (
            "Shall we do a team lunch next week to celebrate the launch? Any day but Monday works for me.",
            "Wednesday or Thursday would be great.",
            "Thursday it is. I'll book somewhere near the office.",
        ),
    ),
)
PROJECTS = ("Atlas", "Beacon", "Northstar", "Harbour", "Keystone", "Lighthouse", "Compass", "Meridian")
FRIEND_THREADS = (
    (
        "Dinner soon?",
        (
            "It's been ages! Are you free for dinner one evening next week?",
            "Yes please! Tuesday or Thursday would work for me.",
            "Thursday then. I'll book the Italian place we liked.",
        ),
    ),
    (
        "Photos from the weekend",
        (
            "Finally sorted through the photos from the weekend, a few of them are actually good. Album link to "
            "follow.",
            "Can't wait to see them! The one by the lake must be in there.",
        ),
    ),
    (
        "Book club",
        (
            "We're meeting at mine this month. Has everyone finished the book?",
            "Almost! Two chapters to go.",
            "No spoilers then. See you there.",
        ),
    ),
    (
        "Moving day",
        (
            "We finally got the keys! Any chance you could help us move on Saturday morning?",
            "Of course. I'll bring the car and some boxes.",
            "You're a star. Coffee and pastries are on us.",
        ),
    ),
    (
        "Running on Sunday?",
        (
            "Fancy a run on Sunday morning? The river loop, nice and easy.",
            "I'm in. Nine o'clock at the bridge?",
        ),
    ),
    (
        "Concert tickets",
        (
            "I've got a spare ticket for the concert next month, do you want it?",
            "Yes! How much do I owe you?",
            "Nothing, it was a gift. Just buy me a drink.",
        ),
    ),
)
FAMILY_THREADS = (
    (
        "Sunday lunch",
        (
            "Are you coming for lunch on Sunday? Your brother will be here too.",
            "Yes, I'll be there around one. Shall I bring dessert?",
            "That would be lovely.",
        ),
    ),
    (
        "Birthday present",
        (
            "Any ideas for Dad's birthday present this year? I'm out of ideas.",
            "He mentioned wanting a new gardening book. I can look for one.",
        ),
    ),
    (
        "Holiday plans",
        (
            "We're thinking about a week by the sea in the summer. Would you like to join us?",
            "That sounds wonderful. Let me check my leave and get back to you.",
        ),
    ),
)
SENT_NOTES = (
    ("Question about the lease", "Could you let me know when the lease renewal papers will be ready? Thank you."),
    ("Appointment", "I'd like to book an appointment for next week, ideally in the afternoon. What do you have?"),
    (
        "Receipts for last year",
        "Attached are the receipts for last year, as discussed. Let me know if anything is missing.",
    ),
    ("Thank you", "Thank you again for your help last week, it made a real difference."),
)

# Events. Each: summary, calendar ("work"/"personal"), earliest and latest start hour, minutes, weekdays
# (0 = Monday), and for series the rule (with {day}: the weekday code of the first occurrence).
SERIES = (
    ("Team stand-up", "work", (9, 10), (15,), "01234", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("1:1 with {who}", "work", (10, 16), (30,), "01234", "FREQ=WEEKLY;INTERVAL=2;BYDAY={day}"),
    ("Team meeting", "work", (10, 15), (60,), "0123", "FREQ=WEEKLY;BYDAY={day}"),
    ("Monthly all-hands", "work", (15, 16), (60,), "3", "FREQ=MONTHLY;BYDAY=1{day}"),
    ("{project} sync", "work", (11, 16), (45,), "1234", "FREQ=WEEKLY;BYDAY={day}"),
    ("Gym", "personal", (18, 19), (60,), "024", "FREQ=WEEKLY;BYDAY={day}"),
    ("Yoga class", "personal", (19, 19), (75,), "13", "FREQ=WEEKLY;BYDAY={day}"),
    ("Swimming", "personal", (7, 7), (45,), "5", "FREQ=WEEKLY;BYDAY={day}"),
    ("Choir rehearsal", "personal", (19, 19), (120,), "2", "FREQ=WEEKLY;BYDAY={day}"),
)
SINGLES = (
    ("Lunch with {who}", "work", (12, 13), (60,), "01234"),
    ("{project} review", "work", (10, 16), (60, 90), "01234"),
    ("Call with {who}", "work", (9, 17), (30, 45), "01234"),
    ("Interview: {role}", "work", (10, 16), (60,), "0123"),
    ("Workshop: {topic}", "work", (9, 14), (120, 180), "123"),
    ("Dentist", "personal", (8, 17), (30, 45), "01234"),
    ("Haircut", "personal", (10, 16), (45,), "5"),
    ("Dinner with {who}", "personal", (19, 20), (120,), "345"),
    ("Drinks with {who}", "personal", (18, 20), (120,), "34"),
    ("Parents' evening", "personal", (18, 19), (90,), "12"),
    ("Car service", "personal", (8, 9), (60,), "01234"),
    ("Cinema", "personal", (19, 20), (150,), "456"),
    ("Doctor's appointment", "personal", (9, 16), (20,), "01234"),
)
ALL_DAY = (
    ("Conference: {topic}", "work", (1, 2)),
    ("Offsite", "work", (1, 2)),
    ("Trip to {place}", "personal", (2, 5)),
    ("Long weekend away", "personal", (3, 3)),
)
BIRTHDAY = "{who}'s birthday"
ROLES = ("Data analyst", "Product designer", "Account manager", "Office coordinator")
TOPICS = ("planning for next year", "customer research", "writing for the web", "accessibility basics")
LOCATIONS = ("Meeting room 2", "Meeting room 4", "Video call", "The big room, 3rd floor", "Café downstairs")
PERSONAL_PLACES = ("the station", "the airport", "the city centre", "home", "the office")

# Files: folder, file name (with {month} {year} {vendor} {project} {n}), kind
FOLDERS = {
    "invoices": "Documents/Invoices/{year}",
    "statements": "Documents/Bank statements",
    "contracts": "Documents/Contracts",
    "insurance": "Documents/Insurance",
    "spreadsheets": "Spreadsheets",
    "projects": "Work/Projects/{project}",
    "meetings": "Work/Meeting notes",
    "notes": "Notes",
    "recipes": "Personal/Recipes",
    "travel": "Personal/Travel",
}
CONTRACTS = (
    (
        "Tenancy agreement.pdf",
        "Tenancy agreement",
        ("Term: 12 months", "Rent payable monthly in advance", "Deposit held in a protection scheme"),
    ),
    (
        "Employment contract.pdf",
        "Employment contract",
        ("Full-time, permanent", "Notice period: 3 months", "25 days of annual leave"),
    ),
    ("Gym membership.pdf", "Membership terms", ("Monthly rolling membership", "One month's notice to cancel")),
)
INSURANCE = (
    ("Home insurance policy.pdf", "Home insurance: policy schedule", ("Contents cover", "Excess applies per claim")),
    ("Travel insurance.pdf", "Annual travel insurance", ("Worldwide cover", "Medical expenses included")),
)
RECIPES = (
    (
        "Lentil soup.md",
        "# Lentil soup\n\n- 200 g red lentils\n- 1 onion, 2 carrots\n- 1 l stock\n\n"
        "Soften the onion, add the rest, simmer 25 minutes, blend half.\n",
    ),
    (
        "Banana bread.md",
        "# Banana bread\n\n- 3 ripe bananas\n- 250 g flour\n- 100 g butter, 2 eggs\n\n"
        "Mash, mix, bake at 180 °C for 50 minutes.\n",
    ),
    (
        "Weeknight curry.md",
        "# Weeknight curry\n\n- 1 tin chickpeas\n- 1 tin tomatoes\n- spinach, spices\n\n"
        "Fry the spices, add everything, cook 20 minutes.\n",
    ),
    ("Pancakes.md", "# Pancakes\n\n- 150 g flour\n- 2 eggs\n- 300 ml milk\n\nRest the batter for ten minutes.\n"),
)
TRAVEL_NOTES = (
    ("Packing list.md", "# Packing list\n\n- Passport\n- Chargers\n- Adapter\n- Rain jacket\n- Medicines\n"),
    ("Places to visit.md", "# Places to visit\n\n- The old harbour\n- The botanical garden\n- The covered market\n"),
)
NOTE_FILES = (
    (
        "Ideas.md",
        "# Ideas\n\n- Start a reading group at work\n- Learn to bake sourdough\n- Cycle to work twice a week\n",
    ),
    ("Reading list.md", "# Reading list\n\n- The Overstory\n- Piranesi\n- Exhalation\n- Braiding Sweetgrass\n"),
    ("Wi-Fi and codes.md", "# Wi-Fi and codes\n\nHome network: see the router label.\nBike lock: ask me.\n"),
)
MEETING_NOTE = "# {title}, {date}\n\nPresent: {people}\n\n## Notes\n- {point}\n- {point2}\n\n## Actions\n- {action}\n"
MEETING_POINTS = (
    "Priorities for the coming weeks agreed",
    "Supplier delay discussed; no change to the plan yet",
    "Hiring update: two interviews next week",
    "Budget on track for the quarter",
    "Customer feedback mostly positive",
    "Documentation needs a tidy-up",
)
MEETING_ACTIONS = (
    "{who} to circulate the updated plan",
    "{who} to follow up with the supplier",
    "{who} to book the next review",
    "{who} to update the tracker",
)
SPEC = "# {project}: overview\n\n## Goal\n{goal}\n\n## Scope\n- Phase one: discovery\n- Phase two: delivery\n"
GOALS = (
    "Make the monthly report faster to produce.",
    "Give customers one place to see their orders.",
    "Replace the old booking spreadsheet with a proper tool.",
    "Cut the time new starters need to get set up.",
)

# Notes (the notes app) and reminders
NOTES = (
    ("Gift ideas", "{who}: a good notebook\nMum: a plant for the balcony\nDad: the gardening book"),
    ("Things to fix at home", "- Dripping tap in the bathroom\n- Loose shelf in the hall\n- Bike tyre"),
    ("Films to watch", "- Past Lives\n- Perfect Days\n- The Taste of Things"),
    ("Questions for the doctor", "- Repeat prescription\n- Ask about the knee"),
    ("Weekend plans", "Saturday: market, then the museum\nSunday: lunch with family"),
    ("Podcast recommendations", "- A history of ideas\n- The design one {who} mentioned"),
    ("Meeting prep", "Points to raise:\n- Timeline\n- Budget\n- Who owns the follow-ups"),
    ("Garden", "Plant the bulbs before the first frost. Water the tomatoes every other day."),
)
REMINDER_LISTS = ("Reminders", "Shopping", "Work")
REMINDERS = {
    "Reminders": (
        "Renew the car insurance",
        "Book a dentist check-up",
        "Return the library books",
        "Call the bank about the new card",
        "Water the plants",
        "Send the thank-you card",
        "Back up the laptop",
        "Pay the window cleaner",
    ),
    "Shopping": ("Milk", "Coffee beans", "Bin bags", "Toothpaste", "Batteries", "Olive oil", "Bread"),
    "Work": (
        "Submit the expense claim",
        "Update the project tracker",
        "Prepare the review slides",
        "Book the meeting room",
        "Reply to the supplier",
        "Finish the onboarding plan",
    ),
}
CONTACT_NOTES = (
    "Met at the conference in spring.",
    "Neighbour, flat 3.",
    "Kids go to the same school.",
    "Prefers phone calls.",
    "Old colleague from my first job.",
)
TRIP_PLACES = ("Lisbon", "the coast", "the mountains", "Edinburgh", "Copenhagen", "the lakes")
RESTAURANTS = ("Pho Corner", "The Curry House", "Bella Napoli", "Green Bowl", "Sushi Go", "Burger Yard")
INVOICE = "invoice"
INVOICE_FIELDS = (
    ("Invoice number", "{number}"),
    ("Invoice date", "{day}"),
    ("Customer", "{customer}"),
    ("Billing period", "{period}"),
    ("Amount due", "{amount}"),
    ("Collected by direct debit on", "{due}"),
)
STATEMENT_FIELDS = (
    ("Account holder", "{customer}"),
    ("Statement period", "{period}"),
    ("Card payments", "{count}"),
    ("Total spent", "{amount}"),
)
DOCUMENT = "pdf"  # how invoices and statements are kept: PDFs (a table of fields in `life_zh`)
BUDGET = "Household bills {year}.csv"
BUDGET_HEADER = ("month", "supplier", "amount", "currency")
OVERVIEW = "Overview.md"
TIMELINE = "Timeline.csv"
TIMELINE_HEADER = ("milestone", "date")
MILESTONES = ("Kick-off", "Discovery done", "First release", "Review with stakeholders")
NOTE_FOLDERS = ("Notes", "Work")
MEETING_TAG = "meetings"
CLIENT_EVENTS = ("Call with {who}",)  # the events whose {who} is a client; the rest at work are colleagues
PLACES_OF = {"Lunch with {who}": RESTAURANTS, "Call with {who}": ("Video call", "Phone")}
MINUTED = ("Team meeting", "{project} sync", "Monthly all-hands", "{project} review")  # meetings with notes
RECEIPT = "Order {order}"
RECEIPT_FIELDS = (("Order number", "{order}"), ("Items", "{item}"), ("Total", "{amount}"), ("Customer", "{customer}"))
SCREENSHOT = "Screenshot {moment:%Y-%m-%d} at {moment:%H.%M.%S}.png"
FOLDERS |= {"downloads": "Downloads", "screenshots": "Pictures/Screenshots"}
