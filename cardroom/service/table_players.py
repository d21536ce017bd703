"""Who has sat at a table: every player with a seat there now or before, by name.

A table's snapshot names only who sits there now, while its events, its hands and
its standings name players by id: after a reload a player who cashed out, left or
was knocked out would read "Player 7". This list gives the page their names, to
anyone who may open the table (``invites.check_may_watch``), spectators included.

It tells nothing a viewer of the table could not read already: every name on it sat
down in an event the viewer may read (``PlayerSeated``), and those events are
public. No money, no cards: a player's buy-ins and cash-outs stay in the table's
ledger, which is for its players and admins (``cardroom.service.ledgers``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from cardroom.service import invites
from cardroom.service.context import ServiceContext
from cardroom.service.game_errors import GameNotFound
from cardroom.store.db import reading
from cardroom.store.models import Game, GamePlayer, User


@dataclass(frozen=True)
class TablePlayer:
    """Someone who sat at the table (now or before)."""

    user_id: int
    name: str


def players_of(ctx: ServiceContext, game_id: int, viewer_id: int) -> tuple[TablePlayer, ...]:
    """Everyone who has sat at ``game_id``, in the order they first sat down, for a
    viewer who may open the table."""
    with reading(), ctx.transaction() as session:
        game = session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            raise GameNotFound(f"There is no game {game_id}.")
        invites.check_may_watch(session, game, viewer_id)
        rows = session.execute(
            select(GamePlayer.user_id, User.name)
            .join(User, User.id == GamePlayer.user_id)
            .where(GamePlayer.game_id == game_id)
            .order_by(GamePlayer.id)
        ).all()
        return tuple(TablePlayer(user_id, name) for user_id, name in rows)
