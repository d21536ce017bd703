"""Games a host created without taking a seat count against the waiting-games limit
(issue 17, item 5: one account made 60 empty games in half a second, filling the
lobby's first page for 72 hours).

A seat in a game waiting to start takes one of the player's
``WAITING_GAMES_PER_PLAYER`` slots (``GamePlayer.waiting_slot``, with the database's
own backstop); a waiting game the player hosts without a seat in it takes one too,
counted here, so that a host has at most that many waiting games either way.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.service.game_errors import TooManyWaitingGames
from cardroom.store.models import WAITING_GAMES_PER_PLAYER, Game, GamePlayer, GameStatus


def hosted_without_a_seat(session: Session, user_id: int, *, besides: int | None = None) -> int:
    """Waiting games ``user_id`` hosts and has no seat in (other than ``besides``)."""
    seated = select(GamePlayer.game_id).where(
        GamePlayer.user_id == user_id, GamePlayer.seat.is_not(None)
    )
    query = select(func.count()).where(
        Game.host_id == user_id,
        Game.status == GameStatus.WAITING,
        Game.id.not_in(seated),
    )
    if besides is not None:
        query = query.where(Game.id != besides)
    return int(session.scalar(query) or 0)


def check_waiting_slots(session: Session, user_id: int) -> None:
    """Refuse a new waiting game hosted without a seat when the host's slots are all
    taken (by seats in waiting games and by such games)."""
    seats = session.scalar(
        select(func.count()).where(
            GamePlayer.user_id == user_id, GamePlayer.waiting_slot.is_not(None)
        )
    )
    if int(seats or 0) + hosted_without_a_seat(session, user_id) >= WAITING_GAMES_PER_PLAYER:
        raise TooManyWaitingGames(
            f"You already have {WAITING_GAMES_PER_PLAYER} games waiting to start: "
            "start or cancel one first (games you host without a seat count too)."
        )
