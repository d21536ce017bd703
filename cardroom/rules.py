"""Rule options and the four presets of ``RULES.md``.

Every difference between the four rule documents is one option here, and each
document is a named preset. A game picks a preset and may override single options
(``preset("house", turn_clock_seconds=600)``). The hand engine reads the options in
the first block; the table logic reads the rest.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import orjson


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
    # Not an option: the options as plain data, made by the first ``to_dict`` (every
    # command writes its table's rules, twice, and the rules never change), with the
    # options whose values are lists.
    _plain: tuple[dict[str, Any], tuple[str, ...]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def with_options(self, **overrides: Any) -> Rules:
        """A copy with single options overridden; unknown names are refused."""
        unknown = sorted(set(overrides) - set(OPTIONS))
        if unknown:
            raise RulesError(f"Unknown rule option: {', '.join(unknown)}.")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """The options as plain data (tuples as lists), a new dict the caller may
        change: a copy of the one made the first time."""
        plain, lists = self._made()
        out = plain.copy()
        for name in lists:
            out[name] = out[name][:]
        return out

    def _made(self) -> tuple[dict[str, Any], tuple[str, ...]]:
        made = self._plain
        if made is None:
            plain: dict[str, Any] = {}
            for name in OPTIONS:
                value = getattr(self, name)
                plain[name] = list(value) if isinstance(value, tuple) else value
            lists = tuple(name for name, value in plain.items() if isinstance(value, list))
            made = (plain, lists)
            object.__setattr__(self, "_plain", made)  # frozen: set once, as __init__ sets
        return made

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """The rules of plain data: a preset's options (``name``'s, else the house's)
        with the data's over them."""
        # Data that names every option, as ``to_dict`` wrote it, is found among the
        # rules already read (``_READ``): a rules' own data must equal the data, for
        # the JSON text writes NaN as null.
        key = _data_key(data)
        if key is not None:
            known = _READ.get(key)
            if known is not None and known._made()[0] == data:
                return known
        rules = cls._from_dict(data)
        if key is not None and rules._made()[0] == data:
            if len(_READ) >= _READ_MAX:
                _READ.clear()  # one step, safe beside another thread reading
            _READ[memoryview(key).tobytes()] = rules  # orjson's own keeps 4 KB (kept_json)
        return rules

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Rules:
        base = PRESETS.get(str(data.get("name", "")), HOUSE)
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in OPTIONS:
                raise RulesError(f"Unknown rule option: {key}.")
            values[key] = _coerce(key, value)
        return dataclasses.replace(base, **values)


# Every option's name, in the order ``to_dict`` writes them.
OPTIONS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules) if f.init)

# The rules already read, by their data's exact JSON text: every table stored holds its
# rules twice (its config's and its hand's) and a few rule sets serve every table, so
# a table decoded mostly finds its rules here. Rules never change, so one object
# serves every table that reads the same data; the text tells 1 from 1.0 and true,
# which compare equal as values. At most ``_READ_MAX``, then it starts afresh.
_READ: dict[bytes, Rules] = {}
_READ_MAX = 256
# Dates, dataclasses and subclasses of str, int, dict and list are refused, not
# written: no key then, so no two such values share one.
_KEY_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


def _data_key(data: Any) -> bytes | None:
    """The data's exact JSON text, or None if it has none orjson writes (a number
    past 64 bits, an object): such data is read afresh every time."""
    try:
        return orjson.dumps(data, option=_KEY_OPTIONS)
    except orjson.JSONEncodeError:
        return None


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
