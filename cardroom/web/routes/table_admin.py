"""What the host or an admin does to a table: pause, resume, cancel, fold an inactive
player, remove an idle seat. Each goes into the admin log with its reason.

Each is its command (``cardroom.service.game.commands``, as
``cardroom.service.table_admin`` runs them for the console), queued on the process's
committer with the players' (``cardroom.web.commands.commit_and_answer``). Two doors
to the same commands:

- ``/api/games/{id}/...``: the host or an admin; the service decides who may do
  what (folding and removing are an admin's, and the host's where the rules allow).
- ``/api/admin/games/{id}/...``: admins only, refused to everyone else with 403 like
  every route under ``/api/admin/``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from cardroom.service import game_views
from cardroom.service.context import ServiceContext
from cardroom.service.game import commands
from cardroom.service.game.commands import Command
from cardroom.service.users import UserInfo
from cardroom.web.commands import commit_and_answer
from cardroom.web.deps import AdminUser, ContextDep, CurrentSession, CurrentUser, SignedInSession
from cardroom.web.errors import documented
from cardroom.web.live import Live, LiveDep
from cardroom.web.routes.games import GameId
from cardroom.web.schemas import ReasonIn
from cardroom.web.schemas_games import CommandOut, ReasonCommandIn, SeatReasonIn

host = APIRouter(prefix="/api/games", tags=["table admin"])
admin = APIRouter(prefix="/api/admin/games", tags=["admin"])

CHANGE = documented(401, 403, 404, 409, 413, 415, 422)


def _at_seat(make: Callable[[int, int, str], Command]) -> Callable[..., Awaitable[Response]]:
    """A command on the player a seat or an id names (fold, remove)."""

    async def run(
        ctx: ServiceContext, live: Live, token: str, game_id: int, body: SeatReasonIn
    ) -> Response:
        player = await _player_named(ctx, game_id, body)
        reason = body.reason
        return await commit_and_answer(
            live,
            token,
            game_id,
            lambda user_id: make(user_id, player, reason),
            version=body.version,
        )

    return run


def _on_table(make: Callable[[int, str], Command]) -> Callable[..., Awaitable[Response]]:
    """A command on the whole table, with its reason (pause, resume, cancel)."""

    async def run(
        ctx: ServiceContext, live: Live, token: str, game_id: int, body: ReasonIn | ReasonCommandIn
    ) -> Response:
        reason = body.reason
        version = body.version if isinstance(body, ReasonCommandIn) else None
        return await commit_and_answer(
            live, token, game_id, lambda user_id: make(user_id, reason), version=version
        )

    return run


_fold = _at_seat(commands.fold_inactive)
_remove = _at_seat(commands.remove_idle)
_pause = _on_table(commands.pause)
_resume = _on_table(commands.resume)
_cancel = _on_table(commands.cancel)


async def _player_named(ctx: ServiceContext, game_id: int, body: SeatReasonIn) -> int:
    """The player a seat or an id names: a read of its own, before the command."""
    return await run_in_threadpool(
        game_views.player_named, ctx, game_id, seat=body.seat, player_id=body.player_id
    )


# -- the two doors ----------------------------------------------------------------------
# One line each: the address, the operation's name (the admin door's is "admin_" and
# it), the body, the use case, what the host's door and the admin's door say of it.
TABLE_COMMANDS: tuple[
    tuple[str, str, type[BaseModel], Callable[..., Awaitable[Response]], str, str], ...
] = (
    ("fold", "fold", SeatReasonIn, _fold,
     "Fold an inactive player's hand now (an admin; the host where the rules set a\n"
     "wait, once it is over). Chips already in stay in the pot.",
     "Fold an inactive player's hand now; chips already in stay in the pot."),
    ("remove-seat", "remove_seat", SeatReasonIn, _remove,
     "Take an idle player off the table, cashing them out (an admin; the host where\n"
     "idle seats are removable).",
     "Take an idle player off the table between hands, cashing them out."),
    ("pause", "pause", ReasonCommandIn, _pause,
     "Hold the table: the hand being played goes on, no new one is dealt.",
     "Hold the table: the hand being played goes on, no new one is dealt."),
    ("resume", "resume", ReasonCommandIn, _resume,
     "Let the table play again; a hand that is due is dealt at once.",
     "Let the table play again."),
    ("cancel", "cancel", ReasonIn, _cancel,
     "Cancel a game that has not started; every buy-in is refunded.",
     "Cancel a game that has not started; every buy-in is refunded."),
)  # fmt: skip


def _door(
    run: Callable[..., Awaitable[Response]], body: type[BaseModel], who: Any
) -> Callable[..., Awaitable[Response]]:
    """The route of one door: ``who`` is the dependency that says who may knock
    (``CurrentUser`` at the host's, ``AdminUser`` at the admin's: proved on the thread
    pool, as every write's session is, for the admin's door to refuse early), then
    the command goes to the committer with the session's token, which proves it
    again in the batch. Its signature is written out for FastAPI, which reads the
    body's model and the dependencies from it."""

    async def route(
        body: BaseModel,
        ctx: ServiceContext,
        user: UserInfo,
        session: SignedInSession,
        live: Live,
        game_id: int,
    ) -> Response:
        return await run(ctx, live, session.token, game_id, body)

    parameter = functools.partial(inspect.Parameter, kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)
    route.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            parameter("body", annotation=body),
            parameter("ctx", annotation=ContextDep),
            parameter("user", annotation=who),
            parameter("session", annotation=CurrentSession),
            parameter("live", annotation=LiveDep),
            parameter("game_id", annotation=GameId),
        ],
        return_annotation=Response,
    )
    return route


for path, name, body, run, host_says, admin_says in TABLE_COMMANDS:
    doors = ((host, "", CurrentUser, host_says), (admin, "admin_", AdminUser, admin_says))
    for router, prefix, who, says in doors:
        router.add_api_route(
            f"/{{game_id}}/{path}",
            _door(run, body, who),
            methods=["POST"],
            name=prefix + name,
            description=says,
            response_model=CommandOut,
            responses=CHANGE,
        )
