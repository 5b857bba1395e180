"""Reference solution for summit-trip-booking, using the same tools as any agent."""

import re


def _ref(page, pattern):
    """The number of the first link, button or field of the page whose text matches `pattern`."""
    return int(re.search(pattern, page["text"]).group(1))


def _book(tools, name, button):
    """On a page of search results, open `name` and book it; returns the booking reference."""
    tools.browser_click(text=name)
    done = tools.browser_click(text=button)
    return re.search(r"booking reference is (\w+)", done["text"]).group(1)


def solve(tools):
    request = tools.mail_read(id=tools.mail_search(sender="anna", subject="Data Summit")["messages"][0]["id"])
    wanted = " ".join(request["body"].split())
    assert "arrive in Munich the evening before the summit" in wanted and "on the evening of its last day" in wanted
    ticket = tools.mail_read(id=tools.mail_search(subject="ticket for Data Summit")["messages"][0]["id"])
    assert "Tuesday 17 and Wednesday 18 March" in " ".join(ticket["body"].split())
    # Out on Monday 16 March in the evening (after the 14:00-15:30 review in Hamburg); home on the
    # 18th after the closing keynote ends at 17:00; hotel nights 16 and 17.
    assert tools.calendar_list_events(start="2026-03-16", end="2026-03-17", query="review")["events"]

    # The 2025 note says €160 for Munich; the policy in force is this year's.
    policies = tools.notes_search(query="travel policy")["notes"]
    current = tools.notes_read(uid=next(n["uid"] for n in policies if n["title"] == "Travel policy 2026"))
    limit = float(re.search(r"Munich: €(\d+)", current["body"]).group(1))
    assert "Economy class for flights under six hours" in current["body"]

    # The first search through the form; its address shows how to ask for the others directly.
    search = tools.browser_open(url="/travel/")
    tools.browser_select(ref=_ref(search, r"\{(\d+): select name=origin "), option="Hamburg (HAM)")
    tools.browser_select(ref=_ref(search, r"\{(\d+): select name=destination "), option="Munich (MUC)")
    tools.browser_fill(ref=_ref(search, r"\{(\d+): input type=date name=date "), value="2026-03-16")
    results = tools.browser_click(text="Search flights")
    assert results["url"].startswith("/travel/flights?origin=Hamburg")
    assert "] LH 2058 | Lufthansa | Hamburg (HAM) | Munich (MUC) | Mon 16 Mar 2026, 18:00" in results["text"]
    outbound = _book(tools, "LH 2058", "Book flight")  # economy is the form's default, as the policy wants
    results = tools.browser_open(url="/travel/flights?origin=Munich&destination=Hamburg&date=2026-03-18")
    assert "] LH 2075 | Lufthansa | Munich (MUC) | Hamburg (HAM) | Wed 18 Mar 2026, 20:15" in results["text"]
    home = _book(tools, "LH 2075", "Book flight")

    results = tools.browser_open(url="/travel/hotels?city=Munich&check_in=2026-03-16&check_out=2026-03-18")
    # Rows read "[5] Parkhotel Riem | Messestadt Riem | ★★★★ | €142.00 | €284.00".
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| [^|\n]* \| €([\d,.]+) \|", results["text"])
    fitting = sorted((float(price), name) for name, area, price in rows if area == "Messestadt Riem")
    hotel = next(name for price, name in fitting if price <= limit)
    stay = _book(tools, hotel, "Book hotel")

    tools.calendar_create_event(
        calendar="Work",
        summary="Flight LH 2058 Hamburg → Munich",
        start="2026-03-16T18:00:00",
        end="2026-03-16T19:10:00",
        location="Hamburg Airport",
    )
    tools.calendar_create_event(
        calendar="Work",
        summary="Flight LH 2075 Munich → Hamburg",
        start="2026-03-18T20:15:00",
        end="2026-03-18T21:25:00",
        location="Munich Airport",
    )
    tools.mail_reply(
        id=request["id"],
        body=(
            "Hi Anna,\n\nthe Data Summit trip is booked on Skyway:\n\n"
            f"- LH 2058 Hamburg → Munich, Mon 16 March 18:00: {outbound}\n"
            f"- {hotel}, Messestadt Riem: {stay}\n"
            f"- LH 2075 Munich → Hamburg, Wed 18 March 20:15: {home}\n\n"
            "Thanks,\nLena"
        ),
    )
