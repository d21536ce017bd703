"""A game's row goes through Core, not the ORM's unit of work (``game_tx.lock_game``
and ``write_game``), on both databases: what a usual action sends, the row's columns
after every kind of command, refusals that leave it as it was, and commands on one
game that wait for each other under its lock."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, func, inspect, select
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.exc import DetachedInstanceError

from cardroom.service import deadlines, game_rows, game_tx, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Conflict
from cardroom.service.game import reactions
from cardroom.service.game_errors import NotYourTurn, StaleVersion
from cardroom.service.game_options import GameOptions
from cardroom.service.game_records import GameRow, PlayResult
from cardroom.service.game_tx import GameTx
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Game, GameEvent, GameStatus, HandRecord
from tests.conftest import FakeClock, Unchanged
from tests.service.gamekit import (
    everyone_continues,
    heads_up,
    passive,
    play_hand,
    players,
    shove,
    source,
    to_act,
)

# What ``write_game`` sets: every column a command may change, on every command.
WRITTEN = [
    "version",
    "state",
    "status",
    "started_at",
    "ended_at",
    "last_activity_at",
    "last_seq",
    "hand_id",
]
# What a usual command's UPDATE sets (a bet, a Continue): the status, the start, the
# end and the running hand's id stay as they were, and are left out.
PLAYED = [column for column in WRITTEN if column not in game_rows.SELDOM_CHANGED]


@contextmanager
def statements(ctx: ServiceContext) -> Iterator[list[str]]:
    """Every statement sent while the block runs, whitespace folded."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        sent.append(" ".join(sql.split()))

    event.listen(ctx.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(ctx.engine, "before_cursor_execute", record)


def verbs(sent: list[str]) -> list[str]:
    return [" ".join(sql.split()[:3]) for sql in sent]


def the_row(ctx: ServiceContext, game_id: int) -> dict[str, Any]:
    """The row's columns a command writes, but ``state``."""
    with make_sessionmaker(ctx.engine)() as session:
        found = session.execute(
            select(
                Game.version,
                Game.last_seq,
                Game.status,
                Game.started_at,
                Game.ended_at,
                Game.last_activity_at,
                Game.hand_id,
            ).where(Game.id == game_id)
        ).one()
        return dict(found._mapping)


def check_row(ctx: ServiceContext, game_id: int, result: PlayResult, **expected: Any) -> None:
    """The row after ``result``'s command: its version and last event number are the
    command's and the log's, its hand the game's latest, and ``expected``."""
    with make_sessionmaker(ctx.engine)() as session:
        last_seq, last_version = session.execute(
            select(func.max(GameEvent.seq), func.max(GameEvent.version)).where(
                GameEvent.game_id == game_id
            )
        ).one()
        latest_hand = session.scalar(
            select(HandRecord.id)
            .where(HandRecord.game_id == game_id)
            .order_by(HandRecord.number.desc())
            .limit(1)
        )
    row = the_row(ctx, game_id)
    assert row["version"] == result.version == last_version
    assert row["last_seq"] == last_seq == result.events[-1].seq
    assert row["hand_id"] == latest_hand
    assert {name: row[name] for name in expected} == expected


def test_a_usual_action_reads_and_writes_the_games_row_once(ctx: ServiceContext) -> None:
    game, _, _ = heads_up(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    with statements(ctx) as sent:
        play.act(ctx, game, player, passive(legal)[0], expected_version=version)
    body = sent
    if ctx.engine.dialect.name == "sqlite":  # its own transaction statements
        assert (sent[0], sent[-1]) == ("BEGIN IMMEDIATE", "COMMIT"), sent
        body = sent[1:-1]
    else:  # psycopg begins and commits without a statement
        assert sent[0].endswith("FOR UPDATE"), sent[0]
    assert verbs(body) == [
        "SELECT games.id, games.host_id,",  # the row, locked
        "INSERT INTO game_events",  # the action's events, one INSERT of them all
        "UPDATE games SET",  # the row written back
        "SELECT deadlines.id, deadlines.kind,",  # the pending deadlines
        "UPDATE deadlines SET",  # the turn moves to the next player
        # the next player's turn, their settings read in it (PostgreSQL: the insert
        # in a WITH beside the supersede of their older unread one)
        "INSERT INTO notices" if ctx.engine.dialect.name == "sqlite" else "WITH recorded AS",
    ], body
    # One statement built once, the same for every usual command: every column a
    # command may change but the seldom changed ones, which stayed as they were
    # (``game_rows.SELDOM_CHANGED``), not the ORM's choice of the changed ones.
    update = body[2]
    assert all(f"{column}=" in update for column in PLAYED), update
    assert not any(f"{column}=" in update for column in game_rows.SELDOM_CHANGED), update


def test_the_seldom_changed_columns_are_written_when_they_move(ctx: ServiceContext) -> None:
    """A save leaves the status, the start, the end and the hand's id out of its UPDATE
    only while they are what the row holds: as read, then as the last save of the
    same transaction wrote them."""
    game, _, _ = heads_up(ctx)
    before = the_row(ctx, game)
    assert before["status"] is GameStatus.RUNNING
    sets: list[bool] = []
    with ctx.transaction() as session, statements(ctx) as sent:
        tx = GameTx.open(session, game, ctx.now())
        for held in (False, True, True, False, False):
            tx.table.held = held  # the host's pause: the status moves to PAUSED and back
            tx.touch()
            tx.save()
            (update,) = [sql for sql in sent if sql.startswith("UPDATE games SET")]
            sets.append("status=" in update)
            sent.clear()
            if held:
                # Read in the transaction: what the save wrote.
                loaded = session.get(Game, game, populate_existing=True)
                assert loaded is not None and loaded.status is GameStatus.PAUSED
    assert sets == [False, True, False, True, False]
    after = the_row(ctx, game)
    assert after["version"] == before["version"] + 5
    assert {k: after[k] for k in ("status", "started_at", "ended_at", "hand_id")} == {
        k: before[k] for k in ("status", "started_at", "ended_at", "hand_id")
    }


def test_a_deal_with_money_to_move_writes_the_games_row_once(ctx: ServiceContext) -> None:
    # At a per-hand table a deal moves each player's buy-in through the ledger, whose
    # reads autoflushed the game's row early (with the new hand's id) when the unit of
    # work held it: a second UPDATE of the row in the same command.
    alice, bob = players(ctx, "alice", "bob")
    options = GameOptions(preset="standard", seats=2, buy_in=10_00)
    game = lobby.create_game(ctx, alice, options).game_id
    with statements(ctx) as sent:
        full = lobby.join(ctx, game, bob, source=source())  # full: starts and deals
    assert "HandBoughtIn" in [e.kind for e in full.events]
    said = verbs(sent)
    assert said.count("INSERT INTO ledger_transfers") >= 2
    assert said.count("UPDATE games SET") == 1, said
    check_row(ctx, game, full, status=GameStatus.RUNNING)


def test_a_command_keeps_the_games_row_out_of_the_unit_of_work(ctx: ServiceContext) -> None:
    game, _, _ = heads_up(ctx)
    version = the_row(ctx, game)["version"]
    with ctx.transaction() as session:
        tx = GameTx.open(session, game, ctx.now())
        assert tx.game not in session
        tx.touch()
        tx.save()
        assert tx.game not in session and not session.dirty and not session.new
        # A load later in the transaction reads what the save wrote.
        loaded = session.get(Game, game)
        assert loaded is not None and loaded is not tx.game
        assert loaded.version == tx.game.version == version + 1
    assert the_row(ctx, game)["version"] == version + 1


def test_a_new_game_is_inserted_and_then_written_once(ctx: ServiceContext) -> None:
    (alice,) = players(ctx, "alice")
    with statements(ctx) as sent:
        created = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00))
    said = verbs(sent)
    # The INSERT through the ORM, then the save's one UPDATE (the row left the unit
    # of work, which would otherwise write the save's changes a second time).
    assert (said.count("INSERT INTO games"), said.count("UPDATE games SET")) == (1, 1), sent
    check_row(ctx, created.game_id, created, version=1, status=GameStatus.WAITING)


def test_the_row_after_every_kind_of_command(ctx: ServiceContext, clock: FakeClock) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    created_at = clock.moment
    options = GameOptions(format="tournament", seats=3, buy_in=10_00, payouts=(65, 35))
    created = lobby.create_game(ctx, alice, options)
    game = created.game_id
    waiting = {"status": GameStatus.WAITING, "started_at": None, "ended_at": None}
    check_row(ctx, game, created, **waiting, last_activity_at=created_at, hand_id=None)
    clock.advance(timedelta(minutes=1))
    joined = lobby.join(ctx, game, bob)
    check_row(ctx, game, joined, **waiting, last_activity_at=clock.moment)
    clock.advance(timedelta(minutes=1))
    started_at = clock.moment
    full = lobby.join(ctx, game, carol, source=source(11))  # full: starts by itself
    assert full.status is GameStatus.RUNNING
    check_row(ctx, game, full, status=GameStatus.RUNNING, started_at=started_at, ended_at=None)
    last = full
    for hand in range(1, 60):
        # The gamekit plays a whole hand, or presses every Continue: the row after
        # the last of them.
        *_, last = play_hand(ctx, game, shove)
        check_row(ctx, game, last, started_at=started_at, last_activity_at=clock.moment)
        if last.status is GameStatus.FINISHED:
            break
        clock.advance(timedelta(seconds=30))
        *_, dealt = everyone_continues(ctx, game, source(100 + hand))
        check_row(ctx, game, dealt, started_at=started_at, ended_at=None)
    assert last.status is GameStatus.FINISHED
    check_row(ctx, game, last, status=GameStatus.FINISHED, ended_at=clock.moment)

    clock.advance(timedelta(minutes=1))
    other = lobby.create_game(ctx, alice, GameOptions(buy_in=1_00)).game_id
    clock.advance(timedelta(minutes=1))
    cancelled = lobby.cancel_game(ctx, alice, other, "nobody came")
    check_row(
        ctx,
        other,
        cancelled,
        status=GameStatus.CANCELLED,
        started_at=None,
        ended_at=clock.moment,
        last_activity_at=clock.moment,
        hand_id=None,
    )


def test_refused_commands_leave_the_row_as_it_was(
    ctx: ServiceContext, unchanged: Unchanged, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, alice, bob = heads_up(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    waits = alice if player == bob else bob
    with unchanged(), pytest.raises(NotYourTurn):
        play.act(ctx, game, waits, "fold")
    with unchanged(), pytest.raises(StaleVersion):
        play.act(ctx, game, player, "fold", expected_version=version - 1)

    # Refused in the save, after the row's UPDATE went out (as a seat taken meanwhile
    # is, in ``_sync_players``): the rollback undoes the UPDATE.
    def taken(*_: Any, **__: Any) -> None:
        raise Conflict("Someone else changed this at the same moment.")

    monkeypatch.setattr(reactions, "store_deadlines", taken)
    with unchanged(), statements(ctx) as sent, pytest.raises(Conflict):
        play.act(ctx, game, player, passive(legal)[0], expected_version=version)
    assert "UPDATE games SET" in verbs(sent)
    monkeypatch.undo()
    # The next command reads the row as the refusals left it.
    acted = play.act(ctx, game, player, passive(legal)[0], expected_version=version)
    assert acted.version == version + 1
    check_row(ctx, game, acted)


def test_commands_on_one_game_wait_for_its_row_lock(ctx: ServiceContext) -> None:
    # SQLite: BEGIN IMMEDIATE (and this process's writer lock); PostgreSQL: FOR UPDATE.
    game, _, _ = heads_up(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with ctx.transaction() as session:
            tx = GameTx.open(session, game, ctx.now())
            holding.set()
            release.wait(30)
            tx.touch()  # a change with no events: version + 1
            tx.save()

    acted: list[PlayResult] = []
    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(30)
        actor = threading.Thread(
            target=lambda: acted.append(play.act(ctx, game, player, passive(legal)[0]))
        )
        actor.start()
        actor.join(0.5)
        assert actor.is_alive(), "the action did not wait for the game's lock"
    finally:
        release.set()
        holder.join(30)
    actor.join(30)
    # The action read the row the holder wrote, and numbered on from it.
    (result,) = acted
    assert result.version == version + 2
    check_row(ctx, game, result)


def test_a_deadline_refused_after_its_save_reports_the_row_as_stored(
    ctx: ServiceContext, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The clock runs a deadline and its save in a savepoint: a refusal after the
    # row's UPDATE undoes it, and the game the clock reports is the row as it still
    # is (``GameTx.reread``), not the command's copy.
    game, _, _ = heads_up(ctx)
    before = the_row(ctx, game)
    clock.advance(timedelta(minutes=10))  # past the turn clock

    def taken(*_: Any, **__: Any) -> None:
        raise Conflict("Someone else changed this at the same moment.")

    monkeypatch.setattr(reactions, "store_deadlines", taken)
    (fired,) = deadlines.fire_due(ctx)
    monkeypatch.undo()
    assert fired.outcome == "Someone else changed this at the same moment."
    assert fired.result.events == ()
    assert (fired.result.version, fired.result.status) == (before["version"], before["status"])
    assert the_row(ctx, game) == before


def test_a_game_of_a_kept_row_is_the_one_the_orm_would_make_of_it(ctx: ServiceContext) -> None:
    """``game_rows.game_of`` sets up the instance's state by hand, as
    ``make_transient_to_detached`` would: the same identity, values, expired and
    committed attributes; detached, unmodified; ``chat_on`` raises when read."""
    game_id, _, _ = heads_up(ctx)
    with make_sessionmaker(ctx.engine).begin() as session:
        row = game_rows.kept_row(game_rows.lock_game(session, game_id))
    built = game_rows.game_of(row)
    orm: Game = inspect(Game).class_manager.new_instance()
    orm.__dict__.update(row)
    orm.__dict__["state"] = None
    make_transient_to_detached(orm)
    ours, theirs = inspect(built), inspect(orm)
    assert ours.key == theirs.key == (Game, (game_id,), None)
    assert ours.expired_attributes == theirs.expired_attributes == {"chat_on"}
    assert ours.unloaded == theirs.unloaded
    assert ours.committed_state == theirs.committed_state == {}
    assert ours.detached and not ours.modified and not theirs.modified
    loaded = [dict(s.dict) for s in (ours, theirs)]
    for values in loaded:
        del values["_sa_instance_state"]
    assert loaded[0] == loaded[1]
    with pytest.raises(DetachedInstanceError):
        _ = built.chat_on
    built.version += 1  # a command's change stays its own
    assert row["version"] == built.version - 1


def test_the_rows_update_takes_each_column_as_the_attribute_reads_it(
    ctx: ServiceContext,
) -> None:
    """From the instance's dict where the column is loaded there; through the
    attributes where it is not (an unset column of a new ``Game`` reads None)."""
    (host,) = players(ctx, "host")
    game_id = lobby.create_game(ctx, host, GameOptions()).game_id
    with make_sessionmaker(ctx.engine)() as session:
        locked = game_rows.lock_game(session, game_id)
        session.rollback()
    unset = Game(id=game_id, version=3, state={}, status=GameStatus.WAITING, last_seq=1)
    assert "hand_id" not in unset.__dict__
    for game in (locked, unset):
        saved = game_rows._saved(game)
        assert saved == {
            "game_id": game.id,
            **{f"new_{column}": getattr(game, column) for column in WRITTEN},
        }
    assert game_rows._saved(unset)["new_hand_id"] is None


def test_a_games_row_for_its_views_is_the_one_its_attributes_give(ctx: ServiceContext) -> None:
    """``game_rows.game_row`` (every command's result) reads the instance's dict:
    the same ``GameRow`` as ``GameRow.of`` through the attributes, for a locked row,
    a kept row's ``Game``, after a save, and for a game just inserted."""
    game_id, _, _ = heads_up(ctx)
    (alice,) = players(ctx, "carol")
    with ctx.transaction() as session:
        locked = game_rows.lock_game(session, game_id)
        assert game_rows.game_row(locked) == GameRow.of(locked)
        kept = game_rows.game_of(game_rows.kept_row(locked))
        assert game_rows.game_row(kept) == GameRow.of(kept)
        tx = GameTx.open(session, game_id, ctx.now())
        tx.touch()
        tx.save()
        assert game_rows.game_row(tx.game) == GameRow.of(tx.game)
    created = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00))
    with ctx.transaction() as session:
        fresh = session.get(Game, created.game_id)
        assert fresh is not None
        assert game_rows.game_row(fresh) == GameRow.of(fresh)


def test_a_kept_row_holds_the_kept_columns_only(ctx: ServiceContext) -> None:
    """``game_rows.kept_row`` copies the instance's dict and takes out what is not
    kept: the same columns and values as read by name, for a locked row, a kept
    row's ``Game`` before and after a save; by name when the dict holds something
    else (an attribute set on the instance) or lacks a column."""
    game_id, _, _ = heads_up(ctx)
    with ctx.transaction() as session:
        locked = game_rows.lock_game(session, game_id)
        kept = game_rows.game_of(game_rows.kept_row(locked))
        tx = GameTx.open(session, game_id, ctx.now())
        tx.touch()
        tx.save()
        stray = game_rows.game_of(game_rows.kept_row(locked))
        stray.__dict__["not_a_column"] = 1
        unloaded = game_rows.game_of(game_rows.kept_row(locked))
        del unloaded.__dict__["preset"]
        unloaded.__dict__["not_a_column"] = 1  # as many keys as a kept row, not its keys
        for game in (locked, kept, tx.game, stray):
            row = game_rows.kept_row(game)
            assert set(row) == set(game_rows.KEPT_COLUMNS)
            assert row == {key: getattr(game, key) for key in game_rows.KEPT_COLUMNS}
        with pytest.raises(KeyError):
            game_rows.kept_row(unloaded)  # read by name, as every kept row was


def test_a_save_of_more_events_than_one_insert_takes_stores_them_all_in_order(
    ctx: ServiceContext,
) -> None:
    """Past ``_EVENTS_AT_ONCE`` rows, the rest go in INSERTs of their own: every event
    is stored, numbered on from the row's last one, in the order it was made."""
    game, _, _ = heads_up(ctx)
    count = 2 * game_tx._EVENTS_AT_ONCE + 5
    with ctx.transaction() as session, statements(ctx) as sent:
        tx = GameTx.open(session, game, ctx.now())
        first = tx.game.last_seq + 1
        for n in range(count):
            tx.note("Noted", {"n": n})
        saved = tx.save()
    assert saved is not None and [e.payload["n"] for e in saved] == list(range(count))
    assert verbs(sent).count("INSERT INTO game_events") == 3
    with make_sessionmaker(ctx.engine)() as session:
        rows = session.execute(
            select(GameEvent.seq, GameEvent.kind, GameEvent.payload)
            .where(GameEvent.game_id == game, GameEvent.seq >= first)
            .order_by(GameEvent.seq)
        ).all()
    assert [(seq, kind, payload["n"]) for seq, kind, payload in rows] == [
        (first + n, "Noted", n) for n in range(count)
    ]
    assert the_row(ctx, game)["last_seq"] == first + count - 1
