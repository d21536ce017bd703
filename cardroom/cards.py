"""Playing cards as small integers.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``, with ranks ``2`` (0) to
``A`` (12) and suits ``c d h s`` (0 to 3). Plain integers keep the evaluator fast
and make every card trivially serialisable; ``parse_card`` and ``card_text`` are the
only places that know the text form (``As``, ``Td``, ``2c``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NewType

Card = NewType("Card", int)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS = (
    "Twos",
    "Threes",
    "Fours",
    "Fives",
    "Sixes",
    "Sevens",
    "Eights",
    "Nines",
    "Tens",
    "Jacks",
    "Queens",
    "Kings",
    "Aces",
)
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}

# Each card's text, by number, looked up rather than put together: the views name
# every card they show, a dozen or more each change.
_CARD_TEXTS = tuple(RANKS[card >> 2] + SUITS[card & 3] for card in range(52))

_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


class CardError(ValueError):
    """Text that does not name a card, or cards that cannot be together."""


def make_card(rank: int, suit: int) -> Card:
    return Card(rank * 4 + suit)


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def parse_card(text: str) -> Card:
    """``"As"`` -> the ace of spades. Rank letters are upper case, suits lower case;
    ``10`` is accepted for a ten."""
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2:
        raise CardError(f"{text!r} is not a card: write a rank and a suit, like 'As' or 'Td'.")
    rank = _RANK_INDEX.get(t[0].upper())
    suit = _SUIT_INDEX.get(t[1].lower())
    if rank is None:
        raise CardError(f"{text!r} is not a card: {t[0]!r} is not a rank (use 2-9, T, J, Q, K, A).")
    if suit is None:
        raise CardError(f"{text!r} is not a card: {t[1]!r} is not a suit (use c, d, h, s).")
    return make_card(rank, suit)


def parse_cards(text: str) -> list[Card]:
    """Cards written together or apart: ``"AsKd"``, ``"As Kd"``, ``"As,Kd"``."""
    compact = text.replace(",", " ").replace("10", "T").split()
    cards: list[Card] = []
    for chunk in compact:
        if len(chunk) % 2:
            raise CardError(f"{chunk!r} is not a list of cards: each card is a rank and a suit.")
        cards.extend(parse_card(chunk[i : i + 2]) for i in range(0, len(chunk), 2))
    return cards


def parse_distinct_cards(text: str) -> list[Card]:
    cards = parse_cards(text)
    check_distinct(cards)
    return cards


def check_distinct(cards: Sequence[int]) -> None:
    if len(set(cards)) != len(cards):
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise CardError(f"{card_text(c)} appears twice: a deck has one of each card.")
            seen.add(c)


def card_text(card: int) -> str:
    if not 0 <= card < 52:
        raise CardError(f"{card} is not a card number (0 to 51).")
    return _CARD_TEXTS[card]


def cards_text(cards: Iterable[int], sep: str = "") -> str:
    return sep.join(card_text(c) for c in cards)


FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
