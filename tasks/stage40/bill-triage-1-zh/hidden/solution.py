"""Reference solution for bill-triage-1-zh, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime


FACTS = {'statement': 'Downloads/银行流水-2026-11.csv',
 'description_column': '交易摘要',
 'list': '账单',
 'folder': '账单',
 'file_bills': True,
 'receipt': '缴费成功',
 'bills': [{'payee': '锦绣物业服务',
            'sender': 'billing@jinxiu-wuye.cn',
            'subject': '账单',
            'amount_shown': '1,592.06元',
            'due_shown': '11月20日',
            'due': '2026-11-20',
            'account': '86986757',
            'attachment': False,
            'keyword': '物业费',
            'title': '缴锦绣物业服务费用 1,592.06元'},
           {'payee': '上海燃气',
            'sender': 'billing@shgas.cn',
            'subject': '账单',
            'amount_shown': '709.57元',
            'due_shown': '11月20日',
            'due': '2026-11-20',
            'account': '60831609',
            'attachment': False,
            'keyword': '燃气费',
            'title': '缴上海燃气费用 709.57元'},
           {'payee': '东方有线电视',
            'sender': 'billing@dfcatv.cn',
            'subject': '账单',
            'amount_shown': '344.37元',
            'due_shown': '11月28日',
            'due': '2026-11-28',
            'account': '50936804',
            'attachment': False,
            'keyword': '有线电视费',
            'title': '缴东方有线电视费用 344.37元'},
           {'payee': '上海城投水务',
            'sender': 'billing@shwater.cn',
            'subject': '账单',
            'amount_shown': '455.05元',
            'due_shown': '11月23日',
            'due': '2026-11-23',
            'account': '36732213',
            'attachment': True,
            'keyword': '水费',
            'title': '缴上海城投水务费用 455.05元'},
           {'payee': '中国电信宽带',
            'sender': 'billing@189-broadband.cn',
            'subject': '账单',
            'amount_shown': '339.22元',
            'due_shown': '11月16日',
            'due': '2026-11-16',
            'account': '49164998',
            'attachment': False,
            'keyword': '宽带费',
            'title': '缴中国电信宽带费用 339.22元'},
           {'payee': '中国移动',
            'sender': 'billing@10086-notice.cn',
            'subject': '账单',
            'amount_shown': '178.62元',
            'due_shown': '11月24日',
            'due': '2026-11-24',
            'account': '29449638',
            'attachment': False,
            'keyword': '话费',
            'title': '缴中国移动费用 178.62元'},
           {'payee': '国网上海市电力公司',
            'sender': 'billing@sgcc-sh.cn',
            'subject': '账单',
            'amount_shown': '852.23元',
            'due_shown': '11月19日',
            'due': '2026-11-19',
            'account': '33726795',
            'attachment': False,
            'keyword': '电费',
            'title': '缴国网上海市电力公司费用 852.23元'},
           {'payee': '平安家财险',
            'sender': 'billing@pingan-home.cn',
            'subject': '账单',
            'amount_shown': '284.31元',
            'due_shown': '11月19日',
            'due': '2026-11-19',
            'account': '62982056',
            'attachment': False,
            'keyword': '保险费',
            'title': '缴平安家财险费用 284.31元'}]}


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


def _own(tools, bill):
    """The open reminders the user already has for this bill (its word in the title): in the Bills list, or in
    another list with a sum of money ("Water the plants" is no bill)."""
    todos = every(tools.reminders_list, "reminders")
    word = rf"(?<![a-z]){re.escape(bill['keyword'])}(?![a-z])"  # "water", not the "water" of Brightwater
    return [
        t
        for t in todos
        if re.search(word, t["title"], re.IGNORECASE) and (t["list"] == FACTS["list"] or re.search(r"\d", t["title"]))
    ]


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def _text(tools, bill, latest):
    """What the bill says: its mail, or the statement attached to it when the mail points there."""
    if not bill["attachment"]:
        return one_line(latest["body"])
    saved = tools.mail_save_attachment(id=latest["id"], path="Downloads/")
    return one_line(tools.files_read(path=saved["path"])["content"])


def _bills(tools, export):
    """Each bill with its latest mail (a payment reminder supersedes the first bill), its mails, and whether
    it is paid: a payment with its account number in the bank export, or the provider's confirmation of a
    payment made since."""
    f = FACTS
    paid = " ".join(row[f["description_column"]] for row in csv.DictReader(io.StringIO(export)))
    out = []
    for bill in f["bills"]:
        mails = tools.mail_search(folder="INBOX", sender=bill["sender"])["messages"]
        found = [m for m in mails if bill["subject"] in m["subject"]]
        confirmed = [m for m in mails if f["receipt"] in m["subject"]]
        latest = tools.mail_read(id=newest(found)["id"])
        text = _text(tools, bill, latest)
        assert bill["amount_shown"] in text and bill["due_shown"] in text, f"{bill['payee']}: unexpected bill"
        if confirmed:
            said = one_line(tools.mail_read(id=newest(confirmed)["id"])["body"])
            assert bill["account"] in said, f"{bill['payee']}: the confirmation is for another account"
        out.append((bill, found, bill["account"] in paid or bool(confirmed)))
    return out


def solve(tools):
    f = FACTS
    for bill, found, paid in _bills(tools, tools.files_read(path=f["statement"])["content"]):
        if not paid:
            own = _own(tools, bill)
            if own:
                tools.reminders_update(uid=own[0]["uid"], title=bill["title"], due=bill["due"], list=f["list"])
            else:
                tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
        else:
            for todo in _own(tools, bill):  # paid: nothing should remind the user of it (ticking off would do too)
                tools.reminders_delete(uid=todo["uid"])
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
