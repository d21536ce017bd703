"""What the host or an admin does to a table: fold an inactive player, pause and
resume, remove an idle seat. Each is recorded in the admin log with who, when, why,
and the table before and after.

Who may do what (RULES.md, docs/tables.md):

- **fold an inactive player**: an admin, at once (``house``: chips already in stay in
  the pot); where the rules set a wait (``legacy``: 24 hours on the player to act)
  the host too, once the wait is over;
- **pause / resume**: the host or an admin;
- **remove an idle seat** (between hands, or while the player is not in the hand):
  an admin; the host too where the rules make idle seats removable (``legacy``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from cardroom.deck import RandomSource
from cardroom.service.admin import Actor, check_reason, record_admin_action
from cardroom.service.context import ServiceContext
from cardroom.service.game_errors import NotHostOrAdmin
from cardroom.service.game_records import PlayResult
from cardroom.service.game_tx import GameTx
from cardroom.service.lobby import host_or_admin
from cardroom.store.models import Role, User
from cardroom.table import Table


def _state(tx: GameTx, player: int | None = None) -> dict[str, Any]:
    """What the log keeps of the table: enough to settle a dispute."""
    table = tx.table
    out: dict[str, Any] = {
        "game_id": tx.game.id,
        "version": tx.game.version,
        "status": tx.game.status.value,
        "hand": table.hands_dealt,
        "held": table.held,
    }
    if player is not None:
        seat = next((s for s in table.seats.values() if s.player == player), None)
        out["player"] = player
        out["seat"] = None if seat is None else seat.number
        out["stack"] = None if seat is None else seat.stack
        hand = table.hand
        if seat is not None and hand is not None and table.in_hand(seat):
            i = hand.seats.index(seat.number)
            out["in_hand"] = True
            out["folded"] = hand.folded[i]
            out["chips_in_pot"] = hand.contributed[i]
        else:
            out["in_hand"] = False
    return out


def _logged(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    reason: str,
    action: str,
    allowed: Callable[[Session, GameTx, Actor], User | None],
    apply: Callable[[GameTx, Table], None],
    *,
    player: int | None = None,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    why = check_reason(reason)
    now = ctx.now()
    with ctx.transaction() as session:
        tx = GameTx.open(session, game_id, now)
        user = allowed(session, tx, actor)
        tx.actor_id = None if user is None else user.id
        tx.check_version(expected_version)
        before = _state(tx, player)
        apply(tx, tx.table)
        tx.deal_if_due(source)
        tx.save()
        target = session.get(User, player) if player is not None else None
        record_admin_action(
            session,
            admin=user,
            action=action,
            target=target,
            reason=why,
            before=before,
            after=_state(tx, player),
            now=now,
        )
        return tx.result()


def _host_or_admin(session: Session, tx: GameTx, actor: Actor) -> User | None:
    return host_or_admin(session, tx.game, actor)


def _admin_or_host_if(
    rule: Callable[[Table], bool], what: str
) -> Callable[[Session, GameTx, Actor], User | None]:
    """An admin, or the host where the table's rules allow the host this."""

    def allowed(session: Session, tx: GameTx, actor: Actor) -> User | None:
        user = host_or_admin(session, tx.game, actor)
        if user is None or user.role is Role.ADMIN or rule(tx.table):
            return user
        raise NotHostOrAdmin(f"Only an admin can {what} at this table.")

    return allowed


def fold_inactive(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    player_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Fold an inactive player's hand now; chips already in stay in the pot."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.fold_inactive(player_id, tx.t))

    allowed = _admin_or_host_if(
        lambda table: table.config.rules.inactive_fold_after_seconds is not None,
        "fold a player",
    )
    return _logged(
        ctx,
        actor,
        game_id,
        reason,
        "fold_inactive",
        allowed,
        apply,
        player=player_id,
        expected_version=expected_version,
        source=source,
    )


def pause(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
) -> PlayResult:
    """Hold the table: no hand is dealt (the one being played goes on) and the blind
    clock stops, until ``resume``."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.pause(tx.t))

    return _logged(
        ctx,
        actor,
        game_id,
        reason,
        "pause",
        _host_or_admin,
        apply,
        expected_version=expected_version,
    )


def resume(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Let the table play again; a hand that is due is dealt at once."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.resume(tx.t))

    return _logged(
        ctx,
        actor,
        game_id,
        reason,
        "resume",
        _host_or_admin,
        apply,
        expected_version=expected_version,
        source=source,
    )


def remove_idle(
    ctx: ServiceContext,
    actor: Actor,
    game_id: int,
    player_id: int,
    reason: str,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Take an idle player off the table between hands (or while they are not in the
    hand), cashing them out like leaving."""

    def apply(tx: GameTx, table: Table) -> None:
        tx.run(lambda: table.remove_idle(player_id, tx.t))

    allowed = _admin_or_host_if(
        lambda table: table.config.rules.idle_seats_removable, "remove a player"
    )
    return _logged(
        ctx,
        actor,
        game_id,
        reason,
        "remove_idle",
        allowed,
        apply,
        player=player_id,
        expected_version=expected_version,
        source=source,
    )
