"""Each hand's chance to win: exact by enumerating the boards still to come, or by
sampling them when that would be too slow.

``equity(hands, board, dead, rng=...)`` takes the hole cards of the players still in
(2 to 10 hands of two cards), the board so far (0, 3, 4 or 5 cards) and any dead cards
(folded or exposed cards known to be out of the deck), and returns an ``Equity``:
each hand's share of the pots it would win, ties split evenly, over every way the
board can be completed. Both paths rank hands with ``evaluate_batch``.

**Exact** when ``boards x hands`` is at most ``EXACT_WORK_LIMIT``: every remaining
board is built with NumPy (from one table of card combinations in colexicographic
order, whose first ``comb(n, k)`` columns are the combinations of the first ``n``
cards left) and ranked in chunks. The limit was measured on the development machine
(2-core AMD EPYC): about 26-35 ms per million evaluations, so 5 million fit in
200 ms with room for a busy neighbour; ``docs/bots.md`` gives the figures. The
largest Hold'em job there is, a four-handed pre-flop all-in, is 4.34 million
evaluations, so on this machine every real spot is enumerated exactly; sampling is
for slower hardware (a lower ``exact_limit``) and for callers who ask for it.

**Sampled** otherwise: ``samples`` boards drawn independently and uniformly from the
completions (with the seeded ``numpy.random.Generator`` the caller passes: this module
draws no random numbers of its own).

Shares are counted exactly as integers: a board won alone is worth ``2520`` points
(the least common multiple of 1 to 10), a board split ``k`` ways ``2520 // k`` to each
winner, so an exact answer is a ratio of integers with no rounding on the way.

>>> from cardroom.cards import parse_cards
>>> result = equity([parse_cards("AsAh"), parse_cards("KsKh")], parse_cards("2c7d9h Tc"))
>>> result.exact, result.boards, [round(e, 4) for e in result.equities]
(True, 44, [0.9545, 0.0455])
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cardroom.cards import CardError, check_distinct
from cardroom.evaluator_batch import evaluate_batch

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_WORK_LIMIT",
    "SHARE_POINTS",
    "Equity",
    "EquityError",
    "board_combinations",
    "equity",
    "equity_by_street",
    "exact_work",
]

# Evaluations (remaining boards x hands) the exact path may take: measured to run in
# under 200 ms on the development machine (see docs/bots.md, "Equity").
EXACT_WORK_LIMIT = 5_000_000
DEFAULT_SAMPLES = 100_000
SHARE_POINTS = 2520  # lcm(1..10): every split of a board is a whole number of points
_BOARD_CHUNK = 16_384  # boards ranked per step: keeps the per-chunk arrays in cache
_SHARE = np.array([0] + [SHARE_POINTS // k for k in range(1, 11)], dtype=np.int64)


class EquityError(ValueError):
    """Hands, board or dead cards that cannot be dealt together."""


@dataclass(frozen=True, slots=True)
class Equity:
    """Each hand's chance to win, in the order the hands were given.

    ``equities[i]`` is the share of the pot hand ``i`` wins on average (a tie split
    ``k`` ways counts ``1/k``); they add up to 1. ``wins[i]`` counts boards it wins
    alone and ``ties[i]`` boards it shares. ``boards`` is the number of boards
    enumerated (``exact``) or sampled. ``points[i] / (boards * SHARE_POINTS)`` is
    ``equities[i]`` as an exact ratio.
    """

    equities: tuple[float, ...]
    wins: tuple[int, ...]
    ties: tuple[int, ...]
    points: tuple[int, ...]
    boards: int
    exact: bool

    @property
    def percentages(self) -> tuple[float, ...]:
        """Equities in percent rounded to one decimal, as a table shows them."""
        return tuple(round(100 * e, 1) for e in self.equities)


def exact_work(players: int, board: int, dead: int = 0) -> int:
    """Evaluations the exact path needs: remaining boards x hands."""
    left = 52 - 2 * players - board - dead
    return math.comb(left, 5 - board) * players


@functools.cache
def _colex(k: int) -> NDArray[np.uint8]:
    """Every ``k``-subset of the 52 cards, as columns, in colexicographic order (by
    the largest item, then the next largest...). The subsets of ``range(n)`` are then
    the first ``comb(n, k)`` columns, so one table serves every number of cards left.
    Built once, on first use (``k = 5``: 2,598,960 columns, 13 MB)."""
    if k == 0:
        empty = np.empty((0, 1), dtype=np.uint8)
        empty.setflags(write=False)
        return empty
    shorter = _colex(k - 1)
    table = np.empty((k, math.comb(52, k)), dtype=np.uint8)
    start = 0
    for top in range(k - 1, 52):  # the subsets whose largest item is ``top``
        count = math.comb(top, k - 1)
        table[: k - 1, start : start + count] = shorter[:, :count]
        table[k - 1, start : start + count] = top
        start += count
    table.setflags(write=False)
    return table


def board_combinations(n: int, k: int) -> NDArray[np.uint8]:
    """Every ``k``-subset of ``range(n)`` (``n <= 52``, ``k <= 5``), as the columns of
    a read-only ``(k, comb(n, k))`` array, each column increasing, in colexicographic
    order. Column by column so that each card position is one contiguous run, which
    is how the batch evaluator reads it fastest.

    >>> board_combinations(4, 2).T.tolist()
    [[0, 1], [0, 2], [1, 2], [0, 3], [1, 3], [2, 3]]
    """
    if not (0 <= k <= 5 and k <= n <= 52):
        raise ValueError("Choose k <= 5 of n <= 52 items.")
    return _colex(k)[:, : math.comb(n, k)]


def _check(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int]
) -> NDArray[np.uint8]:
    if not 2 <= len(hands) <= 10:
        raise EquityError("Equity needs 2 to 10 hands.")
    if any(len(h) != 2 for h in hands):
        raise EquityError("Each hand is two hole cards.")
    if len(board) not in (0, 3, 4, 5):
        raise EquityError("A board has 0, 3, 4 or 5 cards.")
    known = [c for h in hands for c in h] + list(board) + list(dead)
    if not all(isinstance(c, int | np.integer) and 0 <= c < 52 for c in known):
        raise EquityError("Cards are integers from 0 to 51.")
    try:
        check_distinct([int(c) for c in known])
    except CardError as exc:
        raise EquityError(str(exc)) from None
    if 52 - len(known) < 5 - len(board):
        raise EquityError("Too many dead cards: the board cannot be dealt out.")
    return np.array([[int(c) for c in h] for h in hands], dtype=np.uint8)


class _Scorer:
    """Ranks every hand on chunks of boards and keeps the totals.

    The seven cards of every (hand, board) pair are laid out column by column in
    one ``(7, players, chunk)`` buffer, the hole cards written once, so that
    ``evaluate_batch`` reads each card position as a contiguous run."""

    def __init__(self, holes: NDArray[np.uint8], fixed: NDArray[np.uint8], chunk: int) -> None:
        players = holes.shape[0]
        self.players = players
        self.fixed = fixed.shape[0]
        self.buffer = np.empty((7, players, chunk), dtype=np.uint8)
        self.buffer[0] = holes[:, 0, None]
        self.buffer[1] = holes[:, 1, None]
        for j in range(self.fixed):
            self.buffer[2 + j] = fixed[j]
        self.wins = np.zeros(players, dtype=np.int64)
        self.ties = np.zeros(players, dtype=np.int64)
        self.points = np.zeros(players, dtype=np.int64)

    def score(self, cards: NDArray[np.uint8]) -> None:
        """``cards`` is ``(cards to come, boards)``: the rest of each board."""
        count = cards.shape[1]
        buffer = self.buffer[:, :, :count]
        first = 2 + self.fixed
        for j in range(cards.shape[0]):
            buffer[first + j] = cards[j]
        # a view when count is the whole chunk, a (cheap) copy for the last one
        ranks = evaluate_batch(buffer.reshape(7, -1).T).reshape(self.players, count)
        if self.players == 2:
            ahead = ranks[0] > ranks[1]
            behind = ranks[0] < ranks[1]
            a, b = int(np.count_nonzero(ahead)), int(np.count_nonzero(behind))
            tied = count - a - b
            self.wins += (a, b)
            self.ties += tied
            half = tied * (SHARE_POINTS // 2)
            self.points += (a * SHARE_POINTS + half, b * SHARE_POINTS + half)
            return
        best = ranks.max(axis=0)
        won = ranks == best
        winners = np.count_nonzero(won, axis=0)
        shared = np.flatnonzero(winners > 1)
        wins = np.count_nonzero(won, axis=1)
        if shared.size:  # ties are rare but for boards that play: count them apart
            won_shared = won[:, shared]
            ties = np.count_nonzero(won_shared, axis=1)
            wins -= ties
            self.ties += ties
            self.points += (won_shared * _SHARE[winners[shared]]).sum(axis=1)
        self.wins += wins
        self.points += wins * SHARE_POINTS


def _sample_boards(
    left: NDArray[np.uint8], need: int, samples: int, rng: np.random.Generator
) -> NDArray[np.uint8]:
    """``samples`` independent uniformly random ``need``-card subsets of ``left``, as
    the columns of a ``(need, samples)`` array (a draw with a repeated card is drawn
    again)."""
    m = left.shape[0]
    picks = rng.integers(0, m, size=(samples, need), dtype=np.int64)
    redo = np.arange(samples)
    while need > 1:
        ordered = np.sort(picks[redo], axis=1)
        redo = redo[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
        if not redo.size:
            break
        picks[redo] = rng.integers(0, m, size=(redo.size, need), dtype=np.int64)
    return left[picks.T]


def equity(
    hands: Sequence[Sequence[int]],
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    *,
    rng: np.random.Generator | None = None,
    samples: int = DEFAULT_SAMPLES,
    exact_limit: int = EXACT_WORK_LIMIT,
) -> Equity:
    """Each hand's chance to win (ties split) over the boards still to come.

    Exact when ``exact_work(...) <= exact_limit``; otherwise ``samples`` boards are
    drawn with ``rng``, which must then be given (a seeded ``numpy.random.Generator``).
    Raises ``EquityError`` for cards that cannot be dealt together.
    """
    holes = _check(hands, board, dead)
    players = holes.shape[0]
    known = set(int(c) for c in holes.ravel()) | {int(c) for c in board} | {int(c) for c in dead}
    left = np.array([c for c in range(52) if c not in known], dtype=np.uint8)
    need = 5 - len(board)
    fixed = np.array([int(c) for c in board], dtype=np.uint8)
    count = math.comb(left.shape[0], need)
    exact = count * players <= exact_limit or count == 1  # a full board: nothing to sample
    if not exact:
        if rng is None:
            raise EquityError("Sampling the boards needs a random generator (rng=...).")
        if samples < 1:
            raise EquityError("Sample at least one board.")
        count = samples
    scorer = _Scorer(holes, fixed, min(count, _BOARD_CHUNK))
    if exact:
        combos = board_combinations(left.shape[0], need)
        for start in range(0, count, _BOARD_CHUNK):
            scorer.score(left[combos[:, start : start + _BOARD_CHUNK]])
    else:
        assert rng is not None
        for start in range(0, count, _BOARD_CHUNK):
            rows = min(_BOARD_CHUNK, count - start)
            scorer.score(_sample_boards(left, need, rows, rng))
    scale = count * SHARE_POINTS
    points = tuple(int(p) for p in scorer.points)
    return Equity(
        equities=tuple(p / scale for p in points),
        wins=tuple(int(w) for w in scorer.wins),
        ties=tuple(int(t) for t in scorer.ties),
        points=points,
        boards=count,
        exact=exact,
    )


def equity_by_street(
    hands: Sequence[Sequence[int]],
    board: Sequence[int],
    *,
    known: int = 0,
    dead: Sequence[int] = (),
    rng: np.random.Generator | None = None,
) -> tuple[tuple[int, Equity], ...]:
    """Equity as a run-out unfolds: for a hand that went all in with ``known`` board
    cards out (0, 3 or 4) and has since been dealt ``board`` (so far), each hand's
    chance at each street from the all-in to the board now, as ``(board cards,
    Equity)`` pairs: ``(0, ...)``, ``(3, ...)``, ``(4, ...)`` for an all-in before the
    flop and a full board. The river decides and is not included. ``dead`` must hold
    only cards every viewer has seen (a folded hand's cards are not among them).

    >>> from cardroom.cards import parse_cards
    >>> steps = equity_by_street(
    ...     [parse_cards("AsAh"), parse_cards("KsKh")], parse_cards("2c7d9h Tc Kd"), known=3
    ... )
    >>> [(n, e.percentages) for n, e in steps]
    [(3, (91.6, 8.4)), (4, (95.5, 4.5))]
    """
    if known not in (0, 3, 4):
        raise EquityError("Players go all in with 0, 3 or 4 board cards out.")
    if len(board) < known:
        raise EquityError("The board is shorter than the cards that were out.")
    return tuple(
        (n, equity(hands, board[:n], dead, rng=rng)) for n in (0, 3, 4) if known <= n <= len(board)
    )
