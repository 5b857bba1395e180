"""The mailbox of a `volume.Life`: threads at work and with friends (replies to replies, quoting the
message before), the user's Sent mail, newsletters, statements and bills, orders with their shipping
and delivery notices, receipts, sign-in alerts, bookings, and the invitations and cancellations of
the calendar's events, each dated to fit what it describes and never after `now`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author.content import mail as mails
from stageclaw.author.content.people import Person
from stageclaw.author.content.text import short_day
from stageclaw.author.content.volume import Life, payments


def _add(
    life: Life,
    sender: Person | str,
    to: list[Person | str],
    subject: str,
    body: str,
    when: datetime,
    *,
    folder: str | None = None,
    flags: list[str] | None = None,
    cc: list[Person] | None = None,
    in_reply_to: str | None = None,
) -> tuple[str, dict[str, Any]]:
    flags = flags if flags is not None else life._flags(when)
    message = mails.mail(life.rng, sender, to, subject, body, when, flags=flags, cc=cc, in_reply_to=in_reply_to)
    return life._message(folder or life._folder_for(when, flags), message), message


def _subject(life: Life, subject: str, on: date) -> str | None:
    """`subject`, or with its date when an earlier mail took it (a weekly call's notes); None if avoided."""
    if life._unique_subject(subject):
        return subject
    dated = f"{subject}（{on.month}月{on.day}日）" if life.zh else f"{subject} ({short_day(on)})"
    return dated if life._unique_subject(dated) else None


def _reply_subject(life: Life, subject: str) -> str:
    return f"回复：{subject}" if life.zh else f"Re: {subject}"


def _thread(
    life: Life, subject: str, turns: tuple[str, ...], others: list[Person], first: datetime, work: bool
) -> list[str]:
    """A conversation: `others[0]` opens it, the user and the others answer in turn, each quoting the last."""
    rng, user = life.rng, life.user
    speakers = [others[0]] + [p for n in range(len(turns)) for p in (user, others[(n + 1) % len(others)])]
    register = mails.WORK if work else mails.CASUAL
    out: list[str] = []
    previous: tuple[dict[str, Any], datetime, Person] | None = None
    when = first
    for text, sender in zip(turns, speakers, strict=False):
        if when > life.now:
            break
        if previous is None:
            to_person, subj, quote, parent = user, subject, None, None
        else:
            to_person = previous[2]
            subj, quote, parent = _reply_subject(life, subject), (previous[0], previous[1]), previous[0]["message_id"]
        body = life.letter(sender, to_person, text, register, quote)
        cc = [p for p in others if p not in (sender, to_person)] if work else None
        if sender is user:
            path, message = _add(
                life, user, [to_person], subj, body, when, folder=life.sent, flags=["\\Seen"], cc=cc, in_reply_to=parent
            )
            if previous is not None and "\\Answered" not in previous[0]["flags"]:
                previous[0]["flags"].append("\\Answered")
        else:
            path, message = _add(life, sender, [to_person], subj, body, when, cc=cc, in_reply_to=parent)
        out.append(path)
        previous = (message, when, sender)
        step = timedelta(minutes=rng.randint(20, 400) if work else rng.randint(40, 1500))
        when = life._working_time(when + step) if work else life._evening(when + step)
    return out


def _threads(life: Life, table: tuple[Any, ...], people: list[Person], work: bool, budget: int) -> list[str]:
    rng, t = life.rng, life.t
    out: list[str] = []
    for _ in range(budget * 3):
        if len(out) >= budget:
            break
        subject_t, turns = rng.choice(table)
        project = rng.choice(t.PROJECTS)
        others = rng.sample(people, min(len(people), rng.choice((1, 1, 2, 3)) if work else 1))
        start = life.start + timedelta(minutes=rng.randint(0, int((life.now - life.start).total_seconds() // 60)))
        first = life._working_time(start) if work else life._evening(start)
        subject = _subject(life, subject_t.format(project=project), first.date())
        texts = tuple(turn.format(project=project) for turn in turns)
        if subject is None or not life.avoid.text(*texts) or not life.avoid.day(first.date()):
            continue
        out += _thread(life, subject, texts[: rng.randint(2, len(texts))], others, first, work)
    return out


def _notice(
    life: Life, vendor: tuple[str, str, str], template: tuple[str, str], when: datetime, **values: Any
) -> list[str]:
    name, address, _ = vendor
    values = {"first": life.user.first, "vendor": name, **values}
    subject = _subject(life, template[0].format(**values), when.date())
    body = template[1].format(**values)
    if subject is None or when > life.now or not life.avoid.text(body) or not life.avoid.day(when.date()):
        return []
    return [_add(life, f"{name} <{address}>", [life.user], subject, body, when)[0]]


def _months(life: Life) -> list[date]:
    first = life.start.date().replace(day=1)
    out = []
    while first < life.now.date().replace(day=1):
        out.append(first)
        first = (first + timedelta(days=32)).replace(day=1)
    return out


def _statements(life: Life) -> list[str]:
    """Each month's bank statements (early in the next month) and bills (a week into it, collected
    later that month), their amounts from the ledger."""
    out = []
    for month in _months(life):
        after = (month + timedelta(days=32)).replace(day=1)
        for kind, template, days, hours in (
            ("bank", life.t.BANK_MAIL, (1, 4), (6, 8)),
            ("utility", life.t.UTILITY_MAIL, (8, 8), (7, 10)),
        ):
            for vendor in life._of_kind(kind):
                value = life.book(vendor[0], month, kind)
                on = after + timedelta(days=life.rng.randint(*days))
                when = life._at(on, life.rng.randint(*hours), life.rng.randint(0, 59))
                values = {"month": life._month(month), "amount": life._money(value), "count": payments(value)}
                values["day"] = life._day_text(after + timedelta(days=24))
                out += _notice(life, vendor, template, when, **values)
    return out


def _moment(life: Life, hours: tuple[int, int]) -> datetime:
    on = life.start.date() + timedelta(days=life.rng.randint(0, (life.now - life.start).days))
    return life._at(on, life.rng.randint(*hours), life.rng.randint(0, 59))


def _orders(life: Life, budget: int) -> list[str]:
    rng, t, out = life.rng, life.t, []
    shops = life._of_kind("shop")
    for _ in range(budget * 2):
        if len(out) >= budget or not shops:
            break
        vendor = rng.choice(shops)
        ordered = _moment(life, (8, 22))
        shipped = life._working_time(ordered + timedelta(days=rng.randint(1, 2)))
        delivered = life._at(
            (shipped + timedelta(days=rng.randint(1, 3))).date(), rng.randint(9, 17), rng.randint(0, 59)
        )
        values = {
            "order": f"{rng.randint(100000, 999999)}",
            "item": rng.choice(t.ITEMS[vendor[0]]),
            "amount": life._money(life._amount("shop", rounded=True)),
            "day": life._day_text(delivered.date()),
        }
        if ordered <= life.now:
            life.purchases.append({"when": ordered, "vendor": vendor[0], **values})
        for step, when in (("confirm", ordered), ("ship", shipped), ("deliver", delivered)):
            out += _notice(life, vendor, t.SHOP_MAIL[step], when, time=life.clock(when), **values)
    return out


def _receipts(life: Life, budget: int) -> list[str]:
    rng, t, out = life.rng, life.t, []
    for _ in range(budget * 2):
        if len(out) >= budget:
            break
        kind = rng.choice(("ride", "food"))
        vendors = life._of_kind(kind)
        if not vendors:
            continue
        when = _moment(life, (7, 22) if kind == "ride" else rng.choice(((11, 13), (18, 21))))
        template = t.RIDE_MAIL if kind == "ride" else t.FOOD_MAIL
        place = rng.choice(t.PERSONAL_PLACES if kind == "ride" else t.RESTAURANTS)
        out += _notice(
            life,
            rng.choice(vendors),
            template,
            when,
            day=life._day_text(when.date()),
            time=life.clock(when),
            place=place,
            amount=life._money(life._amount(kind)),
        )
    return out


def _newsletters(life: Life, budget: int) -> list[str]:
    rng, t, out = life.rng, life.t, []
    letters = life._of_kind("newsletter")
    weeks = max(1, (life.now - life.start).days // 7)
    for vendor in letters[: max(1, -(-budget // weeks))]:
        weekday, hour, issue = rng.randint(0, 6), rng.randint(6, 8), rng.randint(40, 300)
        on = life.start.date() + timedelta(days=(weekday - life.start.weekday()) % 7)
        while on <= life.now.date() and len(out) < budget:
            issue += 1
            when = life._at(on, hour, rng.choice((0, 15, 30)))
            out += _notice(
                life,
                vendor,
                t.NEWSLETTER_MAIL,
                when,
                n=issue,
                topic=t.NEWSLETTER_TOPICS[issue % len(t.NEWSLETTER_TOPICS)],
            )
            on += timedelta(days=7)
    return out


def _security(life: Life, budget: int) -> list[str]:
    out = []
    for vendor in life._of_kind("security")[:budget]:
        when = _moment(life, (7, 23))
        out += _notice(
            life,
            vendor,
            life.t.SECURITY_MAIL,
            when,
            day=life._day_text(when.date()),
            time=life.clock(when),
            device=life.rng.choice(life.t.DEVICES),
        )
    return out


def _travel(life: Life, budget: int) -> list[str]:
    rng, out = life.rng, []
    cities = [c.native if life.zh else c.name for c in life.region.cities]
    for vendor in life._of_kind("travel")[:budget]:
        booked = _moment(life, (8, 22))
        leaves = life._at(
            (booked + timedelta(days=rng.randint(7, 40))).date(), rng.randint(7, 19), rng.choice((0, 15, 30, 45))
        )
        a, b = rng.sample(cities, 2) if len(cities) > 1 else (cities[0], cities[0])
        out += _notice(
            life,
            vendor,
            life.t.TRAVEL_MAIL,
            booked,
            order=f"{rng.randint(10000000, 99999999)}",
            route=f"{a} → {b}",
            day=life._day_text(leaves.date()),
            time=life.clock(leaves),
            amount=life._money(life._amount("travel", rounded=True)),
        )
    return out


def _calendar_mail(life: Life, budget: int) -> list[str]:
    """Invitations to the work events others organise, and notices of cancelled occurrences."""
    rng, t, out = life.rng, life.t, []
    lead = life.ensure_cast().colleagues[0]
    for event in life.events:
        if len(out) >= budget:
            break
        if event["kind"] != "work":
            continue
        start = datetime.fromisoformat(event["start"])
        if event.get("organizer") and event["organizer"] != life.user.mailbox and "rrule" not in event:
            who = next(p for p in life.ensure_cast().everyone() if p.mailbox == event["organizer"])
            sent = life._working_time(start - timedelta(days=rng.randint(2, 10)))
            out += _invite(life, who, t.INVITE_MAIL, event["summary"], start, sent, event.get("location", ""))
        for override in event.get("overrides", []):
            if override.get("status") == "CANCELLED":
                when = datetime.fromisoformat(override["recurrence_id"])
                sent = life._working_time(when - timedelta(days=rng.randint(1, 3)))
                out += _invite(life, lead, t.CANCEL_MAIL, event["summary"], when, sent, event.get("location", ""))
    return out


def _invite(
    life: Life, who: Person, template: tuple[str, str], title: str, start: datetime, sent: datetime, place: str
) -> list[str]:
    if sent > life.now or sent >= start:
        return []
    values = {
        "first": life.user.first,
        "who": who.display,
        "title": title,
        "day": life._day_text(start.date()),
        "time": life.clock(start),
        "place": place or "-",
    }
    subject = _subject(life, template[0].format(**values), sent.date())
    if subject is None:
        return []
    return [_add(life, who, [life.user], subject, template[1].format(**values), sent)[0]]


def _sent(life: Life, budget: int) -> list[str]:
    rng, out = life.rng, []
    cast = life.ensure_cast()
    for subject_t, text in life.t.SENT_NOTES[:budget]:
        to = rng.choice(cast.family + cast.colleagues)
        when = life._working_time(_moment(life, (9, 17)))
        subject = _subject(life, subject_t, when.date())
        if subject is None or when > life.now or not life.avoid.text(text):
            continue
        body = life.letter(life.user, to, text, mails.WORK)
        out.append(_add(life, life.user, [to], subject, body, when, folder=life.sent, flags=["\\Seen"])[0])
    return out


def mailbox(life: Life, n: int) -> list[str]:
    """About `n` messages over the months before `now`, across INBOX, Archive and Sent."""
    cast = life.ensure_cast()
    parts: list[tuple[float, Callable[[int], list[str]]]] = [
        (0.08, lambda k: _calendar_mail(life, k)),
        (0.02, lambda k: _security(life, k)),
        (0.02, lambda k: _travel(life, k)),
        (0.02, lambda k: _sent(life, k)),
        (0.14, lambda k: _newsletters(life, k)),
        (0.12, lambda k: _orders(life, k)),
        (0.08, lambda k: _receipts(life, k)),
        (0.07, lambda k: _threads(life, life.t.FRIEND_THREADS, cast.friends, False, k)),
        (0.03, lambda k: _threads(life, life.t.FAMILY_THREADS, cast.family, False, k)),
    ]
    out = _statements(life)
    for share, make in parts:
        out += make(max(1, round(n * share)))
    work = life.t.WORK_THREADS
    for _ in range(20):
        if len(out) >= n:
            break
        out += _threads(life, work, cast.colleagues + cast.clients, True, n - len(out))
    return out
