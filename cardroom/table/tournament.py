"""Tournament rules: finishing places and prizes.

- Players who bust in the same hand finish in order of the chips they started that
  hand with, more chips the better place; players who started it with equal chips
  share the better place (both are "3rd").
- The prize pool is every buy-in. Each paid place gets its percentage of the pool
  rounded down to the cent; the cents left over go one at a time to the best places,
  first place first, so the whole pool is paid out. With fewer entrants than paid
  places, the places that exist share the pool in proportion to their percentages.
- Players sharing a place share the prizes of the places they span equally; an odd
  cent goes to the one seated nearest the button's left in the hand they busted in.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.table.events import PlayerId


def payout_amounts(pool: int, percentages: Sequence[int], entrants: int) -> list[int]:
    """The prize for each place, first place first; the amounts add up to ``pool``.

    >>> payout_amounts(1000, (65, 35), 5)
    [650, 350]
    >>> payout_amounts(1001, (50, 30, 20), 9)
    [501, 300, 200]
    """
    paid = list(percentages[: max(1, entrants)])
    total = sum(paid)
    amounts = [pool * p // total for p in paid]
    for k in range(pool - sum(amounts)):
        amounts[k % len(amounts)] += 1
    return amounts


def places_for_busts(
    busted: Sequence[tuple[PlayerId, int]], players_left: int
) -> list[tuple[PlayerId, int]]:
    """Finishing places for the players who busted in one hand.

    ``busted`` holds (player, chips at the start of the hand) in seat order from the
    button's left; ``players_left`` is how many still have chips.

    >>> places_for_busts([(7, 300), (8, 500)], 1)
    [(8, 2), (7, 3)]
    >>> places_for_busts([(7, 300), (8, 300), (9, 100)], 2)
    [(7, 3), (8, 3), (9, 5)]
    """
    order = sorted(range(len(busted)), key=lambda k: -busted[k][1])  # stable: button's left first
    out: list[tuple[PlayerId, int]] = []
    for rank, k in enumerate(order):
        player, chips = busted[k]
        if rank and chips == busted[order[rank - 1]][1]:
            place = out[-1][1]
        else:
            place = players_left + 1 + rank
        out.append((player, place))
    return out


def prizes(
    pool: int,
    percentages: Sequence[int],
    entrants: int,
    places: Sequence[tuple[PlayerId, int]],
) -> list[tuple[PlayerId, int, int]]:
    """(player, place, prize) for every paid finisher, best place first. ``places``
    lists players sharing a place next to each other, nearest the button's left first."""
    amounts = payout_amounts(pool, percentages, entrants)
    out: list[tuple[PlayerId, int, int]] = []
    for place in sorted({p for _, p in places}):
        group = [player for player, p in places if p == place]
        spanned = amounts[place - 1 : place - 1 + len(group)]
        share, odd = divmod(sum(spanned), len(group))
        for k, player in enumerate(group):
            amount = share + (1 if k < odd else 0)
            if amount:
                out.append((player, place, amount))
    return out
