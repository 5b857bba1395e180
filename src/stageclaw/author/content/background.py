"""The rest of a person's life: mail, events, reminders, notes and contacts that have nothing to do
with the task, so the world is not a stage set with only the props the task needs."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from typing import Any

from stageclaw.author.content import mail as mails
from stageclaw.author.content.people import People, Person
from stageclaw.author.content.places import Region
from stageclaw.author.content.text import MONTHS, day, money, price
from stageclaw.author.draft import TaskDraft

# (sender name, address, subject, body) with {first} {friend} {month} {amount} {order} {day}
NOTICES = (
    (
        "Parcelly",
        "no-reply@parcelly.com",
        "Your parcel is on its way",
        "Hi {first},\n\nGood news: order {order} has left our warehouse and should arrive on {day}.\n\n"
        "Track it any time in the Parcelly app.\n\nThe Parcelly team",
    ),
    (
        "Kite Bank",
        "hello@kitebank.co",
        "Your {month} summary is ready",
        "Hi {first},\n\nYou spent {amount} in {month}. Your biggest category was eating out.\n\n"
        "See the full breakdown in the app.\n\nKite Bank",
    ),
    (
        "Cinema Nova",
        "tickets@cinemanova.org",
        "Members' screening: this month's picks",
        "Hello {first},\n\nThis month's members' screenings are up, with two restored classics and a Q&A night.\n\n"
        "Book early, they fill up fast.\n\nCinema Nova",
    ),
    (
        "Veloshare",
        "support@veloshare.io",
        "Your annual pass renews soon",
        "Hi {first},\n\nJust a heads-up that your annual pass renews automatically next month. Nothing to do if "
        "you want to keep riding.\n\nRide safe,\nVeloshare",
    ),
    (
        "Bookshop Alley",
        "orders@bookshopalley.com",
        "Your order {order} has shipped",
        "Hi {first},\n\nYour books are on the way. Happy reading!\n\nBookshop Alley",
    ),
)
NOTICES_ZH = (
    (
        "顺风快递",
        "noreply@sf-notice.cn",
        "您的快递已发出",
        "{first}您好：\n\n您的订单 {order} 已发货，预计{day}送达。\n\n顺风快递",
    ),
    (
        "招商银行信用卡",
        "service@cmbcc.cn",
        "{month}账单已出",
        "尊敬的{first}：\n\n您本期账单金额为{amount}，请于到期日前还款。\n\n招商银行信用卡中心",
    ),
    (
        "豆瓣读书",
        "noreply@douban.example",
        "你想读的书降价了",
        "{first}你好：\n\n你标记想读的两本书正在促销，快去看看吧。\n\n豆瓣读书",
    ),
)
CHATS = (
    (
        "Dinner on Saturday?",
        "Are you free on Saturday evening? Thinking of trying the new place near the "
        "station. I can book for 8 if that works.",
    ),
    (
        "Photos from the weekend",
        "Finally sorted through the photos from the weekend, a few of them are "
        "actually good. I'll share the album tonight.",
    ),
    ("Climbing Thursday?", "Same time as last week? I'll bring the spare chalk bag."),
    ("Book club", "We're on chapter twelve now, no spoilers please. Next meeting is at mine."),
)
CHATS_ZH = (
    ("周末吃饭？", "周六晚上有空吗？车站附近新开了一家店，想去试试。"),
    ("照片", "周末的照片整理好了，晚点发你。"),
)
# (what, the hours it may start at): dinner in the evening, a haircut in the day.
EVENTS = (
    ("Gym", (7, 18, 19)),
    ("Dinner with {friend}", (19, 20)),
    ("Haircut", (10, 12, 17)),
    ("Yoga class", (7, 18, 19)),
    ("{friend}'s birthday drinks", (18, 19, 20)),
    ("Call with mum", (12, 18, 19)),
)
EVENTS_ZH = (
    ("健身", (7, 18, 19)),
    ("和{friend}吃饭", (18, 19)),
    ("理发", (10, 12, 17)),
    ("瑜伽课", (7, 18, 19)),
    ("给妈妈打电话", (12, 18, 19)),
)
TODOS = (
    "Renew passport photos",
    "Call the bank about the new card",
    "Buy a present for {friend}",
    "Return library books",
    "Water the plants",
    "Cancel the streaming free trial",
    "Book a haircut",
)
TODOS_ZH = ("续办护照照片", "给{friend}买生日礼物", "还图书馆的书", "浇花", "取消视频会员自动续费")
NOTES = (
    ("Books to read", "- The Overstory\n- Piranesi\n- Exhalation\n- Tomorrow, and Tomorrow, and Tomorrow"),
    ("Packing list", "- Passport\n- Chargers (phone, laptop)\n- Adapter\n- Rain jacket\n- Snacks for the train"),
    ("Gift ideas", "{friend}: a good notebook, the cookbook from the market\nMum: a plant for the balcony"),
    ("Wi-Fi at the cabin", "Network: Lakeside-Guest\nPassword is on the fridge, ask before using the sauna."),
)
NOTES_ZH = (("书单", "- 三体\n- 活着\n- 额尔古纳河右岸"), ("行李清单", "- 护照\n- 充电器\n- 转换插头\n- 雨衣"))


class Background:
    """Irrelevant items for one user, added to a draft; every method returns the new items' diff paths."""

    def __init__(
        self, draft: TaskDraft, rng: random.Random, people: People, user: Person, now: datetime, locale: str
    ) -> None:
        self.draft, self.rng, self.people, self.user, self.now, self.locale = draft, rng, people, user, now, locale
        self.region: Region = user.region
        self.friends: list[Person] = []
        self.used: set[str] = set()  # a notice comes once: two "March summary" mails would disagree

    def friend(self) -> Person:
        person = self.people.person(self.region)
        self.friends.append(person)
        return person

    def _pick(self, options: tuple[Any, ...], avoid: str | None) -> Any:
        allowed = [o for o in options if not (avoid and re.search(avoid, str(o), re.IGNORECASE))]
        return self.rng.choice(allowed)

    def mail(self, n: int, folder: str = "INBOX", avoid: str | None = None) -> list[str]:
        zh = self.locale == "zh"
        out = []
        for i in range(n):
            when = self.now - timedelta(days=self.rng.randint(1, 12), minutes=self.rng.randint(0, 900))
            seen = ["\\Seen"] if self.rng.random() < 0.6 else []
            notices = [n for n in (NOTICES_ZH if zh else NOTICES) if n[1] not in self.used]
            if i % 2 == 0 and notices:
                name, address, subject, body = self._pick(tuple(notices), avoid)
                self.used.add(address)
                values = {
                    "first": self.user.first,
                    "month": f"{when.month}月" if zh else MONTHS[(when.month - 2) % 12],
                    # a month's card spending, €400-2,500 in the local money
                    "amount": money(price(self.rng, 40000, 250000, self.region), self.region, self.locale),
                    "order": f"#{self.rng.randint(100000, 999999)}",
                    "day": day((when + timedelta(days=2)).date(), self.locale, self.region),
                }
                message = mails.mail(
                    self.rng,
                    f"{name} <{address}>",
                    [self.user],
                    subject.format(**values),
                    body.format(**values),
                    when,
                    flags=seen,
                )
            else:
                pal = self.friend()
                subject, text = self._pick(CHATS_ZH if zh else CHATS, avoid)
                body = mails.letter(self.rng, pal, self.user, [text], register=mails.CASUAL, locale=self.locale)
                message = mails.mail(self.rng, pal, [self.user], subject, body, when, flags=seen)
            self.draft.add_message(folder, message)
            out.append(f"mail/folders/{folder}/{message['message_id']}")
        return out

    def events(self, n: int, calendar: str, avoid: str | None = None) -> list[str]:
        out = []
        for _ in range(n):
            label, hours = self._pick(EVENTS_ZH if self.locale == "zh" else EVENTS, avoid)
            summary = label.format(friend=(self.friend()).first)
            start = (self.now + timedelta(days=self.rng.randint(-6, 12))).replace(
                hour=self.rng.choice(hours), minute=self.rng.choice((0, 30)), second=0, microsecond=0
            )
            event = {
                "uid": self.draft.uid("evt", summary if self.locale == "en" else "personal"),
                "summary": summary,
                "start": start.isoformat(),
                "end": (start + timedelta(minutes=self.rng.choice((45, 60, 90)))).isoformat(),
            }
            self.draft.add_event(calendar, event)
            out.append(f"calendar/{calendar}/{event['uid']}")
        return out

    def reminders(self, n: int, lst: str, avoid: str | None = None) -> list[str]:
        out = []
        options = [t for t in (TODOS_ZH if self.locale == "zh" else TODOS) if not (avoid and re.search(avoid, t, re.I))]
        for title in self.rng.sample(options, min(n, len(options))):
            text = title.format(friend=self.friend().first) if "{friend}" in title else title
            todo: dict[str, Any] = {"uid": self.draft.uid("r", text if self.locale == "en" else "todo"), "title": text}
            if self.rng.random() < 0.7:
                todo["due"] = (self.now + timedelta(days=self.rng.randint(2, 30))).date().isoformat()
            self.draft.add_reminder(lst, todo)
            out.append(f"reminders/{lst}/{todo['uid']}")
        return out

    def notes(self, n: int, folder: str) -> list[str]:
        out = []
        for title, body in self.rng.sample(NOTES_ZH if self.locale == "zh" else NOTES, n):
            text = body.format(friend=self.friend().first) if "{friend}" in body else body
            note = {"uid": self.draft.uid("n", title if self.locale == "en" else "note"), "title": title, "body": text}
            self.draft.add_note(folder, note)
            out.append(f"notes/{folder}/{note['uid']}")
        return out

    def contacts(self, people: list[Person]) -> list[str]:
        """Address-book entries for people of the world (friends made so far, colleagues)."""
        out = []
        for person in people:
            contact: dict[str, Any] = {"uid": self.draft.uid("c", person.family or person.name), "name": person.name}
            contact["emails"] = [person.email]
            if self.rng.random() < 0.6:
                contact["phones"] = [person.phone]
            if person.org is not None:
                contact["organization"] = person.org.name
            if person.title:
                contact["title"] = person.title
            self.draft.add_contact(contact)
            out.append(f"contacts/{contact['uid']}")
        return out
