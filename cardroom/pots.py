"""Main and side pots, and how a pot is split.

Players are indices in dealing order: index 0 sits nearest the button's left, so
"one odd chip at a time from the button's left" is simply ascending index order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    amount: int
    eligible: tuple[int, ...]  # players (indices) who can win it


_new = tuple.__new__


def side_pots(contributed: Sequence[int], folded: Sequence[bool], dead_money: int = 0) -> list[Pot]:
    """Pots from each player's total contribution, main pot first.

    Each level is a live player's contribution: the main pot holds everything up to
    the smallest, each further level forms a side pot that only those who covered it
    can win. Chips a folded player put in above the last live level join the last pot.
    ``dead_money`` (a big-blind ante) is not anyone's contribution: it all goes into
    the main pot.
    """
    live_levels = sorted({c for c, f in zip(contributed, folded, strict=True) if not f and c > 0})
    pots: list[Pot] = []
    previous = 0
    # List comprehensions rather than generators, and each pot made by the tuple's
    # own constructor: the views ask for the pots at every change. (A player at or
    # below the last level adds nothing to the next: ``min(c, level) - min(c,
    # previous)`` is 0 for them.)
    for level in live_levels:
        amount = sum([(level if c > level else c) - previous for c in contributed if c > previous])
        eligible = tuple([i for i, c in enumerate(contributed) if c >= level and not folded[i]])
        pots.append(_new(Pot, (amount, eligible)))
        previous = level
    leftover = sum([c - previous for c in contributed if c > previous])
    if leftover:
        if pots:
            last = pots[-1]
            pots[-1] = Pot(last.amount + leftover, last.eligible)
        else:  # nobody live put anything in: the chips go to whoever is live
            live = tuple(i for i, f in enumerate(folded) if not f)
            pots.append(Pot(leftover, live))
    if dead_money:
        if pots:
            main = pots[0]
            pots[0] = Pot(main.amount + dead_money, main.eligible)
        else:
            pots.append(Pot(dead_money, tuple(i for i, f in enumerate(folded) if not f)))
    return pots


def uncalled_bet(bets: Sequence[int]) -> tuple[int, int]:
    """(player, chips) of the part of this round's top bet that nobody has matched,
    which goes back to its maker when the round ends; (-1, 0) when there is none.
    Folded players' bets count as matched up to what they put in."""
    top = max(bets, default=0)
    if top == 0 or bets.count(top) > 1:
        return -1, 0
    i = bets.index(top)
    second = max((b for k, b in enumerate(bets) if k != i), default=0)
    return i, top - second


def pots_now(
    contributed: Sequence[int],
    bets: Sequence[int],
    folded: Sequence[bool],
    dead: Sequence[int],
) -> list[Pot]:
    """The pots as they stand, this round's bets included but not the uncalled part
    of the top bet: what would be awarded were the betting to stop now. A live player
    is eligible for each pot whose level they have matched so far."""
    live_money = [c - d for c, d in zip(contributed, dead, strict=True)]
    i, excess = uncalled_bet(bets)
    if excess:
        live_money[i] -= excess
    return side_pots(live_money, folded, sum(dead))


class TablePot(NamedTuple):
    """A pot as the public API gives it: ``eligible_seats`` are table seats."""

    amount: int
    eligible_seats: tuple[int, ...]


def split(amount: int, winners: Sequence[int]) -> list[int]:
    """Equal shares; the odd chips go one at a time to the winners nearest the
    button's left (the lowest indices)."""
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return [share + (1 if k < odd else 0) for k in range(len(ordered))]
