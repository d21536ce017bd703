"""A game as a viewer may see it: the lobby's summary, the table's detail (seats,
stacks, the hand's public state, the viewer's own cards and legal actions), and what
a seat there costs the viewer. Reads only: ``game_detail`` opens a read-only
transaction, and ``detail_of`` shows one stored moment to many viewers without the
database."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom import views
from cardroom.hand import STREET_NAMES
from cardroom.service import invites
from cardroom.service.context import ServiceContext
from cardroom.service.game_errors import (
    GameNotFound,
)
from cardroom.service.game_records import (
    GameDetail,
    GameRow,
    GameSummary,
    HandView,
    LegalActionsView,
    SeatView,
    quick_init,
)
from cardroom.service.schedule import CANCEL_WAITING_AFTER, at, next_level, seconds_of
from cardroom.store.db import reading
from cardroom.store.models import (
    Game,
    User,
)
from cardroom.table import (
    Table,
    TableStatus,
    table_from_dict,
)


def summary(game: Game | GameRow, table: Table, host_name: str) -> GameSummary:
    cfg = table.config
    schedule, rules = cfg.schedule, cfg.rules
    return GameSummary(  # the fields in their order: every change's views make one
        game.id,
        game.host_id,
        host_name,
        game.preset,
        game.format,
        game.status,
        game.version,
        cfg.pays_money,
        cfg.buy_in,
        table.small_blind,
        table.big_blind,
        schedule.every_hands,
        schedule.every_minutes,
        schedule.rate_percent,
        cfg.payouts,
        len(table.seats),
        cfg.seat_count,
        rules.turn_clock_seconds,
        rules.between_hands_seconds,
        table.hands_dealt,
        game.created_at,
        game.last_activity_at,
        table.status is TableStatus.PLAYING and table.short_of_players and not table.held,
    )


def seat_cost(ctx: ServiceContext, game_id: int, user_id: int) -> int:
    """What sitting down at this game costs the player now (the query beside
    ``join``): the buy-in, or on rejoining a cash table within 2 hours the larger of
    the buy-in and the amount cashed out with. 0 at ``arena`` tables."""
    now = ctx.now()
    with reading(), ctx.transaction() as session:
        game = stored_game(session, game_id)
        return seat_price(game, table_from_dict(game.state), user_id, seconds_of(game, now))


def seat_price(game: Game | GameRow, table: Table, user_id: int, t: float) -> int:
    """``seat_cost`` from a table already read, ``t`` seconds into the game."""
    return table.buy_in_cost(user_id, t) if table.config.pays_money else 0


def stored_game(session: Session, game_id: int) -> Game:
    """The game's row, or ``GameNotFound``."""
    game = session.get(Game, game_id) if type(game_id) is int else None
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return game


def game_detail(ctx: ServiceContext, game_id: int, viewer_id: int | None = None) -> GameDetail:
    """The table as ``viewer_id`` may see it (None: a spectator): seats, stacks, the
    hand's public state, the viewer's own hole cards and, on their turn, what they
    may do. Other players' cards are never here: shown hands are in the events."""
    now = ctx.now()
    with reading(), ctx.transaction() as session:
        return detail_in(session, game_id, viewer_id, now)


@quick_init
@dataclass(frozen=True)
class GameMoment:
    """A game as one commit left it, before any viewer's filter: read once after a
    change and shown to every viewer of the table (``detail_of``). Nothing here may
    be changed: several viewers read it at once."""

    game: GameRow  # the row without its state: ``table`` is that, decoded
    table: Table
    host_name: str
    names: Mapping[int, str]  # user id -> name, for everyone at the table
    last_seq: int


def moment_in(session: Session, game_id: int) -> GameMoment:
    """The game's moment, inside a transaction the caller holds."""
    game = stored_game(session, game_id)
    table = table_from_dict(game.state)
    wanted = {game.host_id, *table.players()}
    names = dict(session.execute(select(User.id, User.name).where(User.id.in_(wanted))).all())
    host = names.get(game.host_id, "?")
    return GameMoment(GameRow.of(game), table, host, names, game.last_seq)


def detail_in(session: Session, game_id: int, viewer_id: int | None, now: datetime) -> GameDetail:
    """``game_detail`` inside a transaction the caller holds. A private table is
    refused to a viewer it is not open to (``invites.check_may_see``)."""
    moment = moment_in(session, game_id)
    if viewer_id is not None:  # the row is in the session's identity map: no read
        invites.check_may_watch(session, stored_game(session, game_id), viewer_id)
    return detail_of(moment, viewer_id, now)


def detail_of(
    moment: GameMoment,
    viewer_id: int | None,
    now: datetime,
    public: GameDetail | None = None,
) -> GameDetail:
    """The moment as ``viewer_id`` may see it (``game_detail``), without the database.
    ``public``: ``public_detail(moment, now)`` made already, when several viewers of
    one moment are shown it: what every viewer sees alike (the summary, the seats,
    the clocks, a spectator's hand) is taken from it instead of made again."""
    table = moment.table
    viewer_seat = seat_of(table, viewer_id)
    more = _sees_more(table, viewer_id, viewer_seat)
    if public is None:
        public = public_detail(moment, now, with_hand=not more)
    if more:  # from the spectators' hand when made: what they see the viewer sees too
        hand = _hand_view(table, viewer_id, viewer_seat, public.hand)
    elif public.hand is None and table.hand is not None:  # made without it
        hand = spectators_hand(table)
    else:
        hand = public.hand
    cost = None
    if viewer_id is not None and viewer_seat is None:
        cost = seat_price(moment.game, table, viewer_id, seconds_of(moment.game, now))
    if hand is public.hand and viewer_seat is None and cost is None:
        return public
    return _with_hand(public, hand, viewer_seat, cost)


class MomentDetails:
    """``detail_of`` for the several viewers of one moment (a change's sockets and
    its command's answer), making what they see alike once: the part of the game
    every viewer sees (``public_detail`` without its hand: the summary, the seats,
    the clocks, made at the first viewer's ``now``), the spectators' hand, from which
    each player's own is made (``views.seat_hand_view``), and a spectator's whole
    detail, shared by every spectator. Nothing more: the spectators' hand is made
    for the players' sake too, but a spectator's detail only when one asks.
    Not thread-safe: its caller makes the views under a lock (``change_views``)."""

    __slots__ = ("_hand", "_spectators", "moment", "public")

    def __init__(self, moment: GameMoment, now: datetime) -> None:
        self.moment = moment
        # Without its hand: every detail here takes the hand its viewer sees.
        self.public = public_detail(moment, now, with_hand=False)
        self._hand: HandView | None = None  # the spectators' hand, once made
        self._spectators: GameDetail | None = None

    def detail(self, viewer_id: int | None, now: datetime) -> GameDetail:
        """``detail_of(moment, viewer_id, now)``, the same record."""
        table = self.moment.table
        viewer_seat = seat_of(table, viewer_id)
        if viewer_id is None:
            return self._spectators_detail()
        if _sees_more(table, viewer_id, viewer_seat):
            hand = _hand_view(table, viewer_id, viewer_seat, self._spectators_hand())
        else:
            hand = self._spectators_hand()
        cost = None
        if viewer_seat is None:
            cost = seat_price(self.moment.game, table, viewer_id, seconds_of(self.moment.game, now))
        return _with_hand(self.public, hand, viewer_seat, cost)

    def _spectators_hand(self) -> HandView | None:
        hand = self._hand
        if hand is None and self.moment.table.hand is not None:
            hand = self._hand = spectators_hand(self.moment.table)
        return hand

    def _spectators_detail(self) -> GameDetail:
        detail = self._spectators
        if detail is None:
            detail = _with_hand(self.public, self._spectators_hand(), None, None)
            self._spectators = detail
        return detail


_new = object.__new__


def _with_hand(
    public: GameDetail, hand: HandView | None, viewer_seat: int | None, cost: int | None
) -> GameDetail:
    """``public`` with the viewer's hand, seat and cost: its fields copied in one
    go into a new record's dict, then the viewer's three set (a ``quick_init``
    record is its dict and nothing more). ``dataclasses.replace`` took more than
    twice as long as building it field by field, and this a quarter less again,
    once per viewer of every change."""
    made: GameDetail = _new(GameDetail)
    own = made.__dict__
    own.update(public.__dict__)
    own["hand"] = hand
    own["viewer_seat"] = viewer_seat
    own["viewer_cost"] = cost
    return made


def seat_of(table: Table, viewer_id: int | None) -> int | None:
    """The viewer's seat at the table, if any."""
    viewer_seat = None
    if viewer_id is not None:
        for seat in table.seats.values():
            if seat.player == viewer_id:
                viewer_seat = seat.number
    return viewer_seat


def _sees_more(table: Table, viewer_id: int | None, viewer_seat: int | None) -> bool:
    # Someone seated now or dealt into the hand may see more of it than a spectator
    # (their cards, their legal actions); anyone else sees the spectators' hand.
    return viewer_id is not None and (
        viewer_seat is not None or viewer_id in table.hand_players.values()
    )


def sees_more(table: Table, viewer_id: int | None) -> bool:
    """Whether ``viewer_id`` may see more of the hand than a spectator does: if not,
    ``spectators_hand`` is theirs."""
    return _sees_more(table, viewer_id, seat_of(table, viewer_id))


def spectators_hand(table: Table) -> HandView | None:
    """The hand as someone neither seated nor dealt in sees it."""
    return _hand_view(table, None, None)


def public_detail(moment: GameMoment, now: datetime, *, with_hand: bool = True) -> GameDetail:
    """What every viewer of the moment sees alike: the detail of a spectator.
    ``with_hand`` False: the hand is left out (None) for a caller about to put the
    viewer's own; ``detail_of`` given such a detail makes a spectator's hand itself."""
    game, table, users = moment.game, moment.table, moment.names
    t = seconds_of(game, now)
    turn, due, level = table.turn_deadline(), table.deal_due(), next_level(table, t)
    cancel = None
    if table.status is TableStatus.WAITING:
        cancel = game.last_activity_at + CANCEL_WAITING_AFTER
    return GameDetail(
        summary=summary(game, table, moment.host_name),
        seats=_seat_views(table, users),
        hand=spectators_hand(table) if with_hand else None,
        level=table.level,
        viewer_seat=None,
        viewer_cost=None,
        turn_due_at=None if turn is None else at(game, turn),
        deal_due_at=None if due is None or table.held or table.short_of_players else at(game, due),
        cancel_due_at=cancel,
        next_level_at=None if level is None else at(game, level[0]),
        finishes=tuple(table.finishes),
        last_seq=moment.last_seq,
    )


def _seat_views(table: Table, names: Mapping[int, str]) -> tuple[SeatView, ...]:
    """The seats in their order (every change's views make them: one loop, the
    records built from their fields in order)."""
    seats, hand, continued = table.seats, table.hand, table.continued
    made = []
    for number in sorted(seats):
        seat = seats[number]
        player = seat.player
        in_hand = table.in_hand(seat)
        stack, bet, folded, all_in = seat.stack, 0, False, False
        if in_hand and hand is not None:
            i = hand.seats.index(number)
            stack, bet, folded = hand.stacks[i], hand.bets[i], hand.folded[i]
            all_in = stack == 0 and not folded
        leaving = seat.leaving
        made.append(
            SeatView(  # the fields in their order
                number,
                player,
                names.get(player, "?"),
                stack,
                seat.sitting_out,
                seat.waiting,
                None if leaving is None else leaving.value,
                seat.timeouts,
                in_hand,
                folded,
                bet,
                all_in,
                player in continued,
            )
        )
    return tuple(made)


def _hand_view(
    table: Table, viewer_id: int | None, viewer_seat: int | None, seen: HandView | None = None
) -> HandView | None:
    """``seen``: ``spectators_hand(table)`` of the table as it is, when made already:
    what every viewer sees alike is taken from it."""
    hand = table.hand
    if hand is None:
        return None
    running = not hand.is_over if seen is None else seen.running
    mine: tuple[int, ...] = ()
    seat_in_hand = None  # the viewer's seat in this hand (not always their seat now)
    if viewer_id is not None:
        for number, player in table.hand_players.items():
            if player == viewer_id and number in hand.seats:
                seat_in_hand = number
                mine = tuple(hand.hole[hand.seats.index(number)])
    legal, la = None, None
    if running and viewer_seat is not None and hand.seat_to_act == viewer_seat:
        la = hand.legal_actions()
        legal = LegalActionsView(
            tuple(map(str, la.kinds())),  # a StrEnum's str is its value, in C
            la.to_call,
            la.call_amount,
            la.min_to,
            la.max_to,
            la.all_in_to,
        )
    if seen is not None:  # ``seen``, with what the viewer sees more (``_with_hand``)
        made: HandView = _new(HandView)
        own = made.__dict__
        own.update(seen.__dict__)
        own["my_cards"] = mine
        own["legal"] = legal
        own["view"] = views.seat_hand_view(seen.view, hand, seat_in_hand, la)
        return made
    setup = hand.setup
    return HandView(
        number=table.hands_dealt,
        running=running,
        street=STREET_NAMES[int(hand.street)],
        board=tuple(hand.board),
        pot=hand.pot,
        button_seat=setup.button_seat,
        small_blind_seat=setup.small_blind_seat,
        big_blind_seat=setup.big_blind_seat,
        small_blind=setup.small_blind,
        big_blind=setup.big_blind,
        seat_to_act=hand.seat_to_act if running else None,
        my_cards=mine,
        legal=legal,
        view=views.hand_view(hand, seat_in_hand, equity=True),
    )
