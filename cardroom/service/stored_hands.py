"""A finished hand as stored, read back into its record, and who may see what of it.

Everything about a hand is stored as it happens (``game_tx``, ``hand_rows``): the
``hands`` row holds the deck in dealing order, the setup, the deck's commitment and
its secret salts and, once the hand is over, the engine's final state;
``hand_players`` who was dealt in at which seat; ``game_events`` every action with
its time. ``hand_record`` builds the full ``cardroom.history.record.HandRecord`` from
these; it never leaves the server. What does leave goes through
``cardroom.history.privacy``, for the viewer ``viewer_of`` says:

- a player sees their own hole cards and the hands shown at the showdown;
- anyone else signed in (another player, a spectator) sees the hand as an observer:
  shown hands only, as the table showed it to spectators while it was played;
- an admin may ask for the full record (``full=True``): every hole card, and proofs
  for every position of the deck. Without asking, an admin sees a hand like anyone.

A hand is refused until it is over: its history is written when it ends. A hand whose
stored rows do not read back is refused on its own (``RecordUnreadable``), and the
others are unharmed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom.hand import Hand
from cardroom.history.privacy import Viewer
from cardroom.history.record import HandRecord, RecordError, record_of, replay
from cardroom.rules import ChipUnit
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    Conflict,
    Forbidden,
    NotFound,
    RecordUnreadable,
    ServiceError,
)
from cardroom.service.users import UserInfo
from cardroom.store.db import reading
from cardroom.store.models import Game, GameEvent, HandPlayer, User
from cardroom.store.models import HandRecord as HandRow

log = logging.getLogger(__name__)


class HandNotFound(NotFound):
    """No hand by that id."""


class HandNotOver(Conflict):
    """The hand is still being played: it has no history yet."""


class NoDeckProof(NotFound):
    """The hand was dealt before the room committed to its decks, or the viewer saw
    none of its cards (an observer of a hand won before the flop)."""


def table_name(game_id: int) -> str:
    """The name a game's table goes by in exports (``Table 'Cardroom 12'``)."""
    return f"Cardroom {game_id}"


# ---------------------------------------------------------------------- the record


def finished_hand_row(session: Session, hand_id: int) -> HandRow:
    if type(hand_id) is not int or not 1 <= hand_id < 2**63:
        raise HandNotFound("A hand is named by its number, a whole number from 1.")
    row = session.get(HandRow, hand_id)
    if row is None:
        raise HandNotFound(f"There is no hand {hand_id}.")
    if row.final_state is None or row.ended_at is None:
        raise HandNotOver(
            f"Hand {hand_id} is still being played: its history is ready when it ends."
        )
    return row


def _names(session: Session, hand_ids: Sequence[int]) -> dict[int, dict[int, tuple[int, str]]]:
    """Hand id -> seat -> (user id, name) of the players dealt in."""
    out: dict[int, dict[int, tuple[int, str]]] = {h: {} for h in hand_ids}
    if not hand_ids:
        return out
    rows = session.execute(
        select(HandPlayer.hand_id, HandPlayer.seat, HandPlayer.user_id, User.name)
        .join(User, User.id == HandPlayer.user_id)
        .where(HandPlayer.hand_id.in_(hand_ids))
    ).all()
    for hand_id, seat, user_id, name in rows:
        out[hand_id][seat] = (user_id, name)
    return out


def _action_times(session: Session, hand_ids: Sequence[int]) -> dict[int, list[datetime]]:
    """Hand id -> the time of each player action (``PlayerActed``), in order."""
    out: dict[int, list[datetime]] = {h: [] for h in hand_ids}
    if not hand_ids:
        return out
    rows = session.execute(
        select(GameEvent.hand_id, GameEvent.created_at)
        .where(GameEvent.hand_id.in_(hand_ids), GameEvent.kind == "PlayerActed")
        .order_by(GameEvent.game_id, GameEvent.seq)
    ).all()
    for hand_id, at in rows:
        if hand_id is not None:
            out[hand_id].append(at)
    return out


@dataclass(frozen=True)
class StoredHand:
    """A finished hand as stored: its record, the engine's final hand, the game's
    money mode and who sat where."""

    row_id: int
    game_id: int
    number: int
    ended_at: datetime | None
    record: HandRecord
    final: Hand
    pays_money: bool
    preset: str
    users: dict[int, int]  # seat -> user id


@dataclass(frozen=True)
class UnreadableHand:
    """A finished hand whose stored rows do not make a record that reads back: what
    is known of it without the record, and why."""

    row_id: int
    game_id: int
    number: int
    started_at: datetime
    ended_at: datetime | None
    preset: str
    pays_money: bool
    users: dict[int, int]  # seat -> user id
    reason: str


# What reading a damaged record can raise: the record's own errors (RecordError is a
# ValueError), and the shapes of stored JSON that is not what the code wrote.
READ_ERRORS: tuple[type[Exception], ...] = (
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    AttributeError,
)

UNREADABLE = "This hand's record cannot be read"

T = TypeVar("T")


def unreadable_error(hand_id: int) -> RecordUnreadable:
    return RecordUnreadable(
        f"{UNREADABLE} (hand {hand_id}); the room's operator has been told. Your other "
        "hands are not affected."
    )


@contextmanager
def reading_hand(hand_id: int) -> Iterator[None]:
    """Turn a failure to read one hand's record into that hand's own refusal: one line
    in the log for the operator (the hand and the reason; no traceback, since the
    code did what it should with data it cannot use), a sentence for the viewer,
    never a 500 that also drops the connection."""
    try:
        yield
    except ServiceError:
        raise
    except READ_ERRORS as exc:
        log.error("hand %s: its record cannot be read: %s: %s", hand_id, type(exc).__name__, exc)
        raise unreadable_error(hand_id) from None


def or_unreadable(hand_id: int, make: Callable[[], T]) -> T | str:
    """``make()``, or the reason it failed for this hand (logged)."""
    try:
        return make()
    except ServiceError:
        raise
    except READ_ERRORS as exc:
        log.error("hand %s: its record cannot be read: %s: %s", hand_id, type(exc).__name__, exc)
        return str(exc) or type(exc).__name__


def read_hands(
    session: Session, rows: Sequence[HandRow], *, replayed: bool = False
) -> list[StoredHand | UnreadableHand]:
    """The records of finished hands, built from their rows, players and events; a
    hand whose rows do not make one is ``UnreadableHand``, and the others are unharmed.
    With ``replayed`` a record must also replay (a game's file, which leaves out what
    does not); the lists skip that (a quarter of a millisecond a hand, 200 hands on a
    history page) and a hand's own routes find out when they replay it."""
    ids = [row.id for row in rows]
    names = _names(session, ids)
    times = _action_times(session, ids)
    games: dict[int, Game] = {}
    out: list[StoredHand | UnreadableHand] = []
    for row in rows:
        game = games.get(row.game_id) or session.get(Game, row.game_id)
        assert game is not None
        games[row.game_id] = game
        seated = names[row.id]
        build = partial(stored_hand, row, game, seated, times[row.id], replayed=replayed)
        made = or_unreadable(row.id, build)
        if not isinstance(made, str):
            out.append(made)
            continue
        out.append(
            UnreadableHand(
                row_id=row.id,
                game_id=row.game_id,
                number=row.number,
                started_at=row.started_at,
                ended_at=row.ended_at,
                preset=game.preset,
                pays_money=game.preset != "arena",  # only arena tables play for points
                users={seat: user for seat, (user, _name) in seated.items()},
                reason=made,
            )
        )
    return out


def stored_hand(
    row: HandRow,
    game: Game,
    seated: dict[int, tuple[int, str]],
    times: list[datetime],
    *,
    replayed: bool,
) -> StoredHand:
    assert row.final_state is not None
    final = Hand.from_dict(row.final_state)
    record = record_of(
        final,
        {seat: seated.get(seat, (0, f"Seat {seat}"))[1] for seat in final.seats},
        times,
        table=table_name(row.game_id),
        hand_number=row.id,
        started_at=row.started_at,
        seat_count=int(game.config.get("seat_count", 10)),
        deck_root=None if row.deck_root is None else bytes.fromhex(row.deck_root),
        deck_salts=None
        if row.deck_salts is None
        else tuple(bytes.fromhex(s) for s in row.deck_salts),
    )
    if tuple(row.deck) != record.deck:
        raise RecordError(f"Hand {row.id}'s stored deck differs from the one it was dealt.")
    if replayed:
        replay(record)
    return StoredHand(
        row_id=row.id,
        game_id=row.game_id,
        number=row.number,
        ended_at=row.ended_at,
        record=record,
        final=final,
        pays_money=final.rules.chip_unit is ChipUnit.CENT,
        preset=game.preset,
        users={seat: user for seat, (user, _name) in seated.items()},
    )


def one_hand(session: Session, hand_id: int) -> StoredHand:
    """One finished hand's record, or its refusal: unreadable."""
    found = read_hands(session, [finished_hand_row(session, hand_id)])[0]
    if isinstance(found, UnreadableHand):
        raise unreadable_error(hand_id)
    return found


def hand_record(ctx: ServiceContext, hand_id: int) -> HandRecord:
    """The full record of a finished hand (every card, the salts): for the server,
    never for a viewer as it is."""
    with reading(), ctx.transaction() as session:
        return one_hand(session, hand_id).record


# ---------------------------------------------------------------------- viewers


def viewer_of(stored: StoredHand, user: UserInfo | None, full: bool) -> Viewer:
    if full:
        if user is not None and not user.is_admin:
            raise Forbidden("Only an admin can see every card of a hand.")
        return Viewer.administrator()
    if user is not None:
        for seat, user_id in stored.users.items():
            if user_id == user.id:
                return Viewer.player(seat)
    return Viewer.observer()


def describe(viewer: Viewer, stored: StoredHand) -> str:
    if viewer.admin:
        return "admin"
    if viewer.seat is None:
        return "observer"
    return f"seat {viewer.seat} ({stored.record.names[viewer.seat]})"
