"""Hand histories from storage: the record of a finished hand, a player's hands, the
exports and the deck proofs, each as one viewer may see it.

Everything about a hand is stored as it happens (``game_tx``): the ``hands`` row holds
the deck in dealing order, the setup, the deck's commitment and its secret salts and,
once the hand is over, the engine's final state; ``hand_players`` who was dealt in at
which seat; ``game_events`` every action with its time. ``hand_record`` builds the
full ``cardroom.history.record.HandRecord`` from these; it never leaves the server.
What does leave goes through ``cardroom.history.privacy``:

- a player sees their own hole cards and the hands shown at the showdown;
- anyone else signed in (another player, a spectator) sees the hand as an observer:
  shown hands only, as the table showed it to spectators while it was played;
- an admin may ask for the full record (``full=True``): every hole card, and proofs
  for every position of the deck. Without asking, an admin sees a hand like anyone.

A hand is refused until it is over: its history is written when it ends.
"""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom import views
from cardroom.events import Event, HandShown, PlayerActed, PotAwarded
from cardroom.hand import Hand
from cardroom.history import fairness, pokerstars
from cardroom.history.privacy import Viewer, disclose, phh_export, pokerstars_export
from cardroom.history.record import HandRecord, RecordError, record_of, replay
from cardroom.rules import ChipUnit
from cardroom.service import invites
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    RecordUnreadable,
    ServiceError,
)
from cardroom.service.game_errors import GameNotFound
from cardroom.service.users import UserInfo, user_named
from cardroom.store.db import reading
from cardroom.store.models import Game, GameEvent, HandPlayer, User
from cardroom.store.models import HandRecord as HandRow

log = logging.getLogger(__name__)

HANDS_PAGE_DEFAULT = 20
HANDS_PAGE_MAX = 100
GAMES_PAGE_DEFAULT = 20
GAMES_PAGE_MAX = 50
PER_GAME_DEFAULT = 10
PER_GAME_MAX = 50


class ExportFormat(enum.StrEnum):
    """The hand-history formats a download can take."""

    PHH = "phh"
    POKERSTARS = "pokerstars"


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


def _hand_row(session: Session, hand_id: int) -> HandRow:
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
class _Stored:
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
class _Unreadable:
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


def _unreadable_error(hand_id: int) -> RecordUnreadable:
    return RecordUnreadable(
        f"{UNREADABLE} (hand {hand_id}); the room's operator has been told. Your other "
        "hands are not affected."
    )


@contextmanager
def _reading_hand(hand_id: int) -> Iterator[None]:
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
        raise _unreadable_error(hand_id) from None


def _or_unreadable(hand_id: int, make: Callable[[], T]) -> T | str:
    """``make()``, or the reason it failed for this hand (logged)."""
    try:
        return make()
    except ServiceError:
        raise
    except READ_ERRORS as exc:
        log.error("hand %s: its record cannot be read: %s: %s", hand_id, type(exc).__name__, exc)
        return str(exc) or type(exc).__name__


def _read(
    session: Session, rows: Sequence[HandRow], *, replayed: bool = False
) -> list[_Stored | _Unreadable]:
    """The records of finished hands, built from their rows, players and events; a
    hand whose rows do not make one is ``_Unreadable``, and the others are unharmed.
    With ``replayed`` a record must also replay (a game's file, which leaves out what
    does not); the lists skip that (a quarter of a millisecond a hand, 200 hands on a
    history page) and a hand's own routes find out when they replay it."""
    ids = [row.id for row in rows]
    names = _names(session, ids)
    times = _action_times(session, ids)
    games: dict[int, Game] = {}
    out: list[_Stored | _Unreadable] = []
    for row in rows:
        game = games.get(row.game_id) or session.get(Game, row.game_id)
        assert game is not None
        games[row.game_id] = game
        seated = names[row.id]
        build = partial(_stored_hand, row, game, seated, times[row.id], replayed=replayed)
        made = _or_unreadable(row.id, build)
        if not isinstance(made, str):
            out.append(made)
            continue
        out.append(
            _Unreadable(
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


def _stored_hand(
    row: HandRow,
    game: Game,
    seated: dict[int, tuple[int, str]],
    times: list[datetime],
    *,
    replayed: bool,
) -> _Stored:
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
    return _Stored(
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


def _one(session: Session, hand_id: int) -> _Stored:
    """One finished hand's record, or its refusal: unreadable."""
    found = _read(session, [_hand_row(session, hand_id)])[0]
    if isinstance(found, _Unreadable):
        raise _unreadable_error(hand_id)
    return found


def hand_record(ctx: ServiceContext, hand_id: int) -> HandRecord:
    """The full record of a finished hand (every card, the salts): for the server,
    never for a viewer as it is."""
    with reading(), ctx.transaction() as session:
        return _one(session, hand_id).record


# ---------------------------------------------------------------------- viewers


def _viewer(stored: _Stored, user: UserInfo | None, full: bool) -> Viewer:
    if full:
        if user is not None and not user.is_admin:
            raise Forbidden("Only an admin can see every card of a hand.")
        return Viewer.administrator()
    if user is not None:
        for seat, user_id in stored.users.items():
            if user_id == user.id:
                return Viewer.player(seat)
    return Viewer.observer()


def _describe(viewer: Viewer, stored: _Stored) -> str:
    if viewer.admin:
        return "admin"
    if viewer.seat is None:
        return "observer"
    return f"seat {viewer.seat} ({stored.record.names[viewer.seat]})"


# ---------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class HandSummary:
    """One finished hand in a player's list."""

    id: int
    game_id: int
    number: int  # the hand's number at its table, 1 for the first
    preset: str
    pays_money: bool
    started_at: datetime
    ended_at: datetime | None
    seat: int  # where the player sat
    cards: tuple[int, ...]  # the player's own hole cards
    board: tuple[int, ...]
    players: int  # dealt in
    pot: int  # chips that changed hands: everything put in
    net: int  # the player's result: finishing stack minus starting stack
    won: bool  # the player took chips from a pot
    showdown: bool  # hands were shown
    deck_root: str | None
    unreadable: bool = False  # its record cannot be read: the rest is left empty


def _summary(stored: _Stored | _Unreadable, seat: int) -> HandSummary:
    if isinstance(stored, _Unreadable):
        return HandSummary(
            id=stored.row_id,
            game_id=stored.game_id,
            number=stored.number,
            preset=stored.preset,
            pays_money=stored.pays_money,
            started_at=stored.started_at,
            ended_at=stored.ended_at,
            seat=seat,
            cards=(),
            board=(),
            players=len(stored.users),
            pot=0,
            net=0,
            won=False,
            showdown=False,
            deck_root=None,
            unreadable=True,
        )
    hand = stored.final
    i = hand.seats.index(seat)
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    return HandSummary(
        id=stored.row_id,
        game_id=stored.game_id,
        number=stored.number,
        preset=stored.preset,
        pays_money=stored.pays_money,
        started_at=stored.record.started_at,
        ended_at=stored.ended_at,
        seat=seat,
        cards=tuple(hand.hole[i]),
        board=tuple(hand.board),
        players=len(hand.seats),
        pot=sum(hand.contributed),
        net=hand.stacks[i] - hand.starting_stacks[i],
        won=any(seat in e.winners for e in awarded),
        showdown=any(isinstance(e, HandShown) for e in hand.events),
        deck_root=None if stored.record.deck_root is None else stored.record.deck_root.hex(),
    )


@dataclass(frozen=True)
class HandsPage:
    hands: tuple[HandSummary, ...]  # newest first
    next_before: int | None  # pass as ``before`` for the next (older) page; None: no more


def _check_limit(limit: object, most: int, what: str) -> int:
    if type(limit) is not int or not 1 <= limit <= most:
        raise InvalidInput(f"A page holds 1 to {most} {what}.")
    return limit


def my_hands(
    ctx: ServiceContext,
    user_id: int,
    *,
    game_id: int | None = None,
    limit: int = HANDS_PAGE_DEFAULT,
    before: int | None = None,
) -> HandsPage:
    """The finished hands ``user_id`` was dealt into, newest first: of one game, or
    of every game. ``before`` is a hand id: the page starts below it."""
    _check_limit(limit, HANDS_PAGE_MAX, "hands")
    if before is not None and (type(before) is not int or before < 1):
        raise InvalidInput("'before' is a hand's number, a whole number from 1.")
    with reading(), ctx.transaction() as session:
        if game_id is not None and (type(game_id) is not int or session.get(Game, game_id) is None):
            raise GameNotFound(f"There is no game {game_id}.")
        query = (
            select(HandRow, HandPlayer.seat)
            .join(HandPlayer, HandPlayer.hand_id == HandRow.id)
            .where(HandPlayer.user_id == user_id, HandRow.ended_at.is_not(None))
            .order_by(HandRow.id.desc())
            .limit(limit + 1)
        )
        if game_id is not None:
            query = query.where(HandPlayer.game_id == game_id)
        if before is not None:
            query = query.where(HandRow.id < before)
        found = session.execute(query).all()
        more = len(found) > limit
        found = found[:limit]
        stored = _read(session, [row for row, _seat in found])
        hands = tuple(_summary(s, seat) for s, (_row, seat) in zip(stored, found, strict=True))
        return HandsPage(hands, hands[-1].id if more and hands else None)


@dataclass(frozen=True)
class GameHands:
    """A game the player was dealt into, with their latest hands there."""

    game_id: int
    preset: str
    status: str
    pays_money: bool
    hands_played: int  # finished hands the player was dealt into
    last_played_at: datetime
    hands: tuple[HandSummary, ...]  # the latest, newest first


@dataclass(frozen=True)
class HistoryPage:
    games: tuple[GameHands, ...]  # the game played most recently first
    next_before_game: int | None  # a hand id: pass as ``before`` for older games


def my_history(
    ctx: ServiceContext,
    user_id: int,
    *,
    per_game: int = PER_GAME_DEFAULT,
    games: int = GAMES_PAGE_DEFAULT,
    before: int | None = None,
) -> HistoryPage:
    """Every game the player was dealt into, the most recently played first, each with
    its latest ``per_game`` finished hands: a player's whole history one click from
    any hand. ``before`` pages on (the ``next_before_game`` of the last page)."""
    _check_limit(per_game, PER_GAME_MAX, "hands per game")
    _check_limit(games, GAMES_PAGE_MAX, "games")
    if before is not None and (type(before) is not int or before < 1):
        raise InvalidInput("'before' is a hand's number, a whole number from 1.")
    with reading(), ctx.transaction() as session:
        last = func.max(HandPlayer.hand_id)
        query = (
            select(HandPlayer.game_id, last, func.count())
            .join(HandRow, HandRow.id == HandPlayer.hand_id)
            .where(HandPlayer.user_id == user_id, HandRow.ended_at.is_not(None))
            .group_by(HandPlayer.game_id)
            .order_by(last.desc())
            .limit(games + 1)
        )
        if before is not None:
            query = query.having(last < before)
        found = session.execute(query).all()
        more = len(found) > games
        found = found[:games]
        out = []
        for game_id, _last, count in found:
            rows = session.execute(
                select(HandRow, HandPlayer.seat)
                .join(HandPlayer, HandPlayer.hand_id == HandRow.id)
                .where(
                    HandPlayer.user_id == user_id,
                    HandPlayer.game_id == game_id,
                    HandRow.ended_at.is_not(None),
                )
                .order_by(HandRow.id.desc())
                .limit(per_game)
            ).all()
            stored = _read(session, [row for row, _seat in rows])
            summaries = tuple(_summary(s, seat) for s, (_r, seat) in zip(stored, rows, strict=True))
            game = session.get(Game, game_id)
            assert game is not None
            out.append(
                GameHands(
                    game_id=game_id,
                    preset=game.preset,
                    status=game.status.value,
                    pays_money=summaries[0].pays_money if summaries else True,
                    hands_played=int(count),
                    last_played_at=summaries[0].ended_at or summaries[0].started_at,
                    hands=summaries,
                )
            )
        return HistoryPage(tuple(out), int(found[-1][1]) if more and found else None)


# ---------------------------------------------------------------------- one hand


@dataclass(frozen=True)
class HandHistoryPlayer:
    seat: int
    user_id: int | None
    name: str
    starting_stack: int
    final_stack: int
    net: int
    cards: tuple[int, ...] | None  # None: not the viewer's to see
    shown: bool  # shown at the showdown
    folded: bool


@dataclass(frozen=True)
class HandHistoryEvent:
    """One step of the hand, as ``cardroom.views.event_view`` shows it to the viewer
    (``data``), at the time the command that made it was applied."""

    type: str
    at: datetime
    data: dict[str, Any]


@dataclass(frozen=True)
class HandHistory:
    """A finished hand as one viewer may see it, for the street-by-street replay."""

    id: int
    game_id: int
    number: int
    table: str
    preset: str
    pays_money: bool
    seat_count: int
    started_at: datetime
    ended_at: datetime | None
    viewer: str  # "seat 3 (ann)", "observer" or "admin"
    viewer_seat: int | None
    full: bool
    deck_root: str | None  # published before the first card (``DeckCommitted``)
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    players: tuple[HandHistoryPlayer, ...]  # in dealing order, the button last
    board: tuple[int, ...]
    streets: tuple[str, ...]  # streets dealt
    actions: tuple[dict[str, Any], ...]  # the record's actions: seat, kind, amount, at
    events: tuple[HandHistoryEvent, ...]
    pots: tuple[dict[str, Any], ...]  # pot, amount, winners, shares, hand_name


def _event_times(record: HandRecord, events: Sequence[Event]) -> list[datetime]:
    """The time of each event: the deal's until the first action; then each action's,
    carried on to what followed it (a street dealt, the showdown, the pots)."""
    times = iter(a.at for a in record.actions)
    at = record.started_at
    out = []
    for event in events:
        if isinstance(event, PlayerActed):
            at = next(times, at)
        out.append(at)
    return out


def _history(stored: _Stored, viewer: Viewer) -> HandHistory:
    record = stored.record
    replayed = replay(record)
    visible = disclose(replayed, viewer).visible
    shown = {e.seat for e in replayed.events if isinstance(e, HandShown)}
    players = []
    for i, seat in enumerate(replayed.seats):
        cards = visible.get(seat)
        players.append(
            HandHistoryPlayer(
                seat=seat,
                user_id=stored.users.get(seat),
                name=record.names[seat],
                starting_stack=replayed.starting_stacks[i],
                final_stack=replayed.stacks[i],
                net=replayed.stacks[i] - replayed.starting_stacks[i],
                cards=None if cards is None else tuple(cards),
                shown=seat in shown,
                folded=replayed.folded[i],
            )
        )
    seat_view = viewer.seat if viewer.seat in record.names else None
    events = []
    for event, at in zip(replayed.events, _event_times(record, replayed.events), strict=True):
        data = views.event_view(event, seat_view, full=viewer.admin)
        kind = str(data.pop("type"))
        events.append(HandHistoryEvent(kind, at, data))
    setup = record.setup
    return HandHistory(
        id=stored.row_id,
        game_id=stored.game_id,
        number=stored.number,
        table=record.table,
        preset=stored.preset,
        pays_money=stored.pays_money,
        seat_count=record.seat_count,
        started_at=record.started_at,
        ended_at=stored.ended_at,
        viewer=_describe(viewer, stored),
        viewer_seat=seat_view,
        full=viewer.admin,
        deck_root=None if record.deck_root is None else record.deck_root.hex(),
        button_seat=setup.button_seat,
        small_blind_seat=setup.small_blind_seat,
        big_blind_seat=setup.big_blind_seat,
        small_blind=setup.small_blind,
        big_blind=setup.big_blind,
        ante=setup.ante,
        big_blind_ante=setup.big_blind_ante,
        players=tuple(players),
        board=tuple(replayed.board),
        streets=tuple(fairness.streets_dealt(replayed)),
        actions=tuple(a.to_dict() for a in record.actions),
        events=tuple(events),
        pots=tuple(
            {
                "pot": e.pot,
                "amount": e.amount,
                "winners": list(e.winners),
                "shares": list(e.shares),
                "hand_name": e.hand_name,
            }
            for e in replayed.events
            if isinstance(e, PotAwarded)
        ),
    )


def hand_history(
    ctx: ServiceContext, user: UserInfo | None, hand_id: int, *, full: bool = False
) -> HandHistory:
    """A finished hand as ``user`` may see it (None: the console, as an observer
    unless ``full``). ``full`` is an admin's whole record."""
    with reading(), ctx.transaction() as session:
        stored = _one(session, hand_id)
        if user is not None:  # a private table's hands: as its table (invites.py)
            invites.hand_visible(session, stored.game_id, user.id)
    viewer = _viewer(stored, user, full)
    with _reading_hand(hand_id):
        return _history(stored, viewer)


# ---------------------------------------------------------------------- exports


@dataclass(frozen=True)
class Export:
    """A download: its file name, media type and text, and how many hands it holds."""

    filename: str
    media_type: str
    text: str
    hands: int = 1
    skipped: tuple[int, ...] = ()  # ids of hands left out: their records cannot be read


def _format(fmt: object) -> ExportFormat:
    try:
        return ExportFormat(str(fmt))
    except ValueError:
        raise InvalidInput(
            f"A hand history is exported as phh or pokerstars, not {str(fmt)[:20]!r}."
        ) from None


def _hand_text(stored: _Stored, viewer: Viewer, fmt: ExportFormat) -> str:
    if fmt is ExportFormat.POKERSTARS:
        return pokerstars_export(stored.record, viewer)
    return phh_export(stored.record, viewer)


def _media(fmt: ExportFormat) -> str:
    # PHH is TOML; PokerStars hand histories are plain text.
    if fmt is ExportFormat.PHH:
        return "application/toml; charset=utf-8"
    return "text/plain; charset=utf-8"


def export_hand(
    ctx: ServiceContext,
    user: UserInfo | None,
    hand_id: int,
    fmt: str,
    *,
    full: bool = False,
) -> Export:
    """One finished hand as PHH or PokerStars text for ``user``: their own cards and
    the hands shown (an observer's view if they were not dealt in); an admin's full
    record with ``full``."""
    chosen = _format(fmt)
    with reading(), ctx.transaction() as session:
        stored = _one(session, hand_id)
        if user is not None:  # a private table's hands: as its table (invites.py)
            invites.hand_visible(session, stored.game_id, user.id)
    viewer = _viewer(stored, user, full)
    suffix = "phh" if chosen is ExportFormat.PHH else "txt"
    with _reading_hand(hand_id):
        text = _hand_text(stored, viewer, chosen)
    return Export(f"cardroom-hand-{hand_id}.{suffix}", _media(chosen), text)


def game_export(
    ctx: ServiceContext,
    game_id: int,
    fmt: str,
    *,
    player_id: int | None = None,
    full: bool = False,
    player_name: str | None = None,
) -> Export:
    """A game's finished hands in one file, oldest first. ``player_id``: the hands
    that player was dealt into, as they saw them; ``full``: every hand, every card
    (the caller has checked the right to it); neither: every hand as an observer
    saw it. Refused when there is no such hand."""
    chosen = _format(fmt)
    with reading(), ctx.transaction() as session:
        if type(game_id) is not int or session.get(Game, game_id) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        query = (
            select(HandRow)
            .where(HandRow.game_id == game_id, HandRow.ended_at.is_not(None))
            .order_by(HandRow.number)
        )
        if player_id is not None and not full:
            query = query.join(HandPlayer, HandPlayer.hand_id == HandRow.id).where(
                HandPlayer.user_id == player_id
            )
        found = _read(session, session.scalars(query).all(), replayed=True)
    # A hand that cannot be read is left out of the file (and counted in ``skipped``):
    # one damaged hand must not cost a player the download of all the others.
    stored = [s for s in found if isinstance(s, _Stored)]
    skipped = [s.row_id for s in found if isinstance(s, _Unreadable)]
    if not stored and skipped:
        raise _unreadable_error(skipped[0])
    if not stored:
        if player_id is not None and not full:
            who = "You were" if player_name is None else f"{player_name} was"
            raise NotFound(f"{who} not dealt into any finished hand of game {game_id}.")
        raise NotFound(f"No hand of game {game_id} has finished yet.")
    texts = []
    for s in stored:
        if full:
            viewer = Viewer.administrator()
        else:
            seat = next((k for k, v in s.users.items() if v == player_id), None)
            viewer = Viewer.observer() if seat is None else Viewer.player(seat)
        texts.append(_hand_text(s, viewer, chosen))
    if chosen is ExportFormat.POKERSTARS:
        text = pokerstars.hands_text(texts)
        name = f"cardroom-game-{game_id}.txt"
    else:
        text = "\n".join(f"[{k}]\n{t}" for k, t in enumerate(texts, 1))
        name = f"cardroom-game-{game_id}.phhs"
    return Export(name, _media(chosen), text, len(texts), tuple(skipped))


def player_named(ctx: ServiceContext, name: str) -> int:
    """The id of the user called ``name`` (any case), for the console's exports."""
    with reading(), ctx.transaction() as session:
        return user_named(session, name).id


def export_game(
    ctx: ServiceContext, user: UserInfo, game_id: int, fmt: str, *, full: bool = False
) -> Export:
    """The hands of a game ``user`` was dealt into, as they saw them; with ``full``
    (admins only), every hand with every card."""
    if full and not user.is_admin:
        raise Forbidden("Only an admin can see every card of a hand.")
    return game_export(ctx, game_id, fmt, player_id=user.id, full=full)


# ---------------------------------------------------------------------- proofs


def proof_document(
    ctx: ServiceContext, user: UserInfo | None, hand_id: int, *, full: bool = False
) -> dict[str, Any]:
    """The deck verification file of a finished hand for ``user``: proofs for their
    own hole cards, the board and the hands shown (every position for an admin with
    ``full``). ``cardroom verify`` checks it; docs/fairness.md says how."""
    with reading(), ctx.transaction() as session:
        stored = _one(session, hand_id)
        if user is not None:  # a private table's hands: as its table (invites.py)
            invites.hand_visible(session, stored.game_id, user.id)
    if stored.record.deck_root is None:
        raise NoDeckProof(
            f"Hand {hand_id} was dealt before the room committed to its decks: it has no proof."
        )
    viewer = _viewer(stored, user, full)
    with _reading_hand(hand_id):
        document = fairness.proof_document(stored.record, viewer)
    if not document["leaves"]:
        raise NoDeckProof(
            f"You saw no card of hand {hand_id} (it ended before the flop, and you held no "
            "cards in it): there is nothing to prove."
        )
    return document


def proof_file(
    ctx: ServiceContext, user: UserInfo | None, hand_id: int, *, full: bool = False
) -> Export:
    """``proof_document`` as a download (``cardroom-hand-12-proof.json``)."""
    document = proof_document(ctx, user, hand_id, full=full)
    text = json.dumps(document, indent=2) + "\n"
    return Export(f"cardroom-hand-{hand_id}-proof.json", "application/json", text)
