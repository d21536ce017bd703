"""Money as people write it (``12.50``, ``$1,000``) and as the room stores it (integer
cents). The only place that converts between the two."""

from __future__ import annotations

import re

from cardroom.service.errors import InvalidInput

# Dollars with an optional "$", optional thousands commas in the right places, and at
# most two decimals. No signs, exponents or spaces inside: "1e3", "-5" and "1 000" are
# more likely mistakes than intentions when moving money.
_DOLLARS = re.compile(r"\$?(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{1,2}))?", re.ASCII)

# What a person may type: enough for any play-money grant, and short enough that a
# pasted wall of digits is refused before it is turned into a number.
MAX_DOLLARS_TEXT = 32


def parse_dollars(text: str) -> int:
    """``"12.50"`` -> ``1250``. Refuses anything but a plain non-negative amount with at
    most two decimals.

    >>> parse_dollars("12.5"), parse_dollars("$1,000"), parse_dollars("0.07")
    (1250, 100000, 7)
    """
    stripped = text.strip()
    match = _DOLLARS.fullmatch(stripped) if len(stripped) <= MAX_DOLLARS_TEXT else None
    if match is None:
        raise InvalidInput(
            f"{text!r} is not an amount of money: write dollars and cents, like 12.50."
        )
    whole = int(match["whole"].replace(",", ""))
    cents = int((match["cents"] or "0").ljust(2, "0"))
    return whole * 100 + cents


def format_cents(cents: int) -> str:
    """``1250`` -> ``"$12.50"``; ``-500`` -> ``"-$5.00"``.

    >>> format_cents(123456), format_cents(-7)
    ('$1,234.56', '-$0.07')
    """
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{rest:02d}"
