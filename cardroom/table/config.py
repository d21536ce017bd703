"""What a table is created with: format, rules, seats, buy-in, blinds, schedule and
payouts, with the defaults of ``RULES.md`` filled in and impossible choices refused."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from cardroom.rules import BlindIncrease, ButtonRule, ChipUnit, Format, Rules, preset
from cardroom.table.blinds import ARENA_DEFAULT_DOUBLING_HANDS, BlindSchedule, default_blinds
from cardroom.table.errors import InvalidTableConfig

MIN_SEATS = 2
MAX_SEATS = 10
DEFAULT_SEATS = 9
MIN_MONEY_BUY_IN = 100  # $1.00 in cents, one chip per cent
WINNER_TAKES_ALL = (100,)


@dataclass(frozen=True, slots=True)
class TableConfig:
    format: Format
    rules: Rules
    seat_count: int
    buy_in: int  # chips, one per cent of balance; at ``arena`` tables the starting points
    small_blind: int  # the starting blinds
    big_blind: int
    schedule: BlindSchedule
    payouts: tuple[int, ...]  # percent of the prize pool for each place, first place first

    @classmethod
    def create(
        cls,
        format: Format | str,
        rules: Rules | str = "house",
        *,
        buy_in: int,
        seat_count: int = DEFAULT_SEATS,
        blinds: tuple[int, int] | None = None,
        schedule: BlindSchedule | None = None,
        payouts: tuple[int, ...] | None = None,
    ) -> TableConfig:
        """A checked configuration; blinds, schedule and payouts default per preset."""
        r = preset(rules) if isinstance(rules, str) else rules
        try:
            fmt = Format(format)
        except ValueError:
            raise InvalidTableConfig(f"{format!r} is not a game format.") from None
        if blinds is None:
            if r.big_blind_divisor is None:
                raise InvalidTableConfig(f"Set the blinds: {r.name} tables have no default.")
            blinds = default_blinds(buy_in, r.big_blind_divisor)
        if schedule is None:
            schedule = (
                BlindSchedule.by_hands(ARENA_DEFAULT_DOUBLING_HANDS, 100)
                if r.blind_increase is BlindIncrease.DOUBLE_EVERY_N_HANDS
                else BlindSchedule.fixed()
            )
        config = cls(
            fmt,
            r,
            seat_count,
            buy_in,
            blinds[0],
            blinds[1],
            schedule,
            WINNER_TAKES_ALL if payouts is None else tuple(payouts),
        )
        config.validate()
        return config

    @property
    def button_rule(self) -> ButtonRule:
        rule = (
            self.rules.tournament_button
            if self.format is Format.TOURNAMENT
            else self.rules.cash_button
        )
        assert rule is not None  # validate() refuses a format the rules do not offer
        return rule

    @property
    def pays_money(self) -> bool:
        return self.rules.chip_unit is ChipUnit.CENT

    def validate(self) -> None:
        r = self.rules
        if self.format not in r.formats:
            offered = ", ".join(f.value for f in r.formats)
            raise InvalidTableConfig(
                f"{r.name} rules have no {self.format.value} games (they offer {offered})."
            )
        if not MIN_SEATS <= self.seat_count <= MAX_SEATS:
            raise InvalidTableConfig(f"A table has {MIN_SEATS} to {MAX_SEATS} seats.")
        if self.pays_money and self.buy_in < MIN_MONEY_BUY_IN:
            raise InvalidTableConfig("The buy-in is at least $1.00.")
        if not 1 <= self.small_blind <= self.big_blind:
            raise InvalidTableConfig(
                "The small blind is at least 1 chip and no larger than the big blind."
            )
        if self.buy_in < self.big_blind:
            raise InvalidTableConfig("The buy-in must cover at least one big blind.")
        if self.format is Format.PER_HAND and r.big_blind_divisor is not None:
            expected = default_blinds(self.buy_in, r.big_blind_divisor)
            if (self.small_blind, self.big_blind) != expected:
                raise InvalidTableConfig(
                    f"At a per-hand table the big blind is 1/{r.big_blind_divisor} of the "
                    f"buy-in: {expected[0]}/{expected[1]}."
                )
        self._validate_schedule()
        self._validate_payouts()

    def _validate_schedule(self) -> None:
        s, how = self.schedule, self.rules.blind_increase
        s.validate()
        if how is BlindIncrease.NEVER and not s.is_fixed:
            raise InvalidTableConfig(f"Blinds never rise under {self.rules.name} rules.")
        if (
            how is BlindIncrease.TOURNAMENT_LEVELS
            and not s.is_fixed
            and self.format is not Format.TOURNAMENT
        ):
            raise InvalidTableConfig(
                f"Under {self.rules.name} rules blinds rise in tournaments only."
            )
        if how is BlindIncrease.DOUBLE_EVERY_N_HANDS and (
            s.every_hands is None or s.rate_percent != 100
        ):
            raise InvalidTableConfig(
                f"Under {self.rules.name} rules the blinds double every so many hands."
            )

    def _validate_payouts(self) -> None:
        p = self.payouts
        if p == WINNER_TAKES_ALL:
            return
        if self.format is not Format.TOURNAMENT or not self.pays_money:
            raise InvalidTableConfig("Only money tournaments have a payout table.")
        if not p or any(x < 1 for x in p) or sum(p) != 100:
            raise InvalidTableConfig("Payouts are whole percentages that add up to 100.")
        if any(a < b for a, b in itertools.pairwise(p)):
            raise InvalidTableConfig("A lower place cannot be paid more than a higher one.")
        if len(p) > self.seat_count:
            raise InvalidTableConfig("More places are paid than the table has seats.")

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format.value,
            "rules": self.rules.to_dict(),
            "seat_count": self.seat_count,
            "buy_in": self.buy_in,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "schedule": self.schedule.to_dict(),
            "payouts": list(self.payouts),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableConfig:
        return cls(
            Format(data["format"]),
            Rules.from_dict(data["rules"]),
            data["seat_count"],
            data["buy_in"],
            data["small_blind"],
            data["big_blind"],
            BlindSchedule.from_dict(data["schedule"]),
            tuple(data["payouts"]),
        )
