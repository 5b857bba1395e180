"""bill-triage (life_admin): the month's bills into reminders, the paid ones left out.

Bills from the energy supplier, the broadband and mobile providers, the water company and the
insurer sit in the inbox. Some are already paid: the bank export in Downloads shows transfers
with their account numbers. The agent adds a reminder (due date, amount in the title) for each
bill still to pay and, with cross_tool_consistency, files every bill in the Bills folder.

- hidden_dependency: what is paid is only in the bank export (files).
- cross_source_conflict: one provider sent a payment reminder with a late fee and a new due date;
  it supersedes the first bill.
- noisy_data: last month's bills (already filed and paid) and the providers' newsletters.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from stageclaw.author import verifylib as v
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import csv_text
from stageclaw.author.content.people import Person
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import MONTHS, amount_regex, day, money, price
from stageclaw.author.content.timeline import at, pick_now
from stageclaw.author.draft import Check, TaskDraft
from stageclaw.author.family import Context, Family, register
from stageclaw.author.operators import cross_source_conflict as csc
from stageclaw.author.operators import cross_tool_consistency as ctc
from stageclaw.author.operators import file_path, mail_path
from stageclaw.author.operators import hidden_dependency as hd
from stageclaw.author.operators import noisy_data as nd
from stageclaw.author.operators import tool_state_update as tsu
from stageclaw.author.solutions import bill_triage as solution


@dataclass(frozen=True)
class Provider:
    kind: str
    names: tuple[str, ...]
    pattern: str  # what a reminder for it is called, in either language
    low: int
    high: int  # a typical bill, in cents of a euro-like currency
    newsletter: str


PROVIDERS = (
    Provider(
        "energy",
        ("Brightwater Energy", "Octave Power", "Greenfield Electric"),
        r"energy|power|electric|电力|电费",
        4800,
        16500,
        "Five ways to cut your heating costs this winter",
    ),
    Provider(
        "broadband",
        ("Fibrelink", "NetStream Broadband", "Skyline Fibre"),
        r"broadband|fibre|fiber|internet|宽带",
        2900,
        6400,
        "Faster speeds are coming to your street",
    ),
    Provider(
        "mobile",
        ("Volt Mobile", "Tidal Telecom", "Circle Mobile"),
        r"mobile|phone|telecom|移动|话费",
        1500,
        5200,
        "Roam like at home: your summer travel add-ons",
    ),
    Provider(
        "water",
        ("Clearwater Utilities", "Riverside Water"),
        r"\bwater\b|水务|水费",
        2100,
        7800,
        "Water-saving tips for your garden",
    ),
    Provider(
        "insurance",
        ("Harbour Home Insurance", "Keystone Insurance"),
        r"insurance|保险",
        1900,
        9900,
        "Is your contents cover still right for you?",
    ),
)
# The Chinese locale's providers: (kind, name, domain)
PROVIDERS_ZH = {
    "energy": ("国网上海市电力公司", "sgcc-sh.cn"),
    "broadband": ("中国电信宽带", "189-broadband.cn"),
    "mobile": ("中国移动", "10086-notice.cn"),
    "water": ("上海城投水务", "shwater.cn"),
    "insurance": ("平安家财险", "pingan-home.cn"),
}
PROMPTS = (
    "Can you go through my bills in the inbox? For each one I haven't paid yet, add a reminder to my Bills list for "
    "its due date, with the amount in the title. Some I've already paid by bank transfer, check the bank export in "
    "my Downloads.",
    "Please sort out this month's bills: I need a reminder in the Bills list for every bill that's still open (due "
    "on its due date, amount in the title). My bank export in Downloads shows which ones I've paid already.",
)
PROMPTS_ZH = (
    "帮我看一下收件箱里的账单：还没付的每一笔，在「账单」提醒列表里按截止日期加一个提醒，标题里写上金额。有些我已经转账付过了，"
    "可以看下载文件夹里的银行流水。",
)
FILE = " And move all the bill emails into my Bills mail folder."
FILE_ZH = "另外把所有账单邮件都移到「账单」邮件文件夹里。"


@dataclass
class Bill:
    provider: Provider
    name: str
    domain: str
    account: str
    amount: float
    due: date
    paid: bool
    messages: list[dict[str, Any]]


@register
class BillTriage(Family):
    name = "bill-triage"
    group = "life_admin"
    apps = ("mail", "files", "reminders")
    operators = (
        "cross_source_conflict",
        "cross_tool_consistency",
        "hidden_dependency",
        "noisy_data",
        "tool_state_update",
    )
    core = ("hidden_dependency", "tool_state_update")  # what is paid is only ever in the bank export
    locales = ("en", "zh")
    summary = "bills in the inbox into dated reminders with amounts, leaving out those the bank export shows paid"

    def build(self, ctx: Context) -> TaskDraft:
        rng, people, zh = ctx.rng, ctx.people, ctx.zh
        lang = "zh" if zh else "en"
        region = REGIONS["cn" if zh else rng.choice(ENGLISH)]
        me = people.person(region)
        now = pick_now(rng, me.tz)
        lst = folder = "账单" if zh else "Bills"
        draft = TaskDraft(
            id="",
            title="Add reminders for the unpaid bills (due date, amount) and leave out the paid ones",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=900,
            max_steps=50,
        )
        kinds = rng.sample(PROVIDERS, rng.randint(4, 5))
        paid_count = rng.randint(1, len(kinds) - 2)
        paid_kinds = {p.kind for p in rng.sample(kinds, paid_count)}
        bills = [self._bill(rng, region, p, now.date(), p.kind in paid_kinds, zh) for p in kinds]
        late = None
        if ctx.on("cross_source_conflict"):
            late = next(b for b in bills if not b.paid)
        month = self._month(now.month - (1 if now.day < 15 else 0), zh)

        # The bills, one mail each (and a second notice for the late one).
        for bill in bills:
            sent = now - timedelta(days=rng.randint(4, 16), hours=rng.randint(0, 12))
            amount = bill.amount if bill is not late else round(bill.amount - self._fee(region), 2)
            due = bill.due if bill is not late else now.date() - timedelta(days=rng.randint(1, 4))
            if bill is late:
                sent = now - timedelta(days=rng.randint(16, 24))
            message = self._bill_mail(rng, me, bill, amount, due, sent, month, lang, region)
            draft.add_message("INBOX", message)
            bill.messages.append(message)
        if late is not None:
            fee = round(late.amount - late.messages[0]["_amount"], 2)
            body = self._notice(me, late, fee, region, lang)
            notice = mails.mail(
                rng,
                f"{late.name} <billing@{late.domain}>",
                [me],
                f"{late.name}：账单逾期提醒" if zh else f"Payment reminder: your {late.name} bill",
                body,
                at(now.date() - timedelta(days=rng.randint(0, 1)), 8, 30, me.tz),
            )
            draft.add_message("INBOX", notice)
            late.messages.append(notice)
            csc.supersede(
                draft,
                loser=mail_path("INBOX", late.messages[0]),
                winner=mail_path("INBOX", notice),
                rule="the payment reminder adds a late fee and sets a new due date",
                stated=True,
            )
        for bill in bills:
            for message in bill.messages:
                message.pop("_amount", None)

        # The bank export: transfers for the paid bills among the month's other payments.
        statement = f"Downloads/{'银行流水' if zh else 'bank-export'}-{now:%Y-%m}.csv"
        rows = self._statement(rng, bills, now.date(), region, zh)
        header = ["交易日期", "交易摘要", "金额", "余额"] if zh else ["Date", "Description", "Amount", "Balance"]
        draft.add_file(statement, csv_text(header, rows))
        hd.move_fact(
            draft,
            fact="which bills are paid: transfers with their account numbers",
            item=file_path(statement),
            instead_of="the bill mails",
        )

        # The rest of the mailbox and reminders.
        bg = Background(draft, rng, people, me, now, lang)
        bg.reminders(2, lst, avoid="|".join(p.pattern for p in PROVIDERS))
        noise = bg.mail(3, avoid=r"账单|bill|summary|statement")
        draft.mail.setdefault(folder, [])
        if ctx.on("noisy_data"):
            for bill in rng.sample(bills, 2):
                old_amount = round(bill.amount * rng.uniform(0.85, 1.1), 2)
                old_due = bill.due - timedelta(days=30)
                old = self._bill_mail(
                    rng,
                    me,
                    bill,
                    old_amount,
                    old_due,
                    at(old_due - timedelta(days=14), 9, 0, me.tz),
                    self._month(now.month - (2 if now.day < 15 else 1), zh),
                    lang,
                    region,
                )
                old.pop("_amount")
                old["flags"] = ["\\Seen"]
                draft.add_message(folder, old)
                nd.twin(draft, mail_path("INBOX", bill.messages[0]), bill.messages[0], mail_path(folder, old), old)
            letters = []
            for bill in rng.sample(bills, 2):
                letter = mails.mail(
                    rng,
                    f"{bill.name} <news@{bill.domain}>",
                    [me],
                    bill.provider.newsletter,
                    f"Hi {me.first},\n\n"
                    + mails.wrap(
                        f"{bill.provider.newsletter}. Read our latest guide and see what's new at {bill.name}."
                    )
                    + f"\n\nThe {bill.name} team\n\nUnsubscribe any time.",
                    now - timedelta(days=rng.randint(1, 9)),
                )
                draft.add_message("INBOX", letter)
                letters.append(letter)
            nd.irrelevant(draft, [mail_path("INBOX", m) for m in letters] + noise)

        # The request and the checks.
        draft.prompt = rng.choice(PROMPTS_ZH if zh else PROMPTS) + (
            (FILE_ZH if zh else FILE) if ctx.on("cross_tool_consistency") else ""
        )
        open_bills = [b for b in bills if not b.paid]
        draft.summary = f"{len(open_bills)} of {len(bills)} bills are open"
        draft.hint = (
            "Bills sit in the inbox; the bank export shows which are paid; add a dated reminder with the amount for "
            "each open bill"
            + ("; one provider sent a payment reminder with a late fee" if late else "")
            + ("; file every bill in the Bills folder" if ctx.on("cross_tool_consistency") else "")
            + "."
        )
        patterns = {b.provider.kind: f"{b.provider.pattern}|{re.escape(b.name.split()[0])}" for b in open_bills}
        for bill in bills:  # a reminder for one bill must not pass for another
            title = f"Pay {bill.name} {bill.provider.kind} bill"
            hits = sorted(k for k, p in patterns.items() if re.search(p, title, re.IGNORECASE))
            if hits != ([] if bill.paid else [bill.provider.kind]):
                raise AssertionError(f"a reminder {title!r} would pass for {hits}")
        for bill in open_bills:
            label = bill.provider.kind
            draft.check(
                Check(
                    f"{label}_reminder",
                    f"Exactly one open reminder in {lst} for the {bill.name} bill, due {bill.due.isoformat()}, with "
                    f"{money(bill.amount, region, lang)} in its title"
                    + (" (the amount with the late fee)" if bill is late else ""),
                    v.one_reminder,
                    {
                        "pattern": patterns[label],
                        "lst": lst,
                        "due": bill.due.isoformat(),
                        "label": f"{bill.name} bill",
                        "says": amount_regex(bill.amount),
                    },
                    weight=2,
                    stage="reading the bill" + (" and its payment reminder" if bill is late else ""),
                )
            )
        draft.check(
            Check(
                "no_paid_reminders",
                "No reminders for the bills the bank export shows paid ("
                + ", ".join(b.name for b in bills if b.paid)
                + ")",
                v.only_reminders,
                {"patterns": patterns},
                weight=2,
                stage="matching payments to bills",
            )
        )
        allow = [f"+reminders/{lst}/*"]
        writes = ["a reminder per open bill"]
        if ctx.on("cross_tool_consistency"):
            ids = [m["message_id"] for b in bills for m in b.messages]
            draft.check(
                Check(
                    "bills_filed",
                    f"Every bill mail ({len(ids)}) is in the {folder} mail folder and no longer in the inbox",
                    v.filed,
                    {"message_ids": ids, "folder": folder},
                    stage="filing",
                )
            )
            others = [m["message_id"] for m in draft.mail["INBOX"] if m["message_id"] not in ids]
            draft.check(
                Check(
                    "only_bills_filed",
                    f"Nothing but bills was moved to the {folder} folder",
                    v.not_filed,
                    {"message_ids": others, "folder": folder},
                    critical=False,
                    stage="filing",
                )
            )
            ctc.agree(
                draft,
                apps=["reminders", "mail"],
                rule="every bill is filed, and exactly the open ones have reminders",
                items=[*(f"{b.provider.kind}_reminder" for b in open_bills), "bills_filed"],
            )
            for message_id in ids:
                allow += [f"-mail/folders/INBOX/{message_id}", f"+mail/folders/{folder}/{message_id}"]
            writes.append("file the bills")
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/INBOX/*#flags")
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                f"The bank export `{statement}` shows transfers for: "
                + (", ".join(f"{b.name} (account {b.account})" for b in bills if b.paid))
                + ".",
                "",
                "Open bills, each needing exactly one open reminder in the " + lst + " list, due on the due date, with "
                "the amount in the title:",
                "",
                *(
                    f"- {b.name}: {money(b.amount, region, lang)}, due {b.due.isoformat()}"
                    + (" (from the payment reminder: late fee added, new due date)" if b is late else "")
                    for b in open_bills
                ),
                "",
                "No reminders for the paid bills."
                + (
                    f" Every bill mail is moved to the {folder} folder; nothing else is."
                    if ctx.on("cross_tool_consistency")
                    else ""
                ),
                "Nothing else changes.",
            ]
        )
        draft.solution = solution.solve
        draft.facts = {
            "statement": statement,
            "description_column": header[1],
            "list": lst,
            "folder": folder,
            "file_bills": ctx.on("cross_tool_consistency"),
            "bills": [
                {
                    "payee": b.name,
                    "sender": f"billing@{b.domain}",
                    "subject": "账单" if zh else "bill",
                    "amount_shown": money(b.amount, region, lang),
                    "due_shown": day(b.due, lang, region, weekday=False),
                    "due": b.due.isoformat(),
                    "account": b.account,
                    "title": (
                        f"缴{b.name}费用 {money(b.amount, region, lang)}"
                        if zh
                        else f"Pay {b.name} bill ({money(b.amount, region, lang)})"
                    ),
                }
                for b in bills
            ],
        }
        draft.alternatives = {"amount_in_notes": solution.solve_amount_in_notes, "read_all": solution.solve_read_all}
        return draft

    @staticmethod
    def _month(number: int, zh: bool) -> str:
        """The name of a month counted from January 2026 = 1 (0 is last December)."""
        index = (number - 1) % 12
        return f"{index + 1}月" if zh else MONTHS[index]

    @staticmethod
    def _fee(region: Region) -> float:
        """A late fee."""
        return round(5 * region.per_euro, region.decimals)

    def _bill(self, rng: random.Random, region: Region, p: Provider, today: date, paid: bool, zh: bool) -> Bill:
        if zh:
            name, domain = PROVIDERS_ZH[p.kind]
        else:
            name = rng.choice(p.names)
            domain = f"{re.sub(r'[^a-z]', '', name.lower())}.{region.tld}"
        amount = price(rng, p.low, p.high, region)
        due = today + timedelta(days=rng.randint(3, 20))
        account = f"{rng.randint(10, 99)}{rng.randint(100000, 999999)}"
        return Bill(p, name, domain, account, amount, due, paid, [])

    @staticmethod
    def _bill_mail(
        rng: random.Random,
        me: Person,
        bill: Bill,
        amount: float,
        due: date,
        sent: datetime,
        month: str,
        lang: str,
        region: Region,
    ) -> dict[str, Any]:
        shown, when = money(amount, region, lang), day(due, lang, region, weekday=False)
        if lang == "zh":
            subject = f"{bill.name}{month}账单"
            body = (
                f"尊敬的{me.name}：\n\n您的{month}账单已出。\n\n应缴金额：{shown}\n缴费截止日期：{when}\n户号：{bill.account}\n\n"
                f"请在截止日期前通过银行转账缴费，附言请注明户号。\n\n{bill.name}"
            )
        else:
            subject = f"Your {bill.name} bill for {month}"
            body = (
                f"Hi {me.first},\n\nyour {bill.provider.kind} bill for {month} is ready.\n\nAmount due: {shown}\n"
                f"Due date: {when}\nAccount number: {bill.account}\n\nPlease pay by bank transfer by the due date, "
                f"quoting your account number.\n\n{bill.name}\nbilling@{bill.domain}"
            )
        message = mails.mail(
            rng,
            f"{bill.name} <billing@{bill.domain}>",
            [me],
            subject,
            body,
            sent,
            flags=["\\Seen"] if rng.random() < 0.5 else [],
        )
        message["_amount"] = amount  # what this mail asked for (a later notice adds a fee)
        return message

    @staticmethod
    def _notice(me: Person, bill: Bill, fee: float, region: Region, lang: str) -> str:
        shown, when = money(bill.amount, region, lang), day(bill.due, lang, region, weekday=False)
        if lang == "zh":
            return (
                f"尊敬的{me.name}：\n\n您的账单已逾期未缴。已加收滞纳金{money(fee, region, lang)}。\n\n"
                f"现应缴金额：{shown}\n新的缴费截止日期：{when}\n户号：{bill.account}\n\n如已缴费，请忽略本邮件。\n\n{bill.name}"
            )
        return (
            f"Hi {me.first},\n\n"
            + mails.wrap(
                f"we haven't received payment for your last {bill.provider.kind} bill, so we've added a late fee of "
                f"{money(fee, region, lang)}. This reminder replaces the original bill."
            )
            + f"\n\nAmount due now: {shown}\nNew due date: {when}\nAccount number: {bill.account}\n\n"
            f"If you've paid in the last few days, please ignore this message.\n\n{bill.name}"
        )

    @staticmethod
    def _statement(rng: random.Random, bills: list[Bill], today: date, region: Region, zh: bool) -> list[list[str]]:
        balance = price(rng, 150000, 900000, region)
        everyday = (
            ["超市购物", "地铁充值", "咖啡", "外卖"]
            if zh
            else ["CARD PAYMENT SUPERMARKET", "TRANSIT TOP-UP", "CARD PAYMENT CAFE", "CARD PAYMENT PHARMACY"]
        )
        rows = []
        start = today - timedelta(days=24)
        payments = [(start + timedelta(days=rng.randint(0, 22)), b) for b in bills if b.paid]
        for n in range(9):
            when = start + timedelta(days=n * 2 + rng.randint(0, 1))
            rows.append((when, rng.choice(everyday), -price(rng, 300, 9000, region)))
        for when, bill in payments:
            text = f"转账 {bill.name} 户号{bill.account}" if zh else f"TRANSFER {bill.name.upper()} REF {bill.account}"
            rows.append((when, text, -bill.amount))
        rows.append((start + timedelta(days=1), "工资" if zh else "SALARY", round(balance * 0.6, 2)))
        rows.sort(key=lambda r: (r[0], r[1]))
        out = []
        for when, text, amount in rows:
            balance = round(balance + amount, 2)
            out.append([when.isoformat(), text, f"{amount:.2f}", f"{balance:.2f}"])
        return out
