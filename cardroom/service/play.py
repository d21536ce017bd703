"""Playing at a table: act on your turn, Continue between hands, "Skip waiting and
deal", rebuy, sit out and in, and the events a client missed.

Every command takes the table version the player saw (``expected_version``: a newer
table refuses the request with ``StaleVersion``, a 409) and an optional
``idempotency_key`` (the same key again returns the first answer, with no second
effect). Each is one transaction and returns a ``PlayResult``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from cardroom.actions import Action, ActionKind
from cardroom.deck import RandomSource
from cardroom.service.admin import Actor
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_errors import GameNotFound, NotAllowedNow
from cardroom.service.game_records import PlayResult, StoredEvent
from cardroom.service.game_tx import GameTx
from cardroom.service.lobby import host_or_admin
from cardroom.store.models import Game, GameEvent, GameStatus
from cardroom.table import Table

EVENTS_PAGE_MAX = 1000
_AMOUNT_KINDS = (ActionKind.BET, ActionKind.RAISE)


def parse_action(kind: object, amount: object) -> Action:
    """An action from the wire: ``kind`` one of fold, check, call, bet, raise, all_in;
    ``amount`` (the total bet in the round) for a bet or a raise only."""
    try:
        action_kind = ActionKind(kind) if isinstance(kind, str) else None
    except ValueError:
        action_kind = None
    if action_kind is None:
        names = ", ".join(k.value for k in ActionKind)
        raise InvalidInput(f"An action is one of {names}.")
    if action_kind in _AMOUNT_KINDS:
        if type(amount) is not int:
            raise InvalidInput(f"Say how much to {action_kind.value} to, in whole chips.")
        return Action(action_kind, amount)
    if amount is not None:
        raise InvalidInput("Only a bet or a raise takes an amount.")
    return Action(action_kind)


def apply_action(tx: GameTx, user_id: int, action: Action, source: RandomSource | None) -> None:
    """``user_id`` acts in the running hand and the next hand is dealt if one is due:
    what ``act`` does inside its transaction, and what a practice bot's turn does
    (``cardroom.service.bots``)."""
    table = tx.table
    tx.run(lambda: table.act(user_id, action, tx.t))
    tx.deal_if_due(source)


def _command(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    request: dict[str, Any],
    expected_version: int | None,
    idempotency_key: str | None,
    source: RandomSource | None,
    apply: Callable[[GameTx, Table], None],
) -> PlayResult:
    """The shape every player command shares: lock, replay or check the version,
    apply, deal if a hand is due, save."""
    now = ctx.now()
    with ctx.transaction() as session:
        tx = GameTx.open(session, game_id, now, user_id)
        replay = tx.check_request(user_id, expected_version, idempotency_key, request)
        if replay is not None:
            return replay
        if tx.game.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
            raise NotAllowedNow("This game is over.")
        apply(tx, tx.table)
        tx.deal_if_due(source)
        return tx.finish_request(user_id, idempotency_key, request)


def act(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    kind: str,
    amount: int | None = None,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """The player to act folds, checks, calls, bets, raises or goes all in. Anyone
    else is refused (``NotYourTurn``), and so is an amount outside the legal range
    (``AmountOutOfRange``): the engine decides, ``game_detail`` shows the range."""
    action = parse_action(kind, amount)

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.act(user_id, action, tx.t))

    request = {"op": "act", "kind": action.kind.value, "amount": action.amount}
    return _command(
        ctx, game_id, user_id, request, expected_version, idempotency_key, source, apply
    )


def press_continue(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Done reviewing the last hand: once everyone has, the next hand is dealt."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.press_continue(user_id, tx.t))

    return _command(
        ctx,
        game_id,
        user_id,
        {"op": "continue"},
        expected_version,
        idempotency_key,
        source,
        apply,
    )


def rebuy(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Buy in again at a cash table, at zero chips, for exactly the buy-in."""

    def apply(tx: GameTx, table: Table) -> None:
        balance = tx.balance(user_id)
        tx.run(lambda: table.rebuy(user_id, tx.t, balance=balance))

    return _command(
        ctx, game_id, user_id, {"op": "rebuy"}, expected_version, idempotency_key, source, apply
    )


def sit_out(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Sit out from the next hand on (cash and per-hand tables), keeping the seat."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.sit_out(user_id, tx.t))

    return _command(
        ctx, game_id, user_id, {"op": "sit_out"}, expected_version, idempotency_key, source, apply
    )


def sit_in(
    ctx: ServiceContext,
    game_id: int,
    user_id: int,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Come back after sitting out (at a cash table, in when the big blind comes)."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.sit_in(user_id, tx.t))

    return _command(
        ctx, game_id, user_id, {"op": "sit_in"}, expected_version, idempotency_key, source, apply
    )


def skip_waiting_and_deal(
    ctx: ServiceContext,
    game_id: int,
    actor: Actor,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """The host or an admin deals the next hand without waiting for everyone to
    press Continue."""
    now = ctx.now()
    request = {"op": "skip_waiting_and_deal"}
    with ctx.transaction() as session:
        tx = GameTx.open(session, game_id, now)
        user = host_or_admin(session, tx.game, actor)
        owner = tx.actor_id = None if user is None else user.id
        replay = tx.check_request(owner, expected_version, idempotency_key, request)
        if replay is not None:
            return replay
        tx.deal(source)
        return tx.finish_request(owner, idempotency_key, request)


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
