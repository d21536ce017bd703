"""Commands committed together: the players' commands that queued up in the last few
milliseconds, each down the one road (``pipeline``) in a savepoint of one
transaction, committed once.

A command's own transaction costs more than most of its work: the pool's connection,
``BEGIN IMMEDIATE`` (SQLite's writer lock) or the first round trip (PostgreSQL), the
session's proof in a read transaction of its own, and above all the commit, which
on SQLite writes and syncs the log. The stack's floor measured it
(docs/benchmarks.md, "The stack's floor"): one durable transaction per action made
930 actions/s on the sockets, the same work committed together 2,064.

Each command keeps its own outcome:

- its sender's session is proved inside the batch (``accounts.users_in``, one
  statement for the batch's senders at its start: read, never trusted from memory, as
  a write's is), then the command runs down ``pipeline``;
- a refusal of the room's rules (``ServiceError``) undoes that command only: the
  command changed nothing, and the others keep what they did (how: below);
- anything else (the database gone, a bug) leaves the batch: the caller rolls it all
  back and runs each command alone (``run_each``), so one failure costs only its own
  command.

A batch runs first without savepoints, as a command alone does: a refusal then rolls
the whole batch back and it runs again at once, each command in a savepoint of its
own, so that the refusal undoes that command's work only (``_step``). A refusal is
rare (a player's stale version, an action out of turn; a session refused by the
proof is answered without running the command, and the clock's refusals are its
deadlines' outcomes), and a savepoint and its release were two statements a command,
with on PostgreSQL a round trip of their own before the lock's read (they wait on
the pipeline, ``store.pipelined``, which any read syncs) and a lone release synced
before the commit. Set after the lock's read instead, the savepoint would have the
game's row locked by one (sub)transaction and updated by another, which PostgreSQL
records in a MultiXact, a command.

With the process's kept tables, each command on a table read its game's version
under the row's lock (``game_rows.lock_version``) to tell whether the kept table is
still the stored one. The batch locks its games' rows and reads their versions in
one statement at its start instead (``lock_versions``): on PostgreSQL one round
trip for the batch, not one that each command waits on. Same hold as before: each
row locked from the batch's start to its commit, its version read under the lock,
and the rows locked in order of game id, the committer's sort (against deadlocks
between processes). A table not kept (or kept at an older version) then reads its
whole row (``lock_game``) as it did after its version's read. Each version is good
for the first command on its game only, handed to it and dropped
(``_Locked.take``): once a command has saved the row, a later one on the game reads
the version again. The run in savepoints leaves the batch's lock out, each command
locking its own row after its savepoint as before: a row locked by the transaction
and updated in a savepoint is the MultiXact above.

Nothing is answered before the commit: the caller answers and announces the results
only after ``run_together`` returns (durable before acknowledged, as a command alone).
A command that was committed but never answered (the process died in between) is
answered again, not applied twice, when its sender retries with its idempotency key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum, auto

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from cardroom.deck import RandomSource
from cardroom.service import accounts
from cardroom.service.context import ServiceContext
from cardroom.service.errors import ServiceError
from cardroom.service.game import pipeline
from cardroom.service.game.commands import Command
from cardroom.service.game_records import PlayResult, quick_init
from cardroom.service.game_rows import lock_versions
from cardroom.service.kept_tables import KeptTables
from cardroom.service.users import UserInfo


# The batch's records fill their dicts straight (``quick_init``): a ``Queued`` and a
# ``Done`` are made for every command, the ``Queued`` on the event loop.
@quick_init
@dataclass(frozen=True)
class Queued:
    """One player's command, as it waits for the batch: whose session sent it, the
    command once the session's user is known (building it may refuse: an amount that
    is no amount), the version they saw and their idempotency key."""

    game_id: int
    token: str
    command: Callable[[int], Command]
    version: int | None = None
    key: str | None = None


@quick_init
@dataclass(frozen=True)
class Fire:
    """The room's own command on a table (the clock firing a deadline): no session to
    prove, a guard that may find nothing to do (fired elsewhere), and the moment it
    fires at, which is the clock's, not the batch's."""

    game_id: int
    command: Command
    now: datetime


@quick_init
@dataclass(frozen=True)
class Done:
    """A command's outcome: the sender (None if the session was refused, or for the
    room's own command) and either the committed result or the refusal; neither when
    a ``Fire``'s guard found nothing to do."""

    user: UserInfo | None
    result: PlayResult | None = None
    refused: ServiceError | None = None


class BatchBroken(Exception):
    """A refused command's work cannot be undone alone: the session rolled the whole
    transaction back under it (a failed flush does). The batch fails as a whole and
    its commands run alone (``run_each``), as after any failure that is no refusal."""


class _RefusedAlone(Exception):
    """A command alone was refused: its transaction is rolled back, and this is its
    outcome."""

    def __init__(self, done: Done) -> None:
        super().__init__(done.refused)
        self.done = done


class _RefusedInBatch(Exception):
    """A command of a batch run without savepoints was refused: the batch is rolled
    back, to run again with each command in a savepoint."""


class _Whole(Enum):
    """How a refused command is undone when the batch sets no savepoints: the whole
    transaction rolls back."""

    ALONE = auto()  # the command is the batch: its refusal is its outcome
    BATCH = auto()  # the batch then runs again, each command in a savepoint


# How a refusal is undone: the whole transaction (``_Whole``), or back to the
# command's savepoint on the batch's connection.
_Undo = _Whole | Connection


def run_together(
    ctx: ServiceContext, queued: Sequence[Queued | Fire], kept: KeptTables | None = None
) -> list[Done]:
    """Run ``queued`` in order in one transaction and commit; a refused command
    changes nothing and the others keep what they did (the module's docstring says
    how). Raises what is not a refusal (nothing is then committed): see
    ``run_each``. ``kept``: the caller's decoded tables; once committed, each changed
    table goes back there at its new version."""
    try:
        done = _in_one(ctx, queued, kept, _Whole.ALONE if len(queued) == 1 else _Whole.BATCH)
    except _RefusedAlone as refused:
        return [refused.done]
    except _RefusedInBatch:
        # Rolled back: what the first run took of the kept tables and changed in
        # them went with it (each table was taken out), so this run reads them.
        done = _in_one(ctx, queued, kept, None)
    if kept is not None:
        for item in done:
            after = None if item.result is None else item.result.after
            if item.result is not None and after is not None and after.kept:
                assert after.row is not None
                kept.keep(
                    item.result.game_id,
                    item.result.version,
                    after.table,
                    after.row,
                    after.deadlines,
                )
    return done


def _in_one(
    ctx: ServiceContext,
    queued: Sequence[Queued | Fire],
    kept: KeptTables | None,
    whole: _Whole | None,
) -> list[Done]:
    """``queued`` in one transaction, committed: with no savepoint (``whole``), else
    each command in a savepoint of its own."""
    source = ctx.random
    with ctx.transaction() as session:
        undo: _Undo = session.connection() if whole is None else whole
        # Every sender's session proved at once, in this transaction: one statement
        # for the batch instead of one per command.
        tokens = {item.token for item in queued if isinstance(item, Queued)}
        proofs = accounts.users_in(ctx, session, tokens) if tokens else {}
        games = () if whole is None or kept is None else _running(queued, proofs)
        locked = _Locked(session, games)
        return [
            _one(ctx, session, undo, item, proofs[item.token], source, kept, locked)
            if isinstance(item, Queued)
            else _fire(session, undo, item, source, kept, locked)
            for item in queued
        ]


def _running(
    queued: Sequence[Queued | Fire], proofs: Mapping[str, UserInfo | ServiceError]
) -> list[int]:
    """The games of the batch's commands that run (a refused session's does not),
    each once."""
    games: dict[int, None] = {}
    for item in queued:
        if isinstance(item, Queued) and isinstance(proofs[item.token], ServiceError):
            continue
        if type(item.game_id) is int:  # any other is refused by its own command
            games[item.game_id] = None
    return list(games)


class _Locked:
    """The versions of the games the batch locked at its start, each handed to the
    first command on its game and dropped: after that command, the row may be at a
    newer version than the one read (``take``)."""

    __slots__ = ("_versions",)

    def __init__(self, session: Session, games: Sequence[int]) -> None:
        self._versions = lock_versions(session, games)

    def take(self, game_id: int) -> int | None:
        """The game's version as locked at the batch's start, if no command on it has
        taken it yet; None: the command locks and reads the row itself."""
        return self._versions.pop(game_id, None)


def run_each(
    ctx: ServiceContext, queued: Sequence[Queued | Fire], kept: KeptTables | None = None
) -> list[Done | Exception]:
    """Each command in a transaction of its own: after a batch failed as a whole, so
    that only the command that fails again gets the error."""
    outcomes: list[Done | Exception] = []
    for item in queued:
        try:
            outcomes.append(run_together(ctx, [item], kept)[0])
        except Exception as failed:  # the caller answers it as a command alone would
            outcomes.append(failed)
    return outcomes


def _one(
    ctx: ServiceContext,
    session: Session,
    undo: _Undo,
    item: Queued,
    proof: UserInfo | ServiceError,
    source: RandomSource,
    kept: KeptTables | None,
    locked: _Locked,
) -> Done:
    if isinstance(proof, ServiceError):
        return Done(None, refused=proof)
    user = proof
    version = locked.take(item.game_id)
    return _step(
        session,
        undo,
        user,
        lambda: pipeline.run_in(
            session,
            item.game_id,
            item.command(user.id),
            ctx.now(),
            source,
            version=item.version,
            key=item.key,
            proven=True,  # at the batch's start, in this transaction
            kept=kept,
            locked=version,
        ),
    )


def _fire(
    session: Session,
    undo: _Undo,
    item: Fire,
    source: RandomSource,
    kept: KeptTables | None,
    locked: _Locked,
) -> Done:
    """The clock's command. The table's refusals of its work are its outcome (the
    deadline is marked fired with the sentence); one that escapes it (the game gone)
    is its own, as a player's is."""
    version = locked.take(item.game_id)
    return _step(
        session,
        undo,
        None,
        lambda: pipeline.attempt_in(
            session, item.game_id, item.command, item.now, source, kept=kept, locked=version
        ),
    )


# Each command's savepoint in a batch, set and released as plain statements on the
# batch's connection, one name reused: the newest savepoint of a name is the one a
# release or a rollback names, and each command's is the newest while it runs.
SAVEPOINT = "cardroom_command"


def _step(
    session: Session,
    undo: _Undo,
    user: UserInfo | None,
    run: Callable[[], PlayResult | None],
) -> Done:
    """One command of the batch. With no savepoint (``undo`` a ``_Whole``), a refusal
    leaves the transaction, to be rolled back whole: alone, that is the command's
    outcome; in a batch, the batch runs again (``run_together``). In a savepoint, a
    refusal rolls back its own work only.

    The savepoint is the dialect's statements on the batch's connection
    (``store.db``: sent as text; on PostgreSQL the set and the release are queued on
    the pipeline), not the session's ``begin_nested``: that costs a
    ``SessionTransaction`` and the connection's ``NestedTransaction`` each time, and
    a new connection lookup for the command's first statement, about 60 us a command
    together. What the session's nested transaction would do besides is done here:
    its pending rows are flushed before the release, and a refusal drops from the
    session whatever the command loaded or added (the session holds nothing at a
    command's start, so that is everything it holds)."""
    if isinstance(undo, _Whole):
        try:
            result = run()
        except ServiceError as refused:
            if undo is _Whole.ALONE:
                raise _RefusedAlone(Done(user, refused=refused)) from None
            raise _RefusedInBatch from None
        session.flush()  # see below
        _let_go(session)
        return Done(user, result=result)
    dialect = undo.dialect
    dialect.do_savepoint(undo, SAVEPOINT)
    try:
        result = run()
    except ServiceError as refused:
        _undo(session, undo)
        return Done(user, refused=refused)
    # What the command set on ORM rows after its save (the clock's claim writes the
    # deadline's outcome) goes before the release, as the session's own savepoint
    # would flush it, and alone before the commit.
    session.flush()
    dialect.do_release_savepoint(undo, SAVEPOINT)
    _let_go(session)
    return Done(user, result=result)


def _let_go(session: Session) -> None:
    """The next command starts from what is stored, as it would in a transaction of
    its own: nothing this one loaded is kept in the session."""
    if session.identity_map:
        session.expunge_all()


def _undo(session: Session, held: Connection) -> None:
    """Roll a refused command's work back to its savepoint and drop from the session
    what it loaded or added. The command may have left the session's transaction
    unusable (a failed flush rolls back all of it, the batch's work with it): then
    the batch fails as a whole instead."""
    root = session.get_transaction()
    if session.get_nested_transaction() is not None or root is None or not root.is_active:
        raise BatchBroken("a refused command's transaction was rolled back under it")
    held.dialect.do_rollback_to_savepoint(held, SAVEPOINT)
    session.expunge_all()
