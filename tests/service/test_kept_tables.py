"""Tables kept decoded between their commands (``cardroom.service.kept_tables``): the
next command takes the table without reading its state, a write from elsewhere is
seen by the row's version, and a refusal or a rolled-back batch keeps nothing it may
have changed in memory."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Engine

from cardroom.service import accounts, game_options, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game import commands, pipeline
from cardroom.service.game.together import Queued, run_each, run_together
from cardroom.service.game_details import game_detail
from cardroom.service.game_errors import StaleVersion
from cardroom.service.kept_tables import KeptTables, check_kept
from cardroom.table import table_from_dict, table_to_dict
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
