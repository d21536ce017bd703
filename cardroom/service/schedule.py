"""Which deadlines a game has now, and keeping its deadline rows in step.

After every change the use case asks ``wanted_deadlines`` what the table is waiting
for, and ``store_deadlines`` makes the pending rows say exactly that: at most one
pending row per game and kind, moved when its time changes, deleted when no longer
wanted. A deadline whose time has already fired is not written again, so a
deadline fires once even when the table still reports it (a cash table paused for
lack of players keeps its past "deal due" time).

Reminders (docs/notifications.md, "Reminders"): on a table whose turn clock is long
(``REMINDER_MIN_CLOCK`` or more), the player to act's turn also has a ``REMINDER``
deadline. It is first due ``REMINDER_LOOK`` into the turn, before any reminder point
can be, so an ordinary bet writes it in the same statements as the turn deadline and
reads nothing more (the player's chosen points are read only when it fires, and by
then the player has been away for minutes). Firing it sends the point it names, if
any, and moves it on to the player's next point (``reminder_times``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from typing import cast as type_cast

from sqlalchemy import String, bindparam, cast, delete, exists, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.orm import Session

# A deadline wanted and the pending ones live with the other records
# (``game_records``), which the kept tables hold without importing the schedule.
from cardroom.service.game_records import GameRow, Pending, Wanted
from cardroom.store.models import Deadline, DeadlineKind, Game
from cardroom.store.prepared import Prepared
from cardroom.table import Table, TableStatus, blinds_at_level

# RULES.md: a waiting game with no activity for 72 hours is cancelled.
CANCEL_WAITING_AFTER = timedelta(hours=72)
# A practice bot acts this long after its turn starts (docs/bots.md): long enough
# for a person to follow, short enough to keep a practice game moving.
BOT_THINK_SECONDS = 1.5

# Reminders. A point (a player's choice) is "N%": when that share of the turn's clock
# is left, or "Nm", "Nh", "Nd": when that much time is left. The room's default is at
# half the clock and with an hour left.
DEFAULT_REMINDERS: tuple[str, ...] = ("50%", "1h")
MAX_REMINDERS = 6
# A reminder comes at least this long after the turn began (the your-turn notice has
# just gone), at least this long before the clock runs out (later is no use), and at
# least this long after the reminder before it (two so close are one).
REMINDER_GAP = 300.0
# Clocks shorter than this get no reminders: the your-turn notice and its push come
# within the first quarter of the clock, and a third message would be noise.
REMINDER_MIN_CLOCK = 1800
# When a turn's reminder deadline first fires: before the earliest possible point.
REMINDER_LOOK = REMINDER_GAP - 60.0
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400}
_LONGEST_LEFT = 14 * 86400  # the longest turn clock a table may have


def reminder_point(text: object) -> str:
    """A reminder point as the room writes it ("50%", "90m", "1h", "2d"), or
    ValueError with a sentence the player can act on."""
    if not isinstance(text, str):
        raise ValueError("A reminder point is text, like 50% or 1h.")
    spelled = text.strip().lower()
    number, unit = spelled[:-1], spelled[-1:]
    if not (number.isdigit() and number.isascii() and len(number) <= 5) or (
        unit != "%" and unit not in _UNIT_SECONDS
    ):
        raise ValueError(
            f"{text[:20]!r} is not a reminder point: write a share of the clock left "
            "(50%) or the time left in minutes, hours or days (15m, 1h, 2d)."
        )
    count = int(number)
    if unit == "%":
        if not 1 <= count <= 99:
            raise ValueError("A share of the clock left is 1% to 99%.")
    elif not REMINDER_GAP <= count * _UNIT_SECONDS[unit] <= _LONGEST_LEFT:
        raise ValueError("A reminder comes 5 minutes to 14 days before the clock runs out.")
    return f"{count}{unit}"


def reminder_points(values: object) -> tuple[str, ...]:
    """The player's points as the room keeps them: each written the room's way, no
    repeats, earliest first for a long clock (largest share or time left first)."""
    if not isinstance(values, list | tuple):
        raise ValueError('Reminder points are a list, like ["50%", "1h"]; [] for none.')
    points = {reminder_point(value) for value in values}
    if len(points) > MAX_REMINDERS:
        raise ValueError(f"Choose at most {MAX_REMINDERS} reminder points.")
    # Shares before times, each largest first: a stable order for the settings page.
    return tuple(sorted(points, key=lambda p: (p[-1] != "%", -_left(p, 100.0))))


def _left(point: str, clock: float) -> float:
    """How long before the clock runs out ``point`` comes, on a ``clock``-second turn."""
    count, unit = int(point[:-1]), point[-1]
    return clock * count / 100 if unit == "%" else float(count * _UNIT_SECONDS[unit])


def reminder_times(
    started: float, deadline: float, points: Sequence[str]
) -> list[tuple[float, str]]:
    """When the player's ``points`` fall in a turn from ``started`` to ``deadline``
    (table times), earliest first: each at least ``REMINDER_GAP`` after the start,
    before the deadline and after the one before it (of two closer than that, the
    earlier stays). None on a clock under ``REMINDER_MIN_CLOCK``."""
    clock = deadline - started
    if clock < REMINDER_MIN_CLOCK:
        return []
    wanted = sorted((deadline - _left(point, clock), point) for point in points)
    kept: list[tuple[float, str]] = []
    for moment, point in wanted:
        if moment < started + REMINDER_GAP or moment > deadline - REMINDER_GAP:
            continue
        if kept and moment < kept[-1][0] + REMINDER_GAP:
            continue
        kept.append((moment, point))
    return kept


def reminder_turn(table: Table) -> dict[str, Any] | None:
    """What names the turn a reminder is for (hand, seat, the clock's deadline), if
    the table's turn is one that gets reminders: a person's, on a long clock. A pause
    keeps it (the turn's clock and its points stand; the clock sends no reminder
    while the table is paused, ``clock_commands._remind``)."""
    hand, deadline, started = table.hand, table.turn_deadline(), table.turn_started_at
    if hand is None or deadline is None or started is None or hand.seat_to_act is None:
        return None
    if deadline - started < REMINDER_MIN_CLOCK:
        return None
    return {"hand": table.hands_dealt, "seat": hand.seat_to_act, "turn_due": deadline}


def same_turn(payload: dict[str, Any], other: dict[str, Any]) -> bool:
    return all(payload.get(key) == other.get(key) for key in ("hand", "seat", "turn_due"))


def at(game: Game | GameRow, seconds: float) -> datetime:
    """The moment of a table time (seconds since the game was created)."""
    # ``timedelta(0, seconds)``: the same duration as ``timedelta(seconds=seconds)``,
    # without the keywords' parsing, about half its cost (each command's deadlines
    # and views ask a few times).
    return game.created_at + timedelta(0, seconds)


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
    game: Game | GameRow, table: Table, now: float, *, bot_to_act: str | None = None
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
        remind = reminder_turn(table)
        if remind is not None:
            assert table.turn_started_at is not None
            out[DeadlineKind.REMINDER] = Wanted(
                at(game, table.turn_started_at + REMINDER_LOOK), remind
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
_PENDING = Prepared(
    select(_DEADLINES.c.id, _DEADLINES.c.kind, _DEADLINES.c.due_at, _DEADLINES.c.payload).where(
        _DEADLINES.c.game_id == bindparam("game_id"), _DEADLINES.c.fired_at.is_(None)
    )
)
_MOVE = Prepared(
    update(_DEADLINES)
    .where(_DEADLINES.c.id == bindparam("row_id"))
    .values(due_at=bindparam("new_due_at"), payload=bindparam("new_payload"))
)
_DELETE = Prepared(delete(_DEADLINES).where(_DEADLINES.c.id == bindparam("row_id")))
# A new deadline's row, from the statement's parameters, for an insert from a select.
_NEW_COLUMNS = ["game_id", "kind", "due_at", "payload", "created_at"]
_NEW_ROW = select(
    bindparam("game_id", type_=_DEADLINES.c.game_id.type),
    # Cast: PostgreSQL would take the bare parameter here for text and in the
    # comparison below for the column's varchar, and refuse the two.
    cast(bindparam("kind", type_=_DEADLINES.c.kind.type), String(20)),
    bindparam("due_at", type_=_DEADLINES.c.due_at.type),
    bindparam("payload", type_=_DEADLINES.c.payload.type),
    bindparam("created_at", type_=_DEADLINES.c.created_at.type),
)
# A deadline of that kind at that time has fired already.
_FIRED_THEN = exists().where(
    _DEADLINES.c.game_id == bindparam("game_id"),
    _DEADLINES.c.kind == bindparam("kind"),
    _DEADLINES.c.due_at == bindparam("due_at"),
    _DEADLINES.c.fired_at.is_not(None),
)
# Insert unless a deadline of that kind at that time has fired already: the check
# and the insert in one statement (the game's row lock keeps both in step).
_INSERT_UNLESS_FIRED = Prepared(
    insert(_DEADLINES).from_select(_NEW_COLUMNS, _NEW_ROW.where(~_FIRED_THEN))
)


# The kept path's writes name the pending row by its game and kind (one at most:
# ``uq_deadlines_pending``), not by an id: a row the clock fired elsewhere meanwhile
# is then left alone (``fired_at IS NULL``), and the count of rows written says so.
_MOVE_KIND = Prepared(
    update(_DEADLINES)
    .where(
        _DEADLINES.c.game_id == bindparam("game_id"),
        _DEADLINES.c.kind == bindparam("kind"),
        _DEADLINES.c.fired_at.is_(None),
    )
    .values(due_at=bindparam("new_due_at"), payload=bindparam("new_payload"))
)
_DELETE_KIND = Prepared(
    delete(_DEADLINES).where(
        _DEADLINES.c.game_id == bindparam("game_id"),
        _DEADLINES.c.kind == bindparam("kind"),
        _DEADLINES.c.fired_at.is_(None),
    )
)


# On PostgreSQL's pipeline, the kept path's changed and new kinds go in one
# statement each that waits for no answer: the pending row of the kind moved if
# there is one, else a new row unless one fired at that time already (the rest of
# the row as the insert above writes it). Sent at once, the move and the insert
# answer how many rows they wrote, and what is pending is known exactly; queued,
# nothing answers (a round trip per command saved), and ``_store_known`` counts each
# as pending: one that went in nowhere was fired at that very time, which the next
# store's writes by kind and ``kept_tables.check_kept`` allow for. A move in the
# ``WITH``, not ``INSERT ... ON CONFLICT``: an insert tried and refused would take a
# number from the ids' sequence on every action.
_MOVED = (
    update(_DEADLINES)
    .where(
        _DEADLINES.c.game_id == bindparam("game_id"),
        _DEADLINES.c.kind == bindparam("kind"),
        _DEADLINES.c.fired_at.is_(None),
    )
    .values(due_at=bindparam("due_at"), payload=bindparam("payload"))
    .returning(_DEADLINES.c.id)
    .cte("moved")
)
_MOVE_OR_ADD = Prepared(
    insert(_DEADLINES)
    .from_select(_NEW_COLUMNS, _NEW_ROW.where(~exists(select(_MOVED.c.id)), ~_FIRED_THEN))
    .add_cte(_MOVED)
)


# The pending row of a kind no longer wanted, made the row of a kind newly wanted,
# unless one of that kind fired at that time already: at the same game, under the
# same lock, what a delete of the one and the guarded insert of the other would
# leave pending, in one statement (the row keeps its id; the clock's claim reads the
# kind it fires from the row it claimed). With the kinds' pending rows one at most
# (``uq_deadlines_pending``), and the new kind not pending (``_store_known``).
_FIRED = _DEADLINES.alias("fired")  # the other rows, named apart from the row changed
_NEW_KIND_FIRED_THEN = exists().where(
    _FIRED.c.game_id == bindparam("game_id"),
    _FIRED.c.kind == bindparam("kind"),
    _FIRED.c.due_at == bindparam("due_at"),
    _FIRED.c.fired_at.is_not(None),
)
_OLD_KIND_PENDING = (
    _DEADLINES.c.game_id == bindparam("game_id"),
    _DEADLINES.c.kind == bindparam("old_kind", type_=_DEADLINES.c.kind.type),
    _DEADLINES.c.fired_at.is_(None),
)
_RETYPED = update(_DEADLINES).values(
    kind=bindparam("kind", type_=_DEADLINES.c.kind.type),
    due_at=bindparam("due_at", type_=_DEADLINES.c.due_at.type),
    payload=bindparam("payload", type_=_DEADLINES.c.payload.type),
    created_at=bindparam("created_at", type_=_DEADLINES.c.created_at.type),
)
_RETYPE = Prepared(_RETYPED.where(*_OLD_KIND_PENDING, ~_NEW_KIND_FIRED_THEN))
# On PostgreSQL's pipeline, the same in one statement that waits for no answer, as
# ``_MOVE_OR_ADD`` does for a move: the old kind's pending row made the new kind's,
# else (fired meanwhile) a new row; and if the new kind fired at that time already,
# neither, and the old kind's row deleted. The two ``WITH`` parts' conditions
# exclude each other (the same check, on the statement's one snapshot).
_GONE = (
    delete(_DEADLINES)
    .where(*_OLD_KIND_PENDING, _NEW_KIND_FIRED_THEN)
    .returning(_DEADLINES.c.id)
    .cte("gone")
)
_MADE = (
    _RETYPED.where(*_OLD_KIND_PENDING, ~_NEW_KIND_FIRED_THEN).returning(_DEADLINES.c.id).cte("made")
)
_RETYPE_OR_ADD = Prepared(
    insert(_DEADLINES)
    .from_select(_NEW_COLUMNS, _NEW_ROW.where(~exists(select(_MADE.c.id)), ~_NEW_KIND_FIRED_THEN))
    .add_cte(_GONE)
    .add_cte(_MADE)
)


def store_deadlines(
    session: Session,
    game: Game | GameRow,
    wanted: dict[DeadlineKind, Wanted],
    now: datetime,
    *,
    known: Pending | None = None,
) -> Pending | None:
    """Make the game's pending deadline rows match ``wanted``, and return what they
    are then (None: not known for sure, the next store reads them). The game's row
    must exist (its id known).

    Without ``known``: one statement to read them, and one for each kind of change
    (the usual action: a read and a move). With ``known`` (what the last store in
    this process returned, kept while the game's version stayed its own:
    ``kept_tables``): the changes only, no read; on PostgreSQL's pipeline, none of
    them waits for its answer (``_MOVE_OR_ADD``).

    What may change the rows without moving the game's version is the clock's
    firing, here or in another process: its claim marks a pending row fired (a
    deadline whose work did nothing, or was refused, saves no change), and a
    reminder's firing writes the player's next one (``store_reminder``). So ``known``
    is trusted only for what a claim cannot break: a kind it lists may have been
    fired since, and its move or delete names the pending row by kind (a fired one
    is left alone) and falls back on a new row, unless fired at that time, when
    nothing was moved; a kind it lacks has no pending row, since nothing but a store
    adds one without the version (``store_reminder`` follows the firing of a pending
    reminder). A ``known`` with a reminder is not trusted at all: it is read, as
    without one (reminders come on long clocks only, at a person's pace)."""
    if known is not None and DeadlineKind.REMINDER not in known:
        return _store_known(session, game.id, wanted, now, known)
    game_id = game.id
    stale: list[dict[str, Any]] = []
    moves: list[dict[str, Any]] = []
    pending: Pending = {}
    for row_id, kind, due_at, payload in _PENDING.rows(session, {"game_id": game_id}):
        want = wanted.get(kind)
        if want is None:
            stale.append({"row_id": row_id})
            continue
        if kind is DeadlineKind.REMINDER and same_turn(payload, want.payload):
            # The same turn: its reminder may have moved on to a later point.
            pending[kind] = Wanted(due_at, payload)
            continue
        pending[kind] = want
        if due_at != want.due_at or payload != want.payload:
            moves.append({"row_id": row_id, "new_due_at": want.due_at, "new_payload": want.payload})
    if stale:
        _DELETE.write(session, stale)
    if moves:
        _MOVE.write(session, moves)
    new = {kind: want for kind, want in wanted.items() if kind not in pending}
    return _insert_unless_fired(session, game_id, new, now, pending)


def _store_known(
    session: Session,
    game_id: int,
    wanted: dict[DeadlineKind, Wanted],
    now: datetime,
    known: Pending,
) -> Pending | None:
    pending: Pending = {}
    changed: dict[DeadlineKind, Wanted] = {}
    for kind, want in wanted.items():
        if known.get(kind) == want:
            # Unchanged. Fired meanwhile at this very time, it would not be written
            # again anyway (the guarded insert): so either way nothing to send.
            pending[kind] = want
        else:
            changed[kind] = want
    gone = [kind for kind in known if kind not in wanted]
    if gone and changed:
        gone = _retype(session, game_id, gone, changed, now, known, pending)
    if gone:
        # A row fired meanwhile is left as the clock's record: nothing pending either way.
        _DELETE_KIND.write(session, [{"game_id": game_id, "kind": kind} for kind in gone])
    if not changed:
        return pending
    if _MOVE_OR_ADD.queues(session):
        _MOVE_OR_ADD.write(session, _params(game_id, changed, now))
        pending.update(changed)
        return pending
    new: dict[DeadlineKind, Wanted] = {}
    for kind, want in changed.items():
        if kind not in known:
            new[kind] = want
        else:
            moved = _MOVE_KIND.execute(
                session,
                {
                    "game_id": game_id,
                    "kind": kind,
                    "new_due_at": want.due_at,
                    "new_payload": want.payload,
                },
            )
            if moved.rowcount == 1:
                pending[kind] = want
            else:  # fired meanwhile: a new row, as for a kind not pending
                new[kind] = want
    return _insert_unless_fired(session, game_id, new, now, pending)


def _retype(
    session: Session,
    game_id: int,
    gone: list[DeadlineKind],
    changed: dict[DeadlineKind, Wanted],
    now: datetime,
    known: Pending,
    pending: Pending,
) -> list[DeadlineKind]:
    """A pending row no longer wanted made the row of a kind newly wanted (``_RETYPE``),
    in one statement where a delete and an insert took two: at a hand's end the turn
    clock's row becomes the review's, at the deal the review's the turn clock's. What
    it made is taken out of ``changed`` and put in ``pending``; the kinds still to
    delete are returned. A row the statement did not change (fired meanwhile, or one
    of the new kind fired at that time already) is left to the delete and the
    guarded insert, as without it; on PostgreSQL's pipeline, ``_RETYPE_OR_ADD`` does
    all of it in one statement that waits for nothing."""
    new = [kind for kind in changed if kind not in known]
    left = gone[len(new) :]
    queued = _RETYPE_OR_ADD.queues(session)
    for old, kind in zip(gone, new, strict=False):
        want = changed.pop(kind)
        params = {
            "game_id": game_id,
            "old_kind": old,
            "kind": kind,
            "due_at": want.due_at,
            "payload": want.payload,
            "created_at": now,
        }
        if queued:
            # Nothing answers: counted pending, as ``_MOVE_OR_ADD`` counts its kinds.
            _RETYPE_OR_ADD.write(session, params)
            pending[kind] = want
        elif _RETYPE.execute(session, params).rowcount == 1:
            pending[kind] = want
        else:
            changed[kind] = want
            left.append(old)
    return left


def _insert_unless_fired(
    session: Session,
    game_id: int,
    new: dict[DeadlineKind, Wanted],
    now: datetime,
    pending: Pending,
) -> Pending | None:
    """Insert ``new`` unless fired at that time already; ``pending`` with what went
    in, or None if some did not and which is not known (one statement for all)."""
    if not new:
        return pending
    inserted = _INSERT_UNLESS_FIRED.execute(session, _params(game_id, new, now))
    # The drivers sum an executemany's rows (sqlite3, psycopg 3: both dialects say
    # ``supports_sane_multi_rowcount``).
    if inserted.rowcount == len(new):
        pending.update(new)
        return pending
    if len(new) == 1:
        return pending  # fired at that time already: not pending
    return None


def _params(
    game_id: int, wanted: dict[DeadlineKind, Wanted], now: datetime
) -> dict[str, Any] | list[dict[str, Any]]:
    """The parameters of the rows to write for ``wanted``: a mapping for one, a
    list for several (one executemany)."""
    rows = [
        {
            "game_id": game_id,
            "kind": kind,
            "due_at": want.due_at,
            "payload": want.payload,
            "created_at": now,
        }
        for kind, want in wanted.items()
    ]
    return rows[0] if len(rows) == 1 else rows


def store_reminder(session: Session, game: Game, want: Wanted, now: datetime) -> None:
    """Write the game's next reminder (the clock has just fired the one before, so
    none is pending): unless one at that time has fired already."""
    _INSERT_UNLESS_FIRED.write(
        session,
        {
            "game_id": game.id,
            "kind": DeadlineKind.REMINDER,
            "due_at": want.due_at,
            "payload": want.payload,
            "created_at": now,
        },
    )
