"""A table's chat: who may say what, how fast, and what an admin may take back.

Chat is not a game command: it does not go down the game pipeline, bumps no table
version and writes no game event, so it never reaches a hand history or an export.
Its rows are ``chat_messages`` and ``chat_mutes`` (``store/chat_models.py``).

- Who reads: whoever may open the table (``invites.check_may_watch``).
- Who writes: a player seated at the table; a spectator too where the host allowed it
  at creation (``games.spectators_chat``). Not while the host has turned the chat off
  (``games.chat_on``), nor a player an admin muted, at that table or room-wide.
- How much: at most ``TEXT_MAX`` characters of plain text (the page shows it as text,
  never as HTML), and at most ``RATE_MESSAGES`` messages in ``RATE_SECONDS`` per
  player, over all tables. The limit is counted from the stored messages, in the
  transaction that stores the new one, after locking the player's row: it holds
  however many server processes there are, and two sends at once cannot both slip
  under it.
- Admins delete a message (the row stays, marked deleted) and mute or unmute a
  player; each goes into the admin log, as does the host turning the chat off or on.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, delete, func, or_, select
from sqlalchemy.orm import Session

from cardroom.service import invites
from cardroom.service.admin import Actor, check_reason, record_admin_action, require_admin
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Conflict, Forbidden, InvalidInput, NotFound, TooManyAttempts
from cardroom.service.game_errors import GameNotFound
from cardroom.service.users import active_user
from cardroom.store.chat_models import CHAT_TEXT_MAX_LENGTH, ChatMessage, ChatMute
from cardroom.store.db import reading
from cardroom.store.models import Game, GamePlayer, Role, User

TEXT_MAX = CHAT_TEXT_MAX_LENGTH
RATE_MESSAGES = 5
RATE_SECONDS = 10
RECENT = 100  # the messages a table shows on opening

# Line breaks and tabs are text; every other control character (a terminal escape,
# a bidirectional override that would make a message read backwards) is refused.
_ALLOWED_CONTROLS = {"\n", "\t"}


class ChatOff(Conflict):
    """The host has turned the table's chat off."""


class ChatMuted(Forbidden):
    """An admin muted the player."""


class ChatTooFast(TooManyAttempts):
    """More than ``RATE_MESSAGES`` in ``RATE_SECONDS``."""


@dataclass(frozen=True)
class Said:
    """One message, as every page shows it."""

    id: int
    game_id: int
    user_id: int
    name: str
    text: str
    at: datetime

    def to_wire(self) -> dict[str, object]:
        return {
            "id": self.id,
            "game_id": self.game_id,
            "user_id": self.user_id,
            "name": self.name,
            "text": self.text,
            "at": self.at.isoformat(),
        }


@dataclass(frozen=True)
class ChatState:
    """A table's chat for one viewer: its switches, whether the viewer may write (and
    if not, why), and the last ``RECENT`` messages, oldest first."""

    game_id: int
    on: bool
    spectators_may_chat: bool
    may_send: bool
    why_not: str | None
    messages: tuple[Said, ...]


@dataclass(frozen=True)
class Switched:
    """The chat turned on or off: what every page of the table is told."""

    game_id: int
    on: bool


@dataclass(frozen=True)
class Deleted:
    game_id: int
    message_id: int


@dataclass(frozen=True)
class Mute:
    user_id: int
    game_id: int | None  # None: in every table's chat


# -- checks ----------------------------------------------------------------------------


def check_text(text: object) -> str:
    """The message as stored: trimmed, plain text, 1 to ``TEXT_MAX`` characters."""
    if not isinstance(text, str):
        raise InvalidInput("A message is text.")
    said = text.strip()
    if not said:
        raise InvalidInput("Write something first: the message is empty.")
    if len(said) > TEXT_MAX:
        raise InvalidInput(f"A message can have at most {TEXT_MAX} characters.")
    if any(
        unicodedata.category(c) in ("Cc", "Cf", "Cs") and c not in _ALLOWED_CONTROLS for c in said
    ):
        raise InvalidInput("A message is plain text: it cannot hold control characters.")
    return said


def _game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id) if type(game_id) is int else None
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return game


def _seated(session: Session, game_id: int, user_id: int) -> bool:
    seat = session.scalar(
        select(GamePlayer.seat).where(GamePlayer.game_id == game_id, GamePlayer.user_id == user_id)
    )
    return seat is not None


def _muted(session: Session, game_id: int, user_id: int) -> bool:
    found = session.scalar(
        select(ChatMute.id)
        .where(
            ChatMute.user_id == user_id,
            or_(ChatMute.game_id.is_(None), ChatMute.game_id == game_id),
        )
        .limit(1)
    )
    return found is not None


def _why_not(session: Session, game: Game, user: User) -> str | None:
    """Why ``user`` may not write in the table's chat now, or None if they may."""
    if not game.chat_on:
        return "The host has turned the chat off at this table."
    if not _seated(session, game.id, user.id) and not game.spectators_chat:
        return (
            "Only the players seated at this table may chat: the host has not opened "
            "it to spectators."
        )
    if _muted(session, game.id, user.id):
        return "An admin has muted you: you cannot write in the chat."
    return None


def _refusal(why: str) -> Forbidden | Conflict:
    if why.startswith("The host has turned"):
        return ChatOff(why)
    if why.startswith("An admin has muted"):
        return ChatMuted(why)
    return Forbidden(why)


def _said(message: ChatMessage, name: str) -> Said:
    return Said(
        message.id, message.game_id, message.user_id, name, message.text, message.created_at
    )


# -- the use cases ----------------------------------------------------------------------


def chat_of(ctx: ServiceContext, game_id: int, viewer_id: int) -> ChatState:
    """The table's chat as ``viewer_id`` opens it."""
    with reading(), ctx.transaction() as session:
        viewer = active_user(session, viewer_id)
        game = _game(session, game_id)
        invites.check_may_watch(session, game, viewer_id)
        rows = session.execute(
            select(ChatMessage, User.name)
            .join(User, User.id == ChatMessage.user_id)
            .where(ChatMessage.game_id == game.id, ChatMessage.deleted_at.is_(None))
            .order_by(ChatMessage.id.desc())
            .limit(RECENT)
        ).all()
        why = _why_not(session, game, viewer)
        return ChatState(
            game_id=game.id,
            on=game.chat_on,
            spectators_may_chat=game.spectators_chat,
            may_send=why is None,
            why_not=why,
            messages=tuple(_said(m, name) for m, name in reversed(rows)),
        )


def say(ctx: ServiceContext, game_id: int, user_id: int, text: object) -> Said:
    """Store a message from ``user_id`` at the table; refused as ``_why_not`` says, or
    with ``ChatTooFast`` past the rate limit."""
    said = check_text(text)
    now = ctx.now()
    with ctx.transaction() as session:
        # The player's row, locked: their sends queue here one behind the other, so
        # the count below sees every message stored before this one (SQLite's BEGIN
        # IMMEDIATE has serialised the whole transaction already).
        user = session.scalar(select(User).where(User.id == user_id).with_for_update())
        if user is None:
            raise NotFound("There is no such user.")
        user = active_user(session, user_id)
        game = _game(session, game_id)
        invites.check_may_watch(session, game, user_id)
        why = _why_not(session, game, user)
        if why is not None:
            raise _refusal(why)
        since = now - timedelta(seconds=RATE_SECONDS)
        recent = session.scalar(
            select(func.count(ChatMessage.id)).where(
                ChatMessage.user_id == user_id, ChatMessage.created_at > since
            )
        )
        if (recent or 0) >= RATE_MESSAGES:
            raise ChatTooFast(
                f"You are sending messages too fast: at most {RATE_MESSAGES} in "
                f"{RATE_SECONDS} seconds. Wait a few seconds and send it again.",
                retry_after_seconds=RATE_SECONDS,
            )
        message = ChatMessage(game_id=game.id, user_id=user_id, text=said, created_at=now)
        session.add(message)
        session.flush()
        return _said(message, user.name)


def switch(ctx: ServiceContext, actor_id: int, game_id: int, on: bool) -> Switched:
    """The host (or an admin) turns the table's chat on or off; into the admin log."""
    if type(on) is not bool:
        raise InvalidInput("Say whether the chat is on: true or false.")
    now = ctx.now()
    with ctx.transaction() as session:
        actor = active_user(session, actor_id)
        game = _game(session, game_id)
        if actor.id != game.host_id and actor.role is not Role.ADMIN:
            raise Forbidden("Only the table's host or an admin can turn its chat on or off.")
        before = game.chat_on
        game.chat_on = on
        if before != on:
            record_admin_action(
                session,
                admin=actor,
                action="chat_on" if on else "chat_off",
                target=None,
                reason=f"The chat of game {game.id} turned {'on' if on else 'off'}.",
                before={"game_id": game.id, "chat_on": before},
                after={"game_id": game.id, "chat_on": on},
                now=now,
            )
        return Switched(game.id, on)


def delete_message(
    ctx: ServiceContext, actor: Actor, game_id: int, message_id: int, reason: str
) -> Deleted:
    """An admin takes a message back: no page shows it again; the admin log keeps
    what it said."""
    why = check_reason(reason)
    now = ctx.now()
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        message = session.get(ChatMessage, message_id) if type(message_id) is int else None
        if message is None or message.game_id != game_id or message.deleted_at is not None:
            raise NotFound(f"Game {game_id}'s chat has no message {message_id}.")
        message.deleted_at = now
        message.deleted_by_id = None if admin is None else admin.id
        record_admin_action(
            session,
            admin=admin,
            action="chat_delete",
            target=session.get(User, message.user_id),
            reason=why,
            before={"game_id": game_id, "message_id": message.id, "text": message.text},
            after={"game_id": game_id, "message_id": message.id, "deleted": True},
            now=now,
        )
        return Deleted(game_id, message.id)


def mute(ctx: ServiceContext, actor: Actor, user_id: int, game_id: int | None, reason: str) -> Mute:
    """An admin mutes a player, at one table or (``game_id`` None) room-wide."""
    why = check_reason(reason)
    now = ctx.now()
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        target = _target(session, user_id)
        if game_id is not None:
            _game(session, game_id)
        exists = session.scalar(select(ChatMute.id).where(_same_mute(user_id, game_id)))
        if exists is None:
            session.add(
                ChatMute(
                    user_id=target.id,
                    game_id=game_id,
                    created_by_id=None if admin is None else admin.id,
                    created_at=now,
                )
            )
        record_admin_action(
            session,
            admin=admin,
            action="chat_mute",
            target=target,
            reason=why,
            before={"game_id": game_id, "muted": exists is not None},
            after={"game_id": game_id, "muted": True},
            now=now,
        )
        return Mute(target.id, game_id)


def unmute(
    ctx: ServiceContext, actor: Actor, user_id: int, game_id: int | None, reason: str
) -> Mute:
    """Lift a mute: the one at that table, or (``game_id`` None) the room-wide one."""
    why = check_reason(reason)
    now = ctx.now()
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        target = _target(session, user_id)
        gone = session.scalars(
            delete(ChatMute).where(_same_mute(user_id, game_id)).returning(ChatMute.id)
        ).all()
        record_admin_action(
            session,
            admin=admin,
            action="chat_unmute",
            target=target,
            reason=why,
            before={"game_id": game_id, "muted": bool(gone)},
            after={"game_id": game_id, "muted": False},
            now=now,
        )
        return Mute(target.id, game_id)


def mutes_of(ctx: ServiceContext, actor: Actor, user_id: int) -> tuple[Mute, ...]:
    """A player's mutes, for an admin."""
    with reading(), ctx.transaction() as session:
        require_admin(session, actor)
        _target(session, user_id)
        rows = session.scalars(
            select(ChatMute).where(ChatMute.user_id == user_id).order_by(ChatMute.id)
        ).all()
        return tuple(Mute(row.user_id, row.game_id) for row in rows)


ROOM_MUTES_MAX = 1000  # the admin page's list: a room mutes a handful, not thousands


def room_mutes(ctx: ServiceContext, actor: Actor) -> tuple[Mute, ...]:
    """Every room-wide mute (those at one table are its own), oldest first, for the
    admin page's list of players."""
    with reading(), ctx.transaction() as session:
        require_admin(session, actor)
        rows = session.scalars(
            select(ChatMute)
            .where(ChatMute.game_id.is_(None))
            .order_by(ChatMute.id)
            .limit(ROOM_MUTES_MAX)
        ).all()
        return tuple(Mute(row.user_id, None) for row in rows)


def _target(session: Session, user_id: int) -> User:
    user = session.get(User, user_id) if type(user_id) is int else None
    if user is None:
        raise NotFound("There is no such user.")
    return user


def _same_mute(user_id: int, game_id: int | None) -> ColumnElement[bool]:
    where_game = ChatMute.game_id.is_(None) if game_id is None else ChatMute.game_id == game_id
    return and_(ChatMute.user_id == user_id, where_game)
