"""The clock: run the deadlines that are due, each exactly once.

Every game keeps its deadlines as rows (``cardroom.service.schedule`` writes them
after each change). ``fire_due`` takes the due ones in time order and fires each in
its own transaction (in a server, on the process's committer, in its batch's
transaction with the players' commands queued beside it: ``cardroom.web.committer``):

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from sqlalchemy import select

from cardroom.deck import RandomSource
from cardroom.service.context import ServiceContext, worker_name
from cardroom.service.game import clock_commands, pipeline
from cardroom.service.game.commands import Command
from cardroom.service.game_records import PlayResult
from cardroom.store.db import reading
from cardroom.store.models import Deadline, DeadlineKind

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


# What fires the due deadlines' commands, in order, and returns each one's result (None:
# its guard found nothing to do, it was fired elsewhere). By default each in a
# transaction of its own; a server's committer (``cardroom.web.committer``) runs them
# with the players' commands, so a table's commands all go one way.
Attempts = Callable[[Sequence[tuple[int, Command, datetime]]], Sequence[PlayResult | None]]


def fire_due(
    ctx: ServiceContext,
    now: datetime | None = None,
    *,
    worker: str | None = None,
    limit: int = FIRE_BATCH_DEFAULT,
    source: RandomSource | None = None,
    attempts: Attempts | None = None,
) -> list[Fired]:
    """Fire every deadline due at ``now`` (default: the context's clock), oldest
    first, at most ``limit``; return what each did. Safe to call from several
    threads or processes at once: each deadline fires once. ``attempts``: what runs
    the deadlines' commands (by default each in a transaction of its own)."""
    moment = ctx.now() if now is None else now
    me = worker_name() if worker is None else worker[:100]
    with reading(), ctx.transaction() as session:
        due = session.execute(
            select(Deadline.id, Deadline.game_id)
            .where(Deadline.fired_at.is_(None), Deadline.due_at <= moment)
            .order_by(Deadline.due_at, Deadline.id)
            .limit(limit)
        ).all()
    claims = [
        (game_id, clock_commands.Claim(deadline_id, moment, me)) for deadline_id, game_id in due
    ]
    commands = [(game_id, clock_commands.fire(claim), moment) for game_id, claim in claims]
    run = attempts if attempts is not None else partial(_each_alone, ctx, source)
    fired: list[Fired] = []
    for (game_id, claim), result in zip(claims, run(commands), strict=True):
        if result is None:
            continue
        assert claim.kind is not None and claim.due_at is not None
        fired.append(
            Fired(claim.deadline_id, game_id, claim.kind, claim.due_at, claim.outcome, result)
        )
    return fired


def _each_alone(
    ctx: ServiceContext,
    source: RandomSource | None,
    commands: Sequence[tuple[int, Command, datetime]],
) -> list[PlayResult | None]:
    return [
        pipeline.attempt(ctx, game_id, command, source=source, now=now)
        for game_id, command, now in commands
    ]
