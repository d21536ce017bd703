"""``store_deadlines`` case by case, on both databases: the game's pending deadline
rows end up saying exactly what is wanted (moved, left alone, deleted, added), a
deadline whose time has fired is not written again, and the usual action's move
costs two statements."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

import pytest
from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session

from cardroom.service import kept_tables, lobby
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.service.game_records import Pending, Wanted
from cardroom.service.schedule import at, store_deadlines
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Deadline, DeadlineKind, Game
from tests.service.gamekit import players

TURN = DeadlineKind.TURN
CONTINUE = DeadlineKind.CONTINUE
BLIND_LEVEL = DeadlineKind.BLIND_LEVEL
CANCEL_WAITING = DeadlineKind.CANCEL_WAITING


@dataclass(frozen=True)
class Row:
    id: int
    kind: DeadlineKind
    due_at: datetime
    payload: dict[str, Any]
    created_at: datetime
    fired_at: datetime | None


@pytest.fixture
def game(ctx: ServiceContext) -> int:
    """A waiting game with no deadline rows at all (its cancel deadline removed)."""
    (host,) = players(ctx, "alice")
    game_id = lobby.create_game(ctx, host, GameOptions(buy_in=10_00)).game_id
    with ctx.transaction() as session:
        for row in session.scalars(select(Deadline).where(Deadline.game_id == game_id)):
            session.delete(row)
    return game_id


def rows(ctx: ServiceContext, game_id: int) -> list[Row]:
    with make_sessionmaker(ctx.engine)() as session:
        found = session.scalars(
            select(Deadline).where(Deadline.game_id == game_id).order_by(Deadline.id)
        )
        return [Row(r.id, r.kind, r.due_at, r.payload, r.created_at, r.fired_at) for r in found]


def pending(ctx: ServiceContext, game_id: int) -> dict[DeadlineKind, Row]:
    out: dict[DeadlineKind, Row] = {}
    for row in rows(ctx, game_id):
        if row.fired_at is None:
            assert row.kind not in out, "two pending rows of one kind"
            out[row.kind] = row
    return out


def put(
    ctx: ServiceContext,
    game_id: int,
    kind: DeadlineKind,
    due_at: datetime,
    payload: dict[str, Any],
    *,
    fired_at: datetime | None = None,
) -> int:
    """A deadline row as an earlier save (or firing) left it."""
    with ctx.transaction() as session:
        row = Deadline(
            game_id=game_id,
            kind=kind,
            due_at=due_at,
            payload=payload,
            created_at=ctx.now() - timedelta(minutes=5),
            fired_at=fired_at,
            claimed_by=None if fired_at is None else "earlier",
        )
        session.add(row)
        session.flush()
        return row.id


@contextmanager
def counting(engine: Engine) -> Iterator[list[str]]:
    """The SQL statements sent while the block runs."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)


def store(ctx: ServiceContext, game_id: int, wanted: dict[DeadlineKind, Wanted]) -> list[str]:
    """``store_deadlines`` in a transaction of its own, as a save runs it (the game's
    row loaded first); the statements it sent, the game's load and the commit left
    out."""
    with ctx.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        with counting(ctx.engine) as sent:
            store_deadlines(session, game, wanted, ctx.now())
            session.flush()  # what the save does next: nothing left for it here
    return sent


def verbs(sent: list[str]) -> list[str]:
    return [" ".join(statement.split()[:3]) for statement in sent]


def test_a_moved_turn_is_one_read_and_one_update(ctx: ServiceContext, game: int) -> None:
    now = ctx.now()
    row_id = put(ctx, game, TURN, now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    later = now + timedelta(seconds=50)

    sent = store(ctx, game, {TURN: Wanted(later, {"hand": 3, "seat": 2})})

    assert [s.split()[0] for s in sent] == ["SELECT", "UPDATE"], sent
    assert "deadlines" in sent[0] and verbs(sent)[1] == "UPDATE deadlines SET"
    (turn,) = rows(ctx, game)
    assert (turn.id, turn.kind, turn.due_at, turn.payload, turn.fired_at) == (
        row_id,
        TURN,
        later,
        {"hand": 3, "seat": 2},
        None,
    )
    # Moved, not replaced: the row keeps when it was first written.
    assert turn.created_at == now - timedelta(minutes=5)


@pytest.mark.parametrize(
    ("seconds", "payload"),
    [(30, {"hand": 3, "seat": 2}), (45, {"hand": 3, "seat": 1})],
    ids=["payload-only", "time-only"],
)
def test_a_row_moves_when_either_its_time_or_its_payload_changes(
    ctx: ServiceContext, game: int, seconds: int, payload: dict[str, Any]
) -> None:
    now = ctx.now()
    row_id = put(ctx, game, TURN, now + timedelta(seconds=30), {"hand": 3, "seat": 1})

    store(ctx, game, {TURN: Wanted(now + timedelta(seconds=seconds), payload)})

    (turn,) = rows(ctx, game)
    assert (turn.id, turn.due_at, turn.payload) == (
        row_id,
        now + timedelta(seconds=seconds),
        payload,
    )


def test_an_unchanged_row_is_only_read(ctx: ServiceContext, game: int) -> None:
    due = ctx.now() + timedelta(seconds=8)
    put(ctx, game, CONTINUE, due, {"after_hand": 4})
    before = rows(ctx, game)

    sent = store(ctx, game, {CONTINUE: Wanted(due, {"after_hand": 4})})

    assert [s.split()[0] for s in sent] == ["SELECT"], sent
    assert rows(ctx, game) == before


def test_a_row_no_longer_wanted_is_deleted(ctx: ServiceContext, game: int) -> None:
    now = ctx.now()
    fired = put(ctx, game, TURN, now - timedelta(seconds=1), {"hand": 2, "seat": 1}, fired_at=now)
    put(ctx, game, TURN, now + timedelta(seconds=30), {"hand": 3, "seat": 1})

    sent = store(ctx, game, {})

    assert [s.split()[0] for s in sent] == ["SELECT", "DELETE"], sent
    # Only the pending row goes: the fired one is the clock's record.
    assert [(r.id, r.fired_at) for r in rows(ctx, game)] == [(fired, now)]


def test_a_new_kind_is_inserted(ctx: ServiceContext, game: int) -> None:
    now = ctx.now()
    due = now + timedelta(hours=72)

    store(ctx, game, {CANCEL_WAITING: Wanted(due, {})})

    (row,) = rows(ctx, game)
    assert (row.kind, row.due_at, row.payload, row.created_at, row.fired_at) == (
        CANCEL_WAITING,
        due,
        {},
        now,
        None,
    )


def test_a_deadline_already_fired_at_that_time_is_not_written_again(
    ctx: ServiceContext, game: int
) -> None:
    # A cash table paused for lack of players keeps reporting its past "deal due".
    now = ctx.now()
    due = now - timedelta(seconds=3)
    fired = put(ctx, game, CONTINUE, due, {"after_hand": 4}, fired_at=now)

    store(ctx, game, {CONTINUE: Wanted(due, {"after_hand": 4})})

    assert [(r.id, r.kind, r.fired_at) for r in rows(ctx, game)] == [(fired, CONTINUE, now)]


def test_a_fired_deadline_of_another_time_or_kind_does_not_stop_a_new_one(
    ctx: ServiceContext, game: int
) -> None:
    now = ctx.now()
    due = now + timedelta(seconds=8)
    put(ctx, game, CONTINUE, due - timedelta(seconds=1), {"after_hand": 4}, fired_at=now)
    put(ctx, game, TURN, due, {"hand": 4, "seat": 1}, fired_at=now)

    store(ctx, game, {CONTINUE: Wanted(due, {"after_hand": 5})})

    new = pending(ctx, game)
    assert set(new) == {CONTINUE}
    assert (new[CONTINUE].due_at, new[CONTINUE].payload) == (due, {"after_hand": 5})


def test_several_kinds_at_once(ctx: ServiceContext, game: int) -> None:
    now = ctx.now()
    turn = put(ctx, game, TURN, now + timedelta(seconds=30), {"hand": 6, "seat": 1})
    put(ctx, game, CONTINUE, now + timedelta(seconds=2), {"after_hand": 5})
    level_at = now + timedelta(minutes=10)
    level = put(ctx, game, BLIND_LEVEL, level_at, {"level": 2, "small_blind": 10, "big_blind": 20})
    # Fired at the very time now wanted for a cancel: it stays fired and unrepeated.
    put(ctx, game, CANCEL_WAITING, now, {}, fired_at=now)
    wanted = {
        TURN: Wanted(now + timedelta(seconds=31), {"hand": 6, "seat": 2}),
        BLIND_LEVEL: Wanted(level_at, {"level": 2, "small_blind": 10, "big_blind": 20}),
        CANCEL_WAITING: Wanted(now, {}),
    }
    before = {r.kind: r for r in rows(ctx, game) if r.fired_at is None}

    sent = store(ctx, game, wanted)

    after = pending(ctx, game)
    assert set(after) == {TURN, BLIND_LEVEL}
    assert after[TURN].id == turn and after[TURN].payload == {"hand": 6, "seat": 2}
    assert after[TURN].due_at == now + timedelta(seconds=31)
    assert after[BLIND_LEVEL] == before[BLIND_LEVEL] and after[BLIND_LEVEL].id == level
    assert sum(1 for r in rows(ctx, game) if r.kind is CANCEL_WAITING) == 1
    # A read, the delete, the move and the guarded insert: the unchanged level
    # is not written.
    assert sorted(s.split()[0] for s in sent) == ["DELETE", "INSERT", "SELECT", "UPDATE"]

    # Then a new kind beside them, the others as they are: one row more.
    wanted[CONTINUE] = Wanted(now + timedelta(seconds=40), {"after_hand": 6})
    store(ctx, game, wanted)
    again = pending(ctx, game)
    assert set(again) == {TURN, BLIND_LEVEL, CONTINUE}
    assert (again[CONTINUE].due_at, again[CONTINUE].payload) == (
        now + timedelta(seconds=40),
        {"after_hand": 6},
    )
    assert {k: again[k] for k in (TURN, BLIND_LEVEL)} == {k: after[k] for k in (TURN, BLIND_LEVEL)}


def test_other_games_rows_are_left_alone(ctx: ServiceContext, game: int) -> None:
    (host,) = players(ctx, "bob")
    other = lobby.create_game(ctx, host, GameOptions(buy_in=10_00)).game_id
    theirs = rows(ctx, other)
    assert [r.kind for r in theirs] == [CANCEL_WAITING]
    now = ctx.now()

    store(ctx, game, {TURN: Wanted(now + timedelta(seconds=30), {"hand": 1, "seat": 1})})
    store(ctx, game, {})

    assert rows(ctx, other) == theirs
    assert rows(ctx, game) == []


def test_the_rows_go_out_with_the_games_changes_in_one_transaction(
    ctx: ServiceContext, game: int
) -> None:
    """Written through the session's connection: a rollback takes them back."""
    now = ctx.now()
    put(ctx, game, TURN, now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    before = rows(ctx, game)
    session: Session
    with make_sessionmaker(ctx.engine)() as session:
        loaded = session.get(Game, game)
        assert loaded is not None
        store_deadlines(session, loaded, {CONTINUE: Wanted(now, {"after_hand": 3})}, now)
        session.rollback()
    assert rows(ctx, game) == before


# ------------------------------------- what a kept table's command knows of its rows


REMINDER = DeadlineKind.REMINDER


def store_known(
    ctx: ServiceContext,
    game_id: int,
    wanted: dict[DeadlineKind, Wanted],
    known: Pending | None,
) -> tuple[list[str], Pending | None]:
    """``store`` with what the command knows of the pending rows, and its answer."""
    with ctx.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        with counting(ctx.engine) as sent:
            answer = store_deadlines(session, game, wanted, ctx.now(), known=known)
            session.flush()
    return sent, answer


def test_known_rows_are_moved_without_a_read(ctx: ServiceContext, game: int) -> None:
    now = ctx.now()
    was = Wanted(now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    row_id = put(ctx, game, TURN, was.due_at, was.payload)
    level = Wanted(now + timedelta(minutes=9), {"level": 2, "small_blind": 10, "big_blind": 20})
    put(ctx, game, BLIND_LEVEL, level.due_at, level.payload)
    later = Wanted(now + timedelta(seconds=50), {"hand": 3, "seat": 2})
    known = {TURN: was, BLIND_LEVEL: level}

    sent, answer = store_known(ctx, game, {TURN: later, BLIND_LEVEL: level}, known)

    assert verbs(sent) == ["UPDATE deadlines SET"], sent
    assert answer == {TURN: later, BLIND_LEVEL: level}
    assert known == {TURN: was, BLIND_LEVEL: level}  # a new answer, not this one changed
    after = pending(ctx, game)
    assert (after[TURN].id, after[TURN].due_at, after[TURN].payload) == (
        row_id,
        later.due_at,
        later.payload,
    )

    # Nothing wanted: the known row is deleted, still without a read.
    sent, answer = store_known(ctx, game, {BLIND_LEVEL: level}, answer)
    assert verbs(sent) == ["DELETE FROM deadlines"], sent
    assert answer == {BLIND_LEVEL: level} and set(pending(ctx, game)) == {BLIND_LEVEL}


def test_a_known_row_the_clock_fired_meanwhile_stays_its_record(
    ctx: ServiceContext, game: int
) -> None:
    """Fired by a clock whose work moved no version: the move finds no pending row
    and a new one goes in; the delete of one no longer wanted leaves it as fired."""
    now = ctx.now()
    turn = Wanted(now - timedelta(seconds=1), {"hand": 3, "seat": 1})
    fired_turn = put(ctx, game, TURN, turn.due_at, turn.payload, fired_at=now)
    review = Wanted(now - timedelta(seconds=2), {"after_hand": 2})
    fired_review = put(ctx, game, CONTINUE, review.due_at, review.payload, fired_at=now)
    later = Wanted(now + timedelta(seconds=50), {"hand": 3, "seat": 2})

    sent, answer = store_known(ctx, game, {TURN: later}, {TURN: turn, CONTINUE: review})

    assert [s.split()[0] for s in sent] == ["DELETE", "UPDATE", "INSERT"], sent
    assert answer == {TURN: later}
    by_id = {r.id: r for r in rows(ctx, game)}
    assert (by_id[fired_turn].due_at, by_id[fired_turn].fired_at) == (turn.due_at, now)
    assert (by_id[fired_review].due_at, by_id[fired_review].fired_at) == (review.due_at, now)
    new = pending(ctx, game)
    assert set(new) == {TURN} and (new[TURN].due_at, new[TURN].payload) == (
        later.due_at,
        later.payload,
    )


def test_a_known_kind_wanted_again_at_a_fired_time_is_not_pending(
    ctx: ServiceContext, game: int
) -> None:
    now = ctx.now()
    due = Wanted(now - timedelta(seconds=3), {"after_hand": 4})
    put(ctx, game, CONTINUE, due.due_at, due.payload, fired_at=now)

    sent, answer = store_known(ctx, game, {CONTINUE: due}, {})

    assert [s.split()[0] for s in sent] == ["INSERT"], sent
    assert answer == {} and pending(ctx, game) == {}


def test_a_hands_end_makes_the_turns_row_the_reviews_in_one_statement(
    ctx: ServiceContext, game: int
) -> None:
    """A kind no longer wanted and a kind newly wanted (the turn clock's and the
    review's, at a hand's end; the other way at the deal): the one's pending row
    becomes the other's, written as a new one would be, in one UPDATE."""
    now = ctx.now()
    turn = Wanted(now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    turn_id = put(ctx, game, TURN, turn.due_at, turn.payload)
    review = Wanted(now + timedelta(seconds=60), {"after_hand": 3})

    sent, answer = store_known(ctx, game, {CONTINUE: review}, {TURN: turn})

    assert verbs(sent) == ["UPDATE deadlines SET"], sent
    assert answer == {CONTINUE: review}
    [row] = rows(ctx, game)
    assert (row.id, row.kind, row.due_at, row.payload, row.created_at, row.fired_at) == (
        turn_id,
        CONTINUE,
        review.due_at,
        review.payload,
        now,
        None,
    )

    # And back at the deal, beside a kind that stays.
    level = Wanted(now + timedelta(minutes=9), {"level": 2, "small_blind": 10, "big_blind": 20})
    put(ctx, game, BLIND_LEVEL, level.due_at, level.payload)
    next_turn = Wanted(now + timedelta(seconds=90), {"hand": 4, "seat": 2})
    sent, answer = store_known(
        ctx, game, {TURN: next_turn, BLIND_LEVEL: level}, {CONTINUE: review, BLIND_LEVEL: level}
    )
    assert verbs(sent) == ["UPDATE deadlines SET"], sent
    assert answer == {TURN: next_turn, BLIND_LEVEL: level}
    after = pending(ctx, game)
    assert set(after) == {TURN, BLIND_LEVEL} and len(rows(ctx, game)) == 2
    assert (after[TURN].id, after[TURN].due_at, after[TURN].payload) == (
        turn_id,
        next_turn.due_at,
        next_turn.payload,
    )


def test_a_row_to_change_kind_the_clock_fired_meanwhile_stays_its_record(
    ctx: ServiceContext, game: int
) -> None:
    """The clock fired the turn's row meanwhile (its work moved no version): that row
    stays the clock's record and the review's goes in as a new row."""
    now = ctx.now()
    turn = Wanted(now - timedelta(seconds=1), {"hand": 3, "seat": 1})
    fired = put(ctx, game, TURN, turn.due_at, turn.payload, fired_at=now)
    review = Wanted(now + timedelta(seconds=60), {"after_hand": 3})

    sent, answer = store_known(ctx, game, {CONTINUE: review}, {TURN: turn})

    assert [s.split()[0] for s in sent] == ["UPDATE", "DELETE", "INSERT"], sent
    assert answer == {CONTINUE: review}
    by_id = {r.id: r for r in rows(ctx, game)}
    assert (by_id[fired].kind, by_id[fired].due_at, by_id[fired].fired_at) == (
        TURN,
        turn.due_at,
        now,
    )
    new = pending(ctx, game)
    assert set(new) == {CONTINUE} and new[CONTINUE].id != fired
    assert (new[CONTINUE].due_at, new[CONTINUE].payload) == (review.due_at, review.payload)


def test_a_row_is_not_made_a_kind_already_fired_at_that_time(
    ctx: ServiceContext, game: int
) -> None:
    """The new kind fired at that very time already: it is not written again, and the
    row no longer wanted is deleted, as apart."""
    now = ctx.now()
    turn = Wanted(now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    put(ctx, game, TURN, turn.due_at, turn.payload)
    review = Wanted(now - timedelta(seconds=3), {"after_hand": 3})
    fired = put(ctx, game, CONTINUE, review.due_at, review.payload, fired_at=now)

    sent, answer = store_known(ctx, game, {CONTINUE: review}, {TURN: turn})

    assert [s.split()[0] for s in sent] == ["UPDATE", "DELETE", "INSERT"], sent
    assert answer == {}
    assert [(r.id, r.fired_at) for r in rows(ctx, game)] == [(fired, now)]


def test_a_known_reminder_is_read_not_trusted(ctx: ServiceContext, game: int) -> None:
    """A reminder's firing writes the player's next one without moving the version:
    what is known of a reminder may be old, so the rows are read."""
    now = ctx.now()
    turn = {"hand": 3, "seat": 1, "turn_due": 3600.0}
    first = Wanted(now + timedelta(minutes=4), turn)
    put(ctx, game, REMINDER, first.due_at, first.payload, fired_at=now)
    moved_on = Wanted(now + timedelta(minutes=30), {**turn, "point": "50%"})
    put(ctx, game, REMINDER, moved_on.due_at, moved_on.payload)

    sent, answer = store_known(ctx, game, {REMINDER: first}, {REMINDER: first})

    assert [s.split()[0] for s in sent] == ["SELECT"], sent
    assert answer == {REMINDER: moved_on}  # the same turn: left where it moved on to


# ------------------------- PostgreSQL's pipeline: the kept path's writes wait for nothing


def store_queued(
    ctx: ServiceContext,
    game_id: int,
    wanted: dict[DeadlineKind, Wanted],
    known: Pending,
) -> tuple[bool, Pending | None]:
    """``store_known`` with nobody listening for each statement, as the server runs
    it: whether its writes were left queued on the pipeline, and its answer."""
    assert ctx.engine.dialect.name == "postgresql", "mark the test postgresql_only"
    with ctx.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        answer = store_deadlines(session, game, wanted, ctx.now(), known=known)
        dbapi = session.connection().connection.dbapi_connection
        queued = getattr(dbapi, "_cardroom_pipeline", None) is not None
    return queued, answer


@pytest.mark.postgresql_only
def test_on_the_pipeline_a_known_row_moves_and_a_new_one_goes_in_unanswered(
    ctx: ServiceContext, game: int
) -> None:
    now = ctx.now()
    was = Wanted(now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    turn_id = put(ctx, game, TURN, was.due_at, was.payload)
    later = Wanted(now + timedelta(seconds=50), {"hand": 3, "seat": 2})
    review = Wanted(now + timedelta(seconds=9), {"after_hand": 3})

    queued, answer = store_queued(ctx, game, {TURN: later, CONTINUE: review}, {TURN: was})

    assert queued
    assert answer == {TURN: later, CONTINUE: review}
    after = pending(ctx, game)
    assert set(after) == {TURN, CONTINUE}
    # Moved, not replaced: the row keeps its id and when it was first written.
    turn = after[TURN]
    assert (turn.id, turn.due_at, turn.payload) == (turn_id, later.due_at, later.payload)
    assert turn.created_at == now - timedelta(minutes=5)
    added = after[CONTINUE]
    assert (added.due_at, added.payload, added.created_at) == (review.due_at, review.payload, now)
    # The move took no number from the ids' sequence (as an insert refused would).
    assert added.id == turn_id + 1


@pytest.mark.postgresql_only
def test_on_the_pipeline_a_row_fired_meanwhile_is_followed_by_a_new_one(
    ctx: ServiceContext, game: int
) -> None:
    now = ctx.now()
    turn = Wanted(now - timedelta(seconds=1), {"hand": 3, "seat": 1})
    fired = put(ctx, game, TURN, turn.due_at, turn.payload, fired_at=now)
    later = Wanted(now + timedelta(seconds=50), {"hand": 3, "seat": 2})

    queued, answer = store_queued(ctx, game, {TURN: later}, {TURN: turn})

    assert queued and answer == {TURN: later}
    by_id = {r.id: r for r in rows(ctx, game)}
    assert (by_id[fired].due_at, by_id[fired].fired_at) == (turn.due_at, now)
    new = pending(ctx, game)
    assert set(new) == {TURN} and (new[TURN].due_at, new[TURN].payload) == (
        later.due_at,
        later.payload,
    )


@pytest.mark.postgresql_only
def test_on_the_pipeline_a_kind_fired_at_that_time_is_not_written_and_counted_pending(
    ctx: ServiceContext, game: int
) -> None:
    """Nothing answers: the kind is counted pending, which a kept table's check
    allows (fired at that very time), and the next store's writes by kind too."""
    now = ctx.now()
    due = Wanted(now - timedelta(seconds=3), {"after_hand": 4})
    fired = put(ctx, game, CONTINUE, due.due_at, due.payload, fired_at=now)

    queued, answer = store_queued(ctx, game, {CONTINUE: due}, {})

    assert queued and answer == {CONTINUE: due}
    assert [(r.id, r.fired_at) for r in rows(ctx, game)] == [(fired, now)]
    with ctx.transaction() as session:
        kept_tables._check_deadlines(session, game, answer)
    later = Wanted(now + timedelta(seconds=9), {"after_hand": 5})
    queued, answer = store_queued(ctx, game, {CONTINUE: later}, answer)
    assert answer == {CONTINUE: later}
    new = pending(ctx, game)
    assert set(new) == {CONTINUE} and new[CONTINUE].due_at == later.due_at


@pytest.mark.postgresql_only
def test_on_the_pipeline_a_hands_end_makes_the_turns_row_the_reviews_unanswered(
    ctx: ServiceContext, game: int
) -> None:
    now = ctx.now()
    turn = Wanted(now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    turn_id = put(ctx, game, TURN, turn.due_at, turn.payload)
    review = Wanted(now + timedelta(seconds=60), {"after_hand": 3})

    queued, answer = store_queued(ctx, game, {CONTINUE: review}, {TURN: turn})

    assert queued and answer == {CONTINUE: review}
    [row] = rows(ctx, game)
    assert (row.id, row.kind, row.due_at, row.payload, row.created_at, row.fired_at) == (
        turn_id,
        CONTINUE,
        review.due_at,
        review.payload,
        now,
        None,
    )


@pytest.mark.postgresql_only
def test_on_the_pipeline_a_row_to_change_kind_fired_meanwhile_is_followed_by_a_new_one(
    ctx: ServiceContext, game: int
) -> None:
    now = ctx.now()
    turn = Wanted(now - timedelta(seconds=1), {"hand": 3, "seat": 1})
    fired = put(ctx, game, TURN, turn.due_at, turn.payload, fired_at=now)
    review = Wanted(now + timedelta(seconds=60), {"after_hand": 3})

    queued, answer = store_queued(ctx, game, {CONTINUE: review}, {TURN: turn})

    assert queued and answer == {CONTINUE: review}
    by_id = {r.id: r for r in rows(ctx, game)}
    assert (by_id[fired].kind, by_id[fired].fired_at) == (TURN, now)
    new = pending(ctx, game)
    assert set(new) == {CONTINUE} and new[CONTINUE].id != fired
    assert (new[CONTINUE].due_at, new[CONTINUE].payload) == (review.due_at, review.payload)


@pytest.mark.postgresql_only
def test_on_the_pipeline_a_row_is_not_made_a_kind_fired_at_that_time(
    ctx: ServiceContext, game: int
) -> None:
    """Nothing answers: the new kind is counted pending (as a kept table's check
    allows), the old kind's row deleted, and nothing written of the new."""
    now = ctx.now()
    turn = Wanted(now + timedelta(seconds=30), {"hand": 3, "seat": 1})
    put(ctx, game, TURN, turn.due_at, turn.payload)
    review = Wanted(now - timedelta(seconds=3), {"after_hand": 3})
    fired = put(ctx, game, CONTINUE, review.due_at, review.payload, fired_at=now)

    queued, answer = store_queued(ctx, game, {CONTINUE: review}, {TURN: turn})

    assert queued and answer == {CONTINUE: review}
    assert [(r.id, r.fired_at) for r in rows(ctx, game)] == [(fired, now)]
    with ctx.transaction() as session:
        kept_tables._check_deadlines(session, game, answer)


def test_a_table_time_is_the_moment_the_keyword_duration_gave() -> None:
    """``schedule.at`` builds its duration positionally: the same moment, to the
    microsecond, as ``timedelta(seconds=...)`` gave, for whole, fractional, tiny,
    negative and long table times."""
    game = SimpleNamespace(created_at=datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC))
    for seconds in (0, 1, 1.5, 0.1, 1e-7, 5e-7, 2.4999995, -3.25, 86400 * 3 + 0.333, 1234567.891):
        expected = game.created_at + timedelta(seconds=seconds)
        assert at(cast(Game, game), seconds) == expected, seconds
