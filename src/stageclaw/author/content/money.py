"""Money as it appears in real documents: the currency's minor units, prices at local magnitudes.

Amounts are `Decimal`s quantized to the currency's minor unit (yen and won have none), drawn from a
range given in euros and converted at rough 2026 rates, so a coffee costs ¥500 in Tokyo, €3.40 in
Berlin and 28元 in Shanghai, and a yen amount never has decimals.
"""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal

from stageclaw.author.content.places import Region

MINOR_UNITS = {
    "GBP": 2,
    "EUR": 2,
    "USD": 2,
    "MXN": 2,
    "INR": 2,
    "AUD": 2,
    "BRL": 2,
    "NGN": 2,
    "SEK": 2,
    "SGD": 2,
    "JPY": 0,
    "KRW": 0,
    "CNY": 2,
}
# Units of each currency per euro (rough 2026 rates), and how prices there are usually rounded.
PER_EURO = {
    "GBP": 0.86,
    "EUR": 1.0,
    "USD": 1.1,
    "MXN": 20.0,
    "INR": 95.0,
    "AUD": 1.7,
    "BRL": 6.0,
    "NGN": 1700.0,
    "SEK": 11.5,
    "SGD": 1.45,
    "JPY": 165.0,
    "KRW": 1500.0,
    "CNY": 7.9,
}
STEP = {"JPY": Decimal(10), "KRW": Decimal(100), "NGN": Decimal(50), "INR": Decimal(1)}


def quantum(currency: str) -> Decimal:
    return Decimal(1).scaleb(-MINOR_UNITS[currency])


def amount(rng: random.Random, low_eur: float, high_eur: float, currency: str, *, rounded: bool = False) -> Decimal:
    """A price between `low_eur` and `high_eur` euros' worth, in `currency`.

    `rounded` gives a list-price look (12.99, 45.00, ¥12,800); otherwise any amount a card
    statement shows (37.42), in the currency's steps.
    """
    value = Decimal(str(rng.uniform(low_eur, high_eur) * PER_EURO[currency]))
    step = STEP.get(currency, quantum(currency))
    if rounded:
        big = Decimal(100) * step if value >= Decimal(1000) * step else step * (Decimal(10) if step >= 1 else 100)
        value = (value / big).to_integral_value(ROUND_HALF_UP) * big
        if step < 1 and rng.random() < 0.5:
            value -= Decimal("0.01")  # .99 prices
    else:
        value = (value / step).to_integral_value(ROUND_HALF_UP) * step
    return max(value, step).quantize(quantum(currency))


def format_amount(value: Decimal, region: Region, locale: str = "en") -> str:
    """'£1,234.50', '¥12,800', '1,234.50 kr', '1,234.50元' (with the currency's own minor units)."""
    digits = MINOR_UNITS.get(region.currency, 2)
    figure = f"{value:,.{digits}f}"
    if locale == "zh" and region.currency == "CNY":
        return f"{figure}元"
    if region.currency == "SEK":
        return f"{figure} kr"
    return f"{region.symbol}{figure}"
