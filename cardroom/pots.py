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
    for level in live_levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(
            i
            for i, (c, f) in enumerate(zip(contributed, folded, strict=True))
            if not f and c >= level
        )
        pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - previous for c in contributed if c > previous)
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


def split(amount: int, winners: Sequence[int]) -> list[int]:
    """Equal shares; the odd chips go one at a time to the winners nearest the
    button's left (the lowest indices)."""
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return [share + (1 if k < odd else 0) for k in range(len(ordered))]
