"""The clock inside the server: the scheduler in the app's lifespan fires what is due
(the turn clock, the end of the review), the table's watchers see it, a restarted
server picks the deadlines up from their rows, and two servers on one database fire
each deadline once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from cardroom.service.context import ServiceContext
from cardroom.store.models import Deadline, GameEvent
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from cardroom.web.live import Live, live_of
from tests.conftest import FakeClock
from tests.web.games_kit import heads_up, last_seq, new_player, watching


def clocked_app(ctx: ServiceContext) -> FastAPI:
    return create_app(ctx, web=WebSettings(), clock=True)


@pytest.fixture
def clocked(ctx: ServiceContext) -> Iterator[TestClient]:
    with TestClient(clocked_app(ctx)) as client:
        yield client


def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


def count(ctx: ServiceContext, kind: str) -> int:
    with ctx.transaction() as session:
        return int(
            session.scalar(
                select(func.count()).select_from(GameEvent).where(GameEvent.kind == kind)
            )
            or 0
        )


def fired_deadlines(ctx: ServiceContext) -> int:
    with ctx.transaction() as session:
        return int(
            session.scalar(
                select(func.count()).select_from(Deadline).where(Deadline.fired_at.is_not(None))
            )
            or 0
        )


def test_the_clock_acts_and_deals_and_the_table_sees_it(
    clocked: TestClient, ctx: ServiceContext, clock: FakeClock
) -> None:
    alice, bob, carol = (new_player(clocked, n) for n in ("alice", "bob", "carol"))
    game = heads_up(clocked, alice, bob)
    live = live_of(clocked.app)
    with watching(clocked, game, carol) as w:
        clock.advance(timedelta(seconds=121))  # house: 120 s to act
        live.wake_clock()
        events, snapshot = w.until_snapshot()
        acted = next(e for e in events if e["type"] == "PlayerActed")
        assert acted["data"]["timed_out"] and acted["data"]["action"] == "fold"
        assert "ClockActed" in [e["type"] for e in events]
        assert not snapshot["game"]["hand"]["running"]
        assert snapshot["game"]["deadlines"]["deal_due_at"] is not None
        # The review is over after 60 s: the clock deals the next hand.
        clock.advance(timedelta(seconds=61))
        live.wake_clock()
        events, snapshot = w.until_snapshot()
        assert "HandDealt" in [e["type"] for e in events]
        assert snapshot["game"]["hand"]["number"] == 2
        assert snapshot["seq"] == last_seq(ctx, game)
    assert count(ctx, "ClockActed") == 1


def test_a_restarted_server_fires_what_fell_due_while_it_was_down(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    with TestClient(create_app(ctx, web=WebSettings(), clock=False)) as first:
        alice, bob = new_player(first, "alice"), new_player(first, "bob")
        game = heads_up(first, alice, bob)
    clock.advance(timedelta(hours=1))  # the server is down for an hour
    with TestClient(clocked_app(ctx)) as second:
        live: Live = live_of(second.app)
        wait_for(lambda: len(live.fired) == 1)
        assert [f.game_id for f in live.fired] == [game]
        assert count(ctx, "ClockActed") == 1
    assert fired_deadlines(ctx) == 1


def test_two_servers_on_one_database_fire_each_deadline_once(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    with ExitStack() as stack:
        servers = [stack.enter_context(TestClient(clocked_app(ctx))) for _ in range(2)]
        players = [new_player(servers[0], n) for n in ("ann", "ben", "cat", "dan", "eve", "fay")]
        games = [heads_up(servers[i % 2], players[2 * i], players[2 * i + 1]) for i in range(3)]
        clock.advance(timedelta(seconds=121))
        for server in servers:
            live_of(server.app).wake_clock()
        lives = [live_of(s.app) for s in servers]
        wait_for(lambda: sum(len(live.fired) for live in lives) >= len(games))
        time.sleep(0.3)  # room for a second firing, if there were one
        fired = [f for live in lives for f in live.fired]
    assert sorted(f.game_id for f in fired) == sorted(games)
    assert count(ctx, "ClockActed") == len(games) == fired_deadlines(ctx)
