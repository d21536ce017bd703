"""Blind schedules: fixed, or raised every N hands or every M minutes by a rate.

The rounding (``RULES.md``, "Points the documents leave open, decided"): write the
blinds as m x (s, b), with s and b the smallest whole numbers in that ratio, so 5/10
is 5 x (1, 2) and 10/25 is 5 x (2, 5). A raise multiplies m by (1 + rate), rounds half
up, and takes at least m + 1. The ratio is kept exactly; small or odd blinds grow by a
little more or less than the rate:

>>> raise_blinds(5, 10, 50), raise_blinds(8, 16, 50), raise_blinds(12, 24, 50)
((8, 16), (12, 24), (18, 36))
>>> raise_blinds(1, 2, 25)
(2, 4)

``arena`` doubles the blinds every N hands: a rate of 100 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from cardroom.table.errors import InvalidTableConfig

ARENA_DEFAULT_DOUBLING_HANDS = 10


@dataclass(frozen=True, slots=True)
class BlindSchedule:
    """When and by how much the blinds rise. Neither ``every_hands`` nor
    ``every_minutes``: fixed blinds."""

    every_hands: int | None = None
    every_minutes: int | None = None
    rate_percent: int = 0

    @classmethod
    def fixed(cls) -> BlindSchedule:
        return cls()

    @classmethod
    def by_hands(cls, hands: int, rate_percent: int) -> BlindSchedule:
        return cls(every_hands=hands, rate_percent=rate_percent)

    @classmethod
    def by_minutes(cls, minutes: int, rate_percent: int) -> BlindSchedule:
        return cls(every_minutes=minutes, rate_percent=rate_percent)

    @property
    def is_fixed(self) -> bool:
        return self.every_hands is None and self.every_minutes is None

    def validate(self) -> None:
        if self.every_hands is not None and self.every_minutes is not None:
            raise InvalidTableConfig("Raise the blinds every so many hands or minutes, not both.")
        if self.is_fixed:
            if self.rate_percent:
                raise InvalidTableConfig("Say every how many hands or minutes the blinds rise.")
            return
        every = self.every_hands if self.every_hands is not None else self.every_minutes
        if every is None or every < 1:
            raise InvalidTableConfig("Blinds rise every 1 or more hands or minutes.")
        if self.rate_percent < 1:
            raise InvalidTableConfig("A blind increase needs a rate of at least 1%.")

    def level_at(self, hands_dealt: int, clock_seconds: float) -> int:
        """The level in force for a hand dealt after ``hands_dealt`` hands, with the
        blind clock at ``clock_seconds``: level 0 is the starting blinds."""
        if self.every_hands is not None:
            return hands_dealt // self.every_hands
        if self.every_minutes is not None:
            return max(0, math.floor(clock_seconds // (self.every_minutes * 60)))
        return 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "every_hands": self.every_hands,
            "every_minutes": self.every_minutes,
            "rate_percent": self.rate_percent,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlindSchedule:
        return cls(data.get("every_hands"), data.get("every_minutes"), data["rate_percent"])


def raise_blinds(small_blind: int, big_blind: int, rate_percent: int) -> tuple[int, int]:
    """One step of the schedule, keeping the small-to-big ratio exactly."""
    m = math.gcd(small_blind, big_blind)
    s, b = small_blind // m, big_blind // m
    # m x (1 + rate), rounded half up, in whole numbers: floor((2 m (100 + r) + 100) / 200)
    grown = (2 * m * (100 + rate_percent) + 100) // 200
    m = max(grown, m + 1)
    return s * m, b * m


def blinds_at_level(
    small_blind: int, big_blind: int, rate_percent: int, level: int
) -> tuple[int, int]:
    for _ in range(level):
        small_blind, big_blind = raise_blinds(small_blind, big_blind, rate_percent)
    return small_blind, big_blind


def default_blinds(buy_in: int, divisor: int) -> tuple[int, int]:
    """The big blind a ``divisor``-th of the buy-in (rounded down, at least 2) and the
    small blind half of it (rounded down): $1.00 plays 1/2, $1.50 plays 1/3."""
    big = max(2, buy_in // divisor)
    return big // 2, big


@dataclass(slots=True)
class BlindClock:
    """The time blind levels are counted in: it starts with the game and stands still
    while the table is paused (for lack of players, or by the host)."""

    started_at: float | None = None
    stopped_at: float | None = None
    stopped_seconds: float = 0.0

    def start(self, now: float) -> None:
        self.started_at = now

    def stop(self, now: float) -> None:
        if self.stopped_at is None:
            self.stopped_at = now

    def run(self, now: float) -> None:
        if self.stopped_at is not None:
            self.stopped_seconds += max(0.0, now - self.stopped_at)
            self.stopped_at = None

    def seconds(self, now: float) -> float:
        if self.started_at is None:
            return 0.0
        end = now if self.stopped_at is None else self.stopped_at
        return max(0.0, end - self.started_at - self.stopped_seconds)

    def to_dict(self) -> dict[str, Any]:
        return {
            "started_at": self.started_at,
            "stopped_at": self.stopped_at,
            "stopped_seconds": self.stopped_seconds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlindClock:
        return cls(data["started_at"], data["stopped_at"], data["stopped_seconds"])
