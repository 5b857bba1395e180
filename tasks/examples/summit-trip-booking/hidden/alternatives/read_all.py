"""Alternative solution for summit-trip-booking: reads every message and every policy note first; the
calendar events carry the flight numbers in their descriptions, and the reply lists the references."""

import re


def _ref(page, pattern):
    return int(re.search(pattern, page["text"]).group(1))


def _book(tools, name, button):
    tools.browser_click(text=name)
    done = tools.browser_click(text=button)
    return re.search(r"booking reference is (\w+)", done["text"]).group(1)


def solve(tools):
    for message in tools.mail_search(folder="INBOX")["messages"]:
        tools.mail_read(id=message["id"])
    notes = {n["title"]: tools.notes_read(uid=n["uid"]) for n in tools.notes_search(query="travel policy")["notes"]}
    limit = float(re.search(r"Munich: €(\d+)", notes["Travel policy 2026"]["body"]).group(1))
    request = tools.mail_read(id=tools.mail_search(sender="anna", subject="Data Summit")["messages"][0]["id"])

    search = tools.browser_open(url="/travel/")
    tools.browser_select(ref=_ref(search, r"\{(\d+): select name=origin "), option="Hamburg (HAM)")
    tools.browser_select(ref=_ref(search, r"\{(\d+): select name=destination "), option="Munich (MUC)")
    tools.browser_fill(ref=_ref(search, r"\{(\d+): input type=date name=date "), value="2026-03-16")
    tools.browser_click(text="Search flights")
    outbound = _book(tools, "LH 2058", "Book flight")
    tools.browser_open(url="/travel/flights?origin=Munich&destination=Hamburg&date=2026-03-18")
    home = _book(tools, "LH 2075", "Book flight")
    results = tools.browser_open(url="/travel/hotels?city=Munich&check_in=2026-03-16&check_out=2026-03-18")
    rows = re.findall(r"\[\d+\] ([^|\n]+) \| ([^|\n]+) \| [^|\n]* \| €([\d,.]+) \|", results["text"])
    hotel = sorted((float(p), n) for n, a, p in rows if a == "Messestadt Riem" and float(p) <= limit)[0][1]
    stay = _book(tools, hotel, "Book hotel")

    tools.calendar_create_event(
        calendar="Work",
        summary="Flight to Munich",
        start="2026-03-16T18:00:00",
        end="2026-03-16T19:10:00",
        description=f"LH 2058, booking {outbound}",
    )
    tools.calendar_create_event(
        calendar="Work",
        summary="Flight home",
        start="2026-03-18T20:15:00",
        end="2026-03-18T21:25:00",
        description=f"LH 2075, booking {home}",
    )
    tools.mail_reply(id=request["id"], body=f"Booked: {outbound}, {home}, {stay}. Lena")
