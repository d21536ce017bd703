"""Commands committed together (``cardroom.service.game.together``): one commit for
the batch, each command's refusal its own, a failure that is not a refusal rolling
the whole batch back, sessions proved inside the batch, idempotency keys within it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.service import accounts, game_details, game_options, lobby
from cardroom.service.context import ServiceContext
from cardroom.service.errors import AccountSuspended, AuthenticationFailed, Conflict
from cardroom.service.game import commands, pipeline
from cardroom.service.game.together import (
    BatchBroken,
    Done,
    Queued,
    run_each,
    run_together,
)
from cardroom.service.game_errors import NotYourTurn, StaleVersion
from cardroom.store.models import IdempotencyKey
from tests.service.gamekit import PASSWORD, admin, assert_audit_clean, players, source, to_act


def tables(ctx: ServiceContext, count: int) -> list[tuple[int, str, int]]:
    """(game, token of the player to act, version) for ``count`` heads-up tables."""
    out = []
    for number in range(count):
        host, guest = players(ctx, f"host{number}", f"guest{number}")
        game = lobby.create_game(ctx, host, game_options.GameOptions()).game_id
        lobby.join(ctx, game, guest)
        lobby.start(ctx, game, host, source=source(number))
        turn = to_act(ctx, game)
        assert turn is not None
        player, _, version = turn
        name = f"host{number}" if player == host else f"guest{number}"
        out.append((game, accounts.sign_in(ctx, name, PASSWORD).token, version))
    return out


def call(game: int, token: str, version: int, key: str | None = None) -> Queued:
    return Queued(game, token, lambda user: commands.act(user, "call"), version, key)


def version_of(ctx: ServiceContext, game: int) -> int:
    return game_details.game_detail(ctx, game).summary.version


@pytest.fixture
def commits(db: Engine) -> Iterator[list[int]]:
    counted: list[int] = []

    def count(*_: Any) -> None:
        counted.append(1)

    event.listen(db, "commit", count)
    yield counted
    event.remove(db, "commit", count)


def test_three_tables_commit_once_and_a_refusal_is_its_own(
    ctx: ServiceContext, commits: list[int]
) -> None:
    (a, ta, va), (b, tb, vb), (c, tc, vc) = tables(ctx, 3)
    commits.clear()
    done = run_together(ctx, [call(a, ta, va), call(b, tb, vb - 1), call(c, tc, vc)])
    assert len(commits) == 1
    assert [d.result.version if d.result else None for d in done] == [va + 1, None, vc + 1]
    assert isinstance(done[1].refused, StaleVersion) and done[1].user is not None
    assert (version_of(ctx, a), version_of(ctx, b), version_of(ctx, c)) == (va + 1, vb, vc + 1)
    assert_audit_clean(ctx)


def test_a_refused_command_at_the_same_table_leaves_the_first_ones_change(
    ctx: ServiceContext,
) -> None:
    """The second command at the same table is refused (not their turn any more):
    its savepoint goes, the first command's change stays."""
    ((a, token, version),) = tables(ctx, 1)
    done = run_together(ctx, [call(a, token, version), call(a, token, None)])
    assert done[0].result is not None and done[0].result.version == version + 1
    assert isinstance(done[1].refused, NotYourTurn)
    assert version_of(ctx, a) == version + 1


def test_a_failure_that_is_no_refusal_rolls_the_batch_back_and_each_runs_alone(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    (a, ta, va), (b, tb, vb) = tables(ctx, 2)
    real = pipeline.run_in

    def broken_at_b(*args: Any, **kwargs: Any) -> Any:
        if args[1] == b:
            raise ZeroDivisionError("a bug")
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "run_in", broken_at_b)
    batch = [call(a, ta, va), call(b, tb, vb)]
    with pytest.raises(ZeroDivisionError):
        run_together(ctx, batch)
    assert (version_of(ctx, a), version_of(ctx, b)) == (va, vb)  # nothing committed
    alone = run_each(ctx, batch)
    assert isinstance(alone[0], Done) and alone[0].result is not None
    assert isinstance(alone[1], ZeroDivisionError)
    assert (version_of(ctx, a), version_of(ctx, b)) == (va + 1, vb)


def test_each_session_is_proved_in_the_batch(ctx: ServiceContext) -> None:
    (a, ta, va), (b, tb, vb) = tables(ctx, 2)
    accounts.sign_out(ctx, tb)
    done = run_together(ctx, [call(a, ta, va), call(b, tb, vb)])
    assert done[0].result is not None
    assert isinstance(done[1].refused, AuthenticationFailed) and done[1].user is None
    assert version_of(ctx, b) == vb


def test_the_same_key_twice_in_one_batch_is_applied_once(ctx: ServiceContext) -> None:
    ((a, token, version),) = tables(ctx, 1)
    done = run_together(ctx, [call(a, token, version, "k1"), call(a, token, version, "k1")])
    first, second = (d.result for d in done)
    assert first is not None and second is not None
    assert not first.replayed and second.replayed
    assert first.version == second.version == version + 1
    assert version_of(ctx, a) == version + 1


def test_a_batch_proves_its_senders_sessions_in_one_statement(
    ctx: ServiceContext, db: Engine
) -> None:
    """One read for the whole batch's sessions, inside its transaction: a signed-out
    and a suspended sender are refused there, the others go on."""
    (a, ta, va), (b, tb, vb), (c, tc, vc) = tables(ctx, 3)
    accounts.sign_out(ctx, tb)
    boss = admin(ctx)
    accounts.suspend(ctx, boss, accounts.user_for_token(ctx, tc).name, "testing the proof")
    proofs: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if "FROM sessions" in statement:
            proofs.append(statement)

    event.listen(db, "before_cursor_execute", record)
    try:
        done = run_together(ctx, [call(a, ta, va), call(b, tb, vb), call(c, tc, vc)])
    finally:
        event.remove(db, "before_cursor_execute", record)
    assert len(proofs) == 1, proofs
    assert done[0].result is not None and done[0].result.version == va + 1
    assert isinstance(done[1].refused, AuthenticationFailed) and done[1].user is None
    assert isinstance(done[2].refused, AccountSuspended) and done[2].user is None
    assert (version_of(ctx, b), version_of(ctx, c)) == (vb, vc)


def test_a_command_alone_takes_no_savepoint_and_its_refusal_undoes_it_all(
    ctx: ServiceContext, db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alone in its batch, a command runs without a savepoint (two statements fewer);
    refused after it wrote, the whole transaction rolls back: nothing of it stays."""
    (a, ta, va), (b, tb, vb) = tables(ctx, 2)
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(db, "before_cursor_execute", record)
    try:
        assert run_together(ctx, [call(a, ta, va)])[0].result is not None
        assert not any("SAVEPOINT" in s for s in seen), seen
        real = pipeline.run_in

        def refused_after_writing(*args: Any, **kwargs: Any) -> Any:
            real(*args, **kwargs)  # the move is written...
            raise NotYourTurn("...and then refused")

        monkeypatch.setattr(pipeline, "run_in", refused_after_writing)
        done = run_together(ctx, [call(b, tb, vb)])[0]
    finally:
        event.remove(db, "before_cursor_execute", record)
    assert isinstance(done.refused, NotYourTurn) and done.user is not None
    assert version_of(ctx, b) == vb  # the write went with the refusal
    assert_audit_clean(ctx)


def keys_of(ctx: ServiceContext, game: int) -> list[str]:
    with ctx.sessions() as session:
        return list(
            session.scalars(select(IdempotencyKey.key).where(IdempotencyKey.game_id == game))
        )


def statements_seen(db: Engine) -> tuple[list[str], Any]:
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    event.listen(db, "before_cursor_execute", record)
    return seen, lambda: event.remove(db, "before_cursor_execute", record)


def test_a_refusal_after_an_orm_write_in_a_batch_leaves_nothing_behind(
    ctx: ServiceContext, db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The middle command writes through Core and through the session (its
    idempotency key is an ORM row, flushed) and is then refused: its savepoint takes
    both back, the session forgets its row (the commit writes nothing of it), and the
    commands around it keep theirs."""
    (a, ta, va), (b, tb, vb), (c, tc, vc) = tables(ctx, 3)
    real = pipeline.run_in

    def refused_after_writing(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        if args[1] == b:
            session = args[0]
            assert isinstance(session, Session)
            written = select(func.count()).where(IdempotencyKey.game_id == b)
            assert session.scalar(written) == 1  # the session flushed the key's row
            raise NotYourTurn("refused after writing")
        return result

    monkeypatch.setattr(pipeline, "run_in", refused_after_writing)
    seen, stop = statements_seen(db)
    try:
        done = run_together(
            ctx, [call(a, ta, va, "ka"), call(b, tb, vb, "kb"), call(c, tc, vc, "kc")]
        )
    finally:
        stop()
    assert done[0].result is not None and done[2].result is not None
    assert isinstance(done[1].refused, NotYourTurn) and done[1].user is not None
    assert (version_of(ctx, a), version_of(ctx, b), version_of(ctx, c)) == (va + 1, vb, vc + 1)
    assert (keys_of(ctx, a), keys_of(ctx, b), keys_of(ctx, c)) == (["ka"], [], ["kc"])
    savepoints = [s for s in seen if "SAVEPOINT" in s]
    assert savepoints == [
        "SAVEPOINT cardroom_command",
        "RELEASE SAVEPOINT cardroom_command",
        "SAVEPOINT cardroom_command",
        "ROLLBACK TO SAVEPOINT cardroom_command",
        "SAVEPOINT cardroom_command",
        "RELEASE SAVEPOINT cardroom_command",
    ], savepoints
    assert_audit_clean(ctx)
    # The refused command's key was never kept: sent again alone, it is applied.
    monkeypatch.setattr(pipeline, "run_in", real)
    again = run_together(ctx, [call(b, tb, vb, "kb")])[0]
    assert again.result is not None and not again.result.replayed
    assert again.result.version == vb + 1 and keys_of(ctx, b) == ["kb"]


def test_a_refusal_whose_flush_failed_fails_the_batch_and_each_runs_alone(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failed flush rolls the session's whole transaction back, the batch's work
    with it, so a refusal made of it (as ``GameTx`` makes a ``Conflict`` of a seat
    taken meanwhile) cannot be undone alone: the batch fails and commits nothing,
    and run alone each command gets its own outcome."""
    (a, ta, va), (b, tb, vb), (c, tc, vc) = tables(ctx, 3)
    real = pipeline.run_in

    def conflicting_at_b(*args: Any, **kwargs: Any) -> Any:
        session, game = args[0], args[1]
        if game != b:
            return real(*args, **kwargs)
        user = kwargs.get("proven") and accounts.user_for_token(ctx, tb).id
        for _ in range(2):  # the same key twice: the unique constraint refuses it
            session.add(
                IdempotencyKey(
                    game_id=b,
                    user_id=user,
                    key="twice",
                    request={},
                    response={},
                    created_at=ctx.now(),
                )
            )
        try:
            session.flush()
        except IntegrityError:
            raise Conflict("Someone else changed this at the same moment.") from None
        raise AssertionError("the flush went through")

    monkeypatch.setattr(pipeline, "run_in", conflicting_at_b)
    batch = [call(a, ta, va), call(b, tb, vb), call(c, tc, vc)]
    with pytest.raises(BatchBroken):
        run_together(ctx, batch)
    assert (version_of(ctx, a), version_of(ctx, b), version_of(ctx, c)) == (va, vb, vc)
    alone = run_each(ctx, batch)
    assert isinstance(alone[0], Done) and alone[0].result is not None
    assert isinstance(alone[1], Done) and isinstance(alone[1].refused, Conflict)
    assert isinstance(alone[2], Done) and alone[2].result is not None
    assert (version_of(ctx, a), version_of(ctx, b), version_of(ctx, c)) == (va + 1, vb, vc + 1)
    with ctx.sessions() as session:
        assert session.scalar(select(func.count()).select_from(IdempotencyKey)) == 0


def test_a_command_leaves_nothing_in_the_session_for_the_next(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command of a batch starts with an empty session, as in a transaction of
    its own: what the one before loaded or added was flushed and let go."""
    (a, ta, va), (b, tb, vb) = tables(ctx, 2)
    real = pipeline.run_in
    held: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        session = args[0]
        assert isinstance(session, Session)
        held.append(len(session.identity_map) + len(session.new))
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "run_in", counting)
    done = run_together(ctx, [call(a, ta, va, "k1"), call(a, ta, None, "k1"), call(b, tb, vb)])
    assert held == [0, 0, 0]
    assert done[1].result is not None and done[1].result.replayed  # read back, not held
    assert done[2].result is not None and done[2].result.version == vb + 1


def test_a_batch_with_no_refusal_sets_no_savepoint(
    ctx: ServiceContext, db: Engine, commits: list[int]
) -> None:
    """Nothing refused, nothing to undo: the batch runs as a command alone does, with
    no savepoint and its release (two statements a command, and on PostgreSQL a
    round trip before each command's lock)."""
    (a, ta, va), (b, tb, vb), (c, tc, vc) = tables(ctx, 3)
    commits.clear()
    seen, stop = statements_seen(db)
    try:
        done = run_together(ctx, [call(a, ta, va), call(b, tb, vb), call(c, tc, vc)])
    finally:
        stop()
    assert [d.result.version if d.result else None for d in done] == [va + 1, vb + 1, vc + 1]
    assert not any("SAVEPOINT" in s for s in seen), seen
    assert len(commits) == 1
    assert_audit_clean(ctx)


def test_a_refusal_runs_the_batch_again_each_command_in_a_savepoint(
    ctx: ServiceContext, db: Engine, commits: list[int]
) -> None:
    """The first run, without savepoints, meets the refusal: it is rolled back whole
    and the batch runs again with a savepoint a command, so that only the refused
    command's work goes; one commit."""
    (a, ta, va), (b, tb, vb), (c, tc, vc) = tables(ctx, 3)
    commits.clear()
    seen, stop = statements_seen(db)
    try:
        done = run_together(ctx, [call(a, ta, va), call(b, tb, vb - 1), call(c, tc, vc)])
    finally:
        stop()
    assert [d.result.version if d.result else None for d in done] == [va + 1, None, vc + 1]
    assert isinstance(done[1].refused, StaleVersion)
    assert len(commits) == 1
    marks = [s if "SAVEPOINT" in s else "lock" for s in seen if "SAVEPOINT" in s or _locks(s)]
    assert marks == [
        "lock",  # a, then b refused: rolled back
        "lock",
        "SAVEPOINT cardroom_command",
        "lock",
        "RELEASE SAVEPOINT cardroom_command",
        "SAVEPOINT cardroom_command",
        "lock",
        "ROLLBACK TO SAVEPOINT cardroom_command",
        "SAVEPOINT cardroom_command",
        "lock",
        "RELEASE SAVEPOINT cardroom_command",
    ], marks
    assert (version_of(ctx, a), version_of(ctx, b), version_of(ctx, c)) == (va + 1, vb, vc + 1)
    assert_audit_clean(ctx)


def _locks(statement: str) -> bool:
    """The read that locks a game's row and loads it (``game_rows.lock_game``)."""
    return statement.startswith("SELECT games.id") and "\nFROM games \nWHERE games.id" in statement


def test_a_session_signed_out_after_its_batch_is_refused_at_the_next(
    ctx: ServiceContext,
) -> None:
    """The batches remember a token's hash, never its proof: a sender proved in one
    batch who then signs out is refused in the next, read in its transaction."""
    ((a, token, version),) = tables(ctx, 1)
    first = run_together(ctx, [call(a, token, version)])[0]
    assert first.result is not None and first.user is not None
    accounts.sign_out(ctx, token)
    done = run_together(ctx, [call(a, token, first.result.version)])[0]
    assert isinstance(done.refused, AuthenticationFailed) and done.user is None
    assert version_of(ctx, a) == first.result.version


def test_a_sender_suspended_or_expired_after_their_batch_is_refused_at_the_next(
    ctx: ServiceContext, clock: Any
) -> None:
    """A proof row read before with the same values keeps the user made then
    (``accounts._proved``): a suspension changes the row, and an expiry is checked
    against each batch's moment, so both refuse the next command."""
    (a, ta, va), (b, tb, vb) = tables(ctx, 2)
    done = run_together(ctx, [call(a, ta, va), call(b, tb, vb)])
    assert all(d.result is not None for d in done)
    boss = admin(ctx)
    accounts.suspend(ctx, boss, accounts.user_for_token(ctx, ta).name, "testing the proof")
    refused = run_together(ctx, [call(a, ta, va + 1)])[0]
    assert isinstance(refused.refused, AccountSuspended) and refused.user is None
    clock.advance(ctx.settings.session_lifetime)
    expired = run_together(ctx, [call(b, tb, vb + 1)])[0]
    assert isinstance(expired.refused, AuthenticationFailed) and expired.user is None
    assert expired.refused.sentence == accounts.SESSION_EXPIRED
    assert (version_of(ctx, a), version_of(ctx, b)) == (va + 1, vb + 1)
