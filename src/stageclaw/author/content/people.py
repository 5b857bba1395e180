"""People and organisations of one world: unique names and addresses, drawn from one random stream."""

from __future__ import annotations

import copy
import random
import re
import unicodedata
from dataclasses import dataclass, replace

from stageclaw.author.content.names import CULTURES, Culture
from stageclaw.author.content.places import REGIONS, City, Region

_FOLD = str.maketrans({"ß": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ł": "l", "Ł": "L", "đ": "d", "ı": "i"})
PERSONAL_DOMAINS = {
    "uk": ("gmail.com", "outlook.com", "hotmail.co.uk", "icloud.com"),
    "de": ("posteo.de", "gmx.de", "web.de", "mailbox.org"),
    "us": ("gmail.com", "icloud.com", "yahoo.com", "outlook.com"),
    "mx": ("gmail.com", "hotmail.com", "outlook.com"),
    "in": ("gmail.com", "rediffmail.com", "outlook.com"),
    "au": ("gmail.com", "bigpond.com", "outlook.com"),
    "br": ("gmail.com", "uol.com.br", "hotmail.com"),
    "ng": ("gmail.com", "yahoo.com"),
    "se": ("gmail.com", "telia.com", "proton.me"),
    "fr": ("gmail.com", "orange.fr", "free.fr"),
    "sg": ("gmail.com", "singnet.com.sg"),
    "jp": ("gmail.com", "icloud.com", "docomo.ne.jp"),
    "cn": ("qq.com", "163.com", "126.com", "foxmail.com"),
}


def ascii_fold(text: str) -> str:
    """`Tomás Lindqvist-Ørsted` -> `Tomas Lindqvist-Orsted`: the letters an address can hold."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", ascii_fold(text).lower()).strip("-")


@dataclass(frozen=True)
class Org:
    name: str  # what people call it
    legal: str  # the full name on letters and signatures
    domain: str
    region: Region
    city: City
    phone: str
    address: str


@dataclass(frozen=True)
class Person:
    given: str
    family: str
    culture: Culture
    email: str
    phone: str
    region: Region
    city: City
    native: bool  # shown in the native script (the Chinese locale)
    org: Org | None = None
    title: str = ""
    goes_by: str = ""  # a short or adopted name they sign with

    @property
    def name(self) -> str:
        if self.native and self.culture.native:
            given = self.culture.native.get(self.given, self.given)
            family = self.culture.native.get(self.family, self.family)
            return family + given
        return f"{self.given} {self.family}"

    @property
    def first(self) -> str:
        """How a friend or colleague greets them."""
        if self.native and self.culture.native:
            return self.name
        return self.goes_by or self.given

    @property
    def display(self) -> str:
        """The name on their mail: the one they go by, if they have one."""
        return f"{self.goes_by} {self.family}" if self.goes_by else self.name

    @property
    def mailbox(self) -> str:
        return f"{self.display} <{self.email}>"

    @property
    def tz(self) -> str:
        return self.city.tz

    def known_as(self, given: str, email: str) -> Person:
        """The same person under another first name and address (after a move, in another app)."""
        return replace(self, goes_by=given, email=email)


def _local_part(given: str, family: str, style: int) -> str:
    g, f = (re.sub(r"[^a-z]", "", ascii_fold(x).lower()) for x in (given, family))
    return (f"{g}.{f}", g, f"{g[0]}{f}", f"{g}{f[0]}", f"{g}_{f}", f"{f}.{g}")[style]


class People:
    """Makes the people and organisations of one world, never the same name or address twice."""

    def __init__(self, rng: random.Random, native: bool = False) -> None:
        self.rng = rng
        self.native = native
        self._names: set[tuple[str, str]] = set()
        self._emails: set[str] = set()
        self._orgs: set[str] = set()
        # The names of every person and organisation drawn for this world (full names, in both scripts,
        # organisations' names and domains): a twin of the task must use none of them.
        self.cast: set[str] = set()

    def drawing_with(self, rng: random.Random) -> People:
        """These people, drawing from `rng`: a part of the world drawn last, from a generator of its own so that
        the rest stays as it was, still takes names and addresses the world has not used, and keeps them taken."""
        other = copy.copy(self)  # shallow: the taken names, addresses and cast are shared
        other.rng = rng
        return other

    def culture(self, region: Region) -> Culture:
        return CULTURES[self.rng.choice(region.cultures)]

    def _name(self, culture: Culture, given: str | None, family: str | None) -> tuple[str, str]:
        for _ in range(200):
            pair = (given or self.rng.choice(culture.given), family or self.rng.choice(culture.family))
            if pair not in self._names and pair[0] != pair[1]:
                self._names.add(pair)
                self.cast.add(f"{pair[0]} {pair[1]}")
                if pair[0] in culture.native and pair[1] in culture.native:
                    self.cast.add(culture.native[pair[1]] + culture.native[pair[0]])
                return pair
        raise ValueError(f"ran out of {culture.key} names")

    def email(self, given: str, family: str, domain: str, style: int | None = None) -> str:
        """A free address at `domain` made from the name (with a number if the obvious ones are taken)."""
        styles = [style] if style is not None else self.rng.sample(range(6), 6)
        for s in styles:
            address = f"{_local_part(given, family, s)}@{domain}"
            if address not in self._emails:
                self._emails.add(address)
                return address
        base = _local_part(given, family, styles[0])
        for n in range(2, 100):
            address = f"{base}{n}@{domain}"
            if address not in self._emails:
                self._emails.add(address)
                return address
        raise ValueError(f"no free address for {given} {family} at {domain}")

    def claim(self, address: str) -> str:
        """Reserve an address made by hand (a role address such as billing@...)."""
        if address in self._emails:
            raise ValueError(f"{address} is taken")
        self._emails.add(address)
        return address

    def person(
        self,
        region: Region | str,
        *,
        culture: Culture | str | None = None,
        org: Org | None = None,
        title: str = "",
        given: str | None = None,
        family: str | None = None,
        short_name: bool = False,
        style: int | None = None,
    ) -> Person:
        """Someone from `region`: at `org` (its domain, city and office line) or with a personal address.

        `short_name` picks a given name that has a common short form (for aliasing)."""
        region = REGIONS[region] if isinstance(region, str) else region
        if isinstance(culture, str):
            culture = CULTURES[culture]
        if culture is None:
            pool = [c for c in (self.culture(region) for _ in range(20)) if not short_name or c.short]
            culture = pool[0] if pool else CULTURES["english"]
        if short_name and given is None:
            given = self.rng.choice(sorted(culture.short))
        given, family = self._name(culture, given, family)
        if org is not None:
            city, domain = org.city, org.domain
            phone = f"{org.phone[:-2]}{self.rng.randint(10, 99)}"
        else:
            city = region.city(self.rng)
            domain = self.rng.choice(PERSONAL_DOMAINS[region.key])
            phone = region.phone(self.rng, mobile=True)
        address = self.email(given, family, domain, style)
        native = self.native and bool(culture.native)
        return Person(given, family, culture, address, phone, region, city, native, org, title)

    def staff(self, person: Person, org: Org, title: str) -> Person:
        """`person` working at `org` (an organisation named after them, say): its address, city and line."""
        address = self.email(person.given, person.family, org.domain)
        phone = f"{org.phone[:-2]}{self.rng.randint(10, 99)}"
        return replace(person, email=address, phone=phone, city=org.city, org=org, title=title)

    def org(
        self, region: Region | str, name: str, legal: str, domain: str | None = None, at: City | None = None
    ) -> Org:
        """An organisation in a city of `region` (`at`, or one the seed picks), with its own domain, office
        line and street address."""
        region = REGIONS[region] if isinstance(region, str) else region
        if name in self._orgs:
            raise ValueError(f"organisation {name} exists")
        self._orgs.add(name)
        city = at or region.city(self.rng)
        domain = domain or f"{slug(name).replace('-and-', '-')}.{region.tld}"
        self.cast.update((name, legal, domain))
        return Org(
            name, legal, domain, region, city, region.phone(self.rng, city), region.street_address(self.rng, city)
        )

    def company(self, region: Region | str, at: City | None = None) -> Org:
        """A business: 'Kestrel Analytics' / 'Kestrel Analytics GmbH' (or 星辰科技 in the Chinese locale),
        in the city `at` when given."""
        region = REGIONS[region] if isinstance(region, str) else region
        for _ in range(100):
            if self.native and region.key == "cn":
                (root, pinyin), (trade, trade_en) = self.rng.choice(CN_ROOTS), self.rng.choice(CN_TRADES)
                city = region.city(self.rng)
                name, legal = f"{root}{trade}", f"{city.native}{root}{trade}有限公司"
                domain = f"{pinyin}-{trade_en}.com.cn"
            else:
                root = self.rng.choice(COMPANY_ROOTS)
                name = f"{root} {self.rng.choice(COMPANY_TRADES)}"
                legal, domain = f"{name} {LEGAL_FORMS[region.key]}", None
            if name not in self._orgs:
                return self.org(region, name, legal, domain, at)
        raise ValueError("ran out of company names")


COMPANY_ROOTS = [
    "Orbitals",
    "Brightlane",
    "Kestrel",
    "Tidewater",
    "Quillfeather",
    "Northwind",
    "Lumen",
    "Harbor",
    "Fernhill",
    "Ironbark",
    "Copperleaf",
    "Saltmarsh",
    "Juniper",
    "Meridian",
    "Halcyon",
    "Alder",
    "Larkspur",
    "Corvid",
    "Nimbus",
    "Mosaic",
    "Foxglove",
    "Waypoint",
    "Parallax",
    "Cobalt",
    "Driftwood",
    "Sable",
    "Emberline",
    "Tessera",
    "Bluefin",
    "Granite",
]
COMPANY_TRADES = ("Labs", "Analytics", "Systems", "Studio", "Logistics", "Partners", "Health", "Robotics", "Media")
LEGAL_FORMS = {
    "uk": "Ltd",
    "de": "GmbH",
    "us": "Inc.",
    "mx": "S.A. de C.V.",
    "in": "Pvt Ltd",
    "au": "Pty Ltd",
    "br": "Ltda.",
    "ng": "Ltd",
    "se": "AB",
    "fr": "SAS",
    "sg": "Pte Ltd",
    "jp": "K.K.",
    "cn": "Co., Ltd.",
}
CN_ROOTS = (
    ("星辰", "xingchen"),
    ("远航", "yuanhang"),
    ("云帆", "yunfan"),
    ("蓝海", "lanhai"),
    ("恒信", "hengxin"),
    ("博远", "boyuan"),
    ("鼎新", "dingxin"),
    ("嘉禾", "jiahe"),
    ("启明", "qiming"),
    ("青松", "qingsong"),
)
CN_TRADES = (("科技", "tech"), ("信息技术", "it"), ("文化传媒", "media"), ("物流", "logistics"), ("咨询", "consulting"))
JOB_TITLES = (
    "Account Director",
    "Product Manager",
    "Head of Partnerships",
    "Operations Lead",
    "Senior Consultant",
    "Engineering Manager",
    "Customer Success Manager",
    "Procurement Manager",
    "Marketing Lead",
    "Programme Manager",
)
JOB_TITLES_ZH = ("客户总监", "产品经理", "商务拓展经理", "运营负责人", "高级顾问", "项目经理", "采购经理")
