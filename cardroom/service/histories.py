"""Hand histories: a player's hands and games, a page at a time, and one hand's
history as its viewer may see it (``cardroom.service.stored_hands`` reads the
records and picks the viewer; ``cardroom.service.hand_exports`` makes the files).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from cardroom import views
from cardroom.events import Event, HandShown, PlayerActed, PotAwarded
from cardroom.history import fairness
from cardroom.history.privacy import Viewer, disclose
from cardroom.history.record import HandRecord, replay
from cardroom.service import invites
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_errors import GameNotFound
from cardroom.service.stored_hands import (
    StoredHand,
    UnreadableHand,
    describe,
    one_hand,
    read_hands,
    reading_hand,
    viewer_of,
)
from cardroom.service.users import UserInfo
from cardroom.store.db import reading
from cardroom.store.models import Game, HandPlayer
from cardroom.store.models import HandRecord as HandRow

HANDS_PAGE_DEFAULT = 20
HANDS_PAGE_MAX = 100
GAMES_PAGE_DEFAULT = 20
GAMES_PAGE_MAX = 50
PER_GAME_DEFAULT = 10
PER_GAME_MAX = 50


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


def _summary(stored: StoredHand | UnreadableHand, seat: int) -> HandSummary:
    if isinstance(stored, UnreadableHand):
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
        stored = read_hands(session, [row for row, _seat in found])
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
            stored = read_hands(session, [row for row, _seat in rows])
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


def _history(stored: StoredHand, viewer: Viewer) -> HandHistory:
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
        viewer=describe(viewer, stored),
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
        stored = one_hand(session, hand_id)
        if user is not None:  # a private table's hands: as its table (invites.py)
            invites.hand_visible(session, stored.game_id, user.id)
    viewer = viewer_of(stored, user, full)
    with reading_hand(hand_id):
        return _history(stored, viewer)
