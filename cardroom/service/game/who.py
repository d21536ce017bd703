"""Who sends a game command, and the check that they may: a seated player (or one
sitting down), the host or an admin, the clock. The pipeline asks ``authorise``
once, with the game's row locked, so a refusal changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.orm import Session

from cardroom.service.admin import Actor, ConsoleOperator
from cardroom.service.errors import Forbidden
from cardroom.service.game_errors import NotHostOrAdmin
from cardroom.service.game_records import quick_init
from cardroom.store.models import Game, Role, User
from cardroom.table import Table


@quick_init  # one for every command a player sends
@dataclass(frozen=True)
class Player:
    """A player acting for themselves. ``active``: the account must exist and not be
    suspended (checked before the game's lock is taken, as sitting down always did)."""

    user_id: int
    active: bool = False


@dataclass(frozen=True)
class HostOrAdmin:
    """The game's host or an admin (or the operator's console). ``host_only_if``: a
    rule of the table that must hold for the host; an admin may always."""

    actor: Actor
    host_only_if: Callable[[Table], bool] | None = None
    what: str = ""  # the verb for the refusal: "Only an admin can <what> at this table."


@dataclass(frozen=True)
class Clock:
    """The room's own clock (deadlines) and the bots it wakes: nobody to check."""


CLOCK = Clock()

Who = Player | HostOrAdmin | Clock


def host_or_admin(session: Session, game: Game, actor: Actor) -> User | None:
    """The acting host or admin (None: the operator's console), or a refusal."""
    if isinstance(actor, ConsoleOperator):
        return None
    user = session.get(User, actor) if type(actor) is int else None
    if user is None or user.suspended:
        raise Forbidden("Only the host of this game or an admin can do that.")
    if user.id == game.host_id or user.role is Role.ADMIN:
        return user
    raise NotHostOrAdmin("Only the host of this game or an admin can do that.")


def authorise(
    session: Session, game: Game, table: Table, who: Who
) -> tuple[int | None, User | None]:
    """Who the command is from, for the ledger's ``created_by`` and the idempotency
    row (the user id), and for the admin log (the host's or admin's row); or a
    refusal."""
    if isinstance(who, Player):
        return who.user_id, None
    if isinstance(who, Clock):
        return None, None
    user = host_or_admin(session, game, who.actor)
    rule = who.host_only_if
    if rule is not None and user is not None and user.role is not Role.ADMIN and not rule(table):
        raise NotHostOrAdmin(f"Only an admin can {who.what} at this table.")
    return (None if user is None else user.id), user
