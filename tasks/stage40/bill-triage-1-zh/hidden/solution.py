"""Reference solution for bill-triage-1-zh, using the same tools as any agent."""

from __future__ import annotations

import csv
import io
from datetime import datetime


FACTS = {'statement': 'Downloads/银行流水-2026-11.csv',
 'description_column': '交易摘要',
 'list': '账单',
 'folder': '账单',
 'file_bills': True,
 'bills': [{'payee': '上海城投水务',
            'sender': 'billing@shwater.cn',
            'subject': '账单',
            'amount_shown': '246.61元',
            'due_shown': '11月26日',
            'due': '2026-11-26',
            'account': '73102404',
            'title': '缴上海城投水务费用 246.61元'},
           {'payee': '中国电信宽带',
            'sender': 'billing@189-broadband.cn',
            'subject': '账单',
            'amount_shown': '216.65元',
            'due_shown': '11月21日',
            'due': '2026-11-21',
            'account': '66346120',
            'title': '缴中国电信宽带费用 216.65元'},
           {'payee': '中国移动',
            'sender': 'billing@10086-notice.cn',
            'subject': '账单',
            'amount_shown': '275.80元',
            'due_shown': '11月20日',
            'due': '2026-11-20',
            'account': '60831609',
            'title': '缴中国移动费用 275.80元'},
           {'payee': '国网上海市电力公司',
            'sender': 'billing@sgcc-sh.cn',
            'subject': '账单',
            'amount_shown': '1,038.17元',
            'due_shown': '11月28日',
            'due': '2026-11-28',
            'account': '50936804',
            'title': '缴国网上海市电力公司费用 1,038.17元'},
           {'payee': '平安家财险',
            'sender': 'billing@pingan-home.cn',
            'subject': '账单',
            'amount_shown': '394.38元',
            'due_shown': '11月23日',
            'due': '2026-11-23',
            'account': '36732213',
            'title': '缴平安家财险费用 394.38元'}]}


def one_line(text: str) -> str:
    """Text with its line breaks and runs of spaces made single spaces (mail bodies are wrapped)."""
    return " ".join((text or "").split())


def newest(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The most recent message: when sources disagree, the later one speaks last."""
    return max(messages, key=lambda m: datetime.fromisoformat(m["date"]))


def solve(tools):
    f = FACTS
    export = tools.files_read(path=f["statement"])["content"]
    paid = " ".join(row[f["description_column"]] for row in csv.DictReader(io.StringIO(export)))

    for bill in f["bills"]:
        found = tools.mail_search(folder="INBOX", sender=bill["sender"], subject=bill["subject"])["messages"]
        latest = tools.mail_read(id=newest(found)["id"])  # a payment reminder supersedes the first bill
        text = one_line(latest["body"])
        assert bill["amount_shown"] in text and bill["due_shown"] in text, f"{bill['payee']}: unexpected bill"
        if bill["account"] not in paid:  # no payment with its account number in the bank export
            tools.reminders_create(title=bill["title"], list=f["list"], due=bill["due"])
        if f["file_bills"]:
            for message in found:
                tools.mail_move(id=message["id"], folder=f["folder"])
