"""Dates, times and money as people write them (English and Chinese), and the patterns that recognise
them in an agent's answer whichever way it writes them."""

from __future__ import annotations

import random
import re
from datetime import date, datetime, time

from stageclaw.author.content.places import Region

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
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
ZH_DIGITS = "零一二三四五六七八九十"


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


def short_day(d: date, locale: str = "en") -> str:
    """'Thu 12 Mar' or '3月12日'."""
    if locale == "zh":
        return f"{d.month}月{d.day}日"
    return f"{WEEKDAYS[d.weekday()][:3]} {d.day} {MONTHS[d.month - 1][:3]}"


def _zh_number(n: int) -> str:
    if n <= 10:
        return ZH_DIGITS[n]
    return ("十" if n < 20 else ZH_DIGITS[n // 10] + "十") + (ZH_DIGITS[n % 10] if n % 10 else "")


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


def time_regex(t: time | datetime) -> str:
    """A pattern for this time of day in any usual form: 15:00, 15.00, 15h00, 3pm, 3:00 p.m., 下午3点."""
    h, m = t.hour, t.minute
    h12 = h % 12 or 12
    half = "am|a\\.m\\." if h < 12 else "pm|p\\.m\\."
    mm = f"[:.h]{m:02d}"
    forms = [f"(?<![\\d:.]){h:02d}{mm}(?!\\d)", f"(?<![\\d:.]){h}{mm}(?!\\d)"]
    twelve = f"(?<![\\d:.]){h12}(?:[:.]{m:02d})" + ("?" if m == 0 else "") + f"\\s*(?:{half})"
    forms.append(twelve)
    # the start of a range whose half of the day is written once, at its end: "4:00-4:30pm"
    start = f"(?<![\\d:.]){h12}(?:[:.]{m:02d})" + ("?" if m == 0 else "")
    forms.append(f"{start}(?=\\s*(?:-|–|—|to)\\s*\\d{{1,2}}(?:[:.]\\d{{2}})?\\s*(?:{half}))")
    zh_part = "上午|早上|凌晨" if h < 12 else "中午|下午" if h < 18 else "晚上|傍晚"
    zh_minutes = (
        "(?:整|00分|:00)?" if m == 0 else f"(?:{m}分|:{m:02d}|点{m:02d}|半)" if m == 30 else f"(?:{m}分|:{m:02d})"
    )
    forms.append(f"(?:{zh_part})\\s*(?:{h12}|{_zh_number(h12)})(?:点|時|时)?{zh_minutes}")
    return "|".join(dict.fromkeys(forms))


def date_regex(d: date) -> str:
    """A pattern for a calendar day: 12 March, March 12th, 12/3, 2026-03-12, 3月12日."""
    month = MONTHS[d.month - 1]
    dd = f"(?<!\\d)0?{d.day}(?:st|nd|rd|th)?(?!\\d)"  # "05 March" is the same day
    forms = [
        f"{dd}\\.?\\s*(?:of\\s+)?{month[:3]}\\w*",
        f"{month[:3]}\\w*\\.?\\s+{dd}",
        f"{d.isoformat()}",
        f"(?<![\\d/.]){d.day:d}[./]{d.month:d}(?![\\d])|(?<![\\d/.])0?{d.day}[./]0?{d.month}[./]",
        f"{d.month}月{d.day}[日号]",
    ]
    return "|".join(forms)


def full_date_regex(d: date, month_first: bool = False) -> str:
    """A pattern for a day with its year however a table cell writes it: 14 May 2026, May 14, 2026,
    2026-05-14, 14/05/2026 or 14.5.26 (05/14/2026 where months come first). Unlike `date_regex` the
    year is part of it, for tables whose rows span two years."""
    month, year = MONTHS[d.month - 1][:3], d.year
    days = f"0?{d.day}(?:st|nd|rd|th)?"
    first, second = (d.month, d.day) if month_first else (d.day, d.month)
    forms = [
        f"(?<!\\d){days}\\.?\\s+(?:of\\s+)?{month}\\w*\\.?,?\\s+{year}(?!\\d)",
        f"{month}\\w*\\.?\\s+{days},?\\s+{year}(?!\\d)",
        d.isoformat(),
        f"(?<![\\d/.])0?{first}[./-]0?{second}[./-](?:{year}|{year % 100:02d})(?!\\d)",
    ]
    return "|".join(forms)


def day_regex(d: date) -> str:
    """A pattern for a mention of the day: its date in any form, or its weekday (Thursday, Thu, 周四, 星期四)."""
    name = WEEKDAYS[d.weekday()]
    zh = WEEKDAYS_ZH[d.weekday()][1]
    return f"{date_regex(d)}|\\b{name[:3]}(?:{name[3:]})?\\b|(?:周|星期|礼拜){zh}"


def phone_regex(phone: str) -> str:
    """A pattern for a phone number with or without its country code and however it is grouped: its
    last eight digits in order (the same line as `+44 20 7946 0123` or `020 79460123`)."""
    digits = re.sub(r"\D", "", phone)[-8:]
    return "[\\s().-]*".join(digits) + "(?!\\d)"


def figures_regex(sentence: str) -> str | None:
    """A pattern for a line that gives the figures of `sentence` in order, and names what they are
    about with one of its words: 'Booth size stays at 6 x 4 m' is met by 'Booth: 6 x 4 m'. Placeholders
    ({budget}) and digits inside words (+1s) are not figures. None when the sentence has none."""
    plain = re.sub(r"\{\w+\}", " ", sentence)
    numbers = re.findall(r"(?<![\w.,:+])\d+(?!\w|[.,:]\d)", plain)
    if not numbers:
        return None
    words = "|".join(dict.fromkeys(w.lower() for w in re.findall(r"[^\W\d_]{4,}", plain)))
    figures = r"[^\n]*?".join(rf"(?<![\d.,:]){n}(?!\d|[.,:]\d)" for n in numbers)
    return rf"(?m)^(?=[^\n]*\b(?:{words})\b)[^\n]*?{figures}"


def price(rng: random.Random, low: int, high: int, region: Region) -> float:
    """A price between `low` and `high` euro cents, in the region's money and to its minor unit (whole yen)."""
    return round(rng.randint(low, high) / 100 * region.per_euro, region.decimals)


def money(amount: float, region: Region, locale: str = "en") -> str:
    """'€1,234.50', 'MX$4,800.00', '¥12,340' or '1,234.50元': the money's own minor unit."""
    figure = f"{amount:,.{region.decimals}f}"
    if locale == "zh" and region.currency == "CNY":
        return f"{figure}元"
    if region.currency == "SEK":  # kronor are written after the amount
        return f"{figure} kr"
    return f"{region.symbol}{figure}"


def amount_regex(amount: float) -> str:
    """A pattern for a money amount written with or without grouping, with '.' or ',' for the cents."""
    whole, cents = f"{amount:.2f}".split(".")
    groups = f"{int(whole):,}"
    options = {whole, groups, groups.replace(",", "."), groups.replace(",", " "), groups.replace(",", "'")}
    numbers = "|".join(re.escape(o) for o in sorted(options, key=lambda o: (-len(o), o)))
    tail = f"[.,]{cents}" if cents != "00" else f"(?:[.,]{cents})?"
    return f"(?<![\\d.,])(?:{numbers}){tail}(?![\\d]|[.,]\\d)"
