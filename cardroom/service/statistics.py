"""A player's statistics, read from their stored hands (``cardroom.history.statistics``
computes them; docs/statistics.md defines them).

Each finished hand the player was dealt into is read from its ``hands`` row: the
engine's final state holds the hand's events, and ``seen_by`` keeps of them what the
player saw (no hole card at all). A hand whose row cannot be read is left out and
counted in ``skipped``: one damaged hand must not cost a player their statistics.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import select

from cardroom.hand import Hand
from cardroom.history.statistics import SeenHand, Statistics, seen_by, statistics
from cardroom.rules import ChipUnit
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_errors import GameNotFound
from cardroom.store.db import reading
from cardroom.store.models import Game, HandPlayer
from cardroom.store.models import HandRecord as HandRow

log = logging.getLogger(__name__)

# The most recent hands read, at most: more than a friends' room plays in a year at one
# player's pace, and a bound on one request's work (decoding and counting a hand takes
# about 0.16 ms of CPU: 1.6 s for the most).
HANDS_READ_MAX = 10_000

# What reading a damaged stored hand can raise (its JSON not being what was written).
_READ_ERRORS = (KeyError, TypeError, ValueError, AttributeError, IndexError)


@dataclass(frozen=True)
class GameInfo:
    game_id: int
    preset: str
    format: str


@dataclass(frozen=True)
class PlayerStatistics:
    figures: Statistics
    games: dict[int, GameInfo]  # every game in ``figures.games``
    game_id: int | None  # the one game asked for, or None: every game
    skipped: tuple[int, ...]  # ids of hands left out: their rows cannot be read
    capped: bool  # more than HANDS_READ_MAX hands: only the latest were read


def player_statistics(
    ctx: ServiceContext, user_id: int, *, game_id: int | None = None
) -> PlayerStatistics:
    """The figures of ``user_id`` over their own finished hands: every game, or the
    one ``game_id`` (refused if there is no such game)."""
    if game_id is not None and (type(game_id) is not int or game_id < 1):
        raise InvalidInput("A game is named by its number, a whole number from 1.")
    with reading(), ctx.transaction() as session:
        if game_id is not None and session.get(Game, game_id) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        query = (
            select(HandRow.id, HandRow.game_id, HandRow.final_state, HandPlayer.seat)
            .join(HandPlayer, HandPlayer.hand_id == HandRow.id)
            .where(HandPlayer.user_id == user_id, HandRow.ended_at.is_not(None))
            .order_by(HandRow.id.desc())
            .limit(HANDS_READ_MAX + 1)
        )
        if game_id is not None:
            query = query.where(HandRow.game_id == game_id)
        rows = session.execute(query).all()
        capped = len(rows) > HANDS_READ_MAX
        rows = rows[:HANDS_READ_MAX]
        seen: list[SeenHand] = []
        skipped: list[int] = []
        for hand_id, game, state, seat in reversed(rows):  # oldest first
            try:
                hand = Hand.from_dict(state)
                seen.append(
                    seen_by(
                        hand,
                        seat,
                        hand_id=hand_id,
                        game_id=game,
                        pays_money=hand.rules.chip_unit is ChipUnit.CENT,
                    )
                )
            except _READ_ERRORS as exc:
                log.error(
                    "hand %s: left out of statistics: %s: %s", hand_id, type(exc).__name__, exc
                )
                skipped.append(hand_id)
        ids = {h.game_id for h in seen}
        games = {
            g.id: GameInfo(g.id, g.preset, g.format.value)
            for g in session.scalars(select(Game).where(Game.id.in_(ids)))
        }
    return PlayerStatistics(statistics(seen), games, game_id, tuple(skipped), capped)
