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
from typing import cast as type_cast

from sqlalchemy import String, bindparam, cast, delete, exists, insert, select, update
from sqlalchemy import Table as SqlTable
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


# The statements ``store_deadlines`` sends, built once. Core, not the ORM: nothing
# reads Deadline objects back in the transaction (the clock loads the one it fires
# by id, and writes only that row), so the rows need no identities, no unit of work
# and no flush of their own (the game's row goes through Core too:
# ``game_rows.write_game``).
_DEADLINES = type_cast(SqlTable, Deadline.__table__)
_PENDING = select(
    _DEADLINES.c.id, _DEADLINES.c.kind, _DEADLINES.c.due_at, _DEADLINES.c.payload
).where(_DEADLINES.c.game_id == bindparam("game_id"), _DEADLINES.c.fired_at.is_(None))
_MOVE = (
    update(_DEADLINES)
    .where(_DEADLINES.c.id == bindparam("row_id"))
    .values(due_at=bindparam("new_due_at"), payload=bindparam("new_payload"))
)
_DELETE = delete(_DEADLINES).where(_DEADLINES.c.id == bindparam("row_id"))
# Insert unless a deadline of that kind at that time has fired already: the check
# and the insert in one statement (the game's row lock keeps both in step).
_INSERT_UNLESS_FIRED = insert(_DEADLINES).from_select(
    ["game_id", "kind", "due_at", "payload", "created_at"],
    select(
        bindparam("game_id", type_=_DEADLINES.c.game_id.type),
        # Cast: PostgreSQL would take the bare parameter here for text and in the
        # comparison below for the column's varchar, and refuse the two.
        cast(bindparam("kind", type_=_DEADLINES.c.kind.type), String(20)),
        bindparam("due_at", type_=_DEADLINES.c.due_at.type),
        bindparam("payload", type_=_DEADLINES.c.payload.type),
        bindparam("created_at", type_=_DEADLINES.c.created_at.type),
    ).where(
        ~exists().where(
            _DEADLINES.c.game_id == bindparam("game_id"),
            _DEADLINES.c.kind == bindparam("kind"),
            _DEADLINES.c.due_at == bindparam("due_at"),
            _DEADLINES.c.fired_at.is_not(None),
        )
    ),
)


def store_deadlines(
    session: Session, game: Game, wanted: dict[DeadlineKind, Wanted], now: datetime
) -> None:
    """Make the game's pending deadline rows match ``wanted``: one statement to read
    them, and one for each kind of change (the usual action: a read and a move).
    The game's row must exist (its id known)."""
    game_id = game.id
    stale: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    kept: set[DeadlineKind] = set()
    for row_id, kind, due_at, payload in session.execute(_PENDING, {"game_id": game_id}):
        want = wanted.get(kind)
        if want is None:
            stale.append({"row_id": row_id})
            continue
        kept.add(kind)
        if due_at != want.due_at or payload != want.payload:
            moves.append({"row_id": row_id, "new_due_at": want.due_at, "new_payload": want.payload})
    if stale:
        session.execute(_DELETE, stale)
    if moves:
        session.execute(_MOVE, moves)
    new = [
        {
            "game_id": game_id,
            "kind": kind,
            "due_at": want.due_at,
            "payload": want.payload,
            "created_at": now,
        }
        for kind, want in wanted.items()
        if kind not in kept
    ]
    if new:
        session.execute(_INSERT_UNLESS_FIRED, new)
