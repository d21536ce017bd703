"""The clock: run the deadlines that are due, each exactly once.

Every game keeps its deadlines as rows (``cardroom.service.schedule`` writes them
after each change). ``fire_due`` takes the due ones in time order and fires each in
its own transaction:

1. lock the game's row (the same lock every command on the game takes);
2. claim the deadline: ``UPDATE deadlines SET fired_at = now, claimed_by = me
   WHERE id = ? AND fired_at IS NULL AND due_at <= now``; zero rows means another
   process fired it, or a player's move took it away, and there is nothing to do;
3. do what it says through the same table commands a player's request uses (the
   turn clock checks or folds, the review ends and a hand is dealt, a waiting game
   is cancelled and refunded, a blind level is announced), and save.

The claim and the work commit together, so a crash in between leaves the deadline
unfired for the next run, and two processes never both fire it. A deadline whose
work the table refuses (say, the table was paused meanwhile) is still marked fired,
with the refusal as its outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update

from cardroom.deck import RandomSource
from cardroom.service.bots import act_for_bot
from cardroom.service.context import ServiceContext, worker_name
from cardroom.service.errors import ServiceError
from cardroom.service.game.commands import cancel_table
from cardroom.service.game_records import PlayResult
from cardroom.service.game_tx import GameTx
from cardroom.service.schedule import CANCEL_WAITING_AFTER
from cardroom.store.db import reading
from cardroom.store.models import REASON_MAX_LENGTH, Deadline, DeadlineKind
from cardroom.table import TableStatus

FIRE_BATCH_DEFAULT = 100


@dataclass(frozen=True)
class Fired:
    deadline_id: int
    game_id: int
    kind: DeadlineKind
    due_at: datetime
    outcome: str  # what was done, or the sentence of the table's refusal
    result: PlayResult  # the game's version and the events the deadline added


def next_due(ctx: ServiceContext) -> datetime | None:
    """When the earliest pending deadline is due: how long a scheduler may sleep."""
    with reading(), ctx.transaction() as session:
        return session.scalar(
            select(Deadline.due_at)
            .where(Deadline.fired_at.is_(None))
            .order_by(Deadline.due_at)
            .limit(1)
        )


def fire_due(
    ctx: ServiceContext,
    now: datetime | None = None,
    *,
    worker: str | None = None,
    limit: int = FIRE_BATCH_DEFAULT,
    source: RandomSource | None = None,
) -> list[Fired]:
    """Fire every deadline due at ``now`` (default: the context's clock), oldest
    first, at most ``limit``; return what each did. Safe to call from several
    threads or processes at once: each deadline fires once."""
    moment = ctx.now() if now is None else now
    me = worker_name() if worker is None else worker[:100]
    with reading(), ctx.transaction() as session:
        due = session.execute(
            select(Deadline.id, Deadline.game_id)
            .where(Deadline.fired_at.is_(None), Deadline.due_at <= moment)
            .order_by(Deadline.due_at, Deadline.id)
            .limit(limit)
        ).all()
    fired: list[Fired] = []
    for deadline_id, game_id in due:
        done = _fire_one(ctx, deadline_id, game_id, moment, me, source)
        if done is not None:
            fired.append(done)
    return fired


def _fire_one(
    ctx: ServiceContext,
    deadline_id: int,
    game_id: int,
    now: datetime,
    worker: str,
    source: RandomSource | None,
) -> Fired | None:
    with ctx.transaction() as session:
        tx = GameTx.open(session, game_id, now)
        claimed = session.execute(
            update(Deadline)
            .where(
                Deadline.id == deadline_id,
                Deadline.fired_at.is_(None),
                Deadline.due_at <= now,
            )
            .values(fired_at=now, claimed_by=worker)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return None
        deadline = session.get(Deadline, deadline_id, populate_existing=True)
        assert deadline is not None
        try:
            with session.begin_nested():
                outcome = _HANDLERS[deadline.kind](tx, deadline, source)
                tx.save()
        except ServiceError as refused:
            outcome = refused.sentence
            # The savepoint undid the work: report the game as it still is.
            tx.reread()
            tx.stored.clear()
            tx.notices.clear()
        deadline.outcome = outcome[:REASON_MAX_LENGTH]
        return Fired(
            deadline_id,
            game_id,
            deadline.kind,
            deadline.due_at,
            deadline.outcome,
            tx.result(),
        )


def _turn(tx: GameTx, deadline: Deadline, source: RandomSource | None) -> str:
    table = tx.table
    if not table.hand_running:
        return "No hand is being played."
    if deadline.payload.get("bot") is not None:  # a practice bot's turn: it acts
        return act_for_bot(tx, source)
    deadline_t = table.turn_deadline()
    # The clock acts at its time even when fired a moment late (or when the float
    # arithmetic of table time lands a hair before it).
    moment = tx.t if deadline_t is None else max(tx.t, deadline_t)
    tx.run(lambda: table.time_out(moment))
    tx.deal_if_due(source)
    return "The clock acted for the player to act."


def _continue(tx: GameTx, deadline: Deadline, source: RandomSource | None) -> str:
    table = tx.table
    if table.status is not TableStatus.PLAYING or table.hand_running or table.held:
        return "No hand is due."
    played = table.hands_dealt
    tx.deal(source)
    return "The next hand was dealt." if table.hands_dealt > played else "Nobody could be dealt in."


def _cancel_waiting(tx: GameTx, deadline: Deadline, source: RandomSource | None) -> str:
    if tx.table.status is not TableStatus.WAITING:
        return "The game is no longer waiting."
    if tx.now < tx.game.last_activity_at + CANCEL_WAITING_AFTER:
        return "The game has seen activity since."
    cancel_table(tx, "72 hours without activity")
    return "Cancelled after 72 hours without activity; every buy-in refunded."


def _blind_level(tx: GameTx, deadline: Deadline, source: RandomSource | None) -> str:
    payload = deadline.payload
    tx.note(
        "BlindLevelReached",
        {
            "level": payload["level"],
            "small_blind": payload["small_blind"],
            "big_blind": payload["big_blind"],
        },
    )
    return f"Blind level {payload['level']} from the next hand."


_HANDLERS: dict[DeadlineKind, Callable[[GameTx, Deadline, RandomSource | None], str]] = {
    DeadlineKind.TURN: _turn,
    DeadlineKind.CONTINUE: _continue,
    DeadlineKind.CANCEL_WAITING: _cancel_waiting,
    DeadlineKind.BLIND_LEVEL: _blind_level,
}
