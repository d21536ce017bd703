"""Playing at a table: act on your turn, Continue between hands, "Skip waiting and
deal", rebuy, sit out and in, and the events a client missed.

Every command takes the table version the player saw (``expected_version``: a newer
table refuses the request with ``StaleVersion``, a 409) and an optional
``idempotency_key`` (the same key again returns the first answer, with no second
effect). Each is one transaction, down ``cardroom.service.game.pipeline``, and
returns a ``PlayResult``.
"""

from __future__ import annotations

from typing import Unpack

from sqlalchemy import select

from cardroom.service.admin import Actor
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game import commands, pipeline
from cardroom.service.game.pipeline import Sent
from cardroom.service.game_errors import GameNotFound
from cardroom.service.game_records import PlayResult, StoredEvent
from cardroom.store.models import Game, GameEvent

EVENTS_PAGE_MAX = 1000


def act(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    kind: str,
    amount: int | None = None,
    **sent: Unpack[Sent],
) -> PlayResult:
    """The player to act folds, checks, calls, bets, raises or goes all in. Anyone
    else is refused (``NotYourTurn``), and so is an amount outside the legal range
    (``AmountOutOfRange``): the engine decides, ``game_detail`` shows the range."""
    return pipeline.run_sent(ctx, game_id, commands.act(user_id, kind, amount), sent)


def press_continue(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    **sent: Unpack[Sent],
) -> PlayResult:
    """Done reviewing the last hand: once everyone has, the next hand is dealt."""
    return pipeline.run_sent(ctx, game_id, commands.press_continue(user_id), sent)


def rebuy(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    **sent: Unpack[Sent],
) -> PlayResult:
    """Buy in again at a cash table, at zero chips, for exactly the buy-in."""
    return pipeline.run_sent(ctx, game_id, commands.rebuy(user_id), sent)


def sit_out(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    **sent: Unpack[Sent],
) -> PlayResult:
    """Sit out from the next hand on (cash and per-hand tables), keeping the seat."""
    return pipeline.run_sent(ctx, game_id, commands.sit_out(user_id), sent)


def sit_in(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    **sent: Unpack[Sent],
) -> PlayResult:
    """Come back after sitting out (at a cash table, in when the big blind comes)."""
    return pipeline.run_sent(ctx, game_id, commands.sit_in(user_id), sent)


def skip_waiting_and_deal(
    ctx: ServiceContext,
    game_id: int,
    actor: Actor,
    **sent: Unpack[Sent],
) -> PlayResult:
    """The host or an admin deals the next hand without waiting for everyone to
    press Continue."""
    return pipeline.run_sent(ctx, game_id, commands.skip_waiting_and_deal(actor), sent)


def events_since(
    ctx: ServiceContext, game_id: int, after_seq: int = 0, *, limit: int = EVENTS_PAGE_MAX
) -> tuple[StoredEvent, ...]:
    """The game's events numbered above ``after_seq``, in order, at most ``limit``:
    for a client that reconnects or sees a gap. The records are the full log (hole
    cards included): filter them per viewer before they leave the server."""
    if type(after_seq) is not int or after_seq < 0:
        raise InvalidInput("An event number is a whole number, 0 or more.")
    if type(limit) is not int or not 1 <= limit <= EVENTS_PAGE_MAX:
        raise InvalidInput(f"A page holds 1 to {EVENTS_PAGE_MAX} events.")
    with ctx.transaction() as session:
        if type(game_id) is not int or session.get(Game, game_id) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        rows = session.scalars(
            select(GameEvent)
            .where(GameEvent.game_id == game_id, GameEvent.seq > after_seq)
            .order_by(GameEvent.seq)
            .limit(limit)
        )
        return tuple(StoredEvent.of(row) for row in rows)
