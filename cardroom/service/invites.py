"""Invite links and private tables.

Every table has an invite link, ``/invite/<token>``: the token is random
(128 bits from ``os.urandom``), stored on the game's row, and is not the game's id, so
knowing a private table's number is not enough to find it. A public table's link is
a convenience for sharing it; a private table is left out of the lobby and is open
only to:

- its host, and anyone with a ``game_players`` row (seated now or before: a player
  who left keeps their history and may rejoin);
- an admin (the room's operators see everything);
- whoever opened its link while signed in: opening it (``accept``) records a
  ``game_invitees`` row, so the table's page, its socket, its events and its hand
  histories need no token in their addresses afterwards.

Anyone else asking for a private table by its id is refused (``PrivateGame``, 403)
with a sentence that says how to get in: ask the host for the link.
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.service.context import ServiceContext
from cardroom.service.errors import Forbidden, NotFound
from cardroom.service.game_errors import GameNotFound
from cardroom.service.users import active_user
from cardroom.store.db import reading
from cardroom.store.models import (
    INVITE_TOKEN_MAX_LENGTH,
    Game,
    GameInvitee,
    GamePlayer,
    GameStatus,
    Role,
    User,
)

TOKEN_BYTES = 16  # 128 bits: not to be guessed; 22 URL-safe characters


class PrivateGame(Forbidden):
    """A private table asked for by someone who has not opened its invite link."""


class InviteNotFound(NotFound):
    """No table has that invite link."""


@dataclass(frozen=True)
class Invite:
    """A table's invite link, for someone who may see the table."""

    game_id: int
    token: str
    private: bool

    @property
    def path(self) -> str:
        return f"/invite/{self.token}"


def new_token() -> str:
    """The secret of a new table's invite link: ``secrets.token_urlsafe``'s text, read
    from ``os.urandom`` itself rather than through ``secrets.token_bytes``, which
    draws the decks' salts: a test that fixes the salts' stream (the broadcast golden
    messages) must see the same salts whether or not a table was made first."""
    return base64.urlsafe_b64encode(os.urandom(TOKEN_BYTES)).rstrip(b"=").decode("ascii")


def _refusal(game_id: int) -> PrivateGame:
    return PrivateGame(
        f"Game {game_id} is a private table: only players with its invite link can open "
        "it. Ask its host for the link."
    )


def may_see(session: Session, game: Game, user_id: int) -> bool:
    """Whether ``user_id`` may see (and sit down at) ``game``: any public table; a
    private one for its host, its players, admins and those who opened its link."""
    if not game.private or user_id == game.host_id:
        return True
    played = session.scalar(
        select(GamePlayer.id).where(GamePlayer.game_id == game.id, GamePlayer.user_id == user_id)
    )
    if played is not None or session.get(GameInvitee, (game.id, user_id)) is not None:
        return True
    user = session.get(User, user_id)
    return user is not None and user.role is Role.ADMIN


def check_may_see(session: Session, game: Game, user_id: int) -> None:
    """``may_see``, or the refusal that says how to get in."""
    if not may_see(session, game, user_id):
        raise _refusal(game.id)


class WatchingOff(Forbidden):
    """A started table whose host turned watching off, asked for by someone without a
    seat at it."""


def may_watch(session: Session, game: Game, user_id: int) -> bool:
    """``may_see``, and a table whose host turned watching off at creation
    (``games.spectators``) is open, once it has started, only to its host, its
    players (now or before) and admins. While it waits for players anyone who may see
    it may open it, to take a seat: there is nothing to watch yet."""
    if not may_see(session, game, user_id):
        return False
    if game.spectators or game.status is GameStatus.WAITING or user_id == game.host_id:
        return True
    played = session.scalar(
        select(GamePlayer.id).where(GamePlayer.game_id == game.id, GamePlayer.user_id == user_id)
    )
    if played is not None:
        return True
    user = session.get(User, user_id)
    return user is not None and user.role is Role.ADMIN


def check_may_watch(session: Session, game: Game, user_id: int) -> None:
    """``may_watch``, or the refusal that says why."""
    check_may_see(session, game, user_id)
    if not may_watch(session, game, user_id):
        raise WatchingOff(
            f"The host of game {game.id} does not allow spectators: only its players "
            "can open the table."
        )


def _game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id) if type(game_id) is int else None
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return game


def check_may_see_game(ctx: ServiceContext, game_id: int, user_id: int) -> None:
    """``check_may_watch`` in a transaction of its own, for the reads that do not load
    the game themselves (its events, its standings, its socket)."""
    with reading(), ctx.transaction() as session:
        row = session.execute(
            select(Game.private, Game.host_id, Game.spectators).where(Game.id == game_id)
        ).one_or_none()
        if row is None:
            raise GameNotFound(f"There is no game {game_id}.")
        if (row.private or not row.spectators) and row.host_id != user_id:
            check_may_watch(session, _game(session, game_id), user_id)


def hand_visible(session: Session, game_id: int, user_id: int) -> None:
    """A hand of a private table is refused to whoever may not see the table (its
    players were dealt in, so they may)."""
    game = session.get(Game, game_id)
    if game is not None:
        check_may_see(session, game, user_id)


def invite_of(ctx: ServiceContext, game_id: int, user_id: int) -> Invite:
    """A table's invite link, for someone who may see the table."""
    with reading(), ctx.transaction() as session:
        game = _game(session, game_id)
        check_may_see(session, game, user_id)
        token = game.invite_token
        if token is None:  # a row written without one (never by the room itself)
            raise InviteNotFound(f"Game {game_id} has no invite link.")
        return Invite(game.id, token, game.private)


def accept(ctx: ServiceContext, token: str, user_id: int) -> Invite:
    """Open an invite link: the table it names, now open to ``user_id`` (a private
    table remembers them as invited). An unknown or malformed token: ``InviteNotFound``."""
    if type(token) is not str or not 1 <= len(token) <= INVITE_TOKEN_MAX_LENGTH:
        raise _unknown()
    now = ctx.now()
    with ctx.transaction() as session:
        active_user(session, user_id)
        game = session.scalar(select(Game).where(Game.invite_token == token))
        if game is None:
            raise _unknown()
        if not may_see(session, game, user_id):
            try:
                with session.begin_nested():  # the same link opened twice at once
                    session.add(GameInvitee(game_id=game.id, user_id=user_id, created_at=now))
            except IntegrityError:
                pass
        return Invite(game.id, token, game.private)


def _unknown() -> InviteNotFound:
    return InviteNotFound(
        "This invite link does not lead to any table: check that it was copied whole, "
        "or ask the host for it again."
    )
