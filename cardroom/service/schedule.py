"""Which deadlines a game has now, and keeping its deadline rows in step.

After every change the use case asks ``wanted_deadlines`` what the table is waiting
for, and ``store_deadlines`` makes the pending rows say exactly that: at most one
pending row per game and kind, moved when its time changes, deleted when no longer
wanted. A deadline whose time has already fired is not written again, so a
deadline fires once even when the table still reports it (a cash table paused for
lack of players keeps its past "deal due" time).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from cardroom.service.game_records import GameRow
from cardroom.store.models import Deadline, DeadlineKind, Game
from cardroom.table import Table, TableStatus, blinds_at_level

# RULES.md: a waiting game with no activity for 72 hours is cancelled.
CANCEL_WAITING_AFTER = timedelta(hours=72)
# A practice bot acts this long after its turn starts (docs/bots.md): long enough
# for a person to follow, short enough to keep a practice game moving.
BOT_THINK_SECONDS = 1.5


@dataclass(frozen=True)
class Wanted:
    due_at: datetime
    payload: dict[str, Any]


def at(game: Game | GameRow, seconds: float) -> datetime:
    """The moment of a table time (seconds since the game was created)."""
    return game.created_at + timedelta(seconds=seconds)


def seconds_of(game: Game | GameRow, moment: datetime) -> float:
    """The table time of a moment: seconds since the game was created."""
    return (moment - game.created_at).total_seconds()


def next_level(table: Table, now: float) -> tuple[float, int, int, int] | None:
    """When the next blind level by minutes begins, while the blind clock runs:
    (table time, level, small blind, big blind)."""
    cfg = table.config
    minutes = cfg.schedule.every_minutes
    if minutes is None or table.status is not TableStatus.PLAYING:
        return None
    if table.held or table.short_of_players or table.clock.started_at is None:
        return None  # the blind clock stands still
    period = minutes * 60
    elapsed = table.clock.seconds(now)
    # A hair of slack: fired at a level's first moment, the next level is the one after.
    level = math.floor((elapsed + 1e-6) // period) + 1
    small, big = blinds_at_level(cfg.small_blind, cfg.big_blind, cfg.schedule.rate_percent, level)
    return now + (level * period - elapsed), level, small, big


def wanted_deadlines(
    game: Game, table: Table, now: float, *, bot_to_act: str | None = None
) -> dict[DeadlineKind, Wanted]:
    """``bot_to_act``: the level of the practice bot whose turn it is, if it is one.
    Its turn deadline comes after ``BOT_THINK_SECONDS`` instead of the turn clock
    (and not while the table is paused), and the clock lets it act then."""
    out: dict[DeadlineKind, Wanted] = {}
    if table.status is TableStatus.WAITING:
        out[DeadlineKind.CANCEL_WAITING] = Wanted(game.last_activity_at + CANCEL_WAITING_AFTER, {})
        return out
    if table.status is not TableStatus.PLAYING:
        return out
    turn = table.turn_deadline()
    if bot_to_act is not None and table.hand is not None:
        if table.turn_started_at is not None and not table.held:
            out[DeadlineKind.TURN] = Wanted(
                at(game, table.turn_started_at + BOT_THINK_SECONDS),
                {"hand": table.hands_dealt, "seat": table.hand.seat_to_act, "bot": bot_to_act},
            )
    elif turn is not None and table.hand is not None:
        out[DeadlineKind.TURN] = Wanted(
            at(game, turn), {"hand": table.hands_dealt, "seat": table.hand.seat_to_act}
        )
    due = table.deal_due()
    # Paused (by the host, or for lack of players): a hand is dealt on resuming, or
    # as soon as a command finds two who can play.
    if due is not None and not table.held and not table.short_of_players:
        out[DeadlineKind.CONTINUE] = Wanted(at(game, due), {"after_hand": table.hands_dealt})
    level = next_level(table, now)
    if level is not None:
        when, number, small, big = level
        out[DeadlineKind.BLIND_LEVEL] = Wanted(
            at(game, when), {"level": number, "small_blind": small, "big_blind": big}
        )
    return out


def store_deadlines(
    session: Session, game: Game, wanted: dict[DeadlineKind, Wanted], now: datetime
) -> None:
    """Make the game's pending deadline rows match ``wanted``."""
    pending = {
        row.kind: row
        for row in session.scalars(
            select(Deadline).where(Deadline.game_id == game.id, Deadline.fired_at.is_(None))
        )
    }
    stale = [row.id for kind, row in pending.items() if kind not in wanted]
    if stale:
        session.execute(delete(Deadline).where(Deadline.id.in_(stale)))
    for kind, want in wanted.items():
        row = pending.get(kind)
        if row is not None:
            if row.due_at != want.due_at or row.payload != want.payload:
                row.due_at, row.payload = want.due_at, want.payload
            continue
        already_fired = session.scalar(
            select(Deadline.id).where(
                Deadline.game_id == game.id,
                Deadline.kind == kind,
                Deadline.due_at == want.due_at,
                Deadline.fired_at.is_not(None),
            )
        )
        if already_fired is None:
            session.add(
                Deadline(
                    game_id=game.id,
                    kind=kind,
                    due_at=want.due_at,
                    payload=want.payload,
                    created_at=now,
                )
            )
    session.flush()
