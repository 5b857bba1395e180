"""Where people live: regions with their cities, time zones, phone numbers, money and streets."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class City:
    name: str
    tz: str
    area: str  # the phone area code, as dialled after the country code
    local: str  # the local number's shape: '#' is a digit
    postcodes: tuple[str, ...]
    streets: tuple[str, ...]
    native: str  # the name in the Chinese locale


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
        return self.address.format(
            street=rng.choice(city.streets),
            postcode=rng.choice(city.postcodes),
            number=rng.randint(2, 240),
            city=city.native if self.key == "cn" else city.name,
        )


def _streets(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split(";"))


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
                    ("EC2M 4YE", "N1 7GU", "SE15 4QN", "E8 3RL"),
                    _streets("Bishopsgate; Mare Street; Cowcross Street; Rye Lane; Upper Street; Kingsland Road"),
                    "伦敦",
                ),
                City(
                    "Manchester",
                    "Europe/London",
                    "161",
                    "496 ####",
                    ("M1 3BN", "M4 1HQ"),
                    _streets("Deansgate; Oldham Street; Portland Street"),
                    "曼彻斯特",
                ),
                City(
                    "Edinburgh",
                    "Europe/London",
                    "131",
                    "496 ####",
                    ("EH6 5HW", "EH1 1YZ"),
                    _streets("Leith Walk; Broughton Street; Cockburn Street"),
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
                    ("10405", "10437", "12047", "10999"),
                    _streets("Greifswalder Straße; Schönhauser Allee; Sonnenallee; Oranienstraße; Kastanienallee"),
                    "柏林",
                ),
                City(
                    "Hamburg",
                    "Europe/Berlin",
                    "40",
                    "#### ####",
                    ("20357", "22765"),
                    _streets("Schanzenstraße; Große Bergstraße; Lange Reihe"),
                    "汉堡",
                ),
                City(
                    "München",
                    "Europe/Berlin",
                    "89",
                    "#### ####",
                    ("80337", "81541"),
                    _streets("Lindwurmstraße; Gollierstraße; Wörthstraße"),
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
                    ("IL 60607", "IL 60622"),
                    _streets("W Randolph St; N Milwaukee Ave; S Halsted St"),
                    "芝加哥",
                ),
                City(
                    "New York",
                    "America/New_York",
                    "212",
                    "555 01##",
                    ("NY 10013", "NY 10003"),
                    _streets("Lafayette St; E 4th St; Greenwich Ave"),
                    "纽约",
                ),
                City(
                    "Seattle",
                    "America/Los_Angeles",
                    "206",
                    "555 01##",
                    ("WA 98101", "WA 98122"),
                    _streets("Pike St; E Union St; Westlake Ave N"),
                    "西雅图",
                ),
                City(
                    "Denver",
                    "America/Denver",
                    "303",
                    "555 01##",
                    ("CO 80202", "CO 80205"),
                    _streets("Larimer St; Blake St; E Colfax Ave"),
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
                    ("06700", "03100", "11560"),
                    _streets("Av. Álvaro Obregón; Calle Durango; Av. Insurgentes Sur; Calle Colima"),
                    "墨西哥城",
                ),
                City(
                    "Guadalajara",
                    "America/Mexico_City",
                    "33",
                    "#### ####",
                    ("44160", "44600"),
                    _streets("Av. Chapultepec; Calle López Cotilla"),
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
                    ("560038", "560095"),
                    _streets("100 Feet Road, Indiranagar; 80 Feet Road, Koramangala; Church Street"),
                    "班加罗尔",
                ),
                City(
                    "Pune",
                    "Asia/Kolkata",
                    "20",
                    "#### ####",
                    ("411001", "411038"),
                    _streets("North Main Road, Koregaon Park; FC Road"),
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
                    ("VIC 3065", "VIC 3000"),
                    _streets("Smith Street; Flinders Lane; Brunswick Street"),
                    "墨尔本",
                ),
                City(
                    "Sydney",
                    "Australia/Sydney",
                    "2",
                    "9### ####",
                    ("NSW 2010", "NSW 2000"),
                    _streets("Crown Street; King Street; George Street"),
                    "悉尼",
                ),
                City(
                    "Brisbane",
                    "Australia/Brisbane",
                    "7",
                    "3### ####",
                    ("QLD 4006",),
                    _streets("James Street; Ann Street"),
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
                    ("01310-100", "05422-010"),
                    _streets("Av. Paulista; Rua Augusta; Rua dos Pinheiros"),
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
                    ("101241", "106104"),
                    _streets("Adeola Odeku Street; Admiralty Way; Allen Avenue"),
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
                    ("118 46", "113 51"),
                    _streets("Götgatan; Odengatan; Hornsgatan"),
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
                    ("75011", "75010"),
                    _streets("rue Oberkampf; rue du Faubourg Saint-Denis; boulevard Voltaire"),
                    "巴黎",
                ),
                City(
                    "Lyon",
                    "Europe/Paris",
                    "4",
                    "## ## ## ##",
                    ("69002", "69007"),
                    _streets("rue Mercière; avenue Jean Jaurès"),
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
                    ("049315", "238873"),
                    _streets("Telok Ayer Street; Orchard Road; Tiong Bahru Road"),
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
                    ("150-0043", "106-0032"),
                    _streets("Dogenzaka, Shibuya; Roppongi, Minato"),
                    "东京",
                ),
            ),
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
                    ("200040", "200031"),
                    _streets("南京西路; 淮海中路; 武康路"),
                    "上海",
                ),
                City(
                    "Beijing",
                    "Asia/Shanghai",
                    "10",
                    "#### ####",
                    ("100027", "100020"),
                    _streets("建国门外大街; 三里屯路; 东直门内大街"),
                    "北京",
                ),
                City(
                    "Shenzhen",
                    "Asia/Shanghai",
                    "755",
                    "#### ####",
                    ("518057",),
                    _streets("科技园南路; 深南大道"),
                    "深圳",
                ),
                City("Hangzhou", "Asia/Shanghai", "571", "#### ####", ("310012",), _streets("文三路; 西溪路"), "杭州"),
            ),
            address="{city}市{street}{number}号",
        ),
    )
}

ENGLISH = tuple(k for k in REGIONS if k != "cn")


def timezone_label(tz: str) -> str:
    """How people name a zone in a mail: 'London time', 'Melbourne time'."""
    return tz.rsplit("/", 1)[-1].replace("_", " ")
