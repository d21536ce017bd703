"""Practice bots: ``POST /api/games/{id}/bots`` seats bots at a practice table.

One command (``cardroom.service.game.commands.add_bots``, as
``cardroom.service.bots.add_bots`` runs it), queued on the process's committer: the
host (or an admin) adds ``count`` bots of a ``level`` to a waiting ``arena`` game.
The bots then play through the clock like any player; their moves reach the table's
sockets as every committed change does. Included by ``create_app`` from ``OPTIONAL_ROUTERS``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Response
from pydantic import Field, StrictInt

from cardroom.service.game import commands
from cardroom.web.commands import commit_and_answer
from cardroom.web.deps import CommandSender
from cardroom.web.errors import documented
from cardroom.web.live import LiveDep
from cardroom.web.routes.games import GameId
from cardroom.web.schemas_games import CommandOut, Version, _In

router = APIRouter(tags=["bots"])


class BotsIn(_In):
    """Bots to seat: each takes the first free seat."""

    level: Literal["beginner", "regular", "shark"] = Field(
        description="beginner (loose and passive), regular (tight and aggressive) or "
        "shark (balanced, bluffs more): docs/bots.md."
    )
    count: Annotated[StrictInt, Field(ge=1, le=9)] = 1
    version: Version | None = None


@router.post(
    "/api/games/{game_id}/bots",
    response_model=CommandOut,
    responses=documented(401, 403, 404, 409, 413, 415, 422),
)
async def add_bots(body: BotsIn, token: CommandSender, live: LiveDep, game_id: GameId) -> Response:
    """The host (or an admin) seats practice bots at an ``arena`` game (points, no
    money) that has the seats free: all of them or none (409). A table they fill
    starts by itself."""
    level, count = body.level, body.count
    return await commit_and_answer(
        live,
        token,
        game_id,
        lambda user_id: commands.add_bots(user_id, level, count),
        version=body.version,
    )
