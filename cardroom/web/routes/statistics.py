"""A player's statistics and a table's ledger (docs/statistics.md).

- ``GET /api/me/statistics``: the viewer's own figures, over every game or one
  (``game``). Only their own hands, and nothing they did not see.
- ``GET /api/games/{id}/ledger`` and ``.../ledger.csv``: each player's buy-ins,
  rebuys, cash-outs and net, and who pays whom; for the players of the table and
  admins (403 for anyone else).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response

from cardroom.service import ledgers, statistics
from cardroom.web.deps import ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.schemas import MAX_ROW_ID, QueryInt
from cardroom.web.schemas_statistics import LedgerCsvText, LedgerOut, StatisticsOut

router = APIRouter(tags=["statistics"])

READ = documented(401, 403, 404, 422)
GameId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The game's id.")]

CSV: dict[int | str, dict[str, Any]] = {
    200: {
        "model": LedgerCsvText,
        "description": "The ledger as CSV, as an attachment (Content-Disposition).",
        "content": {"text/csv": {"schema": {"$ref": "#/components/schemas/LedgerCsvText"}}},
    },
    **{
        status: {
            "description": answer["description"],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for status, answer in READ.items()
    },
}


@router.get("/api/me/statistics", responses=READ)
def my_statistics(
    ctx: ContextDep,
    user: CurrentUser,
    game: Annotated[
        QueryInt | None, Query(ge=1, le=MAX_ROW_ID, description="Only this game's hands.")
    ] = None,
) -> StatisticsOut:
    """The viewer's figures over their own finished hands (VPIP, PFR, three-bet, WTSD,
    W$SD, net) over all and per game, and the running result for the graph."""
    return StatisticsOut.of(statistics.player_statistics(ctx, user.id, game_id=game))


@router.get("/api/games/{game_id}/ledger", responses=READ)
def ledger(ctx: ContextDep, user: CurrentUser, game_id: GameId) -> LedgerOut:
    """Each player's buy-ins, rebuys, cash-outs, prizes and net at the table, and the
    payments that settle it; a tournament's places. Players of the table and admins."""
    return LedgerOut.of(ledgers.game_ledger(ctx, user, game_id))


@router.get("/api/games/{game_id}/ledger.csv", response_class=Response, responses=CSV)
def ledger_csv(ctx: ContextDep, user: CurrentUser, game_id: GameId) -> Response:
    """The ledger as a CSV download: a row per player, an empty row, a row per
    payment; dollars with cents at a money table."""
    text = ledgers.ledger_csv(ledgers.game_ledger(ctx, user, game_id))
    return Response(
        content=text,
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="cardroom-game-{game_id}-ledger.csv"'
        },
    )
