"""Practice bots: ``POST /api/games/{id}/bots`` seats bots at a practice table.

One service call (``cardroom.service.bots.add_bots``): the host (or an admin) adds
``count`` bots of a ``level`` to a waiting ``arena`` game. The bots then play
through the clock like any player; their moves reach the table's sockets as every
committed change does. Included by ``create_app`` from ``OPTIONAL_ROUTERS``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Response
from pydantic import Field, StrictInt

from cardroom.service import bots
from cardroom.web.commands import answer
from cardroom.web.deps import ContextDep, CurrentUser
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
def add_bots(
    body: BotsIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> Response:
    """The host (or an admin) seats practice bots at an ``arena`` game (points, no
    money) that has the seats free: all of them or none (409). A table they fill
    starts by itself."""
    result = bots.add_bots(
        ctx, game_id, user.id, body.level, body.count, expected_version=body.version
    )
    return answer(live, result, user.id)
