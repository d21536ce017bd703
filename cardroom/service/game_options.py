"""What a game is created with, checked at the edge of the service: the options a
host may set (``GameOptions``), their ranges, and the table they make
(``table_config``). A refusal is ``InvalidGameOptions`` and creates nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardroom.rules import MinRaise, Rules, RulesError, Showdown, preset
from cardroom.service.game_errors import (
    InvalidGameOptions,
    translated,
)
from cardroom.store.models import (
    MAX_SEAT,
)
from cardroom.table import (
    BlindSchedule,
    InvalidTableConfig,
    TableConfig,
)
from cardroom.table.config import DEFAULT_SEATS

MAX_BUY_IN = 100_000_000  # $1,000,000.00 (or as many points at ``arena`` tables)
DAY = 24 * 3600

# Rule options a game may set for itself, with the range each takes. The others
# (formats, chip unit, button rules, how blinds rise...) are what makes a preset.
_INT_OPTIONS: dict[str, tuple[int, int, bool]] = {  # name: (least, most, may be None)
    "turn_clock_seconds": (5, 14 * DAY, True),
    "between_hands_seconds": (5, DAY, False),
    "inactive_fold_after_seconds": (60, 30 * DAY, True),
    "raise_cap": (1, 10, True),
    "cash_timeouts_to_cash_out": (1, 100, True),
    "rejoin_window_seconds": (0, 7 * DAY, True),
}
_BOOL_OPTIONS = frozenset(
    {"full_big_blind_call", "short_all_ins_add_up", "cash_rebuy", "idle_seats_removable"}
)
_ENUM_OPTIONS: dict[str, type[MinRaise] | type[Showdown]] = {
    "min_raise": MinRaise,
    "showdown": Showdown,
}


@dataclass(frozen=True)
class GameOptions:
    """What a game is created with. Amounts are cents at money tables (one chip per
    cent) and points at ``arena`` tables. Anything left as None takes the preset's
    default: the big blind a fiftieth of the buy-in, fixed blinds (``arena``: doubling
    every 10 hands), winner takes all, the preset's clocks."""

    preset: str = "house"
    format: str | None = None  # cash, per_hand, tournament; None: the preset's first
    seats: int = DEFAULT_SEATS
    buy_in: int = 10_00
    small_blind: int | None = None
    big_blind: int | None = None
    blinds_every_hands: int | None = None
    blinds_every_minutes: int | None = None
    blinds_rate_percent: int | None = None  # None: 100 at arena tables, else required
    payouts: Sequence[int] | None = None  # percent per place, first place first
    rules: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"turn_clock_seconds": 600}
    private: bool = False  # not listed in the lobby: found through its invite link only
    spectators: bool = True  # users without a seat may watch once it has started
    spectators_chat: bool = False  # and write in its chat


# ------------------------------------------------------------------ helpers


def _int(name: str, value: object, least: int, most: int) -> int:
    if type(value) is not int:
        raise InvalidGameOptions(f"{name} is a whole number.")
    if not least <= value <= most:
        raise InvalidGameOptions(f"{name} is from {least:,} to {most:,}.")
    return value


def _opt_int(name: str, value: object, least: int, most: int) -> int | None:
    return None if value is None else _int(name, value, least, most)


def _rules(options: GameOptions) -> Rules:
    if type(options.preset) is not str:
        raise InvalidGameOptions("A preset is named: house, standard, arena or legacy.")
    try:
        base = preset(options.preset)
    except RulesError as refused:
        raise InvalidGameOptions(str(refused)) from None
    if not isinstance(options.rules, Mapping):
        raise InvalidGameOptions("Rule options are given by name.")
    overrides: dict[str, Any] = {}
    for name, value in options.rules.items():
        if name in _INT_OPTIONS:
            least, most, nullable = _INT_OPTIONS[name]
            if value is None and nullable:
                overrides[name] = None
            else:
                overrides[name] = _int(name, value, least, most)
        elif name in _BOOL_OPTIONS:
            if type(value) is not bool:
                raise InvalidGameOptions(f"{name} is true or false.")
            overrides[name] = value
        elif name in _ENUM_OPTIONS:
            enum = _ENUM_OPTIONS[name]
            try:
                overrides[name] = enum(value)
            except ValueError:
                allowed = ", ".join(m.value for m in enum)
                raise InvalidGameOptions(f"{name} is one of {allowed}.") from None
        elif name in {f for f in base.to_dict()}:
            raise InvalidGameOptions(f"{name} is fixed by the {base.name} preset.")
        else:
            raise InvalidGameOptions(f"Unknown rule option: {name}.")
    return base.with_options(**overrides) if overrides else base


def table_config(options: GameOptions) -> TableConfig:
    """The checked configuration of a new game (``InvalidGameOptions`` if none)."""
    rules = _rules(options)
    fmt = options.format if options.format is not None else rules.formats[0].value
    seats = _int("seats", options.seats, 2, MAX_SEAT)
    buy_in = _int("buy_in", options.buy_in, 1, MAX_BUY_IN)
    small, big = options.small_blind, options.big_blind
    blinds: tuple[int, int] | None = None
    if small is not None or big is not None:
        if small is None or big is None:
            raise InvalidGameOptions("Give both blinds, or neither for the default.")
        blinds = (_int("small_blind", small, 1, MAX_BUY_IN), _int("big_blind", big, 1, MAX_BUY_IN))
    every_hands = _opt_int("blinds_every_hands", options.blinds_every_hands, 1, 10_000)
    every_minutes = _opt_int("blinds_every_minutes", options.blinds_every_minutes, 1, 7 * 24 * 60)
    rate = _opt_int("blinds_rate_percent", options.blinds_rate_percent, 1, 1000)
    schedule: BlindSchedule | None = None
    if every_hands is not None or every_minutes is not None or rate is not None:
        if rate is None:
            rate = 100 if rules.name == "arena" else 0
        schedule = BlindSchedule(every_hands, every_minutes, rate)
    payouts: tuple[int, ...] | None = None
    if options.payouts is not None:
        if isinstance(options.payouts, str | bytes) or not isinstance(options.payouts, Sequence):
            raise InvalidGameOptions("Payouts are a list of whole percentages.")
        payouts = tuple(_int("a payout", p, 1, 100) for p in options.payouts)
    try:
        return TableConfig.create(
            fmt,
            rules,
            buy_in=buy_in,
            seat_count=seats,
            blinds=blinds,
            schedule=schedule,
            payouts=payouts,
        )
    except (InvalidTableConfig, RulesError) as refused:
        raise translated(refused) from None
