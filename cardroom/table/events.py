"""What happened at a table between and around hands, as small frozen records.

The hand's own steps (blinds, cards, actions, pots) are ``cardroom.events`` records in
``Table.hand.events``; these are the table's. Money never moves inside the table: a
record with a ``balance_change`` tells the server which balance to debit (negative)
or credit (positive), and the ledger does it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

PlayerId: TypeAlias = int


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Base of every table record. ``balance_sign`` is -1 for a debit of the
    player's balance, +1 for a credit and 0 when no money moves."""

    balance_sign: ClassVar[int] = 0

    @property
    def balance_change(self) -> int:
        amount = getattr(self, "amount", 0)
        return self.balance_sign * int(amount)


# --------------------------------------------------------------------- seating


@dataclass(frozen=True, slots=True)
class PlayerSeated(TableEvent):
    player: PlayerId
    seat: int
    stack: int  # chips brought to the table (0 at per-hand tables)
    waits_for_big_blind: bool


@dataclass(frozen=True, slots=True)
class PlayerLeft(TableEvent):
    player: PlayerId
    seat: int
    reason: str  # "left", "timed_out", "eliminated"


@dataclass(frozen=True, slots=True)
class PlayerSatOut(TableEvent):
    player: PlayerId


@dataclass(frozen=True, slots=True)
class PlayerSatIn(TableEvent):
    player: PlayerId
    waits_for_big_blind: bool


@dataclass(frozen=True, slots=True)
class SeatsDrawn(TableEvent):
    seats: tuple[tuple[PlayerId, int], ...]  # (player, seat)


@dataclass(frozen=True, slots=True)
class CashOutPending(TableEvent):
    """The player is cashed out as soon as nothing of theirs is in a pot."""

    player: PlayerId
    reason: str  # "left" or "timed_out"


@dataclass(frozen=True, slots=True)
class CashOutCancelled(TableEvent):
    """A player who timed out acted again before being cashed out: they stay."""

    player: PlayerId


@dataclass(frozen=True, slots=True)
class ClockActed(TableEvent):
    player: PlayerId
    timeouts_in_a_row: int


# ----------------------------------------------------------------------- money


@dataclass(frozen=True, slots=True)
class BoughtIn(TableEvent):
    """Debit: a seat at a cash table or an entry to a tournament."""

    balance_sign: ClassVar[int] = -1
    player: PlayerId
    amount: int


@dataclass(frozen=True, slots=True)
class BuyInRefunded(TableEvent):
    """Credit: the player left a game that had not started."""

    balance_sign: ClassVar[int] = 1
    player: PlayerId
    amount: int


@dataclass(frozen=True, slots=True)
class Rebought(TableEvent):
    balance_sign: ClassVar[int] = -1
    player: PlayerId
    amount: int


@dataclass(frozen=True, slots=True)
class CashedOut(TableEvent):
    balance_sign: ClassVar[int] = 1
    player: PlayerId
    amount: int


@dataclass(frozen=True, slots=True)
class HandBoughtIn(TableEvent):
    """Debit at a per-hand table: this hand's buy-in."""

    balance_sign: ClassVar[int] = -1
    player: PlayerId
    amount: int


@dataclass(frozen=True, slots=True)
class HandSettled(TableEvent):
    """Credit at a per-hand table: everything the player ends the hand with."""

    balance_sign: ClassVar[int] = 1
    player: PlayerId
    amount: int


@dataclass(frozen=True, slots=True)
class PrizePaid(TableEvent):
    balance_sign: ClassVar[int] = 1
    player: PlayerId
    place: int
    amount: int


# ------------------------------------------------------------------- the game


@dataclass(frozen=True, slots=True)
class GameStarted(TableEvent):
    players: tuple[PlayerId, ...]


@dataclass(frozen=True, slots=True)
class BlindsRaised(TableEvent):
    level: int  # 0 is the starting level
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class HandDealt(TableEvent):
    number: int  # 1 for the first hand at the table
    button: int  # seat; may be empty under the dead button
    small_blind: int | None  # seat posting the small blind; None: no small blind
    big_blind: int  # seat
    blinds: tuple[int, int]
    players: tuple[tuple[int, PlayerId, int], ...]  # (seat, player, stack), seat order


@dataclass(frozen=True, slots=True)
class HandFinished(TableEvent):
    number: int
    stacks: tuple[tuple[PlayerId, int], ...]  # after the hand, players still seated


@dataclass(frozen=True, slots=True)
class PlayerBusted(TableEvent):
    """A cash-game player with no chips left: they may rebuy or leave."""

    player: PlayerId


@dataclass(frozen=True, slots=True)
class PlayerEliminated(TableEvent):
    player: PlayerId
    place: int  # players busted in the same hand with equal stacks share a place


@dataclass(frozen=True, slots=True)
class TournamentFinished(TableEvent):
    winner: PlayerId
    places: tuple[tuple[PlayerId, int], ...]  # (player, place), first place first


@dataclass(frozen=True, slots=True)
class TablePaused(TableEvent):
    reason: str  # "players": fewer than two can play; "host": paused by host or admin


@dataclass(frozen=True, slots=True)
class TableResumed(TableEvent):
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerContinued(TableEvent):
    player: PlayerId


_TYPES: dict[str, type[TableEvent]] = {
    cls.__name__: cls
    for cls in (
        PlayerSeated,
        PlayerLeft,
        PlayerSatOut,
        PlayerSatIn,
        SeatsDrawn,
        CashOutPending,
        CashOutCancelled,
        ClockActed,
        BoughtIn,
        BuyInRefunded,
        Rebought,
        CashedOut,
        HandBoughtIn,
        HandSettled,
        PrizePaid,
        GameStarted,
        BlindsRaised,
        HandDealt,
        HandFinished,
        PlayerBusted,
        PlayerEliminated,
        TournamentFinished,
        TablePaused,
        TableResumed,
        PlayerContinued,
    )
}


def balance_changes(events: Iterable[TableEvent]) -> dict[PlayerId, int]:
    """The net debit (negative) or credit (positive) of each player's balance."""
    out: dict[PlayerId, int] = {}
    for event in events:
        change = event.balance_change
        if change:
            player: PlayerId = getattr(event, "player")  # noqa: B009
            out[player] = out.get(player, 0) + change
    return out


def table_event_to_dict(event: TableEvent) -> dict[str, Any]:
    cls = type(event)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in dataclasses.fields(cls))
    data: dict[str, Any] = {"type": cls.__name__}
    for name in names:
        value = getattr(event, name)
        data[name] = _plain(value) if isinstance(value, tuple) else value
    return data


# Each record type's field names, in order, as ``dataclasses.fields`` gives them:
# found once a type rather than once a record (the room writes every record).
_FIELD_NAMES: dict[type[TableEvent], tuple[str, ...]] = {}


def table_event_from_dict(data: dict[str, Any]) -> TableEvent:
    fields = dict(data)
    cls = _TYPES[fields.pop("type")]
    return cls(**{k: _tuples(v) for k, v in fields.items()})


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value
