"""A game's events and state as one viewer may see them: what the web layer sends.

The stored log is complete (every hole card, every burnt card), so nothing from it
leaves the server raw. Each hand record goes through ``cardroom.views.event_view``
with the seat the viewer held in *that* hand (a player who left and came back may sit
elsewhere now); the table's and the room's own records (seating, money, clock, the
game's creation) hold no card and pass as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom import views
from cardroom.events import EVENT_TYPES, event_from_dict
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_errors import GameNotFound, NotSeated
from cardroom.service.game_records import GameDetail, PlayResult, StoredEvent
from cardroom.service.lobby import GameMoment, detail_of, game_detail, moment_in
from cardroom.service.play import EVENTS_PAGE_MAX
from cardroom.store.db import reading
from cardroom.store.models import Game, GameEvent, GamePlayer


@dataclass(frozen=True)
class ViewedEvent:
    """One event as a viewer may see it: ``data`` has no card the viewer may not see."""

    seq: int
    kind: str
    hand_id: int | None
    version: int
    created_at: datetime
    data: dict[str, Any]


@dataclass(frozen=True)
class ViewerUpdate:
    """What a viewer lacks since ``after``: the events, and the game as it is once they
    have happened (``detail.last_seq`` is the last of ``events``, or ``after``)."""

    events: tuple[ViewedEvent, ...]
    detail: GameDetail


def view_event(event: StoredEvent, seat: int | None) -> ViewedEvent:
    """``event`` for the viewer who held ``seat`` in its hand (None: not dealt in)."""
    if event.kind in EVENT_TYPES:
        data = views.event_view(event_from_dict({"type": event.kind, **event.payload}), seat)
        data.pop("type", None)
    else:
        data = dict(event.payload)
    return ViewedEvent(event.seq, event.kind, event.hand_id, event.version, event.created_at, data)


def view_events(events: Iterable[StoredEvent], seats: Mapping[int, int]) -> tuple[ViewedEvent, ...]:
    """``seats``: hand id -> the viewer's seat in that hand (hands they were dealt in)."""
    return tuple(view_event(e, None if e.hand_id is None else seats.get(e.hand_id)) for e in events)


def _hand_seats(
    session: Session, game_id: int, hand_ids: Iterable[int | None]
) -> dict[int, dict[int, int]]:
    """Hand id -> {player: the seat they were dealt in at}, from each hand's
    ``HandDealt`` record (``players``: [seat, player, stack] triples)."""
    wanted = {h for h in hand_ids if h is not None}
    if not wanted:
        return {}
    rows = session.execute(
        select(GameEvent.hand_id, GameEvent.payload).where(
            GameEvent.game_id == game_id,
            GameEvent.kind == "HandDealt",
            GameEvent.hand_id.in_(sorted(wanted)),
        )
    ).all()
    seats: dict[int, dict[int, int]] = {}
    for hand_id, payload in rows:
        if hand_id is not None:
            seats[hand_id] = {player: seat for seat, player, _stack in payload.get("players", ())}
    return seats


def _viewer_seats(
    hand_seats: Mapping[int, Mapping[int, int]], viewer_id: int | None
) -> dict[int, int]:
    """Hand id -> the seat ``viewer_id`` was dealt in at (hands they were dealt in)."""
    if viewer_id is None:
        return {}
    return {
        hand_id: players[viewer_id]
        for hand_id, players in hand_seats.items()
        if viewer_id in players
    }


def _seats_in_hands(
    session: Session, game_id: int, viewer_id: int | None, hand_ids: Iterable[int | None]
) -> dict[int, int]:
    if viewer_id is None:
        return {}
    return _viewer_seats(_hand_seats(session, game_id, hand_ids), viewer_id)


def _check_viewer(viewer_id: int | None) -> None:
    if viewer_id is not None and type(viewer_id) is not int:
        raise InvalidInput("A viewer is a user's id.")


def result_events(
    ctx: ServiceContext,
    result: PlayResult,
    viewer_id: int | None,
    hand_seats: Mapping[int, Mapping[int, int]] | None = None,
) -> tuple[ViewedEvent, ...]:
    """The events a command added, as the viewer (usually the one who asked) may see
    them: the body of the command's answer. ``hand_seats``: who sat where in the
    events' hands, when the caller knows (``change_of``); otherwise read."""
    _check_viewer(viewer_id)
    if not result.events:
        return ()
    if hand_seats is not None:
        return view_events(result.events, _viewer_seats(hand_seats, viewer_id))
    with reading(), ctx.transaction() as session:
        seats = _seats_in_hands(
            session, result.game_id, viewer_id, (e.hand_id for e in result.events)
        )
    return view_events(result.events, seats)


def _stored_after(session: Session, game_id: int, after_seq: int, limit: int) -> list[StoredEvent]:
    """The game's events numbered above ``after_seq``, in order, at most ``limit``."""
    rows = session.scalars(
        select(GameEvent)
        .where(GameEvent.game_id == game_id, GameEvent.seq > after_seq)
        .order_by(GameEvent.seq)
        .limit(limit)
    ).all()
    return [StoredEvent.of(row) for row in rows]


def _events_after(
    session: Session, game_id: int, viewer_id: int | None, after_seq: int, limit: int
) -> tuple[ViewedEvent, ...]:
    stored = _stored_after(session, game_id, after_seq, limit)
    seats = _seats_in_hands(session, game_id, viewer_id, (e.hand_id for e in stored))
    return view_events(stored, seats)


def _check_page(after_seq: object, limit: object) -> None:
    if type(after_seq) is not int or after_seq < 0:
        raise InvalidInput("An event number is a whole number, 0 or more.")
    if type(limit) is not int or not 1 <= limit <= EVENTS_PAGE_MAX:
        raise InvalidInput(f"A page holds 1 to {EVENTS_PAGE_MAX} events.")


def events_for(
    ctx: ServiceContext,
    game_id: int,
    viewer_id: int | None,
    after_seq: int = 0,
    *,
    limit: int = EVENTS_PAGE_MAX,
) -> tuple[ViewedEvent, ...]:
    """The game's events numbered above ``after_seq``, in order, at most ``limit``, as
    ``viewer_id`` (None: a spectator) may see them."""
    _check_viewer(viewer_id)
    _check_page(after_seq, limit)
    with reading(), ctx.transaction() as session:
        if type(game_id) is not int or session.get(Game, game_id) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        return _events_after(session, game_id, viewer_id, after_seq, limit)


@dataclass(frozen=True)
class EventsPage:
    events: tuple[ViewedEvent, ...]
    last_seq: int  # the game's last event number when the page was read


def events_page(
    ctx: ServiceContext,
    game_id: int,
    viewer_id: int | None,
    after_seq: int = 0,
    *,
    limit: int = EVENTS_PAGE_MAX,
) -> EventsPage:
    """``events_for`` and where the log ends, read together: a client knows whether
    to ask for the next page."""
    _check_viewer(viewer_id)
    _check_page(after_seq, limit)
    with reading(), ctx.transaction() as session:
        game = session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            raise GameNotFound(f"There is no game {game_id}.")
        # One snapshot (``reading``): the row's ``last_seq`` is where these events end.
        events = _events_after(session, game_id, viewer_id, after_seq, limit)
        return EventsPage(events, game.last_seq)


@dataclass(frozen=True)
class GameChange:
    """Every event after ``after_seq`` and the game once they have happened, before
    any viewer's filter: read once after a change, then shown to each viewer of the
    table (``update_from``) instead of one read per viewer."""

    after_seq: int
    events: tuple[StoredEvent, ...]
    hand_seats: Mapping[int, Mapping[int, int]]  # hand id -> {player: seat}
    moment: GameMoment


def change_after(ctx: ServiceContext, game_id: int, after_seq: int) -> GameChange:
    """One read-only transaction. Where it sees one snapshot (SQLite; PostgreSQL's
    REPEATABLE READ inside ``reading``) the moment's ``last_seq`` is the last event
    read; were each statement to see the latest commit, commands could land between
    the reads, so the events are read on until they reach the moment's ``last_seq``:
    the state never runs ahead of the events sent with it."""
    _check_page(after_seq, EVENTS_PAGE_MAX)
    events: list[StoredEvent] = []
    have = after_seq
    with reading(), ctx.transaction() as session:
        if type(game_id) is not int or session.get(Game, game_id) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        while True:
            page = _stored_after(session, game_id, have, EVENTS_PAGE_MAX)
            events.extend(page)
            if page:
                have = page[-1].seq
            if len(page) == EVENTS_PAGE_MAX:
                continue
            moment = moment_in(session, game_id)
            if moment.last_seq <= have:
                seats = _hand_seats(session, game_id, (e.hand_id for e in events))
                return GameChange(after_seq, tuple(events), seats, moment)


def change_of(result: PlayResult, names: Mapping[int, str]) -> GameChange | None:
    """The change a command made, from what its transaction held (``result.after``):
    what a read right after the commit would return, for the committing process's
    sockets without the read. ``names``: user names known already (the last read's);
    None when something is not at hand (a name, the seats of a hand the events name):
    the sockets then read as usual."""
    after = result.after
    if after is None or not result.events or result.replayed:
        return None
    table = after.table
    wanted = {after.game.host_id, *table.players()}
    if not wanted <= names.keys():
        return None
    seats: dict[int, dict[int, int]] = {}
    if after.hand_id is not None:
        seats[after.hand_id] = {player: seat for seat, player in table.hand_players.items()}
    for event in result.events:
        if event.kind == "HandDealt" and event.hand_id is not None:
            players = event.payload.get("players", ())
            seats[event.hand_id] = {player: seat for seat, player, _stack in players}
    if any(e.hand_id is not None and e.hand_id not in seats for e in result.events):
        return None
    moment = GameMoment(
        after.game,
        table,
        names[after.game.host_id],
        {user: names[user] for user in wanted},
        after.last_seq,
    )
    return GameChange(result.events[0].seq - 1, result.events, seats, moment)


def update_from(
    change: GameChange, viewer_id: int | None, after_seq: int, now: datetime
) -> ViewerUpdate:
    """The change as ``viewer_id`` may see it, from event ``after_seq`` on (at or
    after the change's own ``after_seq``). No database: many viewers, one read."""
    if after_seq < change.after_seq:
        raise ValueError("the change starts after what the viewer needs")
    seats = _viewer_seats(change.hand_seats, viewer_id)
    events = view_events((e for e in change.events if e.seq > after_seq), seats)
    return ViewerUpdate(events, detail_of(change.moment, viewer_id, now))


def update_for(
    ctx: ServiceContext, game_id: int, viewer_id: int | None, after_seq: int
) -> ViewerUpdate:
    """Every event after ``after_seq`` and the game's state once they have happened,
    for one viewer: what a live client needs after a change or on reconnecting."""
    _check_viewer(viewer_id)
    now = ctx.now()
    return update_from(change_after(ctx, game_id, after_seq), viewer_id, after_seq, now)


def seated_players(ctx: ServiceContext, game_id: int) -> tuple[int, ...]:
    """The users with a seat at the game now: whose list of games a change touches."""
    with reading(), ctx.transaction() as session:
        rows = session.scalars(
            select(GamePlayer.user_id).where(
                GamePlayer.game_id == game_id, GamePlayer.seat.is_not(None)
            )
        ).all()
        return tuple(sorted(rows))


def player_named(
    ctx: ServiceContext, game_id: int, *, seat: int | None, player_id: int | None
) -> int:
    """The player a host or admin command is about, named by seat or by id (exactly
    one of the two). A seat must be taken; an id is checked by the command itself."""
    if (seat is None) == (player_id is None):
        raise InvalidInput("Name the player by seat or by player_id, one of the two.")
    if player_id is not None:
        return player_id
    detail = game_detail(ctx, game_id)
    for taken in detail.seats:
        if taken.seat == seat:
            return taken.user_id
    raise NotSeated(f"Nobody sits in seat {seat}.")
