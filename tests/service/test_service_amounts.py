"""Dollars as typed, cents as stored."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.service import amounts
from cardroom.service.amounts import format_cents, parse_dollars
from cardroom.service.errors import InvalidInput


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("12.50", 1250),
        ("12.5", 1250),
        ("12", 1200),
        ("$12.05", 1205),
        (" 7.00 ", 700),
        ("0.01", 1),
        ("0", 0),
        ("1,000", 100_000),
        ("$1,234,567.89", 123_456_789),
    ],
)
def test_parse_dollars(text: str, cents: int) -> None:
    assert parse_dollars(text) == cents


@pytest.mark.parametrize(
    "text",
    [
        "",
        "-5",
        "+5",
        "1.234",
        "1e3",
        "nan",
        "inf",
        "12.",
        ".5",
        "1 000",
        "1,00",
        "12,50",
        "$",
        "five",
        "١٢",  # Arabic-Indic digits are digits to Python, not to a cashier
        "9" * 40,
    ],
)
def test_parse_dollars_refuses_what_is_not_plainly_money(text: str) -> None:
    with pytest.raises(InvalidInput, match="not an amount of money"):
        parse_dollars(text)


@given(st.integers(min_value=0, max_value=10**15))
def test_formatting_then_parsing_gives_the_cents_back(cents: int) -> None:
    assert parse_dollars(format_cents(cents)) == cents


def test_format_cents() -> None:
    assert format_cents(0) == "$0.00"
    assert format_cents(5) == "$0.05"
    assert format_cents(100_00) == "$100.00"
    assert format_cents(-1_234_56) == "-$1,234.56"


def test_doctests() -> None:
    assert doctest.testmod(amounts).failed == 0
