"""The lobby and the game lifecycle: create a game, list games, join (and
rejoin), leave, start, cancel.

Each function is one transaction; a refusal raises a ``ServiceError`` subclass (see
``cardroom.service.game_errors``) and changes nothing. Commands on a game return a
``PlayResult``: the version the table is at and the events the command added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from sqlalchemy import case, select

from cardroom.service import invites
from cardroom.service.admin import Actor
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game import commands, pipeline, reactions
from cardroom.service.game.commands import sit_down
from cardroom.service.game.pipeline import Sent
from cardroom.service.game_details import seat_of, seat_price, stored_game, summary
from cardroom.service.game_errors import (
    InvalidGameOptions,
    NotAllowedNow,
)
from cardroom.service.game_options import GameOptions, table_config
from cardroom.service.game_records import (
    GameSummary,
    ListedGame,
    PlayResult,
    SeatedGame,
)
from cardroom.service.game_tx import GameTx
from cardroom.service.schedule import at, seconds_of
from cardroom.service.users import active_user
from cardroom.service.waiting_games import check_waiting_slots
from cardroom.store import ledger
from cardroom.store.db import reading
from cardroom.store.models import (
    Game,
    GameFormat,
    GamePlayer,
    GameStatus,
    User,
)
from cardroom.table import (
    Table,
    table_from_dict,
    table_to_dict,
)

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
    **sent: Unpack[Sent],
) -> PlayResult:
    """Sit down at a game: the seat asked for or the first free one. At a cash table
    or a tournament the buy-in is debited now (at a running cash table, within 2 hours
    of cashing out, the larger of the buy-in and what you cashed out with: see
    ``seat_cost``); a per-hand table only needs it in the balance. A waiting game that
    fills up starts by itself."""
    return pipeline.run_sent(ctx, game_id, commands.join(user_id, seat), sent)


def rejoin(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    seat: int | None = None,
    **sent: Unpack[Sent],
) -> PlayResult:
    """Sit down again at a cash table you cashed out of: ``join``, refused for a
    player who never left this table. Within 2 hours (``house``) it costs the larger
    of the buy-in and the amount cashed out with."""
    with ctx.transaction() as session:
        game = stored_game(session, game_id)
        cashed_out = {p for p, _ in table_from_dict(game.state).cash_outs.items()}
        if user_id not in cashed_out:
            raise NotAllowedNow("You have not cashed out of this table: join it instead.")
    return join(ctx, game_id, user_id, seat=seat, **sent)


def leave(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    **sent: Unpack[Sent],
) -> PlayResult:
    """Leave the table. Before the start the buy-in is refunded; at a running cash or
    per-hand table you are cashed out at once, or as soon as nothing of yours is in a
    pot. A running tournament cannot be left."""
    return pipeline.run_sent(ctx, game_id, commands.leave(user_id), sent)


cash_out = leave  # at a running cash table, leaving is cashing out


def start(
    ctx: ServiceContext,
    game_id: int,
    actor: Actor,
    **sent: Unpack[Sent],
) -> PlayResult:
    """The host (or an admin) starts a game that two or more have joined: tournament
    seats are drawn at random, and the first hand is dealt."""
    return pipeline.run_sent(ctx, game_id, commands.start(actor), sent)


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
            if viewer_id is not None and seat_of(table, viewer_id) is None:
                cost = seat_price(game, table, viewer_id, seconds_of(game, now))
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
