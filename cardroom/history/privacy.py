"""Who may see which hole cards of a recorded hand, and the exports that obey it.

``disclose(hand, viewer)`` is the one decision: a player sees their own hole cards
and the hands shown at the showdown; never another player's cards that were folded,
mucked or won without a showdown. An observer sees only what was shown. An admin
sees every hole card (the full record). Every export for a viewer goes through it:
``phh_export``, ``pokerstars_export`` here and the deck proofs of
``cardroom.history.fairness``.

A viewer is named by the seat they played in this hand; ``seat_of(record, name)``
finds it for a player's export of a whole game, hand by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cardroom.events import HandShown
from cardroom.hand import Hand
from cardroom.history import phh, pokerstars
from cardroom.history.record import HandRecord, replay


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: the player in ``seat``, an observer (no seat) or an admin."""

    seat: int | None = None
    admin: bool = False

    @classmethod
    def player(cls, seat: int) -> Viewer:
        return cls(seat=seat)

    @classmethod
    def observer(cls) -> Viewer:
        return cls()

    @classmethod
    def administrator(cls) -> Viewer:
        return cls(admin=True)


@dataclass(frozen=True, slots=True)
class Disclosure:
    """The hole cards a viewer may see, by seat. ``dealt``: cards seen from the deal
    (the viewer's own; every seat's for an admin). ``shown``: hands shown at the
    showdown, which everyone may see."""

    dealt: Mapping[int, tuple[int, ...]]
    shown: Mapping[int, tuple[int, ...]]

    @property
    def visible(self) -> dict[int, tuple[int, ...]]:
        return {**self.shown, **self.dealt}

    def hidden_seats(self, seats: Iterable[int]) -> frozenset[int]:
        visible = self.visible
        return frozenset(s for s in seats if s not in visible)


def disclose(hand: Hand, viewer: Viewer) -> Disclosure:
    """The hole cards of ``hand`` that ``viewer`` may see."""
    hole = {seat: tuple(cards) for seat, cards in zip(hand.seats, hand.hole, strict=True)}
    shown = {e.seat: tuple(e.cards) for e in hand.events if isinstance(e, HandShown)}
    if viewer.admin:
        dealt = hole
    elif viewer.seat is not None and viewer.seat in hole:
        dealt = {viewer.seat: hole[viewer.seat]}
    else:
        dealt = {}
    return Disclosure(dealt=dealt, shown=shown)


def seat_of(record: HandRecord, name: str) -> int | None:
    """The seat ``name`` played in this hand, or None."""
    for seat, player in record.names.items():
        if player == name:
            return seat
    return None


def viewer_named(record: HandRecord, name: str) -> Viewer:
    """The player called ``name`` if they played this hand, otherwise an observer."""
    seat = seat_of(record, name)
    return Viewer.observer() if seat is None else Viewer.player(seat)


def pokerstars_export(record: HandRecord, viewer: Viewer) -> str:
    """The hand as PokerStars text for ``viewer``."""
    return pokerstars.hand_text(record, disclose(replay(record), viewer).dealt)


def phh_export(record: HandRecord, viewer: Viewer) -> str:
    """The hand as PHH for ``viewer``: hidden hole cards are written ``????``. The
    players' names, table seats, table, hand number and date go in PHH's optional
    fields; the start time in ``_started_at`` (ISO 8601)."""
    hand = replay(record)
    hidden = disclose(hand, viewer).hidden_seats(hand.seats)
    history = phh.history_of(hand, hidden=hidden)
    started = record.started_at
    history.extra = {
        "players": [record.name(seat) for seat in hand.seats],
        "seats": list(hand.seats),
        "seat_count": record.seat_count,
        "table": record.table,
        "hand": record.hand_number,
        "year": started.year,
        "month": started.month,
        "day": started.day,
        "_started_at": started.isoformat(),
    }
    return phh.dumps(history)


def viewer_for(record: HandRecord, name: str | None, *, admin: bool = False) -> Viewer:
    """The viewer of one hand of a game export: an admin, the player ``name`` in the
    seat they held in this hand, or an observer (no name, or not in this hand)."""
    if admin:
        return Viewer.administrator()
    return Viewer.observer() if name is None else viewer_named(record, name)


def pokerstars_file(records: Iterable[HandRecord], name: str | None, *, admin: bool = False) -> str:
    """Several hands (a game) as one PokerStars file for ``name`` (or an admin)."""
    return pokerstars.hands_text(
        pokerstars_export(r, viewer_for(r, name, admin=admin)) for r in records
    )


def phhs_file(records: Iterable[HandRecord], name: str | None, *, admin: bool = False) -> str:
    """Several hands as one ``.phhs`` file (TOML tables ``[1]``, ``[2]``, ...)."""
    return "\n".join(
        f"[{k}]\n" + phh_export(r, viewer_for(r, name, admin=admin))
        for k, r in enumerate(records, 1)
    )
