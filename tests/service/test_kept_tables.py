"""Tables kept decoded between their commands (``cardroom.service.kept_tables``): the
next command takes the table without reading its state, a write from elsewhere is
seen by the row's version, and a refusal or a rolled-back batch keeps nothing it may
have changed in memory."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm.exc import DetachedInstanceError

from cardroom.service import accounts, chat, deadlines, game_options, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Conflict
from cardroom.service.game import commands, pipeline, reactions
from cardroom.service.game.together import Fire, Queued, run_each, run_together
from cardroom.service.game_details import game_detail
from cardroom.service.game_errors import GameNotFound, StaleVersion
from cardroom.service.game_records import PlayResult
from cardroom.service.game_rows import game_of
from cardroom.service.kept_tables import KeptGame, KeptTables, check_kept
from cardroom.store.models import Deadline, DeadlineKind, Game
from cardroom.table import table_from_dict, table_to_dict
from tests.conftest import FakeClock
from tests.service.gamekit import PASSWORD, assert_audit_clean, players, source, to_act


class Table:
    """One heads-up table and a signed-in token for each of its players."""

    def __init__(self, ctx: ServiceContext, number: int = 0) -> None:
        self.ctx = ctx
        host, guest = players(ctx, f"host{number}", f"guest{number}")
        self.game = lobby.create_game(ctx, host, game_options.GameOptions()).game_id
        lobby.join(ctx, self.game, guest)
        lobby.start(ctx, self.game, host, source=source(number))
        names = {host: f"host{number}", guest: f"guest{number}"}
        self.tokens = {
            user: accounts.sign_in(ctx, name, PASSWORD).token for user, name in names.items()
        }

    def next_call(self) -> Queued:
        """The player to act calls or checks, at the version they see."""
        turn = to_act(self.ctx, self.game)
        assert turn is not None, "between hands"
        player, legal, version = turn
        kind = "call" if "call" in legal.kinds else "check"
        return Queued(
            self.game, self.tokens[player], lambda user: commands.act(user, kind), version
        )

    @property
    def version(self) -> int:
        return game_detail(self.ctx, self.game).summary.version


@pytest.fixture
def statements(db: Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(db, "before_cursor_execute", record)
    yield seen
    event.remove(db, "before_cursor_execute", record)


@pytest.fixture
def unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite compares every kept table taken with the stored one (an extra read):
    these tests count statements, so they check by hand."""
    monkeypatch.setenv("CARDROOM_CHECK_KEPT_TABLES", "0")


def _reads_state(statement: str) -> bool:
    return "games.state" in statement and statement.lstrip().upper().startswith("SELECT")


def test_the_next_command_takes_the_kept_table_and_reads_no_state(
    ctx: ServiceContext, statements: list[str], unchecked: None
) -> None:
    table, kept = Table(ctx), KeptTables()
    first = run_together(ctx, [table.next_call()], kept)[0]
    assert first.result is not None and len(kept) == 1
    assert (kept.hits, kept.misses) == (0, 1)  # the first command read the state
    call = table.next_call()
    statements.clear()
    second = run_together(ctx, [call], kept)[0]
    assert second.result is not None and second.result.version == first.result.version + 1
    assert (kept.hits, kept.misses) == (1, 1)
    assert not any(_reads_state(s) for s in statements), statements
    assert any(s.lstrip().startswith("UPDATE games SET") for s in statements)
    with ctx.transaction() as session:
        taken = kept.at(table.game, second.result.version)
        assert taken is not None
        check_kept(session, table.game, taken)  # the same as the stored table, decoded
    assert_audit_clean(ctx)


def test_a_write_from_elsewhere_is_seen_by_the_version(ctx: ServiceContext) -> None:
    """The player to act acts over HTTP (``pipeline.run``, not the committer): the
    kept table is older than the row, so the next command reads the table and sees
    that action; it is applied on top of it, never in its place."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    turn = to_act(ctx, table.game)
    assert turn is not None
    elsewhere = play.act(ctx, table.game, turn[0], "call" if "call" in turn[1].kinds else "check")
    misses = kept.misses
    after = run_together(ctx, [table.next_call()], kept)[0]
    assert after.result is not None and after.result.version == elsewhere.version + 1
    assert kept.misses == misses + 1
    with ctx.transaction() as session:
        taken = kept.at(table.game, after.result.version)
        assert taken is not None
        check_kept(session, table.game, taken)
    assert_audit_clean(ctx)


def test_a_refused_command_leaves_nothing_kept(ctx: ServiceContext) -> None:
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    stale = table.next_call()
    stale = Queued(stale.game_id, stale.token, stale.command, (stale.version or 0) - 1)
    refused = run_together(ctx, [stale], kept)[0]
    assert isinstance(refused.refused, StaleVersion)
    assert len(kept) == 0  # taken by the refused command, never given back
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    assert len(kept) == 1


def test_a_batch_rolled_back_keeps_nothing_it_changed(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first table's command changed its kept table in memory before the second
    failed: the batch rolled back, so that table is not kept; each command then runs
    alone from the stored table, once."""
    a, b, kept = Table(ctx, 0), Table(ctx, 1), KeptTables()
    assert run_together(ctx, [a.next_call(), b.next_call()], kept)[0].result is not None
    assert len(kept) == 2
    va, vb = a.version, b.version
    real = pipeline.run_in

    def broken_at_b(*args: Any, **kwargs: Any) -> Any:
        if args[1] == b.game:
            raise ZeroDivisionError("a bug")
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "run_in", broken_at_b)
    batch = [a.next_call(), b.next_call()]
    with pytest.raises(ZeroDivisionError):
        run_together(ctx, batch, kept)
    assert (a.version, b.version) == (va, vb)
    assert kept.at(a.game, va) is None  # changed in memory, rolled back: gone
    monkeypatch.setattr(pipeline, "run_in", real)
    alone = run_each(ctx, batch, kept)
    assert all(not isinstance(o, Exception) for o in alone)
    assert (a.version, b.version) == (va + 1, vb + 1)
    with ctx.transaction() as session:
        for t in (a, b):
            taken = kept.at(t.game, t.version)
            assert taken is not None
            check_kept(session, t.game, taken)
    assert_audit_clean(ctx)


def test_a_batch_run_again_after_a_refusal_reads_what_its_first_run_took(
    ctx: ServiceContext,
) -> None:
    """A batch runs without savepoints first: the refusal of its second command
    rolls it back, after the first command took its kept table and changed it in
    memory. The batch's second run reads both tables from the database, and keeps
    the one it committed, as committed (the suite compares each table taken with
    the stored one: the next batch takes it)."""
    a, b, kept = Table(ctx, 0), Table(ctx, 1), KeptTables()
    assert all(d.result for d in run_together(ctx, [a.next_call(), b.next_call()], kept))
    assert kept.checked and (kept.hits, kept.misses) == (0, 2)
    va = a.version
    stale = b.next_call()
    stale = Queued(stale.game_id, stale.token, stale.command, (stale.version or 0) - 1)
    done = run_together(ctx, [a.next_call(), stale], kept)
    assert done[0].result is not None and isinstance(done[1].refused, StaleVersion)
    assert (kept.hits, kept.misses) == (2, 4)  # taken by the first run, read by the second
    assert a.version == va + 1 and len(kept) == 1  # a's, as committed; b's taken
    assert all(d.result for d in run_together(ctx, [a.next_call(), b.next_call()], kept))
    assert (kept.hits, kept.misses) == (3, 5)
    assert_audit_clean(ctx)


def test_the_oldest_table_goes_first_past_the_limit(ctx: ServiceContext) -> None:
    kept = KeptTables(limit=2)
    tables = [Table(ctx, n) for n in range(3)]
    for t in tables:
        assert run_together(ctx, [t.next_call()], kept)[0].result is not None
    assert len(kept) == 2
    assert kept.at(tables[0].game, tables[0].version) is None
    assert kept.at(tables[2].game, tables[2].version) is not None


def test_a_kept_table_that_differs_from_the_stored_one_is_caught(ctx: ServiceContext) -> None:
    """The suite's check (``CARDROOM_CHECK_KEPT_TABLES``) is real: a kept table that
    is not the stored one fails it."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    taken = kept.at(table.game, table.version)
    assert taken is not None
    wrong = table_from_dict(table_to_dict(taken.table))
    wrong.held = not wrong.held
    with ctx.transaction() as session, pytest.raises(AssertionError, match="not the stored"):
        check_kept(session, table.game, dataclasses.replace(taken, table=wrong))


# ------------------------------------------------- the row and deadlines kept with it


def _deadline_rows(ctx: ServiceContext, game_id: int) -> list[tuple[Any, ...]]:
    with ctx.transaction() as session:
        return [
            tuple(row)
            for row in session.execute(
                select(Deadline.id, Deadline.kind, Deadline.due_at, Deadline.fired_at)
                .where(Deadline.game_id == game_id)
                .order_by(Deadline.id)
            )
        ]


def _taking(kept: KeptTables, monkeypatch: pytest.MonkeyPatch) -> list[KeptGame]:
    """What each command takes from ``kept``, as it was handed over."""
    taken: list[KeptGame] = []
    real = kept.at

    def at(game_id: int, version: int) -> KeptGame | None:
        found = real(game_id, version)
        if found is not None:
            taken.append(found)
        return found

    monkeypatch.setattr(kept, "at", at)
    return taken


def test_the_next_command_reads_the_version_only_and_no_deadlines(
    ctx: ServiceContext, clock: FakeClock, statements: list[str], unchecked: None
) -> None:
    """At the kept version the row's columns and the pending deadlines are the ones
    kept: one statement reads the version under the lock, and the turn's deadline is
    moved without being read."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    clock.advance(timedelta(seconds=5))  # the next turn's clock ends later
    call = table.next_call()
    statements.clear()
    assert run_together(ctx, [call], kept)[0].result is not None
    assert kept.hits == 1
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    on_games = [s for s in reads if "FROM games" in s]
    # The batch's lock of its games (``game_rows.lock_versions``): id and version.
    assert len(on_games) == 1 and on_games[0].split("FROM")[0].split() == [
        "SELECT",
        "games.id,",
        "games.version",
    ], on_games
    assert not any("FROM deadlines" in s for s in reads), reads
    assert any(s.lstrip().startswith("UPDATE deadlines SET") for s in statements), statements
    with ctx.transaction() as session:
        taken = kept.at(table.game, table.version)
        assert taken is not None and taken.deadlines is not None
        assert DeadlineKind.TURN in taken.deadlines
        check_kept(session, table.game, taken)  # row and deadlines as stored


def test_a_write_from_elsewhere_drops_the_kept_row_and_deadlines(
    ctx: ServiceContext, statements: list[str], unchecked: None
) -> None:
    """An HTTP command (``pipeline.run`` on a worker thread) moves the version and
    the turn's deadline: the next command here reads the row and the deadlines
    afresh, and what it keeps then is the stored row and deadlines again."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    turn = to_act(ctx, table.game)
    assert turn is not None
    play.act(ctx, table.game, turn[0], "call" if "call" in turn[1].kinds else "check")
    call = table.next_call()
    statements.clear()
    assert run_together(ctx, [call], kept)[0].result is not None
    assert (kept.hits, kept.misses) == (0, 2)
    assert any(_reads_state(s) for s in statements), statements
    assert any(s.lstrip().startswith("SELECT") and "FROM deadlines" in s for s in statements)
    with ctx.transaction() as session:
        taken = kept.at(table.game, table.version)
        assert taken is not None and taken.row["version"] == table.version
        check_kept(session, table.game, taken)


def test_a_refused_command_leaves_the_kept_copy_as_committed(
    ctx: ServiceContext, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused after its save and its deadlines' move (the notices step fails with
    a refusal): the command changed its ``Game`` and its deadlines, but those were
    its own copies; what it took is still the committed row and deadlines."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    version, before = table.version, _deadline_rows(ctx, table.game)
    taken = _taking(kept, monkeypatch)

    def refused(*_: Any, **__: Any) -> None:
        raise Conflict("Someone else changed this at the same moment.")

    monkeypatch.setattr(reactions, "_record_notices", refused)
    clock.advance(timedelta(seconds=5))  # the turn's deadline moves, then is undone
    done = run_together(ctx, [table.next_call()], kept)[0]
    assert isinstance(done.refused, Conflict)
    assert table.version == version and _deadline_rows(ctx, table.game) == before
    (copy,) = taken
    assert copy.row["version"] == version and copy.deadlines is not None
    with ctx.transaction() as session:
        # The table was the command's to change (taken, never given back: see
        # test_a_refused_command_leaves_nothing_kept); the row and the deadlines it
        # took were not.
        stored = table_from_dict(session.get_one(Game, table.game).state)
        check_kept(session, table.game, dataclasses.replace(copy, table=stored))
    monkeypatch.undo()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None


def test_a_deadline_fired_elsewhere_without_the_version_is_left_fired(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    """Another process's clock claimed the turn's deadline and its work changed
    nothing (no version moved). The next command here takes its kept deadlines,
    which still list the turn as pending: its move finds no pending row, so the
    fired one stays the clock's record, as fired, and the new turn gets a row."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    now = ctx.now()
    with ctx.transaction() as session:
        session.execute(
            update(Deadline)
            .where(Deadline.game_id == table.game, Deadline.kind == DeadlineKind.TURN)
            .where(Deadline.fired_at.is_(None))
            .values(fired_at=now, claimed_by="elsewhere", outcome="nothing to do")
        )
    (fired,) = [r for r in _deadline_rows(ctx, table.game) if r[3] is not None]
    clock.advance(timedelta(seconds=5))  # the next turn's clock ends later
    hits = kept.hits
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    assert kept.hits == hits + 1  # taken: the version did not move
    rows = _deadline_rows(ctx, table.game)
    assert fired in rows  # untouched: its time, and fired
    turns = [r for r in rows if r[1] is DeadlineKind.TURN and r[3] is None]
    assert len(turns) == 1 and turns[0][2] != fired[2]
    with ctx.transaction() as session:
        taken = kept.at(table.game, table.version)
        assert taken is not None
        check_kept(session, table.game, taken)


def test_the_clock_here_claims_its_deadline_out_of_the_kept_ones(
    ctx: ServiceContext, clock: FakeClock, statements: list[str], unchecked: None
) -> None:
    """The turn's clock fires on the committer: the claim takes the turn out of what
    the command knows is pending, so the new turn's row is inserted without first
    trying to move the one just fired."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    clock.advance(timedelta(minutes=10))  # past the turn clock

    def on_committer(commands: Any) -> list[PlayResult | None]:
        statements.clear()
        done = run_together(ctx, [Fire(g, c, at) for g, c, at in commands], kept)
        return [d.result for d in done]

    (outcome,) = deadlines.fire_due(ctx, attempts=on_committer)
    assert outcome.result.events and kept.hits == 1
    moves = [s for s in statements if s.lstrip().startswith("UPDATE deadlines SET due_at")]
    assert moves == [], statements
    assert any(s.lstrip().startswith("INSERT INTO deadlines") for s in statements)
    with ctx.transaction() as session:
        taken = kept.at(table.game, table.version)
        assert taken is not None and taken.deadlines is not None
        check_kept(session, table.game, taken)
    pending = [r for r in _deadline_rows(ctx, table.game) if r[3] is None]
    assert {r[1] for r in pending} == set(taken.deadlines)


def test_the_chat_switch_is_not_kept(ctx: ServiceContext) -> None:
    """The host turns the chat off between two commands: the version does not move
    (a command never reads ``chat_on``), so the next command takes the kept row,
    which has no ``chat_on`` to be wrong about; read there, it fails."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    host = next(iter(table.tokens))
    chat.switch(ctx, host, table.game, False)
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None
    assert kept.hits == 1  # taken, and the suite's check found it the stored one
    taken = kept.at(table.game, table.version)
    assert taken is not None and "chat_on" not in taken.row
    with pytest.raises(DetachedInstanceError):
        _ = game_of(taken.row).chat_on


def _reads_versions(statement: str) -> bool:
    """A read of games' versions under their lock: one game's (``lock_version``) or
    a batch's (``lock_versions``)."""
    columns = statement.split("FROM")[0].split()
    return "FROM games" in statement and columns in (
        ["SELECT", "games.version"],
        ["SELECT", "games.id,", "games.version"],
    )


def test_a_batch_locks_its_kept_games_versions_in_one_statement(
    ctx: ServiceContext, statements: list[str], unchecked: None
) -> None:
    """Three kept tables in one batch: their rows are locked and their versions read
    by one statement at the batch's start, not one a command; each command then takes
    its kept table at that version, reading no state."""
    tables = [Table(ctx, number) for number in range(3)]
    kept = KeptTables()
    setup = run_together(ctx, [t.next_call() for t in tables], kept)
    assert all(d.result is not None for d in setup) and len(kept) == 3
    calls = [t.next_call() for t in tables]
    statements.clear()
    done = run_together(ctx, calls, kept)
    assert [d.result.version if d.result else None for d in done] == [
        (c.version or 0) + 1 for c in calls
    ]
    assert kept.hits == 3
    versions = [s for s in statements if _reads_versions(s)]
    assert len(versions) == 1 and " IN (" in versions[0], versions
    assert not any(_reads_state(s) for s in statements), statements
    with ctx.transaction() as session:
        for table, after in zip(tables, done, strict=True):
            assert after.result is not None
            taken = kept.at(table.game, after.result.version)
            assert taken is not None
            check_kept(session, table.game, taken)
    assert_audit_clean(ctx)


def test_a_game_not_kept_is_locked_with_the_batch_and_reads_its_row(
    ctx: ServiceContext, statements: list[str], unchecked: None
) -> None:
    """A game not kept is locked by the batch's statement with the others, in order
    of game id, and its command then reads the whole row, as after its own version's
    read before; a game that is not there is refused as before."""
    first, missed, last = (Table(ctx, number) for number in range(3))
    kept = KeptTables()
    setup = run_together(ctx, [first.next_call(), last.next_call()], kept)
    assert all(d.result is not None for d in setup)
    calls = [first.next_call(), missed.next_call(), last.next_call()]
    nowhere = Queued(last.game + 100, calls[2].token, calls[2].command, 1)
    statements.clear()
    done = run_together(ctx, [*calls, nowhere], kept)
    assert all(d.result is not None for d in done[:3])
    assert isinstance(done[3].refused, GameNotFound)
    assert str(done[3].refused) == f"There is no game {last.game + 100}."
    on_games = [s for s in statements if s.lstrip().startswith("SELECT") and "FROM games" in s]
    shapes = [s.split("FROM")[0].split()[1:3] for s in on_games]
    # The refusal rolls the first run back; the batch runs again, each command in a
    # savepoint locking its own row.
    assert shapes[:3] == [
        ["games.id,", "games.version"],  # the batch's lock: its four games at once
        ["games.id,", "games.host_id,"],  # `missed`: its whole row, as before
        ["games.version"],  # the game that is not there: its own lock finds none
    ], on_games
    assert on_games[0].count("?") + on_games[0].count("%(") == 4, on_games[0]
    assert sum(shape == ["games.id,", "games.version"] for shape in shapes) == 1


def test_a_second_command_on_a_game_in_the_batch_reads_the_version_again(
    ctx: ServiceContext, db: Engine, monkeypatch: pytest.MonkeyPatch, unchecked: None
) -> None:
    """The version the batch read at its start is good for the first command on the
    game only: the second, in the same transaction, must not take a kept table at
    that version once the first has saved the row. Here the kept copy at the old
    version is still there when the second command starts (``at`` leaves a copy of
    what it took, as a keeping that lasted until the commit would): the second
    command reads the version again and does not take it, so the batch runs once,
    with no refusal."""
    table, kept = Table(ctx), KeptTables()
    assert run_together(ctx, [table.next_call()], kept)[0].result is not None  # the call
    take = kept.at

    def take_and_leave_a_copy(game_id: int, version: int) -> KeptGame | None:
        taken = take(game_id, version)
        if taken is not None:
            copy = table_from_dict(json.loads(json.dumps(table_to_dict(taken.table))))
            kept.keep(game_id, taken.version, copy, taken.row, taken.deadlines)
        return taken

    monkeypatch.setattr(kept, "at", take_and_leave_a_copy)
    turn = to_act(ctx, table.game)
    assert turn is not None and "check" in turn[1].kinds
    player, _, version = turn
    # The big blind checks the small blind's call, then acts first on the flop
    # (heads-up) and checks again, at the version the first check left.
    first, second = (
        Queued(table.game, table.tokens[player], lambda user: commands.act(user, "check"), saw)
        for saw in (version, version + 1)
    )
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(db, "before_cursor_execute", record)
    try:
        done = run_together(ctx, [first, second], kept)
    finally:
        event.remove(db, "before_cursor_execute", record)
    assert [d.result.version if d.result else d.refused for d in done] == [
        version + 1,
        version + 2,
    ]
    assert not any("SAVEPOINT" in s for s in seen), seen  # no refusal, no second run
    with ctx.transaction() as session:
        taken = kept.at(table.game, version + 2)
        assert taken is not None
        check_kept(session, table.game, taken)
    assert_audit_clean(ctx)
