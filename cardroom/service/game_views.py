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

from sqlalchemy import CompoundSelect, Connection, Integer, bindparam, null, select, union_all
from sqlalchemy.orm import Session

from cardroom import views
from cardroom.events import EVENT_TYPES
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_details import (
    GameMoment,
    detail_of,
    game_detail,
)
from cardroom.service.game_errors import GameNotFound, NotSeated
from cardroom.service.game_records import (
    GameDetail,
    GameRow,
    PlayResult,
    StoredEvent,
    quick_init,
)
from cardroom.service.play import EVENTS_PAGE_MAX
from cardroom.store.db import reading
from cardroom.store.models import Game, GameEvent, GamePlayer, User
from cardroom.table import table_from_dict
from cardroom.table.status import TableStatus


@quick_init
@dataclass(frozen=True)
class ViewedEvent:
    """One event as a viewer may see it: ``data`` has no card the viewer may not see."""

    seq: int
    kind: str
    hand_id: int | None
    version: int
    created_at: datetime
    data: dict[str, Any]


@quick_init
@dataclass(frozen=True)
class ViewerUpdate:
    """What a viewer lacks since ``after``: the events, and the game as it is once they
    have happened (``detail.last_seq`` is the last of ``events``, or ``after``)."""

    events: tuple[ViewedEvent, ...]
    detail: GameDetail


def view_event(event: StoredEvent, seat: int | None) -> ViewedEvent:
    """``event`` for the viewer who held ``seat`` in its hand (None: not dealt in)."""
    if event.kind in EVENT_TYPES:
        data = views.payload_view(event.kind, event.payload, seat)
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


def viewer_seats(
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
    return viewer_seats(_hand_seats(session, game_id, hand_ids), viewer_id)


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
        return view_events(result.events, viewer_seats(hand_seats, viewer_id))
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


@quick_init
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
    """Every event after ``after_seq`` and the game once they have happened, in one
    read-only transaction of two statements (``_read_moment``, then ``_read_events``
    once per page of events), plus SQLite's BEGIN and COMMIT.

    The game's row is read first and the events only up to its ``last_seq``: the
    state never runs ahead of the events sent with it, nor the events ahead of the
    state. That holds wherever each statement sees a commit at least as late as the
    one before it: a single snapshot (SQLite; PostgreSQL's REPEATABLE READ inside
    ``reading``), and also a statement's own moment, as under READ COMMITTED, since
    the events up to ``last_seq`` were committed with the row that counts them."""
    _check_page(after_seq, EVENTS_PAGE_MAX)
    if type(game_id) is not int:
        raise GameNotFound(f"There is no game {game_id}.")
    # Core rows only: a connection of its own, no Session (the same BEGIN/COMMIT and,
    # inside ``reading``, the same isolation: ``store.db`` sets it on the connection).
    with reading(), ctx.engine.begin() as connection:
        moment = _read_moment(connection, game_id)
        events: list[StoredEvent] = []
        seats: dict[int, dict[int, int]] = {}
        have = after_seq
        # A game's events are numbered from 1 with no gaps: a page of numbers is a
        # page of at most EVENTS_PAGE_MAX events.
        while have < moment.last_seq:
            upto = min(have + EVENTS_PAGE_MAX, moment.last_seq)
            _read_events(connection, game_id, have, upto, events, seats)
            have = upto
    return GameChange(after_seq, tuple(events), seats, moment)


# ``change_after``'s two statements, built once: Core rows, no ORM objects (the
# game's row would be an identity-mapped instance with its ``config`` and ``state``
# decoded). Parameters: game_id; lo and hi, the page of events (lo, hi].
_games, _events, _players, _users = (
    Game.__table__.c,
    GameEvent.__table__.c,
    GamePlayer.__table__.c,
    User.__table__.c,
)
_GAME_ID = bindparam("game_id", type_=Integer)
_LO = bindparam("lo", type_=Integer)
_HI = bindparam("hi", type_=Integer)

# The game's row (its user columns NULL), then one row per name (its game columns
# NULL) for who sits at the table and for the host. ``game_players`` holds a seat
# for exactly the table's players (``GameTx._sync_players``, in every command's
# transaction); ``_read_moment`` still takes the names from the table itself.
_MOMENT_COLUMNS = (
    _games.id,
    _games.host_id,
    _games.preset,
    _games.format,
    _games.status,
    _games.version,
    _games.created_at,
    _games.last_activity_at,
    _games.last_seq,
    _games.state,
)
_MOMENT_READ: CompoundSelect[Any] = union_all(
    select(*_MOMENT_COLUMNS, null().label("user_id"), null().label("name")).where(
        _games.id == _GAME_ID
    ),
    select(*(null() for _ in _MOMENT_COLUMNS), _users.id, _users.name).where(
        _users.id.in_(
            union_all(
                select(_players.user_id).where(
                    _players.game_id == _GAME_ID, _players.seat.is_not(None)
                ),
                select(_games.host_id).where(_games.id == _GAME_ID),
            )
        )
    ),
)
_NAMES_READ = select(_users.id, _users.name).where(_users.id.in_(bindparam("ids", expanding=True)))

# The page's events, then the ``HandDealt`` record of each hand they name that was
# dealt before the page (those dealt in it are among its events): who sat where.
_page = GameEvent.__table__.alias("page")
_EVENT_COLUMNS = (
    _events.seq,
    _events.kind,
    _events.payload,
    _events.hand_id,
    _events.version,
    _events.created_at,
)
_EVENTS_READ = union_all(
    select(*_EVENT_COLUMNS).where(
        _events.game_id == _GAME_ID, _events.seq > _LO, _events.seq <= _HI
    ),
    select(*_EVENT_COLUMNS).where(
        # By ``hand_id`` alone (a hand is one game's): SQLite would otherwise walk
        # the game's whole log before the page on ``(game_id, seq)``.
        _events.hand_id.in_(
            select(_page.c.hand_id).where(
                _page.c.game_id == _GAME_ID, _page.c.seq > _LO, _page.c.seq <= _HI
            )
        ),
        _events.kind == "HandDealt",
        _events.seq <= _LO,
    ),
).order_by(_events.seq)


def _read_moment(connection: Connection, game_id: int) -> GameMoment:
    """``game_details.moment_in`` in one statement: the game's row, decoded once, with the
    names of everyone at the table. No row: GameNotFound."""
    game = None
    names: dict[int, str] = {}
    for row in connection.execute(_MOMENT_READ, {"game_id": game_id}):
        if row.user_id is None:
            game = row
        else:
            names[row.user_id] = row.name
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    table = table_from_dict(game.state)
    wanted = {game.host_id, *table.players()}
    missing = wanted - names.keys()
    if missing:  # a table out of step with its ``game_players`` rows
        for user, name in connection.execute(_NAMES_READ, {"ids": sorted(missing)}):
            names[user] = name
    names = {user: names[user] for user in wanted if user in names}
    return GameMoment(GameRow.of(game), table, names.get(game.host_id, "?"), names, game.last_seq)


def _read_events(
    connection: Connection,
    game_id: int,
    lo: int,
    hi: int,
    events: list[StoredEvent],
    seats: dict[int, dict[int, int]],
) -> None:
    """Adds the events numbered (lo, hi] to ``events`` and who sat where in their
    hands to ``seats`` (``_hand_seats``)."""
    params = {"game_id": game_id, "lo": lo, "hi": hi}
    for seq, kind, payload, hand_id, version, created_at in connection.execute(
        _EVENTS_READ, params
    ):
        if seq > lo:
            events.append(StoredEvent(seq, kind, payload, hand_id, version, created_at))
        if kind == "HandDealt" and hand_id is not None:
            seats[hand_id] = {player: seat for seat, player, _stack in payload.get("players", ())}


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
    host = after.game.host_id
    wanted = {seat.player for seat in table.seats.values()}
    wanted.add(host)
    if not wanted <= names.keys():
        return None
    seats: dict[int, dict[int, int]] = {}
    if after.hand_id is not None:
        seats[after.hand_id] = {player: seat for seat, player in table.hand_players.items()}
    events = result.events
    unknown = False  # an event of a hand not in ``seats`` (yet: its deal may follow)
    for event in events:
        hand_id = event.hand_id
        if hand_id is None:
            continue
        if event.kind == "HandDealt":
            players = event.payload.get("players", ())
            seats[hand_id] = {player: seat for seat, player, _stack in players}
        elif hand_id not in seats:
            unknown = True
    if unknown and any(e.hand_id is not None and e.hand_id not in seats for e in events):
        return None
    # The last change's names when they name just who is here (as from one change to
    # the next they do): shared, as a moment's names are never changed.
    names_here = names if names.keys() == wanted else {user: names[user] for user in wanted}
    moment = GameMoment(after.game, table, names[host], names_here, after.last_seq)
    return GameChange(events[0].seq - 1, events, seats, moment)


def update_from(
    change: GameChange, viewer_id: int | None, after_seq: int, now: datetime
) -> ViewerUpdate:
    """The change as ``viewer_id`` may see it, from event ``after_seq`` on (at or
    after the change's own ``after_seq``). No database: many viewers, one read."""
    if after_seq < change.after_seq:
        raise ValueError("the change starts after what the viewer needs")
    seats = viewer_seats(change.hand_seats, viewer_id)
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


@dataclass(frozen=True)
class Standing:
    """A tournament player's finish: ``seat`` is where they last sat (the winner's
    seat, or the one they were eliminated from), ``prize`` what the room paid them
    for the place (0: none, or not yet: prizes are paid when the game ends)."""

    place: int
    user_id: int
    name: str
    seat: int | None
    prize: int


@dataclass(frozen=True)
class Standings:
    finished: bool  # the tournament has its winner
    places: tuple[Standing, ...]  # best place first; only players who have finished


def standings(ctx: ServiceContext, game_id: int) -> Standings:
    """The finishing places of a tournament so far, with names, seats and prizes: what
    its table shows at the end, and what an eliminated player sees of their own
    result while the others play on. The table keeps the places; the names, the
    seats left and the prizes paid are read from the users and the game's log."""
    with reading(), ctx.transaction() as session:
        game = session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            raise GameNotFound(f"There is no game {game_id}.")
        table = table_from_dict(game.state)
        finishes = sorted(table.finishes, key=lambda f: f[1])  # stable: ties keep order
        players = {player for player, _ in finishes}
        if not players:
            return Standings(False, ())
        names = dict(session.execute(select(User.id, User.name).where(User.id.in_(players))).all())
        seats = {s.player: s.number for s in table.seats.values()}
        prizes: dict[int, int] = {}
        rows = session.execute(
            select(GameEvent.kind, GameEvent.payload).where(
                GameEvent.game_id == game_id, GameEvent.kind.in_(("PlayerLeft", "PrizePaid"))
            )
        ).all()
        for kind, payload in rows:
            if kind == "PrizePaid":
                prizes[payload["player"]] = prizes.get(payload["player"], 0) + payload["amount"]
            elif payload.get("reason") == "eliminated":
                seats[payload["player"]] = payload["seat"]
        places = tuple(
            Standing(
                place, player, names.get(player, "?"), seats.get(player), prizes.get(player, 0)
            )
            for player, place in finishes
        )
        return Standings(table.status is TableStatus.FINISHED, places)
