"""Per-hand tables (``standard``): every hand is its own buy-in.

Each seated player who is not sitting out and has the buy-in in their balance is dealt
in with exactly the buy-in as their stack; the others sit that hand out. When the hand
ends everything each player holds goes back to their balance, so nobody is knocked
out, nobody rebuys and the blinds (a fiftieth of the buy-in) never rise. A player who
folds and leaves during the hand is settled at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardroom.table.events import HandBoughtIn, HandSettled, PlayerId


def hand_buy_ins(players: Iterable[PlayerId], buy_in: int) -> list[HandBoughtIn]:
    return [HandBoughtIn(player, buy_in) for player in players]


def settlement(player: PlayerId, chips: int) -> HandSettled:
    return HandSettled(player, chips)
