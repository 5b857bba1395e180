"""Alternative solution for summit-trip-booking: the hotel first, every search by its address instead of
the form; the flights in the calendar under their numbers without the space; a new message to Anna."""

import re


def _book(tools, name, button):
    tools.browser_click(text=name)
    done = tools.browser_click(text=button)
    return re.search(r"booking reference is (\w+)", done["text"]).group(1)


def solve(tools):
    request = tools.mail_read(id=tools.mail_search(sender="anna", subject="Data Summit")["messages"][0]["id"])
    policies = tools.notes_search(query="travel policy")["notes"]
    current = tools.notes_read(uid=next(n["uid"] for n in policies if n["title"] == "Travel policy 2026"))
    limit = float(re.search(r"Munich: €(\d+)", current["body"]).group(1))

    results = tools.browser_open(url="/travel/hotels?city=Munich&check_in=2026-03-16&check_out=2026-03-18")
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| [^|\n]* \| €([\d,.]+) \|", results["text"])
    hotel = min((float(p), n) for n, a, p in rows if a == "Messestadt Riem" and float(p) <= limit)[1]
    stay = _book(tools, hotel, "Book hotel")
    tools.browser_open(url="/travel/flights?origin=Hamburg&destination=Munich&date=2026-03-16")
    outbound = _book(tools, "LH 2058", "Book flight")
    tools.browser_open(url="/travel/flights?origin=Munich&destination=Hamburg&date=2026-03-18")
    home = _book(tools, "LH 2075", "Book flight")

    for number, start, end in (
        ("LH2058", "2026-03-16T18:00", "2026-03-16T19:10"),
        ("LH2075", "2026-03-18T20:15", "2026-03-18T21:25"),
    ):
        tools.calendar_create_event(calendar="Work", summary=f"{number} flight", start=start, end=end)
    tools.mail_send(
        to=[request["from"]],
        subject="Data Summit: bookings",
        body=f"Hello Anna,\n\nflights {outbound} (out) and {home} (back), hotel {stay} ({hotel}).\n\nLena",
    )
