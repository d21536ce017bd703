"""Tables behind the hand evaluator, built at import in pure Python (about 0.1 s).

Rank integers
-------------
A hand's rank is ``category << 20`` plus up to five 4-bit rank digits (2 = 0 ... A = 12)
that decide between hands of the same category, most significant first::

    Pair of Aces, King, Nine and Four kickers  ->  1 << 20 | 12 << 16 | 11 << 12 | 7 << 8 | 2 << 4

Higher is better, equal means a tie, and the category and the hand's name can be read
back from the rank alone (see ``cardroom.evaluator.hand_name``).

Card keys
---------
Every card has a key: the weight of its rank (``RANK_WEIGHTS``, bits 0-22) plus one
in its suit's 4-bit counter (bits 23-38). Seven keys added give both parts at once:
the rank part is a number that no other multiset of seven ranks shares, and the suit
part counts the cards of each suit. Adding ``SUIT_OFFSET`` (three in each counter,
folded into ``FIRST_CARD_KEYS``) makes the top bit of a counter (``FLUSH_BITS``) set
exactly when that suit holds five or more cards.

Without a flush the rank part alone decides: ``NONFLUSH[n]`` maps it to the rank of
the best five of the ``n`` cards. With a flush the 13-bit mask of the flush suit's
ranks is looked up in ``FLUSH_TABLE`` (8192 entries); a flush beats everything a
hand of seven or fewer cards could make with its other cards.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

# Categories as plain numbers (``cardroom.evaluator.Category`` names them).
HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT = 0, 1, 2, 3, 4
FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH = 5, 6, 7, 8, 9
CATEGORY_SHIFT = 20
ACE = 12

# Found by scripts/find_rank_weights.py (a greedy search): any two different
# multisets of exactly n ranks (n <= 7, no rank more than four times) have different
# weight sums. tests/test_evaluator_batch.py proves it for n = 5, 6 and 7.
RANK_WEIGHTS: tuple[int, ...] = (
    0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181,
)  # fmt: skip
RANK_BITS = 23
RANK_MASK = (1 << RANK_BITS) - 1
SUIT_OFFSET = sum(3 << (RANK_BITS + 4 * s) for s in range(4))
FLUSH_BITS = sum(8 << (RANK_BITS + 4 * s) for s in range(4))
# The flush bit of each suit, and back.
SUIT_FLUSH_BIT: tuple[int, ...] = tuple(8 << (RANK_BITS + 4 * s) for s in range(4))
FLUSH_BIT_SUIT: dict[int, int] = {bit: s for s, bit in enumerate(SUIT_FLUSH_BIT)}

CARD_KEYS: tuple[int, ...] = tuple(
    RANK_WEIGHTS[c >> 2] + (1 << (RANK_BITS + 4 * (c & 3))) for c in range(52)
)
FIRST_CARD_KEYS: tuple[int, ...] = tuple(k + SUIT_OFFSET for k in CARD_KEYS)
# SUIT_RANK_BITS[s][card]: the card's rank bit if the card is of suit s, else 0.
SUIT_RANK_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << (c >> 2) if c & 3 == s else 0 for c in range(52)) for s in range(4)
)


def make_rank(category: int, *ranks: int) -> int:
    """The rank integer of a category and its deciding ranks, most significant first."""
    value = category
    for i in range(5):
        value = (value << 4) | (ranks[i] if i < len(ranks) else 0)
    return value


def straight_high(mask: int) -> int:
    """The top rank of the highest straight in a 13-bit rank mask, or -1. The ace
    plays low only in the wheel (5-4-3-2-A); a straight never wraps."""
    for high in range(ACE, 3, -1):
        window = 0b11111 << (high - 4)
        if mask & window == window:
            return high
    wheel = (1 << ACE) | 0b1111
    return 3 if mask & wheel == wheel else -1


# Five cards grouped by rank, the largest groups first -> category.
_SHAPE_CATEGORY = {
    (2, 1, 1, 1): PAIR,
    (2, 2, 1): TWO_PAIR,
    (3, 1, 1): THREE_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (4, 1): FOUR_OF_A_KIND,
}


def _five_rank_value(ranks: tuple[int, ...]) -> int:
    """The rank of five cards of these ranks that are not all of one suit."""
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    shape = tuple(n for n, _ in groups)
    order = [r for _, r in groups]
    if shape == (1, 1, 1, 1, 1):
        high = straight_high(sum(1 << r for r in ranks))
        if high >= 0:
            return make_rank(STRAIGHT, high)
        return make_rank(HIGH_CARD, *order)
    return make_rank(_SHAPE_CATEGORY[shape], *order)


def build_nonflush_tables() -> dict[int, dict[int, int]]:
    """For n = 5, 6, 7: rank part of the key sum -> rank of the best five cards.

    Five-card multisets are ranked directly; the best five of n + 1 cards is the best
    over the multisets left after removing one card, so six and seven follow by
    taking maxima over the previous table."""
    weight_rank = {w: r for r, w in enumerate(RANK_WEIGHTS)}
    five: dict[int, int] = {}
    for ws in combinations_with_replacement(RANK_WEIGHTS, 5):
        if ws[0] == ws[4]:
            continue  # five cards of one rank do not exist
        five[sum(ws)] = _five_rank_value(tuple(weight_rank[w] for w in reversed(ws)))
    six: dict[int, int] = {}
    for w6 in combinations_with_replacement(RANK_WEIGHTS, 6):
        if w6[0] == w6[4] or w6[1] == w6[5]:
            continue  # no rank more than four times
        total = sum(w6)
        six[total] = max([five[total - w] for w in set(w6)])
    seven: dict[int, int] = {}
    for w7 in combinations_with_replacement(RANK_WEIGHTS, 7):
        if w7[0] == w7[4] or w7[1] == w7[5] or w7[2] == w7[6]:
            continue
        total = sum(w7)
        seven[total] = max([six[total - w] for w in set(w7)])
    return {5: five, 6: six, 7: seven}


def build_flush_table() -> list[int]:
    """13-bit mask of the flush suit's ranks (five or more bits) -> rank; 0 for
    masks with fewer than five ranks (never looked up)."""
    table = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() < 5:
            continue
        high = straight_high(mask)
        if high == ACE:
            table[mask] = make_rank(ROYAL_FLUSH, ACE)
        elif high >= 0:
            table[mask] = make_rank(STRAIGHT_FLUSH, high)
        else:
            top = [r for r in range(ACE, -1, -1) if mask >> r & 1][:5]
            table[mask] = make_rank(FLUSH, *top)
    return table


NONFLUSH: dict[int, dict[int, int]] = build_nonflush_tables()
NONFLUSH7: dict[int, int] = NONFLUSH[7]
FLUSH_TABLE: list[int] = build_flush_table()
