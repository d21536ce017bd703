"""A table's chat: read it, write in it, the host's switch, an admin's deletions and
mutes. The rules are ``cardroom.service.chat``'s; what changed goes to the table's
sockets in every process as a table message (``Live.tell_table``), never as a game
change: chat bumps no version and writes no game event.

- ``GET /api/games/{id}/chat``, ``POST /api/games/{id}/chat``: the table's viewers;
- ``POST /api/games/{id}/chat/switch``: the host (or an admin);
- ``DELETE /api/games/{id}/chat/{message_id}``: admins;
- ``POST /api/admin/chat/mute``, ``POST /api/admin/chat/unmute``,
  ``GET /api/admin/chat/mutes`` (the room-wide ones),
  ``GET /api/admin/users/{id}/chat-mutes``: admins (every route under ``/api/admin/``
  refuses everyone else with 403).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, status
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from cardroom.service import chat
from cardroom.service.chat import TEXT_MAX, ChatState, Said
from cardroom.web.deps import AdminUser, ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.live import LiveDep
from cardroom.web.schemas import MAX_ROW_ID, Reason, _In

router = APIRouter(tags=["chat"])
admin = APIRouter(prefix="/api/admin", tags=["admin"])  # admins only, like all of /api/admin

GameId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The game's id.")]
MessageId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The message's id.")]
UserId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The user's id.")]
RowId = Annotated[StrictInt, Field(ge=1, le=MAX_ROW_ID)]

DELETED_REASON = "Removed from the table's chat by an admin."
# As ``schemas.Reason``: PostgreSQL cannot store NUL, and a newline would forge a line
# in the admin log.
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"


class SaidOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: int
    game_id: int
    user_id: int
    name: str = Field(description="Who said it.")
    text: str = Field(description="Plain text: show it as text, never as HTML.")
    at: datetime

    @classmethod
    def of(cls, said: Said) -> SaidOut:
        return cls(
            id=said.id,
            game_id=said.game_id,
            user_id=said.user_id,
            name=said.name,
            text=said.text,
            at=said.at,
        )


class ChatOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    on: bool = Field(description="False: the host has turned the chat off.")
    spectators_may_chat: bool = Field(description="Spectators may write too.")
    may_send: bool = Field(description="Whether the viewer may write now.")
    why_not: str | None = Field(description="If not, the sentence that says why.")
    watchers: int = Field(description="People watching the table without a seat.")
    messages: list[SaidOut] = Field(description="The last 100, oldest first.")

    @classmethod
    def of(cls, state: ChatState, watchers: int) -> ChatOut:
        return cls(
            game_id=state.game_id,
            on=state.on,
            spectators_may_chat=state.spectators_may_chat,
            may_send=state.may_send,
            why_not=state.why_not,
            watchers=watchers,
            messages=[SaidOut.of(m) for m in state.messages],
        )


class SayIn(_In):
    text: Annotated[StrictStr, Field(min_length=1, max_length=TEXT_MAX * 2)] = Field(
        description=f"Plain text, at most {TEXT_MAX} characters once trimmed."
    )


class SwitchIn(_In):
    on: StrictBool = Field(description="True: the chat is on; false: off.")


class SwitchOut(BaseModel):
    game_id: int
    on: bool


class MuteIn(_In):
    user_id: RowId
    game_id: RowId | None = Field(default=None, description="null: in every table's chat.")
    reason: Reason


class MuteOut(BaseModel):
    user_id: int
    game_id: int | None = Field(description="null: in every table's chat.")


class DeletedOut(BaseModel):
    game_id: int
    message_id: int


@router.get("/api/games/{game_id}/chat", responses=documented(401, 403, 404, 422))
def read_chat(ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId) -> ChatOut:
    """The table's chat as the viewer opens it: its last 100 messages, whether the
    viewer may write, and how many people watch (as this server process counts them)."""
    state = chat.chat_of(ctx, game_id, user.id)
    return ChatOut.of(state, live.spectators.count(game_id))


SAY = documented(401, 403, 404, 409, 413, 415, 422, 429)
SAY[429] = {
    **SAY[429],
    "description": "More than 5 messages in 10 seconds; `Retry-After` says how long to wait.",
}


@router.post("/api/games/{game_id}/chat", status_code=status.HTTP_201_CREATED, responses=SAY)
def say(body: SayIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId) -> SaidOut:
    """Say something at the table: a seated player (a spectator where the host allowed
    it). 403 muted or a spectator, 409 the chat is off, 429 more than 5 messages in
    10 seconds."""
    said = chat.say(ctx, game_id, user.id, body.text)
    live.tell_table(game_id, {"type": "chat", "message": said.to_wire()})
    return SaidOut.of(said)


@router.post("/api/games/{game_id}/chat/switch", responses=documented(401, 403, 404, 413, 415, 422))
def switch(
    body: SwitchIn, ctx: ContextDep, user: CurrentUser, live: LiveDep, game_id: GameId
) -> SwitchOut:
    """The host (or an admin) turns the table's chat on or off."""
    done = chat.switch(ctx, user.id, game_id, body.on)
    live.tell_table(game_id, {"type": "chat_switched", "game_id": game_id, "on": done.on})
    return SwitchOut(game_id=done.game_id, on=done.on)


@router.delete("/api/games/{game_id}/chat/{message_id}", responses=documented(401, 403, 404, 422))
def delete_message(
    ctx: ContextDep,
    user: AdminUser,
    live: LiveDep,
    game_id: GameId,
    message_id: MessageId,
    reason: Annotated[
        str, Query(min_length=1, max_length=200, pattern=NO_CONTROL_CHARACTERS)
    ] = DELETED_REASON,
) -> DeletedOut:
    """An admin deletes a message: it disappears from every open page of the table;
    the admin log keeps it."""
    done = chat.delete_message(ctx, user.id, game_id, message_id, reason)
    live.tell_table(game_id, {"type": "chat_deleted", "game_id": game_id, "id": done.message_id})
    return DeletedOut(game_id=done.game_id, message_id=done.message_id)


@admin.post("/chat/mute", responses=documented(401, 403, 404, 413, 415, 422))
def mute(body: MuteIn, ctx: ContextDep, user: AdminUser) -> MuteOut:
    """Mute a player: at one table, or (no ``game_id``) in every table's chat."""
    done = chat.mute(ctx, user.id, body.user_id, body.game_id, body.reason)
    return MuteOut(user_id=done.user_id, game_id=done.game_id)


@admin.post("/chat/unmute", responses=documented(401, 403, 404, 413, 415, 422))
def unmute(body: MuteIn, ctx: ContextDep, user: AdminUser) -> MuteOut:
    """Lift a mute: the one at that table, or (no ``game_id``) the room-wide one."""
    done = chat.unmute(ctx, user.id, body.user_id, body.game_id, body.reason)
    return MuteOut(user_id=done.user_id, game_id=done.game_id)


@admin.get("/chat/mutes", responses=documented(401, 403))
def room_mutes(ctx: ContextDep, user: AdminUser) -> list[MuteOut]:
    """Every room-wide mute, oldest first (at most 1000): whom the admin page shows as
    muted in every table's chat."""
    return [MuteOut(user_id=m.user_id, game_id=m.game_id) for m in chat.room_mutes(ctx, user.id)]


@admin.get("/users/{user_id}/chat-mutes", responses=documented(401, 403, 404, 422))
def mutes(ctx: ContextDep, user: AdminUser, user_id: UserId) -> list[MuteOut]:
    """A player's mutes."""
    return [
        MuteOut(user_id=m.user_id, game_id=m.game_id) for m in chat.mutes_of(ctx, user.id, user_id)
    ]
