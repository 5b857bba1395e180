"""Reference solution for inbox-followup-1, using the same tools as any agent."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


FACTS = {'window': ['2026-04-30', '2026-05-14'],
 'questions': [{'asker': 'Rebecca Sinclair',
                'meeting': 'Steering committee',
                'answer': "Hi Rebecca,\n\nIt's on {when}, in the {where}.\n\nBest,\nEnrique"},
               {'asker': 'Ximena Navarro',
                'meeting': 'Hiring committee',
                'answer': "Hi Ximena,\n\nIt's on {when}, in the {where}.\n\nBest,\nEnrique"},
               {'asker': 'Margaret Winslow',
                'meeting': 'Quarterly planning',
                'answer': "Hi Margaret,\n\nIt's on {when}, in the {where}.\n\nBest,\nEnrique"}],
 'requests': [{'requester': 'Dan Osborne',
               'contact': 'Daniel Osborne',
               'document': 'project plan',
               'filename': 'project-plan.pdf',
               'note': None,
               'cover': "Hi Dan,\n\nHere's the project plan you asked for.\n\nBest,\nEnrique",
               'known_only': True},
              {'requester': 'Rachel Caldwell',
               'contact': 'Rachel Caldwell',
               'document': 'data processing agreement',
               'filename': 'dpa.pdf',
               'note': 'Call with Emberline Labs',
               'cover': 'Hi Rachel,\n'
                        '\n'
                        "As promised on our call, here's the data processing agreement.\n"
                        '\n'
                        'Best,\n'
                        'Enrique',
               'known_only': False}],
 'folder': 'Newsletters',
 'newsletters': ['Harbour Lines', 'Design Weekly', 'Riverside Runners'],
 'promises': [{'promised_to': 'Diego Aguilar',
               'promise': "I'll send you my comments on the process map the day before the quarterly "
                          'planning.',
               'due': None,
               'meeting': 'Quarterly planning',
               'reminder': 'Send Diego my comments on the process map',
               'short': 'Comments on the process map to Diego',
               'names': ['Diego', 'Aguilar'],
               'word': 'process map',
               'own': 'Diego: my notes on the process map',
               'given': 'Diego'},
              {'promised_to': 'Eduardo Ortega',
               'promise': "Tuesday 5 May it is: I'll send you my comments on the budget then.",
               'due': '2026-05-05',
               'meeting': None,
               'reminder': 'Send Eduardo my comments on the draft budget',
               'short': 'Comments on the draft budget to Eduardo',
               'names': ['Eduardo', 'Ortega'],
               'word': 'budget',
               'own': 'Eduardo: my notes on the budget',
               'given': 'Eduardo'}],
 'list': 'Work',
 'own_list': 'Reminders',
 'me': 'Enrique'}
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")


def every(search: Any, key: str | None, **args: Any) -> list[dict[str, Any]]:
    """Everything a paged tool call finds (`search(**args)` returning `key`, or its one list, and
    `next_cursor`), page by page."""
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = search(**args, **({"cursor": cursor} if cursor else {}))
        found += page[key] if key else next(v for v in page.values() if isinstance(v, list))
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def _jotted(tools, x):
    """The user's own jotting of the promise in their everyday list (given name and the word, their wording)."""
    todos = every(tools.reminders_list, "reminders", list=FACTS["own_list"])
    given = x["given"]
    return [
        t
        for t in todos
        if given in t["title"] and x["word"].casefold() in t["title"].casefold() and not t.get("completed")
    ]


def _existing(tools, x, lst=None):
    """An open reminder the user already set for this promise in Work (or `lst`): what to review, and the
    colleague's name, in its title."""
    todos = every(tools.reminders_list, "reminders", list=lst or FACTS["list"])
    named = [t for t in todos if any(re.search(rf"\b{re.escape(n)}\b", t["title"]) for n in x["names"])]
    return [t for t in named if x["word"].casefold() in t["title"].casefold() and not t.get("completed")]


def _start(event):
    return datetime.fromisoformat(event["start"])


def _event(tools, name, zone):
    """The next meeting of that name in the calendar (the calendar has its current time)."""
    window = FACTS["window"]
    found = tools.calendar_list_events(start=window[0], end=window[1], query=name)["events"]
    meeting = tools.calendar_get_event(uid=min(found, key=_start)["uid"])
    return meeting, _start(meeting).astimezone(zone)


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _due(tools, x, zone):
    """The promise is in the last mail sent to that colleague before the leave."""
    sent = tools.mail_search(folder="Sent", recipient=x["promised_to"])["messages"]
    promise = one_line(tools.mail_read(id=newest(sent)["id"])["body"])
    assert x["promise"] in promise, "the sent mail does not hold the expected promise"
    if x["due"]:
        return x["due"]
    _, start = _event(tools, x["meeting"], zone)
    return (start.date() - timedelta(days=1)).isoformat()


def address(value: str) -> str:
    match = re.search(r"<([^<>]+)>", value or "")
    return (match.group(1) if match else value or "").strip().lower()


def _newsletters(tools, by_sender=False):
    """Every issue in the inbox of the newsletters the user reads, whatever address it comes from now (by
    name); or, with `by_sender`, by the senders of the issues already filed, then by name."""
    f = FACTS
    names = list(f["newsletters"])
    if by_sender:
        filed = tools.mail_search(folder=f["folder"], limit=200)["messages"]
        known = sorted({address(m["from"]) for m in filed})
        for sender in known:
            for issue in tools.mail_search(folder="INBOX", sender=sender, limit=200)["messages"]:
                tools.mail_move(id=issue["id"], folder=f["folder"])
    for name in names:
        for issue in tools.mail_search(folder="INBOX", sender=name, limit=200)["messages"]:
            tools.mail_move(id=issue["id"], folder=f["folder"])


def redirected(tools: Any, sent: list[str]) -> dict[str, str]:
    """Where to write instead, by the message id of each of the mails `sent` whose automatic reply (an
    out-of-office notice, a mailbox that has moved) names another address."""
    instead = {}
    for mid in sent:
        for found in tools.mail_search(folder="INBOX", text=mid)["messages"]:
            reply = tools.mail_read(id=found["id"])
            named = [
                a
                for a in re.findall(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", reply["body"])
                if a.lower() != address(reply["from"])
            ]
            if reply["in_reply_to"] == mid and named:
                instead[mid] = named[0]
    return instead


def _thread_subject(message):
    return "Re: " + re.sub(r"^(?:re:\s*)+", "", message["subject"], flags=re.IGNORECASE)


def _send_on_file(tools, request, contact, document, body):
    """The document to the address on file, in the request's thread: a personal address only their own mail
    vouches for is not one to send a client's document to. The sent message's id."""
    return tools.mail_send(
        to=[f"{contact['name']} <{contact['emails'][0]}>"],
        subject=_thread_subject(request),
        body=body,
        attachments=[document],
        in_reply_to=request["message_id"],
    )["message_id"]


def _document(tools, r):
    """The client's latest request, their contact, and the document from their company's folder: the mail
    names it, or the user's note of the call the mail refers to does."""
    requests = tools.mail_search(folder="INBOX", sender=r["requester"])["messages"]
    request = tools.mail_read(id=newest(requests)["id"])
    if r["note"]:
        notes = tools.notes_search(query=r["note"])["notes"]
        said = " ".join(one_line(n["body"]) for n in notes)
    else:
        said = one_line(request["body"])
    assert r["document"] in said, "the request (or its call note) is not for the expected document"
    surname = r["contact"].split()[-1]
    contact = next(c for c in tools.contacts_search(query=surname)["contacts"] if c["name"] == r["contact"])
    entries = tools.files_list(path=f"Clients/{contact['organization']}")["entries"]
    document = next(e["path"] for e in entries if e["path"].rsplit("/", 1)[-1] == r["filename"])
    return request, contact, document


def clock(t: time | datetime, locale: str = "en", twelve: bool = False) -> str:
    """'15:00', '3pm', '3:30pm', or '下午3点' / '15:00'."""
    if locale == "zh":
        if not twelve:
            return f"{t.hour:02d}:{t.minute:02d}"
        part = "上午" if t.hour < 12 else "下午" if t.hour < 18 else "晚上"
        hour = t.hour if t.hour <= 12 else t.hour - 12
        return f"{part}{hour}点" + (f"{t.minute}分" if t.minute else "")
    if not twelve:
        return f"{t.hour:02d}:{t.minute:02d}"
    hour = t.hour % 12 or 12
    suffix = "am" if t.hour < 12 else "pm"
    return f"{hour}{suffix}" if not t.minute else f"{hour}:{t.minute:02d}{suffix}"


def day(d: date, locale: str = "en", region: Region | None = None, weekday: bool = True) -> str:
    """'Thursday 12 March', 'Thursday, March 12' (US) or '3月12日（周四）'."""
    if locale == "zh":
        return f"{d.month}月{d.day}日" + (f"（{WEEKDAYS_ZH[d.weekday()]}）" if weekday else "")
    name = WEEKDAYS[d.weekday()]
    if region is not None and region.month_first:
        text = f"{MONTHS[d.month - 1]} {d.day}"
        return f"{name}, {text}" if weekday else text
    text = f"{d.day} {MONTHS[d.month - 1]}"
    return f"{name} {text}" if weekday else text


def _question(tools, q, zone):
    """The colleague's question and the meeting it is about."""
    asked = tools.mail_search(folder="INBOX", sender=q["asker"], subject=q["meeting"])["messages"]
    meeting, start = _event(tools, q["meeting"], zone)
    return newest(asked), meeting, start


def solve(tools):
    f = FACTS
    zone = ZoneInfo(tools.now()["timezone"])
    for q in f["questions"]:
        question, meeting, start = _question(tools, q, zone)
        when = f"{day(start.date())} at {clock(start)}"
        tools.mail_reply(id=question["id"], body=q["answer"].format(when=when, where=meeting["location"]))

    # Each client's latest mail counts; their company (from the address book) names the folder.
    sent = []
    for r in f["requests"]:
        request, contact, document = _document(tools, r)
        sent.append(_send_on_file(tools, request, contact, document, r["cover"]))
    for mid, instead in redirected(tools, sent).items():  # on leave: forwarded to the colleague the reply names
        [mine] = tools.mail_search(folder="Sent", text=mid)["messages"]
        tools.mail_forward(
            id=mine["id"], to=[instead], body=f"Hello,\n\nAs the automatic reply asked, here is my mail.\n\n{f['me']}"
        )
    _newsletters(tools)
    for x in f["promises"]:
        due = _due(tools, x, zone)
        found = _existing(tools, x)
        own = _jotted(tools, x)
        if found:
            tools.reminders_update(uid=found[0]["uid"], due=due)
            for todo in own:  # the same promise in the everyday list: one reminder is enough
                tools.reminders_delete(uid=todo["uid"])
        elif own:  # moved into Work, for the day promised
            tools.reminders_update(uid=own[0]["uid"], list=f["list"], due=due)
        else:
            tools.reminders_create(title=x["reminder"], list=f["list"], due=due)
