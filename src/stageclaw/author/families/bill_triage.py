"""bill-triage (life_admin): the month's bills into reminders, the paid ones left out.

Eight bills (energy, gas, broadband, mobile, water, TV, insurance, the building's service charge)
sit in the inbox among six months of mail, a year of calendar, contacts, files and notes. Some are
already paid: the bank export in Downloads shows transfers with their account numbers. The agent makes
sure the Bills list has one reminder (due date, amount in the title) for each bill still to pay and,
with cross_tool_consistency, files every bill in the Bills folder.

Levers on every task (see `_levers`, written to the provenance): one bill was paid after the export was
downloaded (the provider's payment confirmation in the inbox says so); one open bill already has a
reminder in the Bills list, for a guessed day and without the amount (it is moved and completed, not
doubled); one bill's mail gives neither amount nor due date, only its attached statement does. In the
user's general list, in their own words, sit two more: one jotted from an open bill's first mail (with the
late bill, the amount before the fee and the old date), which is moved to the Bills list with the right date
and amount or replaced, never left next to a new one; and one for a bill the bank export shows paid, which is
ticked off or deleted (the request says paid bills should no longer remind the user).

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
from stageclaw.author.content import life_en, life_zh
from stageclaw.author.content import mail as mails
from stageclaw.author.content.background import Background
from stageclaw.author.content.files import csv_text
from stageclaw.author.content.people import Person
from stageclaw.author.content.places import ENGLISH, REGIONS, Region
from stageclaw.author.content.text import MONTHS, amount_regex, day, money, price
from stageclaw.author.content.timeline import at, pick_now
from stageclaw.author.content.volume import Avoid, Life, Scale, arrival_order
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
    Provider(
        "gas",
        ("Northgate Gas", "Hearthline Gas"),
        r"\bgas\b|燃气",
        2500,
        9800,
        "Get your boiler serviced before the cold sets in",
    ),
    Provider(
        "property",
        ("Parkview Property Management", "Oakridge Estates Management"),
        r"property|service charge|物业",
        6000,
        24000,
        "Works planned in the communal gardens",
    ),
    Provider(
        "tv",
        ("Skyview TV", "Vista Television"),
        r"\btv\b|television|电视",
        1200,
        4800,
        "New channels in your package this month",
    ),
)
# What the user calls each bill in a reminder of their own, per language.
NOUNS = {
    "energy": ("electricity", "电费"),
    "broadband": ("broadband", "宽带费"),
    "mobile": ("phone", "话费"),
    "water": ("water", "水费"),
    "insurance": ("home insurance", "保险费"),
    "gas": ("gas", "燃气费"),
    "property": ("service charge", "物业费"),
    "tv": ("TV", "有线电视费"),
}
# Background vendors that send bills or statements: the story's bills are the only ones in the mailbox.
BILLERS = tuple(
    name for table in (life_en.VENDORS, life_zh.VENDORS) for name, _, kind in table if kind in ("bank", "utility")
)
# The Chinese locale's providers: (kind, name, domain)
PROVIDERS_ZH = {
    "energy": ("国网上海市电力公司", "sgcc-sh.cn"),
    "broadband": ("中国电信宽带", "189-broadband.cn"),
    "mobile": ("中国移动", "10086-notice.cn"),
    "water": ("上海城投水务", "shwater.cn"),
    "insurance": ("平安家财险", "pingan-home.cn"),
    "gas": ("上海燃气", "shgas.cn"),
    "property": ("锦绣物业服务", "jinxiu-wuye.cn"),
    "tv": ("东方有线电视", "dfcatv.cn"),
}
PROMPTS = (
    "Can you go through my bills in the inbox? For each one I haven't paid yet, make sure my Bills list has a "
    "reminder for its due date, with the amount in the title. Some I've already paid by bank transfer, check the "
    "bank export in my Downloads, and I don't want to be reminded about those any more.",
    "Please sort out this month's bills: I need one reminder in the Bills list for every bill that's still open (due "
    "on its due date, amount in the title). My bank export in Downloads shows which ones I've paid already; nothing "
    "should still nag me about those.",
)
PROMPTS_ZH = (
    "帮我看一下收件箱里的账单：还没付的每一笔，确保「账单」提醒列表里有一个按截止日期的提醒，标题里写上金额。有些我已经转账付过了，"
    "可以看下载文件夹里的银行流水，付过的就别再提醒我了。",
)
NEWSLETTERS_ZH = {
    "energy": "冬季取暖省电五个小窍门",
    "broadband": "千兆光纤即将覆盖您所在的小区",
    "mobile": "出境漫游流量包上新",
    "water": "节约用水，从家里做起",
    "insurance": "您的家财险保障还够用吗？",
    "gas": "入冬前记得检查燃气热水器",
    "property": "小区绿化改造工程安排",
    "tv": "本月套餐新增频道",
}
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
    confirmed: bool = False  # paid after the bank export was downloaded: the provider confirmed it by mail

    @property
    def noun(self) -> tuple[str, str]:
        return NOUNS[self.provider.kind]


@register
class BillTriage(Family):
    name = "bill-triage"
    group = "life_admin"
    apps = ("mail", "calendar", "contacts", "files", "notes", "reminders")
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
            title="Make sure each unpaid bill has one reminder (due date, amount) and leave out the paid ones",
            group=self.group,
            now=now.isoformat(),
            timezone=me.tz,
            user={"name": me.name, "email": me.email},
            time_budget_s=1800,
            max_steps=120,
        )
        kinds = rng.sample(PROVIDERS, len(PROVIDERS))
        # Four or five open bills, one paid after the export was downloaded, the rest paid in the export.
        roles = ["open"] * rng.choice((4, 5)) + ["confirmed"]
        roles += ["paid"] * (len(kinds) - len(roles))
        rng.shuffle(roles)
        bills = [
            self._bill(rng, region, p, now.date(), role == "paid", zh) for p, role in zip(kinds, roles, strict=True)
        ]
        for bill, role in zip(bills, roles, strict=True):
            bill.confirmed = role == "confirmed"
        open_bills = [b for b in bills if not b.paid and not b.confirmed]
        late = open_bills[0] if ctx.on("cross_source_conflict") else None
        stale_bill, attached = open_bills[1], open_bills[2]
        confirmed = next(b for b in bills if b.confirmed)
        month = self._month(now.month - (1 if now.day < 15 else 0), zh)

        # The rest of the user's life first; the bills' mail is the only billing mail in it.
        words = [b.name for b in bills] + list(BILLERS) + (["账单", "缴费", "电费", "水费"] if zh else ["bill"])
        life = Life(draft, rng, people, me, now, lang, avoid=Avoid(words=words, paths=["Downloads"]), months=6)
        background = life.fill(Scale(messages=180, series=6, events=60, contacts=40, files=30, notes=6, reminders=8))

        # The bills, one mail each (and a second notice for the late one).
        for bill in bills:
            sent = at(now.date() - timedelta(days=rng.randint(5, 16)), rng.randint(7, 19), rng.randint(0, 59), me.tz)
            amount = bill.amount if bill is not late else round(bill.amount - self._fee(region), 2)
            due = bill.due if bill is not late else now.date() - timedelta(days=rng.randint(1, 4))
            if bill is late:
                sent = at(
                    now.date() - timedelta(days=rng.randint(16, 24)), rng.randint(7, 19), rng.randint(0, 59), me.tz
                )
            message = self._bill_mail(rng, me, bill, amount, due, sent, month, lang, region)
            message["_due"] = due  # popped with `_amount`
            if bill is attached:
                self._attach(draft, message, me, bill, month, lang, region, now)
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
        first = {b.name: (b.messages[0]["_amount"], b.messages[0]["_due"]) for b in bills}  # what the user saw first
        for bill in bills:
            for message in bill.messages:
                message.pop("_amount", None)
                message.pop("_due", None)
        receipt = self._receipt(rng, me, confirmed, now, lang, region)
        draft.add_message("INBOX", receipt)

        # The bank export: transfers for the paid bills among the month's other payments, up to a few days ago.
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

        # The user's own reminder for one open bill: a guessed day, no amount.
        stale = {
            "uid": draft.uid("r", f"pay {stale_bill.provider.kind}"),
            "title": f"{stale_bill.noun[1]}" if zh else f"Pay {stale_bill.noun[0]} bill",
            "due": (stale_bill.due - timedelta(days=rng.randint(3, 8))).isoformat(),
        }
        if zh:
            stale["title"] = f"交{stale_bill.noun[1]}"
        bg = Background(draft, rng, people, me, now, lang)
        bg.reminders(2, lst, avoid="|".join(p.pattern for p in PROVIDERS))
        draft.add_reminder(lst, stale)
        own = self._own_reminders(rng, draft, open_bills[0], next(b for b in bills if b.paid), first, region, lang)
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
                subject, text = (
                    (f"{bill.name}用户通讯：{NEWSLETTERS_ZH[bill.provider.kind]}", f"{me.first}，您好：\n\n")
                    if zh
                    else (bill.provider.newsletter, f"Hi {me.first},\n\n")
                )
                text += (
                    f"本期话题：{NEWSLETTERS_ZH[bill.provider.kind]}。欢迎阅读我们的最新指南。\n\n{bill.name}\n\n如不想再收到本邮件，可随时退订。"
                    if zh
                    else mails.wrap(
                        f"{bill.provider.newsletter}. Read our latest guide and see what's new at {bill.name}."
                    )
                    + f"\n\nThe {bill.name} team\n\nUnsubscribe any time."
                )
                sent = at(now.date() - timedelta(days=rng.randint(1, 9)), rng.randint(9, 18), rng.randint(0, 59), me.tz)
                letter = mails.mail(rng, f"{bill.name} <news@{bill.domain}>", [me], subject, text, sent)
                draft.add_message("INBOX", letter)
                letters.append(letter)
            nd.irrelevant(draft, [mail_path("INBOX", m) for m in letters] + background[:30])
        arrival_order(draft)

        # The request and the checks.
        draft.prompt = rng.choice(PROMPTS_ZH if zh else PROMPTS) + (
            (FILE_ZH if zh else FILE) if ctx.on("cross_tool_consistency") else ""
        )
        draft.summary = f"{len(open_bills)} of {len(bills)} bills are open"
        draft.hint = (
            "Bills sit in the inbox; the bank export shows which are paid (and a provider confirms one payment made "
            "since); make sure each open bill has one dated reminder with the amount (one already has a reminder "
            "for a guessed day; one bill's amount is only in its attachment)"
            + ("; one provider sent a payment reminder with a late fee" if late else "")
            + ("; file every bill in the Bills folder" if ctx.on("cross_tool_consistency") else "")
            + "."
        )
        patterns = {b.provider.kind: f"{b.provider.pattern}|{re.escape(b.name.split()[0])}" for b in bills}
        for bill in bills:  # a reminder for one bill must not pass for another
            for title in (
                f"Pay {bill.name} {bill.provider.kind} bill",
                f"Pay {bill.noun[0]} bill",
                f"交{bill.noun[1]}",
            ):
                hits = sorted(k for k, p in patterns.items() if re.search(p, title, re.IGNORECASE))
                if hits != [bill.provider.kind]:
                    raise AssertionError(f"a reminder {title!r} would pass for {hits}")
        for bill in open_bills:
            label = bill.provider.kind
            args: dict[str, Any] = {
                "pattern": patterns[label],
                "lst": lst,
                "due": bill.due.isoformat(),
                "label": f"{bill.name} bill",
                "says": amount_regex(bill.amount),
            }
            if bill is stale_bill:
                args["stale"] = stale["uid"]
            if bill is own["open_bill"]:
                args["stale"] = own["open"]["uid"]
                args["stated"] = {"amounts": [bill.amount]}  # not the first mail's amount the user jotted down
            draft.check(
                Check(
                    f"{label}_reminder",
                    f"Exactly one open reminder in {lst} for the {bill.name} bill, due {bill.due.isoformat()}, with "
                    f"{money(bill.amount, region, lang)} in its title"
                    + (" (the amount with the late fee)" if bill is late else "")
                    + (
                        f" (the user's reminder {stale['title']!r} moved to it, not doubled)"
                        if bill is stale_bill
                        else ""
                    )
                    + (" (the amount and date are in the attached statement)" if bill is attached else "")
                    + (
                        f" (the user's own {own['open']['title']!r} in {own['list']}, due {own['open']['due']}, moved "
                        "to it or replaced; not left next to it)"
                        if bill is own["open_bill"]
                        else ""
                    ),
                    v.one_reminder,
                    args,
                    weight=2,
                    stage="reading the bill"
                    + (" and its payment reminder" if bill is late else "")
                    + (" and its attachment" if bill is attached else "")
                    + (" and the reminders already set" if bill is stale_bill else ""),
                )
            )
        open_patterns = {b.provider.kind: patterns[b.provider.kind] for b in open_bills}
        draft.check(
            Check(
                "no_paid_reminders",
                "No reminders for the bills that are paid ("
                + ", ".join(b.name for b in bills if b.paid or b.confirmed)
                + ")",
                v.only_reminders,
                {"patterns": open_patterns, "closed": [own["paid"]["uid"]]},
                weight=2,
                stage="matching payments to bills",
            )
        )
        draft.check(
            Check(
                "paid_after_export",
                f"No reminder for the {confirmed.name} bill: the provider confirmed the payment after the bank export",
                v.no_new_items,
                {
                    "app": "reminders",
                    "pattern": patterns[confirmed.provider.kind],
                    "label": f"the paid {confirmed.name} bill",
                },
                weight=2,
                stage="checking the provider's mail for payments since the export",
            )
        )
        paid_bill = own["paid_bill"]
        draft.check(
            Check(
                "paid_reminder_closed",
                f"The user's own reminder {own['paid']['title']!r} ({own['list']}) for the {paid_bill.name} bill, "
                "which the bank export shows paid, is ticked off or deleted",
                v.reminder_settled,
                {"uid": own["paid"]["uid"], "label": f"paying the {paid_bill.name} bill"},
                weight=2,
                stage="matching payments to bills",
            )
        )
        allow = [f"+reminders/{lst}/*", f"~reminders/{lst}/{stale['uid']}#*", f"-reminders/{lst}/{stale['uid']}"]
        for todo in (own["open"], own["paid"]):
            allow += [f"~reminders/{own['list']}/{todo['uid']}#*", f"-reminders/{own['list']}/{todo['uid']}"]
        allow.append("+files/**")  # the attached statement, saved to read it
        writes = ["a reminder per open bill", "the user's own reminders moved", "the paid bill's reminder closed"]
        receipt_id = receipt["message_id"]
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
            others = [m["message_id"] for m in draft.mail["INBOX"] if m["message_id"] not in [*ids, receipt_id]]
            draft.check(
                Check(
                    "only_bills_filed",
                    f"Nothing but bills (and the payment confirmation) was moved to the {folder} folder",
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
            for message_id in [*ids, receipt_id]:
                allow += [f"-mail/folders/INBOX/{message_id}", f"+mail/folders/{folder}/{message_id}"]
            writes.append("file the bills")
        tsu.require(draft, writes, *allow)
        draft.permit("~mail/folders/*/*#flags")
        draft.goal = "\n".join(
            [
                "# Goal",
                "",
                f"The bank export `{statement}` shows transfers for: "
                + (", ".join(f"{b.name} (account {b.account})" for b in bills if b.paid))
                + f". {confirmed.name} confirmed by mail a payment made after the export: it is paid too.",
                "",
                "Open bills, each needing exactly one open reminder in the " + lst + " list, due on the due date, with "
                "the amount in the title:",
                "",
                *(
                    f"- {b.name}: {money(b.amount, region, lang)}, due {b.due.isoformat()}"
                    + (" (from the payment reminder: late fee added, new due date)" if b is late else "")
                    + (
                        f" (the user's reminder {stale['title']!r} due {stale['due']} is moved to it and gets the "
                        "amount, or is replaced; not doubled)"
                        if b is stale_bill
                        else ""
                    )
                    + (" (amount and due date only in the attached statement)" if b is attached else "")
                    + (
                        f" (the user's own {own['open']['title']!r} in {own['list']}, due {own['open']['due']}, is "
                        f"moved to the {lst} list with this date and amount, or replaced; not left next to it)"
                        if b is own["open_bill"]
                        else ""
                    )
                    for b in open_bills
                ),
                "",
                f"The user's own {own['paid']['title']!r} in {own['list']} is for the {paid_bill.name} bill, paid "
                "(bank export): it is ticked off or deleted.",
                "",
                "No reminders for the paid bills."
                + (
                    f" Every bill mail is moved to the {folder} folder (the payment confirmation may go too); nothing "
                    "else is."
                    if ctx.on("cross_tool_consistency")
                    else ""
                ),
                "Saving the attachment to read it is fine. Nothing else changes.",
            ]
        )
        draft.solution = solution.solve
        draft.facts = {
            "statement": statement,
            "description_column": header[1],
            "list": lst,
            "folder": folder,
            "file_bills": ctx.on("cross_tool_consistency"),
            "receipt": "缴费成功" if zh else "Payment received",
            "bills": [
                {
                    "payee": b.name,
                    "sender": f"billing@{b.domain}",
                    "subject": "账单" if zh else "bill",
                    "amount_shown": money(b.amount, region, lang),
                    "due_shown": day(b.due, lang, region, weekday=False),
                    "due": b.due.isoformat(),
                    "account": b.account,
                    "attachment": b is attached,
                    "keyword": b.noun[1] if zh else b.noun[0],
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
        draft.note_levers(self._levers(late, stale_bill, stale, attached, confirmed, region, lang, own))
        return draft

    @staticmethod
    def _own_reminders(
        rng: random.Random,
        draft: TaskDraft,
        open_bill: Bill,
        paid_bill: Bill,
        first: dict[str, tuple[float, date]],
        region: Region,
        lang: str,
    ) -> dict[str, Any]:
        """Two reminders the user jotted in their general list, in their own words, when the bills came: one
        for a bill still open, with what its first mail asked (before the payment reminder's fee and new date),
        and one for a bill the bank export shows paid since."""
        general = life_zh.REMINDER_LISTS[0] if lang == "zh" else life_en.REMINDER_LISTS[0]
        out: dict[str, Any] = {"list": general}
        for role, bill in (("open", open_bill), ("paid", paid_bill)):
            amount, due = first[bill.name]
            if bill is open_bill and amount == bill.amount and due == bill.due:
                due = bill.due - timedelta(days=rng.randint(2, 5))  # a day of the user's own, before the bill's
            shown, noun = money(amount, region, lang), bill.noun[1 if lang == "zh" else 0]
            if lang == "zh":
                title = rng.choice(("记得转{amount}{noun}", "{noun}{amount}，别忘了", "转账：{noun} {amount}"))
            else:
                title = rng.choice(
                    ("{Noun} {amount} - transfer it", "Send the {noun} money ({amount})", "{Noun}: {amount} to go out")
                )
            todo = {
                "uid": draft.uid("r", f"{bill.provider.kind} money"),
                "title": title.format(amount=shown, noun=noun, Noun=noun[0].upper() + noun[1:]),
                "due": due.isoformat(),
            }
            draft.add_reminder(general, todo)
            out[role] = todo
            out[f"{role}_bill"] = bill
        return out

    @staticmethod
    def _levers(
        late: Bill | None,
        stale_bill: Bill,
        stale: dict[str, Any],
        attached: Bill,
        confirmed: Bill,
        region: Region,
        lang: str,
        own: dict[str, Any],
    ) -> dict[str, str]:
        """Which planted difficulty each rubric item grades, for classifying a failed play."""
        out = {
            f"{stale_bill.provider.kind}_reminder": f"D half done: the Bills list already has {stale['title']!r} due "
            f"{stale['due']} without the amount; it is moved to {stale_bill.due.isoformat()} with "
            f"{money(stale_bill.amount, region, lang)} (or replaced), not doubled",
            f"{attached.provider.kind}_reminder": f"E one hop away: the {attached.name} mail gives neither amount nor "
            "due date; only its attached statement does",
            "paid_after_export": f"F stale source: the bank export predates the {confirmed.name} payment; the "
            "provider's confirmation in the inbox says it is paid",
            "no_paid_reminders": "E one hop away: which bills are paid is only in the bank export",
        }
        if late is not None:
            out[f"{late.provider.kind}_reminder"] = (
                f"F stale source: the first {late.name} bill is superseded by the payment reminder (late fee, new due "
                "date)"
            )
        bill, todo = own["open_bill"], own["open"]
        key = f"{bill.provider.kind}_reminder"
        line = (
            f"D disguised, another list: the user's own {todo['title']!r} in {own['list']} (due {todo['due']}, the "
            f"first mail's figures) is moved to the Bills list with {money(bill.amount, region, lang)} due "
            f"{bill.due.isoformat()}, or replaced; not left next to a new one"
        )
        out[key] = f"{out[key]}; {line}" if key in out else line
        paid = own["paid_bill"]
        out["paid_reminder_closed"] = (
            f"D disguised, another list: the user's own {own['paid']['title']!r} in {own['list']} is for the "
            f"{paid.name} bill the bank export shows paid; it is ticked off or deleted, not left open"
        )
        return out

    def _attach(
        self,
        draft: TaskDraft,
        message: dict[str, Any],
        me: Person,
        bill: Bill,
        month: str,
        lang: str,
        region: Region,
        now: datetime,
    ) -> None:
        """The bill's amount and due date move from the mail's body into its attached statement (CSV)."""
        shown, when = money(bill.amount, region, lang), day(bill.due, lang, region, weekday=False)
        base = round(bill.amount * 0.3, region.decimals)
        usage = round(bill.amount - base, region.decimals)
        if lang == "zh":
            name = f"账单明细-{now:%Y%m}.csv"
            rows = [["基本费", money(base, region, lang)], ["使用费", money(usage, region, lang)]]
            rows += [["应缴金额", shown], ["缴费截止日期", when], ["户号", bill.account]]
            data = csv_text(["项目", "金额"], rows)
            message["body"] = (
                f"尊敬的{me.name}：\n\n您的{month}电子账单已出，应缴金额及缴费截止日期详见附件。\n\n"
                f"请在截止日期前通过银行转账缴费，附言请注明户号。\n\n{bill.name}"
            )
        else:
            name = f"{re.sub(r'[^a-z]', '', bill.name.lower())}-statement-{now:%Y-%m}.csv"
            rows = [["Standing charge", money(base, region, lang)], ["Usage", money(usage, region, lang)]]
            rows += [["Total due", shown], ["Due date", when], ["Account number", bill.account]]
            data = csv_text(["Item", "Amount"], rows)
            message["body"] = (
                f"Hi {me.first},\n\nyour {bill.provider.kind} bill for {month} is ready: the amount due and the due "
                f"date are in the attached statement.\n\nPlease pay by bank transfer by the due date, quoting your "
                f"account number.\n\n{bill.name}\nbilling@{bill.domain}"
            )
        message["attachments"] = [{"filename": name, "path": draft.add_asset(name, data)}]

    @staticmethod
    def _receipt(
        rng: random.Random, me: Person, bill: Bill, now: datetime, lang: str, region: Region
    ) -> dict[str, Any]:
        """The provider's confirmation of a payment made after the bank export was downloaded."""
        paid = now.date() - timedelta(days=rng.randint(1, 3))
        shown, when = money(bill.amount, region, lang), day(paid, lang, region, weekday=False)
        if lang == "zh":
            subject = f"{bill.name}：缴费成功通知"
            body = (
                f"尊敬的{me.name}：\n\n您于{when}缴纳的{shown}已到账（户号{bill.account}）。"
                f"感谢您的支持！\n\n{bill.name}"
            )
        else:
            subject = f"Payment received - thank you ({bill.name})"
            body = (
                f"Hi {me.first},\n\nthanks: we received your payment of {shown} on {when} for account "
                f"{bill.account}. Your balance is now zero.\n\n{bill.name}"
            )
        return mails.mail(
            rng,
            f"{bill.name} <billing@{bill.domain}>",
            [me],
            subject,
            body,
            at(paid, rng.randint(17, 20), rng.choice((5, 20, 40)), me.tz),
        )

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
        payments = [
            (start + timedelta(days=rng.randint(0, 18)), b) for b in bills if b.paid
        ]  # the export ends days ago
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
