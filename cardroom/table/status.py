"""Where a game is in its life."""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    WAITING = "waiting"  # not started: players join and leave freely
    PLAYING = "playing"
    FINISHED = "finished"  # a tournament with a winner
    CANCELLED = "cancelled"  # never started; every buy-in refunded
