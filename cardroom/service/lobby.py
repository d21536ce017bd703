"""The lobby and the game lifecycle: create a game, list and show games, join (and
rejoin), leave, start, cancel.

Each function is one transaction; a refusal raises a ``ServiceError`` subclass (see
``cardroom.service.game_errors``) and changes nothing. Commands on a game return a
``PlayResult``: the version the table is at and the events the command added.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, select
from sqlalchemy.orm import Session

from cardroom import views
from cardroom.deck import RandomSource
from cardroom.hand import STREET_NAMES
from cardroom.rules import MinRaise, Rules, RulesError, Showdown, preset
from cardroom.service import invites
from cardroom.service.admin import Actor
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game import commands, pipeline, reactions
from cardroom.service.game.commands import sit_down
from cardroom.service.game_errors import (
    GameNotFound,
    InvalidGameOptions,
    NotAllowedNow,
    translated,
)
from cardroom.service.game_records import (
    GameDetail,
    GameRow,
    GameSummary,
    HandView,
    LegalActionsView,
    ListedGame,
    PlayResult,
    SeatedGame,
    SeatView,
)
from cardroom.service.game_tx import GameTx
from cardroom.service.schedule import CANCEL_WAITING_AFTER, at, next_level, seconds_of
from cardroom.service.users import active_user
from cardroom.service.waiting_games import check_waiting_slots
from cardroom.store import ledger
from cardroom.store.db import reading
from cardroom.store.models import (
    MAX_SEAT,
    Game,
    GameFormat,
    GamePlayer,
    GameStatus,
    User,
)
from cardroom.table import (
    BlindSchedule,
    InvalidTableConfig,
    Table,
    TableConfig,
    TableStatus,
    table_from_dict,
    table_to_dict,
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


# -------------------------------------------------------------- use cases


def create_game(
    ctx: ServiceContext,
    host_id: int,
    options: GameOptions,
    *,
    sit: bool = True,
    seat: int | None = None,
) -> PlayResult:
    """A new game waiting for players, hosted by ``host_id``, who sits down at once
    (paying the buy-in) unless ``sit`` is false."""
    if not isinstance(options, GameOptions):
        raise InvalidGameOptions("Give the game's options.")
    config = table_config(options)
    now = ctx.now()
    with ctx.transaction() as session:
        host = active_user(session, host_id)
        if not sit:  # a game without its host's seat takes one of the host's slots too
            check_waiting_slots(session, host.id)
        table = Table.create(config)
        game = Game(
            host_id=host.id,
            preset=config.rules.name,
            format=GameFormat(config.format.value),
            config=config.to_dict(),
            status=GameStatus.WAITING,
            version=1,
            created_at=now,
            last_activity_at=now,
            state=table_to_dict(table),
            invite_token=invites.new_token(),
            private=options.private is True,
            spectators=options.spectators is not False,
            spectators_chat=options.spectators_chat is True,
        )
        session.add(game)
        session.flush()
        ledger.open_game_account(session, game.id, now)
        tx = GameTx(session, game, table, now, host.id, fresh=True)
        tx.note("GameCreated", {"host": host.id, "config": config.to_dict()})
        if sit:
            sit_down(tx, host.id, seat, ctx.random)
        reactions.after_save(tx, tx.save())
        return tx.result()


def join(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Sit down at a game: the seat asked for or the first free one. At a cash table
    or a tournament the buy-in is debited now (at a running cash table, within 2 hours
    of cashing out, the larger of the buy-in and what you cashed out with: see
    ``seat_cost``); a per-hand table only needs it in the balance. A waiting game that
    fills up starts by itself."""
    command = commands.join(user_id, seat)
    return pipeline.run(
        ctx, game_id, command, version=expected_version, key=idempotency_key, source=source
    )


def rejoin(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    seat: int | None = None,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Sit down again at a cash table you cashed out of: ``join``, refused for a
    player who never left this table. Within 2 hours (``house``) it costs the larger
    of the buy-in and the amount cashed out with."""
    with ctx.transaction() as session:
        game = session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            raise GameNotFound(f"There is no game {game_id}.")
        cashed_out = {p for p, _ in table_from_dict(game.state).cash_outs.items()}
        if user_id not in cashed_out:
            raise NotAllowedNow("You have not cashed out of this table: join it instead.")
    return join(
        ctx,
        game_id,
        user_id,
        seat=seat,
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        source=source,
    )


def leave(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Leave the table. Before the start the buy-in is refunded; at a running cash or
    per-hand table you are cashed out at once, or as soon as nothing of yours is in a
    pot. A running tournament cannot be left."""
    command = commands.leave(user_id)
    return pipeline.run(
        ctx, game_id, command, version=expected_version, key=idempotency_key, source=source
    )


cash_out = leave  # at a running cash table, leaving is cashing out


def start(
    ctx: ServiceContext,
    game_id: int,
    actor: Actor,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """The host (or an admin) starts a game that two or more have joined: tournament
    seats are drawn at random, and the first hand is dealt."""
    command = commands.start(actor)
    return pipeline.run(
        ctx, game_id, command, version=expected_version, key=idempotency_key, source=source
    )


def cancel_game(ctx: ServiceContext, actor: Actor, game_id: int, reason: str) -> PlayResult:
    """The host or an admin cancels a game that has not started: every buy-in is
    refunded. Recorded in the admin log."""
    return pipeline.run(ctx, game_id, commands.cancel(actor, reason))


# ------------------------------------------------------------------- reads


def list_lobby(
    ctx: ServiceContext,
    *,
    statuses: Sequence[GameStatus] = (GameStatus.WAITING, GameStatus.RUNNING, GameStatus.PAUSED),
    limit: int = 100,
) -> tuple[GameSummary, ...]:
    """Games waiting to start, then games being played, most recently active first."""
    return tuple(listed.summary for listed in lobby_for(ctx, None, statuses=statuses, limit=limit))


def lobby_for(
    ctx: ServiceContext,
    viewer_id: int | None,
    *,
    statuses: Sequence[GameStatus] = (GameStatus.WAITING, GameStatus.RUNNING, GameStatus.PAUSED),
    limit: int = 100,
) -> tuple[ListedGame, ...]:
    """``list_lobby`` as ``viewer_id`` sees it: each game with what a seat there
    costs them now (``seat_cost``: a rejoin within two hours may cost more than the
    buy-in), so a Join button says its price before it is pressed. From the state
    the summary decodes anyway: no query more. Private tables are never listed
    (their invite link finds them)."""
    if type(limit) is not int or not 1 <= limit <= 500:
        raise InvalidInput("A lobby page lists 1 to 500 games.")
    order = case((Game.status == GameStatus.WAITING, 0), else_=1)
    now = ctx.now()
    with reading(), ctx.transaction() as session:
        rows = session.execute(
            select(Game, User.name)
            .join(User, User.id == Game.host_id)
            .where(Game.status.in_(list(statuses)), Game.private.is_(False))
            .order_by(order, Game.last_activity_at.desc(), Game.id.desc())
            .limit(limit)
        ).all()
        listed = []
        for game, name in rows:
            table = table_from_dict(game.state)
            cost = None
            if viewer_id is not None and _seat_of(table, viewer_id) is None:
                cost = _cost(game, table, viewer_id, seconds_of(game, now))
            listed.append(ListedGame(summary(game, table, name), cost))
        return tuple(listed)


def my_games(ctx: ServiceContext, user_id: int) -> tuple[SeatedGame, ...]:
    """The games the player has a seat at now, most recently active first, each
    saying whether it waits for the player's action. Read from the stored state the
    summary decodes anyway: no query per game."""
    with reading(), ctx.transaction() as session:
        rows = session.execute(
            select(Game, User.name)
            .join(User, User.id == Game.host_id)
            .join(GamePlayer, GamePlayer.game_id == Game.id)
            .where(GamePlayer.user_id == user_id, GamePlayer.seat.is_not(None))
            .order_by(Game.last_activity_at.desc(), Game.id.desc())
        ).all()
        return tuple(
            _seated_game(game, table_from_dict(game.state), name, user_id) for game, name in rows
        )


def _seated_game(game: Game, table: Table, host_name: str, user_id: int) -> SeatedGame:
    hand = table.hand
    # A paused table refuses every action, so it waits for nobody.
    your_turn = (
        game.status is GameStatus.RUNNING
        and not table.held
        and hand is not None
        and not hand.is_over
        and hand.seat_to_act is not None
        and table.hand_players.get(hand.seat_to_act) == user_id
    )
    turn = table.turn_deadline() if your_turn else None
    return SeatedGame(
        summary=summary(game, table, host_name),
        your_turn=your_turn,
        turn_due_at=None if turn is None else at(game, turn),
    )


def summary(game: Game | GameRow, table: Table, host_name: str) -> GameSummary:
    cfg = table.config
    return GameSummary(
        id=game.id,
        host_id=game.host_id,
        host_name=host_name,
        preset=game.preset,
        format=game.format,
        status=game.status,
        version=game.version,
        pays_money=cfg.pays_money,
        buy_in=cfg.buy_in,
        small_blind=table.small_blind,
        big_blind=table.big_blind,
        blinds_every_hands=cfg.schedule.every_hands,
        blinds_every_minutes=cfg.schedule.every_minutes,
        blinds_rate_percent=cfg.schedule.rate_percent,
        payouts=cfg.payouts,
        seats_taken=len(table.seats),
        seat_count=cfg.seat_count,
        turn_clock_seconds=cfg.rules.turn_clock_seconds,
        between_hands_seconds=cfg.rules.between_hands_seconds,
        hands_dealt=table.hands_dealt,
        created_at=game.created_at,
        last_activity_at=game.last_activity_at,
    )


def seat_cost(ctx: ServiceContext, game_id: int, user_id: int) -> int:
    """What sitting down at this game costs the player now (the query beside
    ``join``): the buy-in, or on rejoining a cash table within 2 hours the larger of
    the buy-in and the amount cashed out with. 0 at ``arena`` tables."""
    now = ctx.now()
    with reading(), ctx.transaction() as session:
        game = _game(session, game_id)
        return _cost(game, table_from_dict(game.state), user_id, seconds_of(game, now))


def _cost(game: Game | GameRow, table: Table, user_id: int, t: float) -> int:
    return table.buy_in_cost(user_id, t) if table.config.pays_money else 0


def _game(session: Session, game_id: int) -> Game:
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
    game = _game(session, game_id)
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
        invites.check_may_watch(session, _game(session, game_id), viewer_id)
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
    viewer_seat = _seat_of(table, viewer_id)
    more = _sees_more(table, viewer_id, viewer_seat)
    if public is None:
        public = public_detail(moment, now, with_hand=not more)
    if more:
        hand = _hand_view(table, viewer_id, viewer_seat)
    elif public.hand is None and table.hand is not None:  # made without it
        hand = spectators_hand(table)
    else:
        hand = public.hand
    cost = None
    if viewer_id is not None and viewer_seat is None:
        cost = _cost(moment.game, table, viewer_id, seconds_of(moment.game, now))
    if hand is public.hand and viewer_seat is None and cost is None:
        return public
    # Field by field: ``dataclasses.replace`` takes more than twice as long (12
    # against 5 microseconds), once per viewer of every change.
    return GameDetail(
        summary=public.summary,
        seats=public.seats,
        hand=hand,
        level=public.level,
        viewer_seat=viewer_seat,
        viewer_cost=cost,
        turn_due_at=public.turn_due_at,
        deal_due_at=public.deal_due_at,
        cancel_due_at=public.cancel_due_at,
        next_level_at=public.next_level_at,
        finishes=public.finishes,
        last_seq=public.last_seq,
    )


def _seat_of(table: Table, viewer_id: int | None) -> int | None:
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
    return _sees_more(table, viewer_id, _seat_of(table, viewer_id))


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
        seats=tuple(_seat_view(table, n, users) for n in sorted(table.seats)),
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


def _seat_view(table: Table, number: int, names: Mapping[int, str]) -> SeatView:
    seat = table.seats[number]
    hand = table.hand
    in_hand = table.in_hand(seat)
    stack, bet, folded, all_in = seat.stack, 0, False, False
    if in_hand and hand is not None:
        i = hand.seats.index(number)
        stack, bet, folded = hand.stacks[i], hand.bets[i], hand.folded[i]
        all_in = stack == 0 and not folded
    return SeatView(
        seat=number,
        user_id=seat.player,
        name=names.get(seat.player, "?"),
        stack=stack,
        sitting_out=seat.sitting_out,
        waiting_for_big_blind=seat.waiting,
        leaving=None if seat.leaving is None else seat.leaving.value,
        timeouts_in_a_row=seat.timeouts,
        in_hand=in_hand,
        folded=folded,
        bet=bet,
        all_in=all_in,
        continued=seat.player in table.continued,
    )


def _hand_view(table: Table, viewer_id: int | None, viewer_seat: int | None) -> HandView | None:
    hand = table.hand
    if hand is None:
        return None
    running = not hand.is_over
    mine: tuple[int, ...] = ()
    seat_in_hand = None  # the viewer's seat in this hand (not always their seat now)
    if viewer_id is not None:
        for number, player in table.hand_players.items():
            if player == viewer_id and number in hand.seats:
                seat_in_hand = number
                mine = tuple(hand.hole[hand.seats.index(number)])
    legal = None
    if running and viewer_seat is not None and hand.seat_to_act == viewer_seat:
        la = hand.legal_actions()
        legal = LegalActionsView(
            kinds=tuple(k.value for k in la.kinds()),
            to_call=la.to_call,
            call_amount=la.call_amount,
            min_to=la.min_to,
            max_to=la.max_to,
            all_in_to=la.all_in_to,
        )
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
