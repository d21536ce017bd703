"""Hand histories: the viewer's hands, one hand for the street-by-street replay, the
downloads (PHH, PokerStars text) and the deck proof.

What a viewer gets follows ``cardroom.history.privacy``: a player sees their own hole
cards and the hands shown at the showdown; anyone else signed in sees a hand as an
observer (shown hands only), as spectators saw it at the table; an admin may ask for
the full record with ``full=true``. A hand still being played is refused (409).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.responses import PlainTextResponse, Response

from cardroom.service import hand_exports, histories
from cardroom.service.hand_exports import Export, ExportFormat
from cardroom.service.histories import (
    GAMES_PAGE_DEFAULT,
    GAMES_PAGE_MAX,
    HANDS_PAGE_DEFAULT,
    HANDS_PAGE_MAX,
    PER_GAME_DEFAULT,
    PER_GAME_MAX,
)
from cardroom.web.deps import ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.schemas import MAX_ROW_ID, QueryInt
from cardroom.web.schemas_histories import (
    ExportText,
    HandHistoryOut,
    HandsOut,
    HistoryOut,
    ProofOut,
)

router = APIRouter(tags=["hand histories"])

WHAT_FAILS = {
    403: "Not allowed: `full=true` from anyone but an admin (or a suspended account).",
    404: "No such hand or game; no hand of yours in that game; no proof (a hand dealt "
    "before deck commitments, or one you saw no card of).",
    409: "The hand is still being played: its history is ready when it ends.",
    422: "A bad id, format (phh or pokerstars), limit or page.",
    500: "This hand's record cannot be read (`record_unreadable`): that hand alone; "
    "lists mark it with `unreadable`, a game's file leaves it out and names it in "
    "`X-Cardroom-Unreadable-Hands`.",
}


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    out = documented(*statuses)
    for status, answer in out.items():
        if isinstance(status, int) and status in WHAT_FAILS:
            answer["description"] = WHAT_FAILS[status]
    return out


LIST = _refusals(401, 403, 404, 422)
HAND = _refusals(401, 403, 404, 409, 422, 500)

# A download: the file's text, described by ExportText (PHH is sent as
# application/toml). Its refusals are JSON like every other: said so explicitly, since
# a route whose answer is text would otherwise document them as text too.
FILE: dict[int | str, dict[str, Any]] = {
    200: {
        "model": ExportText,
        "description": "The file, as an attachment (Content-Disposition).",
        # PHH is TOML, PokerStars text is plain text: both are said, or a client that
        # checks the media type against the document refuses the PHH file.
        "content": {
            "text/plain": {"schema": {"$ref": "#/components/schemas/ExportText"}},
            "application/toml": {"schema": {"$ref": "#/components/schemas/ExportText"}},
        },
    },
    **{
        status: {
            "description": answer["description"],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
        }
        for status, answer in HAND.items()
    },
}

HandId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The hand's id.")]
GameId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The game's id.")]
Format = Annotated[
    ExportFormat, Query(description="phh (PHH, TOML) or pokerstars (PokerStars hand history)")
]
Full = Annotated[
    bool,
    Query(
        description="An admin's full record: every hole card (and every deck position "
        "in a proof). Refused to anyone else."
    ),
]
Before = Annotated[
    QueryInt | None, Query(ge=1, le=MAX_ROW_ID, description="Start below this hand id (paging).")
]


UNREADABLE_HEADER = "X-Cardroom-Unreadable-Hands"


def download(export: Export) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{export.filename}"'}
    if export.skipped:  # a game's file without the hands whose records cannot be read
        headers[UNREADABLE_HEADER] = ",".join(str(h) for h in export.skipped)
    return Response(content=export.text, media_type=export.media_type, headers=headers)


@router.get("/api/me/hands", responses=LIST)
def my_hands(
    ctx: ContextDep,
    user: CurrentUser,
    game_id: Annotated[
        QueryInt | None, Query(ge=1, le=MAX_ROW_ID, description="Only this game's hands.")
    ] = None,
    limit: Annotated[QueryInt, Query(ge=1, le=HANDS_PAGE_MAX)] = HANDS_PAGE_DEFAULT,
    before: Before = None,
) -> HandsOut:
    """The finished hands the viewer was dealt into, newest first, with their cards
    and result; of one game with ``game_id``. Page on with ``before=next_before``."""
    return HandsOut.of(
        histories.my_hands(ctx, user.id, game_id=game_id, limit=limit, before=before)
    )


@router.get("/api/me/history", responses=LIST)
def my_history(
    ctx: ContextDep,
    user: CurrentUser,
    per_game: Annotated[QueryInt, Query(ge=1, le=PER_GAME_MAX)] = PER_GAME_DEFAULT,
    games: Annotated[QueryInt, Query(ge=1, le=GAMES_PAGE_MAX)] = GAMES_PAGE_DEFAULT,
    before: Before = None,
) -> HistoryOut:
    """Every game the viewer was dealt into, the most recently played first, each with
    its last ``per_game`` (10) hands: any of them one click away."""
    return HistoryOut.of(
        histories.my_history(ctx, user.id, per_game=per_game, games=games, before=before)
    )


@router.get("/api/hands/{hand_id}", responses=HAND)
def hand(ctx: ContextDep, user: CurrentUser, hand_id: HandId, full: Full = False) -> HandHistoryOut:
    """A finished hand as the viewer may see it, for the street-by-street replay:
    setup, players, every action with its time, the board, shown hands, pots and the
    deck commitment. A player sees their own cards and the hands shown; anyone else
    the hands shown; an admin everything with ``full=true``."""
    return HandHistoryOut.of(histories.hand_history(ctx, user, hand_id, full=full))


@router.get(
    "/api/hands/{hand_id}/export",
    responses=FILE,
    response_class=PlainTextResponse,
)
def export_hand(
    ctx: ContextDep, user: CurrentUser, hand_id: HandId, format: Format, full: Full = False
) -> Response:
    """The hand as a file to download: PHH or PokerStars text, holding the viewer's own
    cards and the hands shown, never another player's unshown or mucked cards."""
    return download(hand_exports.export_hand(ctx, user, hand_id, format.value, full=full))


@router.get(
    "/api/games/{game_id}/export",
    responses=FILE,
    response_class=PlainTextResponse,
)
def export_game(
    ctx: ContextDep, user: CurrentUser, game_id: GameId, format: Format, full: Full = False
) -> Response:
    """The finished hands of a game the viewer was dealt into, oldest first, as one
    file (``.phhs`` or PokerStars text); with ``full=true``, an admin's full record of
    every hand."""
    return download(hand_exports.export_game(ctx, user, game_id, format.value, full=full))


@router.get("/api/hands/{hand_id}/proof", responses=HAND, response_model=ProofOut)
def proof(ctx: ContextDep, user: CurrentUser, hand_id: HandId, full: Full = False) -> Response:
    """The hand's deck verification file for the viewer: each card they may see with
    its salt and Merkle proof up to the commitment published before the first card.
    Check it with `cardroom verify FILE` (docs/fairness.md). A hand dealt before
    commitments, or one the viewer saw no card of, has none (404)."""
    return download(hand_exports.proof_file(ctx, user, hand_id, full=full))
