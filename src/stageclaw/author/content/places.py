"""Where people live: regions with their cities, time zones, phone numbers, money and streets."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class City:
    name: str
    tz: str
    area: str  # the phone area code, as dialled after the country code
    local: str  # the local number's shape: '#' is a digit
    streets: tuple[tuple[str, str], ...]  # (street, its postcode): a postcode belongs to its district
    native: str  # the name in the Chinese locale

    @property
    def street_names(self) -> list[str]:
        return [street for street, _ in self.streets]


@dataclass(frozen=True)
class Region:
    key: str
    country: str
    currency: str
    symbol: str
    dial: str
    mobile: str  # a mobile number's shape after the country code
    tld: str
    cultures: tuple[str, ...]  # repeated entries weigh more
    cities: tuple[City, ...]
    month_first: bool = False  # US dates: March 12
    address: str = "{street} {number}, {postcode} {city}"

    def city(self, rng: random.Random) -> City:
        return rng.choice(self.cities)

    def phone(self, rng: random.Random, city: City | None = None, mobile: bool = False) -> str:
        shape = self.mobile if mobile or city is None else f"{city.area} {city.local}"
        return f"{self.dial} " + "".join(str(rng.randint(0, 9)) if c == "#" else c for c in shape)

    def street_address(self, rng: random.Random, city: City) -> str:
        street, postcode = rng.choice(city.streets)
        # Japanese addresses number the block and the building (chōme-banchi-gō), not the street.
        number = (
            f"{rng.randint(1, 4)}-{rng.randint(1, 25)}-{rng.randint(1, 12)}"
            if self.key == "jp"
            else rng.randint(2, 240)
        )
        return self.address.format(
            street=street, postcode=postcode, number=number, city=city.native if self.key == "cn" else city.name
        )

    @property
    def per_euro(self) -> float:
        """Roughly how many units of the money one euro buys: prices are drawn in euros and shown locally."""
        return MONEY[self.currency][0]

    @property
    def decimals(self) -> int:
        """The money's minor unit: 2 (cents) for most, 0 for the yen."""
        return MONEY[self.currency][1]


MONEY = {
    "GBP": (0.86, 2),
    "EUR": (1.0, 2),
    "USD": (1.08, 2),
    "MXN": (18.5, 2),
    "INR": (90.0, 2),
    "AUD": (1.65, 2),
    "BRL": (5.6, 2),
    "NGN": (1650.0, 2),
    "SEK": (11.4, 2),
    "SGD": (1.46, 2),
    "JPY": (162.0, 0),
    "CNY": (7.8, 2),
}


def _streets(text: str) -> tuple[tuple[str, str], ...]:
    """'Street @ postcode; ...' as (street, postcode) pairs."""
    pairs = [part.split(" @ ") for part in text.split(";")]
    return tuple((street.strip(), code.strip()) for street, code in pairs)


REGIONS: dict[str, Region] = {
    r.key: r
    for r in (
        Region(
            "uk",
            "United Kingdom",
            "GBP",
            "£",
            "+44",
            "7### ######",
            "co.uk",
            ("english", "english", "english", "indian", "igbo", "yoruba", "polish", "arabic", "akan"),
            (
                City(
                    "London",
                    "Europe/London",
                    "20",
                    "7### ####",
                    _streets(
                        "Bishopsgate @ EC2M 4YE; Mare Street @ E8 3RL; Cowcross Street @ EC1M 6DR; "
                        "Rye Lane @ SE15 4QN; Upper Street @ N1 2XG; Kingsland Road @ E8 4AA"
                    ),
                    "伦敦",
                ),
                City(
                    "Manchester",
                    "Europe/London",
                    "161",
                    "496 ####",
                    _streets("Deansgate @ M3 4LQ; Oldham Street @ M1 1JQ; Portland Street @ M1 3BN"),
                    "曼彻斯特",
                ),
                City(
                    "Edinburgh",
                    "Europe/London",
                    "131",
                    "496 ####",
                    _streets("Leith Walk @ EH6 5HW; Broughton Street @ EH1 3RJ; Cockburn Street @ EH1 1BS"),
                    "爱丁堡",
                ),
            ),
            address="{number} {street}, {city} {postcode}",
        ),
        Region(
            "de",
            "Germany",
            "EUR",
            "€",
            "+49",
            "1## #######",
            "de",
            ("german", "german", "german", "turkish", "polish", "nordic", "igbo", "arabic"),
            (
                City(
                    "Berlin",
                    "Europe/Berlin",
                    "30",
                    "#### ####",
                    _streets(
                        "Greifswalder Straße @ 10405; Schönhauser Allee @ 10437; Sonnenallee @ 12047; "
                        "Oranienstraße @ 10999; Kastanienallee @ 10435"
                    ),
                    "柏林",
                ),
                City(
                    "Hamburg",
                    "Europe/Berlin",
                    "40",
                    "#### ####",
                    _streets("Schanzenstraße @ 20357; Große Bergstraße @ 22767; Lange Reihe @ 20099"),
                    "汉堡",
                ),
                City(
                    "München",
                    "Europe/Berlin",
                    "89",
                    "#### ####",
                    _streets("Lindwurmstraße @ 80337; Gollierstraße @ 80339; Wörthstraße @ 81667"),
                    "慕尼黑",
                ),
            ),
        ),
        Region(
            "us",
            "United States",
            "USD",
            "$",
            "+1",
            "### 555 01##",
            "com",
            ("english", "english", "spanish", "indian", "chinese", "korean", "vietnamese", "akan"),
            (
                City(
                    "Chicago",
                    "America/Chicago",
                    "312",
                    "555 01##",
                    _streets("W Randolph St @ IL 60607; N Milwaukee Ave @ IL 60622; S Halsted St @ IL 60607"),
                    "芝加哥",
                ),
                City(
                    "New York",
                    "America/New_York",
                    "212",
                    "555 01##",
                    _streets("Lafayette St @ NY 10013; E 4th St @ NY 10003; Greenwich Ave @ NY 10011"),
                    "纽约",
                ),
                City(
                    "Seattle",
                    "America/Los_Angeles",
                    "206",
                    "555 01##",
                    _streets("Pike St @ WA 98101; E Union St @ WA 98122; Westlake Ave N @ WA 98109"),
                    "西雅图",
                ),
                City(
                    "Denver",
                    "America/Denver",
                    "303",
                    "555 01##",
                    _streets("Larimer St @ CO 80202; Blake St @ CO 80202; E Colfax Ave @ CO 80206"),
                    "丹佛",
                ),
            ),
            month_first=True,
            address="{number} {street}, {city} {postcode}",
        ),
        Region(
            "mx",
            "Mexico",
            "MXN",
            "MX$",
            "+52",
            "55 #### ####",
            "com.mx",
            ("spanish", "spanish", "spanish", "spanish", "english"),
            (
                City(
                    "Ciudad de México",
                    "America/Mexico_City",
                    "55",
                    "#### ####",
                    _streets(
                        "Av. Álvaro Obregón @ 06700; Calle Durango @ 06700; Av. Insurgentes Sur @ 03100; "
                        "Calle Colima @ 06700"
                    ),
                    "墨西哥城",
                ),
                City(
                    "Guadalajara",
                    "America/Mexico_City",
                    "33",
                    "#### ####",
                    _streets("Av. Chapultepec @ 44160; Calle López Cotilla @ 44160"),
                    "瓜达拉哈拉",
                ),
            ),
        ),
        Region(
            "in",
            "India",
            "INR",
            "₹",
            "+91",
            "98### #####",
            "in",
            ("indian", "indian", "indian", "indian", "english"),
            (
                City(
                    "Bengaluru",
                    "Asia/Kolkata",
                    "80",
                    "#### ####",
                    _streets(
                        "100 Feet Road, Indiranagar @ 560038; 80 Feet Road, Koramangala @ 560095; "
                        "Church Street @ 560001"
                    ),
                    "班加罗尔",
                ),
                City(
                    "Pune",
                    "Asia/Kolkata",
                    "20",
                    "#### ####",
                    _streets("North Main Road, Koregaon Park @ 411001; FC Road @ 411004"),
                    "浦那",
                ),
            ),
            address="{number}, {street}, {city} {postcode}",
        ),
        Region(
            "au",
            "Australia",
            "AUD",
            "A$",
            "+61",
            "4## ### ###",
            "com.au",
            ("english", "english", "chinese", "vietnamese", "indian", "italian"),
            (
                City(
                    "Melbourne",
                    "Australia/Melbourne",
                    "3",
                    "9### ####",
                    _streets("Smith Street @ VIC 3065; Flinders Lane @ VIC 3000; Brunswick Street @ VIC 3065"),
                    "墨尔本",
                ),
                City(
                    "Sydney",
                    "Australia/Sydney",
                    "2",
                    "9### ####",
                    _streets("Crown Street @ NSW 2010; King Street @ NSW 2000; George Street @ NSW 2000"),
                    "悉尼",
                ),
                City(
                    "Brisbane",
                    "Australia/Brisbane",
                    "7",
                    "3### ####",
                    _streets("James Street @ QLD 4006; Ann Street @ QLD 4000"),
                    "布里斯班",
                ),
            ),
            address="{number} {street}, {city} {postcode}",
        ),
        Region(
            "br",
            "Brazil",
            "BRL",
            "R$",
            "+55",
            "11 9####-####",
            "com.br",
            ("brazilian", "brazilian", "brazilian", "japanese", "italian"),
            (
                City(
                    "São Paulo",
                    "America/Sao_Paulo",
                    "11",
                    "####-####",
                    _streets("Av. Paulista @ 01310-100; Rua Augusta @ 01305-000; Rua dos Pinheiros @ 05422-010"),
                    "圣保罗",
                ),
            ),
            address="{street}, {number}, {postcode} {city}",
        ),
        Region(
            "ng",
            "Nigeria",
            "NGN",
            "₦",
            "+234",
            "803 ### ####",
            "com.ng",
            ("yoruba", "yoruba", "igbo", "igbo"),
            (
                City(
                    "Lagos",
                    "Africa/Lagos",
                    "1",
                    "### ####",
                    _streets("Adeola Odeku Street @ 101241; Admiralty Way @ 106104; Allen Avenue @ 100271"),
                    "拉各斯",
                ),
            ),
            address="{number} {street}, {city} {postcode}",
        ),
        Region(
            "se",
            "Sweden",
            "SEK",
            "kr",
            "+46",
            "70 ### ## ##",
            "se",
            ("nordic", "nordic", "nordic", "arabic", "polish"),
            (
                City(
                    "Stockholm",
                    "Europe/Stockholm",
                    "8",
                    "### ### ##",
                    _streets("Götgatan @ 118 46; Odengatan @ 113 51; Hornsgatan @ 118 20"),
                    "斯德哥尔摩",
                ),
            ),
        ),
        Region(
            "fr",
            "France",
            "EUR",
            "€",
            "+33",
            "6 ## ## ## ##",
            "fr",
            ("french", "french", "french", "arabic", "italian"),
            (
                City(
                    "Paris",
                    "Europe/Paris",
                    "1",
                    "## ## ## ##",
                    _streets("rue Oberkampf @ 75011; rue du Faubourg Saint-Denis @ 75010; boulevard Voltaire @ 75011"),
                    "巴黎",
                ),
                City(
                    "Lyon",
                    "Europe/Paris",
                    "4",
                    "## ## ## ##",
                    _streets("rue Mercière @ 69002; avenue Jean Jaurès @ 69007"),
                    "里昂",
                ),
            ),
            address="{number} {street}, {postcode} {city}",
        ),
        Region(
            "sg",
            "Singapore",
            "SGD",
            "S$",
            "+65",
            "9### ####",
            "com.sg",
            ("chinese", "chinese", "indian", "english", "korean"),
            (
                City(
                    "Singapore",
                    "Asia/Singapore",
                    "6",
                    "### ####",
                    _streets("Telok Ayer Street @ 068886; Orchard Road @ 238873; Tiong Bahru Road @ 168735"),
                    "新加坡",
                ),
            ),
            address="{number} {street}, {city} {postcode}",
        ),
        Region(
            "jp",
            "Japan",
            "JPY",
            "¥",
            "+81",
            "90 #### ####",
            "co.jp",
            ("japanese", "japanese", "japanese", "english"),
            (
                City(
                    "Tokyo",
                    "Asia/Tokyo",
                    "3",
                    "#### ####",
                    _streets(
                        "Dogenzaka, Shibuya-ku @ 150-0043; Roppongi, Minato-ku @ 106-0032; "
                        "Kagurazaka, Shinjuku-ku @ 162-0825"
                    ),
                    "东京",
                ),
            ),
            address="{number} {street}, {city} {postcode}",
        ),
        Region(
            "cn",
            "China",
            "CNY",
            "¥",
            "+86",
            "138 #### ####",
            "cn",
            ("chinese",),
            (
                City(
                    "Shanghai",
                    "Asia/Shanghai",
                    "21",
                    "#### ####",
                    _streets("南京西路 @ 200040; 淮海中路 @ 200031; 武康路 @ 200031"),
                    "上海",
                ),
                City(
                    "Beijing",
                    "Asia/Shanghai",
                    "10",
                    "#### ####",
                    _streets("建国门外大街 @ 100022; 三里屯路 @ 100027; 东直门内大街 @ 100007"),
                    "北京",
                ),
                City(
                    "Shenzhen",
                    "Asia/Shanghai",
                    "755",
                    "#### ####",
                    _streets("科技园南路 @ 518057; 深南大道 @ 518057"),
                    "深圳",
                ),
                City(
                    "Hangzhou",
                    "Asia/Shanghai",
                    "571",
                    "#### ####",
                    _streets("文三路 @ 310012; 西溪路 @ 310012"),
                    "杭州",
                ),
            ),
            address="{city}市{street}{number}号",
        ),
    )
}

ENGLISH = tuple(k for k in REGIONS if k != "cn")


def timezone_label(tz: str) -> str:
    """How people name a zone in a mail: 'London time', 'Melbourne time'."""
    return tz.rsplit("/", 1)[-1].replace("_", " ")


# The other names a zone goes by where its country keeps one time ("15:00 India time (IST)"): the country and
# the zone's abbreviations. Countries with several zones are left out: "Central" or "AEST" names no one place.
ZONE_NAMES: dict[str, tuple[str, ...]] = {
    "Europe/London": ("UK", "British", "GMT", "BST"),
    "Europe/Berlin": ("Germany", "German", "CET", "CEST"),
    "Europe/Paris": ("France", "French", "CET", "CEST"),
    "Europe/Stockholm": ("Sweden", "Swedish", "CET", "CEST"),
    "Asia/Kolkata": ("India", "Indian", "IST"),
    "Africa/Lagos": ("Nigeria", "Nigerian", "WAT"),
    "Asia/Singapore": ("Singapore", "SGT"),
    "Asia/Tokyo": ("Japan", "Japanese", "JST"),
    "Asia/Shanghai": ("China", "Beijing", "北京"),
}


def zone_pattern(tz: str, *names: str) -> str:
    """A pattern for the zone `tz` by `names` (its label, a city) or by what its country calls it (ZONE_NAMES)."""
    known = "|".join(re.escape(n) for n in dict.fromkeys(names))
    other = [n for n in ZONE_NAMES.get(tz, ()) if n not in names]
    return known + (rf"|(?<!\w)(?:{'|'.join(re.escape(n) for n in other)})(?!\w)" if other else "")
