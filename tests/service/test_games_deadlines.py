"""The clock: deadlines are rows, fired through the same commands players use, each
exactly once, even when several workers fire at the same moment."""

from __future__ import annotations

import threading
from datetime import timedelta

from sqlalchemy import func, select

from cardroom.service import deadlines, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.deadlines import Fired
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Deadline, DeadlineKind, GameEvent, GameStatus
from tests.conftest import FakeClock
from tests.service.gamekit import (
    assert_audit_clean,
    balance,
    detail,
    everyone_continues,
    folder,
    kinds,
    play_hand,
    players,
    source,
)


def pending(ctx: ServiceContext, game: int) -> dict[DeadlineKind, Deadline]:
    with make_sessionmaker(ctx.engine)() as session:
        rows = session.scalars(
            select(Deadline).where(Deadline.game_id == game, Deadline.fired_at.is_(None))
        ).all()
        return {row.kind: row for row in rows}


def count_events(ctx: ServiceContext, kind: str) -> int:
    with make_sessionmaker(ctx.engine)() as session:
        return int(
            session.scalar(
                select(func.count()).select_from(GameEvent).where(GameEvent.kind == kind)
            )
            or 0
        )


def heads_up(ctx: ServiceContext, names: tuple[str, str] = ("alice", "bob"), **kw: object) -> int:
    alice, bob = players(ctx, *names)
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00, **kw)).game_id  # type: ignore[arg-type]
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source())
    return game


def test_the_turn_clock_fires_once(ctx: ServiceContext, clock: FakeClock) -> None:
    start = ctx.now()
    game = heads_up(ctx)
    turn = pending(ctx, game)
    assert set(turn) == {DeadlineKind.TURN}
    assert turn[DeadlineKind.TURN].due_at == start + timedelta(seconds=120)
    assert deadlines.next_due(ctx) == start + timedelta(seconds=120)

    assert deadlines.fire_due(ctx, start + timedelta(seconds=119)) == []
    clock.advance(timedelta(seconds=120))
    (fired,) = deadlines.fire_due(ctx, worker="worker-1")
    assert (fired.kind, fired.game_id) == (DeadlineKind.TURN, game)
    assert fired.outcome == "The clock acted for the player to act."
    # Heads-up the small blind acts first: facing the big blind, the clock folds.
    assert kinds(fired.result)[0] == "PlayerActed" and "ClockActed" in kinds(fired.result)
    assert fired.result.events[0].payload == {
        "seat": 1,
        "action": "fold",
        "amount": 0,
        "bet": 10,
        "all_in": False,
        "timed_out": True,
    }
    assert fired.result.version == detail(ctx, game).summary.version
    assert deadlines.fire_due(ctx) == []  # fired once

    with make_sessionmaker(ctx.engine)() as session:
        row = session.get(Deadline, fired.deadline_id)
        assert row is not None and row.fired_at == ctx.now() and row.claimed_by == "worker-1"
    # The hand is over: the review time runs.
    assert pending(ctx, game)[DeadlineKind.CONTINUE].due_at == ctx.now() + timedelta(seconds=60)


def test_acting_moves_the_turn_deadline(ctx: ServiceContext, clock: FakeClock) -> None:
    game = heads_up(ctx)
    clock.advance(timedelta(seconds=100))
    turn = pending(ctx, game)[DeadlineKind.TURN]
    player = next(s.user_id for s in detail(ctx, game).seats if s.seat == 1)
    play.act(ctx, game, player, "call")
    moved = pending(ctx, game)[DeadlineKind.TURN]
    assert moved.id == turn.id and moved.due_at == ctx.now() + timedelta(seconds=120)
    clock.advance(timedelta(seconds=30))
    assert deadlines.fire_due(ctx) == []


def test_two_workers_fire_each_deadline_once(ctx: ServiceContext, clock: FakeClock) -> None:
    games = [heads_up(ctx, (f"a{n}x", f"b{n}x")) for n in range(4)]
    clock.advance(timedelta(seconds=120))
    barrier = threading.Barrier(2)
    fired: dict[str, list[Fired]] = {}
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            barrier.wait()
            fired[name] = deadlines.fire_due(ctx, worker=name)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"w{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    all_fired = fired["w0"] + fired["w1"]
    assert sorted(f.game_id for f in all_fired) == games
    assert len({f.deadline_id for f in all_fired}) == 4
    assert count_events(ctx, "ClockActed") == 4
    with make_sessionmaker(ctx.engine)() as session:
        claims = session.execute(
            select(Deadline.id, Deadline.claimed_by).where(Deadline.fired_at.is_not(None))
        ).all()
    assert {(f.deadline_id, w) for w in fired for f in fired[w]} == set(claims)
    assert deadlines.fire_due(ctx) == []


def test_the_review_time_ends_and_the_next_hand_is_dealt(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    game = heads_up(ctx)
    play_hand(ctx, game, folder)
    due = pending(ctx, game)
    assert set(due) == {DeadlineKind.CONTINUE}
    assert due[DeadlineKind.CONTINUE].due_at == ctx.now() + timedelta(seconds=60)
    clock.advance(timedelta(seconds=60))
    (fired,) = deadlines.fire_due(ctx, source=source(3))
    assert fired.outcome == "The next hand was dealt."
    assert "HandDealt" in kinds(fired.result)
    assert detail(ctx, game).hand.number == 2  # type: ignore[union-attr]
    assert deadlines.fire_due(ctx) == []


def test_a_waiting_game_is_cancelled_after_72_quiet_hours(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, bob)
    clock.advance(timedelta(hours=71))
    assert deadlines.fire_due(ctx) == []
    lobby.join(ctx, game, carol)  # activity: the 72 hours start again
    clock.advance(timedelta(hours=2))
    assert deadlines.fire_due(ctx) == []
    assert [balance(ctx, p) for p in (alice, bob, carol)] == [90_00] * 3
    clock.advance(timedelta(hours=70))
    (fired,) = deadlines.fire_due(ctx)
    assert fired.kind is DeadlineKind.CANCEL_WAITING and fired.result.status is GameStatus.CANCELLED
    assert kinds(fired.result).count("BuyInRefunded") == 3
    assert kinds(fired.result)[-1] == "GameCancelled"
    assert [balance(ctx, p) for p in (alice, bob, carol)] == [100_00] * 3
    assert detail(ctx, game).summary.status is GameStatus.CANCELLED
    assert pending(ctx, game) == {}
    assert deadlines.fire_due(ctx) == []
    # The players are free for other games.
    lobby.create_game(ctx, bob, GameOptions(buy_in=10_00))
    assert_audit_clean(ctx)


def test_blind_levels_by_minutes(ctx: ServiceContext, clock: FakeClock) -> None:
    start = ctx.now()
    game = heads_up(
        ctx,
        format="tournament",
        small_blind=10,
        big_blind=20,
        blinds_every_minutes=10,
        blinds_rate_percent=50,
        rules={"turn_clock_seconds": 24 * 3600},
    )
    level = pending(ctx, game)[DeadlineKind.BLIND_LEVEL]
    assert level.due_at == start + timedelta(minutes=10)
    assert level.payload == {"level": 1, "small_blind": 15, "big_blind": 30}
    clock.advance(timedelta(minutes=10))
    # (A day's clock also has its reminder's first look, 4 minutes into the turn.)
    (fired,) = [f for f in deadlines.fire_due(ctx) if f.kind is DeadlineKind.BLIND_LEVEL]
    assert kinds(fired.result) == ["BlindLevelReached"]
    assert pending(ctx, game)[DeadlineKind.BLIND_LEVEL].payload["level"] == 2
    # The hand being played keeps its blinds; the next one is dealt at the new level.
    play_hand(ctx, game, folder)
    results = everyone_continues(ctx, game, source(8))
    dealt = [e for r in results for e in r.events if e.kind in ("BlindsRaised", "HandDealt")]
    assert [e.kind for e in dealt] == ["BlindsRaised", "HandDealt"]
    assert dealt[0].payload == {"level": 1, "small_blind": 15, "big_blind": 30}


def test_legacy_tables_have_no_turn_clock(ctx: ServiceContext) -> None:
    game = heads_up(ctx, preset="legacy")
    assert pending(ctx, game) == {}
    assert detail(ctx, game).turn_due_at is None


def test_three_timeouts_in_a_row_cash_a_player_out(ctx: ServiceContext, clock: FakeClock) -> None:
    game = heads_up(ctx)
    everyone = {s.user_id for s in detail(ctx, game).seats}
    for _ in range(40):
        clock.advance(timedelta(seconds=121))
        deadlines.fire_due(ctx, source=source(clock.moment.minute))
        if count_events(ctx, "CashedOut"):
            break
    assert count_events(ctx, "CashOutPending") == 1 and count_events(ctx, "CashedOut") == 1
    shown = detail(ctx, game)
    assert len(shown.seats) == 1 and shown.summary.status is GameStatus.PAUSED
    on_table = shown.seats[0].stack
    assert sum(balance(ctx, p) for p in everyone) + on_table == 200_00
    assert pending(ctx, game) == {}  # nothing to wait for until someone sits down
    assert_audit_clean(ctx)


def test_a_deadline_the_table_refuses_is_fired_with_the_refusal(ctx: ServiceContext) -> None:
    game = heads_up(ctx, preset="legacy")
    version = detail(ctx, game).summary.version
    with make_sessionmaker(ctx.engine).begin() as session:
        session.add(
            Deadline(
                game_id=game,
                kind=DeadlineKind.TURN,
                due_at=ctx.now(),
                payload={},
                created_at=ctx.now(),
            )
        )
    (fired,) = deadlines.fire_due(ctx)
    assert fired.outcome == "This table has no turn clock."
    assert fired.result.events == () and fired.result.version == version
    assert detail(ctx, game).summary.version == version
    assert deadlines.fire_due(ctx) == []
    with make_sessionmaker(ctx.engine)() as session:
        row = session.get(Deadline, fired.deadline_id)
        assert row is not None and row.fired_at is not None
        assert row.outcome == "This table has no turn clock."
