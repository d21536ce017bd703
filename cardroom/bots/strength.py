"""How strong a bot's hand is: the 169 starting hands, and equity against the hands
the opponents may hold, by sampling.

Pre-flop, a hand is placed by ``PREFLOP_ORDER`` (``cardroom.bots.preflop_table``,
computed by ``scripts/preflop_table.py``): ``preflop_percentile(c1, c2)`` is the share
of all 1,326 two-card combinations that rank at or above it (AA: 0.0045, 32o: 1.0).

An opponent's *range* is modelled by a ``Read``: the top fraction of starting hands
they are taken to hold (by that ranking, from what they did pre-flop) and the top
fraction of those they keep after betting or calling after the flop (by how good a
hand they have made on the board so far). ``equity_against(...)`` samples the
opponents' hole cards from those ranges and the rest of the board uniformly, ranks
everything with ``evaluate_batch`` and returns the bot's average share of the pot.
The NumPy generator comes from the caller; nothing here draws on its own.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cardroom.bots.preflop_table import PREFLOP_ORDER
from cardroom.evaluator_batch import evaluate_batch

__all__ = [
    "ANY_HAND",
    "COMBOS",
    "Read",
    "combo_percentiles",
    "deal_from",
    "equity_against",
    "hand_class",
    "preflop_percentile",
]

RANK_LETTERS = "23456789TJQKA"
# every two-card combination once, as rows (low card, high card)
COMBOS: NDArray[np.uint8] = np.array([(a, b) for b in range(52) for a in range(b)], dtype=np.uint8)
# the share of an opponent's post-flop range taken to be bluffs and draws: hands
# below the top ``keep`` of their range
BLUFF_SHARE = 0.25


def hand_class(a: int, b: int) -> str:
    """``"AA"``, ``"AKs"`` or ``"AKo"``: the starting hand two cards make.

    >>> hand_class(51, 47), hand_class(50, 0)
    ('AKs', 'A2o')
    """
    high, low = (a, b) if a >> 2 >= b >> 2 else (b, a)
    text = RANK_LETTERS[high >> 2] + RANK_LETTERS[low >> 2]
    if high >> 2 == low >> 2:
        return text
    return text + ("s" if (high & 3) == (low & 3) else "o")


def _class_combos(name: str) -> int:
    return 6 if len(name) == 2 else 4 if name[2] == "s" else 12


@functools.cache
def _class_percentiles() -> dict[str, float]:
    """The share of all combinations that rank at or above each starting hand."""
    out: dict[str, float] = {}
    above = 0
    for name in PREFLOP_ORDER:
        above += _class_combos(name)
        out[name] = above / 1326
    return out


def preflop_percentile(a: int, b: int) -> float:
    """Where two hole cards rank among all 1,326 combinations: 0.0045 for aces, 1.0 for
    the worst hand against one random hand (32o)."""
    return _class_percentiles()[hand_class(a, b)]


@functools.cache
def combo_percentiles() -> NDArray[np.float64]:
    """``preflop_percentile`` of every row of ``COMBOS``."""
    table = _class_percentiles()
    values = [table[hand_class(int(a), int(b))] for a, b in COMBOS]
    out = np.array(values, dtype=np.float64)
    out.setflags(write=False)
    return out


@dataclass(frozen=True, slots=True)
class Read:
    """What a bot believes about one opponent's hand.

    ``top``: the fraction of starting hands (best first) they are taken to hold;
    ``keep``: the fraction of those they still hold after what they did after the
    flop, judged by how good a hand they have made on the board so far; the other
    hands keep ``BLUFF_SHARE`` of the weight between them, for bluffs and draws."""

    top: float = 1.0
    keep: float = 1.0


ANY_HAND = Read()


def deal_from(
    rng: np.random.Generator, cards: NDArray[np.uint8], rows: int, count: int
) -> NDArray[np.uint8]:
    """``rows`` independent uniformly random draws of ``count`` distinct cards from
    ``cards``, as a ``(rows, count)`` array: a Fisher-Yates shuffle of each row,
    stopped after ``count`` swaps."""
    m = cards.shape[0]
    if count > m:
        raise ValueError("Not enough cards left to deal.")
    deck = np.repeat(cards[None, :], rows, axis=0)
    every = np.arange(rows)
    for i in range(count):
        j = rng.integers(i, m, size=rows)
        picked = deck[every, j]
        deck[every, j] = deck[:, i]
        deck[:, i] = picked
    return deck[:, :count]


def _range_combos(
    read: Read, known: NDArray[np.bool_]
) -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    """The combinations an opponent may hold given the cards the bot knows, with the
    probability of each: hands in their range weigh 1, others nothing (a range of
    all hands needs no weights)."""
    free = ~(known[COMBOS[:, 0]] | known[COMBOS[:, 1]])
    combos = COMBOS[free]
    if read.top >= 1.0:
        return combos, np.full(combos.shape[0], 1.0 / combos.shape[0])
    inside = combo_percentiles()[free] <= read.top
    if not inside.any():  # a range too narrow for the cards left: take the best there are
        inside = combo_percentiles()[free] <= combo_percentiles()[free].min()
    weights = inside.astype(np.float64)
    return combos, weights / weights.sum()


def equity_against(
    hole: Sequence[int],
    board: Sequence[int],
    reads: Sequence[Read],
    rng: np.random.Generator,
    samples: int = 1500,
) -> float:
    """The bot's average share of the pot against opponents holding hands from their
    ``reads`` (one per opponent still in), over ``samples`` random deals of their hole
    cards and the rest of the board.

    Opponents with a narrowed starting range are dealt from it directly; the others,
    and the board, uniformly from the cards left (a sample where two ranged hands
    share a card is dropped). Post-flop reads weigh each sample: the opponent's made
    hands in the top ``keep`` of their sampled hands share ``1 - BLUFF_SHARE`` of the
    weight, the others ``BLUFF_SHARE``.
    """
    if not reads:
        return 1.0
    known = np.zeros(52, dtype=bool)
    known[list(hole)] = True
    known[list(board)] = True
    need = 5 - len(board)
    ranged = [i for i, r in enumerate(reads) if r.top < 1.0]
    free = [i for i, r in enumerate(reads) if r.top >= 1.0]
    opponents = np.empty((len(reads), samples, 2), dtype=np.uint8)
    valid = np.ones(samples, dtype=bool)
    taken = np.zeros((samples, 52), dtype=bool)
    every = np.arange(samples)
    for i in ranged:
        combos, p = _range_combos(reads[i], known)
        pick = combos[rng.choice(combos.shape[0], size=samples, p=p)]
        clash = taken[every, pick[:, 0]] | taken[every, pick[:, 1]]
        valid &= ~clash
        taken[every, pick[:, 0]] = True
        taken[every, pick[:, 1]] = True
        opponents[i] = pick
    # the unranged hands and the board: the cards left, shuffled, skipping any card a
    # ranged hand holds (the order of the cards left is uniform either way)
    count = 2 * len(free) + need
    extra = 2 * len(ranged)
    left = np.flatnonzero(~known).astype(np.uint8)
    dealt = deal_from(rng, left, samples, min(count + extra, left.shape[0]))
    if ranged:
        held = taken[every[:, None], dealt]
        order = np.argsort(held, axis=1, kind="stable")[:, :count]
        dealt = np.take_along_axis(dealt, order, axis=1)
    else:
        dealt = dealt[:, :count]
    for n, i in enumerate(free):
        opponents[i] = dealt[:, 2 * n : 2 * n + 2]
    rest = dealt[:, 2 * len(free) :]
    fixed = np.broadcast_to(np.array(list(board), dtype=np.uint8), (samples, len(board)))
    full_board = np.concatenate([fixed, rest], axis=1)

    players = len(reads) + 1
    seven = np.empty((players, samples, 7), dtype=np.uint8)
    seven[:, :, 2:] = full_board
    seven[0, :, 0] = hole[0]
    seven[0, :, 1] = hole[1]
    seven[1:, :, :2] = opponents
    ranks = evaluate_batch(seven.reshape(-1, 7)).reshape(players, samples)
    best = ranks.max(axis=0)
    won = ranks == best
    share = np.where(won[0], 1.0 / np.count_nonzero(won, axis=0), 0.0)

    weight = valid.astype(np.float64)
    if board:
        for i, read in enumerate(reads):
            if read.keep >= 1.0:
                continue
            now = np.concatenate([opponents[i], fixed], axis=1)
            made = evaluate_batch(now)
            # the top ``keep`` of this opponent's sampled hands (ties kept too)
            cut = np.quantile(made[valid] if valid.any() else made, 1.0 - read.keep)
            inside = made >= cut
            n_in = int(np.count_nonzero(inside & valid))
            n_out = int(np.count_nonzero(~inside & valid))
            w_in = (1.0 - BLUFF_SHARE) / n_in if n_in else 0.0
            w_out = BLUFF_SHARE / n_out if n_out else 0.0
            weight *= np.where(inside, w_in, w_out)
    total = weight.sum()
    if total <= 0:
        return float(share.mean())
    return float((share * weight).sum() / total)
