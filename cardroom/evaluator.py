"""Hand evaluation: the best five of five, six or seven cards, as one integer.

``evaluate7`` is the fast path (about a microsecond in pure Python): seven card keys
are added, one bit test tells whether a suit holds five cards, and one dictionary
lookup (or, for a flush, one list lookup) gives the rank. ``evaluate`` takes five,
six or seven cards; ``describe`` also finds the five cards used and names the hand.
How the keys and tables work is told in ``cardroom.evaluator_tables`` and
``docs/evaluator.md``; ``cardroom.evaluator_batch`` ranks NumPy arrays of hands.

A rank is an ``int``: higher is better, equal is a tie, suits never break ties. Its
category and name follow from the number alone:

>>> from cardroom.cards import parse_cards
>>> rank = evaluate(parse_cards("Ah Ad Kc 9s 4d 3c 2h"))
>>> category_of(rank).label, hand_name(rank)
('pair', 'Pair of Aces, King, Nine and Four kickers')
>>> describe(parse_cards("5c 4d 3h 2s Ah Kd Kc")).best_text
('5c', '4d', '3h', '2s', 'Ah')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from cardroom.cards import RANK_NAMES, RANK_PLURALS, Card, CardError, card_text
from cardroom.evaluator_tables import (
    CARD_KEYS,
    CATEGORY_SHIFT,
    FIRST_CARD_KEYS,
    FLUSH_BIT_SUIT,
    FLUSH_BITS,
    FLUSH_TABLE,
    NONFLUSH,
    NONFLUSH7,
    RANK_MASK,
    SUIT_RANK_BITS,
)

__all__ = [
    "Category",
    "HandValue",
    "category_of",
    "describe",
    "evaluate",
    "evaluate7",
    "hand_name",
    "rank_digits",
]


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def label(self) -> str:
        """``"two_pair"``, ``"royal_flush"``: the name used in JSON and the CLI."""
        return self.name.lower()

    @property
    def title(self) -> str:
        """``"Two Pair"``, ``"Royal Flush"``: how a hand name starts."""
        return _TITLES[self]


_TITLES = {
    Category.HIGH_CARD: "High Card",
    Category.PAIR: "Pair",
    Category.TWO_PAIR: "Two Pair",
    Category.THREE_OF_A_KIND: "Three of a Kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full House",
    Category.FOUR_OF_A_KIND: "Four of a Kind",
    Category.STRAIGHT_FLUSH: "Straight Flush",
    Category.ROYAL_FLUSH: "Royal Flush",
}

# How many 4-bit rank digits decide within each category.
_DIGITS = (5, 4, 3, 3, 1, 5, 2, 2, 1, 1)


def evaluate7(a: int, b: int, c: int, d: int, e: int, f: int, g: int) -> int:
    """The rank of the best five of seven distinct cards (card ints 0..51).

    The hot path: no checks. Cards out of range raise ``IndexError``; repeated cards
    give a meaningless number or ``KeyError``. Use ``evaluate`` for checked input."""
    k = (
        FIRST_CARD_KEYS[a]
        + CARD_KEYS[b]
        + CARD_KEYS[c]
        + CARD_KEYS[d]
        + CARD_KEYS[e]
        + CARD_KEYS[f]
        + CARD_KEYS[g]
    )
    if k & FLUSH_BITS:
        bits = SUIT_RANK_BITS[FLUSH_BIT_SUIT[k & FLUSH_BITS]]
        return FLUSH_TABLE[bits[a] | bits[b] | bits[c] | bits[d] | bits[e] | bits[f] | bits[g]]
    return NONFLUSH7[k & RANK_MASK]


def _check(cards: Sequence[int]) -> None:
    if not 5 <= len(cards) <= 7:
        raise CardError(f"A hand is 5 to 7 cards, not {len(cards)}.")
    for card in cards:
        if not 0 <= card < 52:
            raise CardError(f"{card!r} is not a card number (0 to 51).")
    if len(set(cards)) != len(cards):
        for i, card in enumerate(cards):
            if card in cards[:i]:
                raise CardError(f"{card_text(card)} appears twice: a deck has one of each card.")


def evaluate(cards: Sequence[int]) -> int:
    """The rank of the best five of 5, 6 or 7 distinct cards; ``CardError`` otherwise.

    Gives the same number as ``evaluate7`` for seven cards, and the same scale for
    five or six, so hands of different sizes compare directly."""
    _check(cards)
    k = FIRST_CARD_KEYS[cards[0]]
    for card in cards[1:]:
        k += CARD_KEYS[card]
    if k & FLUSH_BITS:
        bits = SUIT_RANK_BITS[FLUSH_BIT_SUIT[k & FLUSH_BITS]]
        mask = 0
        for card in cards:
            mask |= bits[card]
        return FLUSH_TABLE[mask]
    return NONFLUSH[len(cards)][k & RANK_MASK]


def category_of(rank: int) -> Category:
    return Category(rank >> CATEGORY_SHIFT)


def rank_digits(rank: int) -> tuple[int, ...]:
    """The deciding ranks (2 = 0 ... A = 12), most significant first: the pair then
    the kickers; the top card of a straight (a wheel is 3, the Five)."""
    count = _DIGITS[rank >> CATEGORY_SHIFT]
    return tuple((rank >> (16 - 4 * i)) & 15 for i in range(count))


def _and_list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def hand_name(rank: int) -> str:
    """``Pair of Aces, King, Nine and Four kickers``, ``Straight, Five high``, ..."""
    category = category_of(rank)
    r = rank_digits(rank)
    names = [RANK_NAMES[x] for x in r]
    if category is Category.ROYAL_FLUSH:
        return "Royal Flush"
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH):
        return f"{category.title}, {names[0]} high"
    if category in (Category.HIGH_CARD, Category.FLUSH):
        return f"{category.title}, {_and_list(names)}"
    if category is Category.PAIR:
        return f"Pair of {RANK_PLURALS[r[0]]}, {_and_list(names[1:])} kickers"
    if category is Category.TWO_PAIR:
        return f"Two Pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}, {names[2]} kicker"
    if category is Category.THREE_OF_A_KIND:
        return f"Three of a Kind, {RANK_PLURALS[r[0]]}, {_and_list(names[1:])} kickers"
    if category is Category.FULL_HOUSE:
        return f"Full House, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    return f"Four of a Kind, {RANK_PLURALS[r[0]]}, {names[1]} kicker"


@dataclass(frozen=True, slots=True)
class HandValue:
    """A ranked hand: ``best`` are the five cards used, in the order they read
    (the pair first, then the kickers high to low; a wheel as 5-4-3-2-A)."""

    rank: int
    category: Category
    best: tuple[Card, ...]
    name: str

    @property
    def best_text(self) -> tuple[str, ...]:
        return tuple(card_text(c) for c in self.best)


# The ranks of the five cards used, in reading order, from the deciding ranks.
def _reading_ranks(category: Category, r: tuple[int, ...]) -> list[int]:
    if category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        return [r[0] - i if r[0] - i >= 0 else 12 for i in range(5)]  # wheel: A plays low
    if category is Category.PAIR:
        return [r[0], r[0], r[1], r[2], r[3]]
    if category is Category.TWO_PAIR:
        return [r[0], r[0], r[1], r[1], r[2]]
    if category is Category.THREE_OF_A_KIND:
        return [r[0]] * 3 + [r[1], r[2]]
    if category is Category.FULL_HOUSE:
        return [r[0]] * 3 + [r[1]] * 2
    if category is Category.FOUR_OF_A_KIND:
        return [r[0]] * 4 + [r[1]]
    return list(r)


def describe(cards: Sequence[int]) -> HandValue:
    """Rank, category, the five cards used and the name of the best five of 5 to 7
    distinct cards. Among cards of equal rank the higher suit (s, h, d, c) is shown
    first; for a flush or straight flush the cards come from the flush suit."""
    rank = evaluate(cards)
    category = category_of(rank)
    pool = sorted(cards, reverse=True)
    if category in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        suits = [c & 3 for c in pool]
        flush_suit = max(range(4), key=suits.count)
        pool = [c for c in pool if c & 3 == flush_suit]
    best: list[Card] = []
    for want in _reading_ranks(category, rank_digits(rank)):
        card = next(c for c in pool if c >> 2 == want)
        pool.remove(card)
        best.append(Card(card))
    return HandValue(rank, category, tuple(best), hand_name(rank))
