"""Invite links: a table's link (``GET /api/games/{id}/invite``) and opening one
(``POST /api/invites/{token}``), which the page ``/invite/<token>`` does for the
visitor once they are signed in. The rules of private tables are
``cardroom.service.invites``'s."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from cardroom.service import invites
from cardroom.service.invites import Invite
from cardroom.web.deps import ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.schemas import MAX_ROW_ID

router = APIRouter(tags=["games"])

GameId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The game's id.")]
# Any text: a wrong token, however long, is "no such link" (404), not a 422.
Token = Annotated[str, Path(description="The invite link's secret.")]


class InviteOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    private: bool = Field(description="Not listed in the lobby: found only through this link.")
    token: str = Field(description="The link's secret; not the game id.")
    path: str = Field(description="The link, from the site's root: /invite/<token>.")
    table_path: str = Field(description="The table's page: /games/<id>.")

    @classmethod
    def of(cls, invite: Invite) -> InviteOut:
        return cls(
            game_id=invite.game_id,
            private=invite.private,
            token=invite.token,
            path=invite.path,
            table_path=f"/games/{invite.game_id}",
        )


@router.get("/api/games/{game_id}/invite", responses=documented(401, 403, 404, 422))
def invite_link(ctx: ContextDep, user: CurrentUser, game_id: GameId) -> InviteOut:
    """The table's invite link, for anyone who may see the table: send it to friends.
    A private table is found only through it."""
    return InviteOut.of(invites.invite_of(ctx, game_id, user.id))


@router.post("/api/invites/{token}", responses=documented(401, 403, 404, 413, 415, 422))
def open_invite(ctx: ContextDep, user: CurrentUser, token: Token) -> InviteOut:
    """Open an invite link: the table it leads to, which is open to the viewer from
    now on (a private table remembers them). A link that leads nowhere: 404."""
    return InviteOut.of(invites.accept(ctx, token, user.id))
