"""What the host or an admin does to a table: pause, resume, cancel, fold an inactive
player, remove an idle seat. Each goes into the admin log with its reason.

Two doors to the same use cases:

- ``/api/games/{id}/...``: the host or an admin; the service decides who may do
  what (folding and removing are an admin's, and the host's where the rules allow).
- ``/api/admin/games/{id}/...``: admins only, refused to everyone else with 403 like
  every route under ``/api/admin/``.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from cardroom.service import game_views, lobby, table_admin
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import PlayResult
from cardroom.service.users import UserInfo
from cardroom.web.commands import answer
from cardroom.web.deps import AdminUser, ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.live import Live, LiveDep
from cardroom.web.routes.games import GameId
from cardroom.web.schemas import ReasonIn
from cardroom.web.schemas_games import CommandOut, ReasonCommandIn, SeatReasonIn

host = APIRouter(prefix="/api/games", tags=["table admin"])
admin = APIRouter(prefix="/api/admin/games", tags=["admin"])

CHANGE = documented(401, 403, 404, 409, 413, 415, 422)


def _fold(
    ctx: ServiceContext, live: Live, user: UserInfo, game_id: int, body: SeatReasonIn
) -> Response:
    player = game_views.player_named(ctx, game_id, seat=body.seat, player_id=body.player_id)
    result = table_admin.fold_inactive(
        ctx, user.id, game_id, player, body.reason, expected_version=body.version
    )
    return answer(live, result, user.id)


def _remove(
    ctx: ServiceContext, live: Live, user: UserInfo, game_id: int, body: SeatReasonIn
) -> Response:
    player = game_views.player_named(ctx, game_id, seat=body.seat, player_id=body.player_id)
    result = table_admin.remove_idle(
        ctx, user.id, game_id, player, body.reason, expected_version=body.version
    )
    return answer(live, result, user.id)


def _pause(
    ctx: ServiceContext, live: Live, user: UserInfo, game_id: int, body: ReasonCommandIn
) -> Response:
    result = table_admin.pause(ctx, user.id, game_id, body.reason, expected_version=body.version)
    return answer(live, result, user.id)


def _resume(
    ctx: ServiceContext, live: Live, user: UserInfo, game_id: int, body: ReasonCommandIn
) -> Response:
    result = table_admin.resume(ctx, user.id, game_id, body.reason, expected_version=body.version)
    return answer(live, result, user.id)


def _cancel(
    ctx: ServiceContext, live: Live, user: UserInfo, game_id: int, body: ReasonIn
) -> Response:
    result: PlayResult = lobby.cancel_game(ctx, user.id, game_id, body.reason)
    return answer(live, result, user.id)


# -- the host (or an admin) --------------------------------------------------------------


@host.post("/{game_id}/fold", response_model=CommandOut, responses=CHANGE)
def fold(
    body: SeatReasonIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> Response:
    """Fold an inactive player's hand now (an admin; the host where the rules set a
    wait, once it is over). Chips already in stay in the pot."""
    return _fold(ctx, live, user, game_id, body)


@host.post("/{game_id}/remove-seat", response_model=CommandOut, responses=CHANGE)
def remove_seat(
    body: SeatReasonIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> Response:
    """Take an idle player off the table, cashing them out (an admin; the host where
    idle seats are removable)."""
    return _remove(ctx, live, user, game_id, body)


@host.post("/{game_id}/pause", response_model=CommandOut, responses=CHANGE)
def pause(
    body: ReasonCommandIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> Response:
    """Hold the table: the hand being played goes on, no new one is dealt."""
    return _pause(ctx, live, user, game_id, body)


@host.post("/{game_id}/resume", response_model=CommandOut, responses=CHANGE)
def resume(
    body: ReasonCommandIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> Response:
    """Let the table play again; a hand that is due is dealt at once."""
    return _resume(ctx, live, user, game_id, body)


@host.post("/{game_id}/cancel", response_model=CommandOut, responses=CHANGE)
def cancel(
    body: ReasonIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> Response:
    """Cancel a game that has not started; every buy-in is refunded."""
    return _cancel(ctx, live, user, game_id, body)


# -- admins only --------------------------------------------------------------------------


@admin.post("/{game_id}/fold", response_model=CommandOut, responses=CHANGE)
def admin_fold(
    body: SeatReasonIn, ctx: ContextDep, user: AdminUser, live: LiveDep, game_id: GameId
) -> Response:
    """Fold an inactive player's hand now; chips already in stay in the pot."""
    return _fold(ctx, live, user, game_id, body)


@admin.post("/{game_id}/remove-seat", response_model=CommandOut, responses=CHANGE)
def admin_remove_seat(
    body: SeatReasonIn, ctx: ContextDep, user: AdminUser, live: LiveDep, game_id: GameId
) -> Response:
    """Take an idle player off the table between hands, cashing them out."""
    return _remove(ctx, live, user, game_id, body)


@admin.post("/{game_id}/pause", response_model=CommandOut, responses=CHANGE)
def admin_pause(
    body: ReasonCommandIn, ctx: ContextDep, user: AdminUser, live: LiveDep, game_id: GameId
) -> Response:
    """Hold the table: the hand being played goes on, no new one is dealt."""
    return _pause(ctx, live, user, game_id, body)


@admin.post("/{game_id}/resume", response_model=CommandOut, responses=CHANGE)
def admin_resume(
    body: ReasonCommandIn, ctx: ContextDep, user: AdminUser, live: LiveDep, game_id: GameId
) -> Response:
    """Let the table play again."""
    return _resume(ctx, live, user, game_id, body)


@admin.post("/{game_id}/cancel", response_model=CommandOut, responses=CHANGE)
def admin_cancel(
    body: ReasonIn, ctx: ContextDep, user: AdminUser, live: LiveDep, game_id: GameId
) -> Response:
    """Cancel a game that has not started; every buy-in is refunded."""
    return _cancel(ctx, live, user, game_id, body)
