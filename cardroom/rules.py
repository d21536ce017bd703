"""Rule options and the four presets of ``RULES.md``.

Every difference between the four rule documents is one option here, and each
document is a named preset. A game picks a preset and may override single options
(``preset("house", turn_clock_seconds=600)``). The hand engine reads the options in
the first block; the table logic reads the rest.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class MinRaise(StrEnum):
    """How big a raise must be."""

    LAST_FULL_RAISE = "last_full_raise"  # the last full bet or raise, never less than the BB
    BIG_BLIND = "big_blind"  # always the big blind (arena)


class Showdown(StrEnum):
    SIMULTANEOUS = "simultaneous"  # everyone left reveals at once, no mucking
    ORDERED = "ordered"  # last river aggressor first; losers muck unseen


class Format(StrEnum):
    CASH = "cash"
    PER_HAND = "per_hand"
    TOURNAMENT = "tournament"


class ButtonRule(StrEnum):
    MOVING_BIG_BLIND = "moving_big_blind"  # the big blind moves exactly one player a hand
    DEAD_BUTTON = "dead_button"  # WSOP rule 49: button or small blind may sit on an empty seat
    SIMPLE_ROTATION = "simple_rotation"  # the button moves to the next player dealt in


class BlindIncrease(StrEnum):
    NEVER = "never"
    SCHEDULE = "schedule"  # every N hands or M minutes, by a rate (when configured)
    DOUBLE_EVERY_N_HANDS = "double_every_n_hands"  # arena
    TOURNAMENT_LEVELS = "tournament_levels"  # legacy: tournament levels only


class ChipUnit(StrEnum):
    CENT = "cent"  # one chip is one cent of balance
    POINT = "point"  # play points, no money (arena)


@dataclass(frozen=True, slots=True)
class Rules:
    name: str
    # --- the hand (engine) ---
    min_raise: MinRaise = MinRaise.LAST_FULL_RAISE
    raise_cap: int | None = None  # full raises allowed per round, None for no cap
    full_big_blind_call: bool = False  # BGC 6a: pre-flop call is at least a full BB
    short_all_ins_add_up: bool = False  # several short all-ins reopen once they make a full raise
    showdown: Showdown = Showdown.ORDERED
    # --- the table (between hands) ---
    formats: tuple[Format, ...] = (Format.CASH, Format.TOURNAMENT)
    chip_unit: ChipUnit = ChipUnit.CENT
    big_blind_divisor: int | None = 50  # default BB = buy-in chips / 50; None: set at creation
    cash_button: ButtonRule | None = ButtonRule.SIMPLE_ROTATION
    tournament_button: ButtonRule | None = ButtonRule.DEAD_BUTTON
    random_first_button: bool = False
    blind_increase: BlindIncrease = BlindIncrease.SCHEDULE
    turn_clock_seconds: int | None = 120  # None: no automatic clock
    inactive_fold_after_seconds: int | None = None  # legacy: host/admin may fold after this
    between_hands_seconds: int = 60
    cash_timeouts_to_cash_out: int | None = 3
    idle_seats_removable: bool = False
    cash_rebuy: bool = True  # at zero chips, for exactly the buy-in
    rejoin_window_seconds: int | None = 2 * 3600  # rejoin costs max(buy-in, cashed out)

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with single options overridden; unknown names are refused."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise RulesError(f"Unknown rule option: {', '.join(unknown)}.")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        base = PRESETS.get(str(data.get("name", "")), HOUSE)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in fields:
                raise RulesError(f"Unknown rule option: {key}.")
            values[key] = _coerce(key, value)
        return dataclasses.replace(base, **values)


class RulesError(ValueError):
    """A rule option that does not exist or has an impossible value."""


_ENUM_OPTIONS: dict[str, type[StrEnum]] = {
    "min_raise": MinRaise,
    "showdown": Showdown,
    "chip_unit": ChipUnit,
    "cash_button": ButtonRule,
    "tournament_button": ButtonRule,
    "blind_increase": BlindIncrease,
}


def _coerce(key: str, value: Any) -> Any:
    enum = _ENUM_OPTIONS.get(key)
    if enum is not None and value is not None:
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(m.value for m in enum)
            raise RulesError(f"{value!r} is not a value of {key} (use {allowed}).") from None
    if key == "formats":
        return tuple(Format(v) for v in value)
    return value


HOUSE = Rules(
    name="house",
    min_raise=MinRaise.LAST_FULL_RAISE,
    raise_cap=3,
    full_big_blind_call=True,
    short_all_ins_add_up=True,
    showdown=Showdown.SIMULTANEOUS,
    formats=(Format.CASH, Format.TOURNAMENT),
    cash_button=ButtonRule.MOVING_BIG_BLIND,
    tournament_button=ButtonRule.DEAD_BUTTON,
    blind_increase=BlindIncrease.SCHEDULE,
    turn_clock_seconds=120,
    cash_timeouts_to_cash_out=3,
    cash_rebuy=True,
    rejoin_window_seconds=2 * 3600,
)

STANDARD = Rules(
    name="standard",
    # the textbook and TDA reading: 002 speaks only of a single short all-in
    short_all_ins_add_up=True,
    showdown=Showdown.ORDERED,
    formats=(Format.PER_HAND,),
    cash_button=ButtonRule.SIMPLE_ROTATION,
    tournament_button=None,
    blind_increase=BlindIncrease.NEVER,
    turn_clock_seconds=30,
    cash_timeouts_to_cash_out=3,
    cash_rebuy=False,  # not needed: each hand buys in afresh
    rejoin_window_seconds=None,
)

ARENA = Rules(
    name="arena",
    min_raise=MinRaise.BIG_BLIND,
    showdown=Showdown.SIMULTANEOUS,
    formats=(Format.TOURNAMENT,),
    chip_unit=ChipUnit.POINT,
    big_blind_divisor=None,
    cash_button=None,
    tournament_button=ButtonRule.SIMPLE_ROTATION,
    random_first_button=True,
    blind_increase=BlindIncrease.DOUBLE_EVERY_N_HANDS,
    turn_clock_seconds=120,
    cash_timeouts_to_cash_out=None,
    cash_rebuy=False,
    rejoin_window_seconds=None,
)

LEGACY = Rules(
    name="legacy",
    showdown=Showdown.ORDERED,
    formats=(Format.CASH, Format.TOURNAMENT),
    cash_button=ButtonRule.SIMPLE_ROTATION,
    tournament_button=ButtonRule.DEAD_BUTTON,
    blind_increase=BlindIncrease.TOURNAMENT_LEVELS,
    turn_clock_seconds=None,
    inactive_fold_after_seconds=24 * 3600,
    cash_timeouts_to_cash_out=None,
    idle_seats_removable=True,
    cash_rebuy=True,
    rejoin_window_seconds=None,
)

PRESETS: dict[str, Rules] = {r.name: r for r in (HOUSE, STANDARD, ARENA, LEGACY)}


def preset(name: str, **overrides: Any) -> Rules:
    """The named preset, with single options overridden."""
    try:
        base = PRESETS[name]
    except KeyError:
        raise RulesError(f"{name!r} is not a preset (use {', '.join(PRESETS)}).") from None
    return base.with_options(**overrides) if overrides else base
