"""The host and admins at a table: fold an inactive player, pause and resume, remove an
idle seat, cancel a waiting game; each in the admin log with who, when, why, before
and after; everyone else refused without a change."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta

import pytest
from sqlalchemy import select

from cardroom.service import lobby, play, table_admin
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Forbidden, InvalidInput
from cardroom.service.game_errors import NotAllowedNow, NotHostOrAdmin
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import AdminAction, Deadline, GameStatus
from tests.conftest import FakeClock
from tests.service.gamekit import (
    admin,
    assert_audit_clean,
    balance,
    detail,
    everyone_continues,
    folder,
    kinds,
    play_hand,
    players,
    source,
    to_act,
)

Unchanged = Callable[[], AbstractContextManager[None]]


def table(ctx: ServiceContext, preset: str = "house") -> tuple[int, int, int, int]:
    """A running three-handed cash game hosted by alice: (game, alice, bob, carol)."""
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    game = lobby.create_game(ctx, alice, GameOptions(preset=preset, buy_in=10_00, seats=4)).game_id
    lobby.join(ctx, game, bob)
    lobby.join(ctx, game, carol)
    lobby.start(ctx, game, alice, source=source())
    return game, alice, bob, carol


def log(ctx: ServiceContext) -> list[AdminAction]:
    with make_sessionmaker(ctx.engine)() as session:
        query = select(AdminAction).where(AdminAction.action != "create_user")
        return list(session.scalars(query.order_by(AdminAction.id)))


def test_an_admin_folds_an_inactive_player_at_once(
    ctx: ServiceContext, clock: FakeClock, unchanged: Unchanged
) -> None:
    game, alice, bob, carol = table(ctx)
    boss = admin(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    player = turn[0]
    with unchanged(), pytest.raises(NotHostOrAdmin, match="Only an admin can fold"):
        table_admin.fold_inactive(ctx, alice, game, player, "too slow")  # the host, at house
    with unchanged(), pytest.raises(NotHostOrAdmin):
        table_admin.fold_inactive(ctx, bob if player != bob else carol, game, player, "slow")
    with unchanged(), pytest.raises(InvalidInput, match="reason"):
        table_admin.fold_inactive(ctx, boss, game, player, "  ")
    clock.advance(timedelta(seconds=5))
    folded = table_admin.fold_inactive(ctx, boss, game, player, "away for a week")
    assert folded.events[0].kind == "PlayerActed"
    assert folded.events[0].payload["action"] == "fold"
    (entry,) = log(ctx)
    assert (entry.action, entry.admin_id, entry.target_user_id) == ("fold_inactive", boss, player)
    assert entry.reason == "away for a week" and entry.created_at == ctx.now()
    assert entry.before["in_hand"] is True and entry.before["folded"] is False
    assert entry.after["version"] == folded.version
    assert entry.before["version"] == folded.version - 1
    # The console can do it too.
    turn = to_act(ctx, game)
    assert turn is not None
    table_admin.fold_inactive(ctx, CONSOLE, game, turn[0], "from the console")
    assert log(ctx)[-1].admin_id is None
    assert_audit_clean(ctx)


def test_a_legacy_host_folds_after_24_hours(
    ctx: ServiceContext, clock: FakeClock, unchanged: Unchanged
) -> None:
    game, alice, _, _ = table(ctx, "legacy")
    turn = to_act(ctx, game)
    assert turn is not None
    clock.advance(timedelta(hours=23))
    with unchanged(), pytest.raises(NotAllowedNow, match="after 24 hours"):
        table_admin.fold_inactive(ctx, alice, game, turn[0], "gone")
    clock.advance(timedelta(hours=1))
    folded = table_admin.fold_inactive(ctx, alice, game, turn[0], "gone")
    assert folded.events[0].payload["action"] == "fold"
    assert log(ctx)[-1].admin_id == alice


def test_pause_and_resume(ctx: ServiceContext, clock: FakeClock, unchanged: Unchanged) -> None:
    game, alice, bob, _ = table(ctx)
    boss = admin(ctx)
    with unchanged(), pytest.raises(NotHostOrAdmin):
        table_admin.pause(ctx, bob, game, "I am tired")
    paused = table_admin.pause(ctx, alice, game, "dinner")
    assert kinds(paused) == ["TablePaused"] and paused.status is GameStatus.PAUSED
    with unchanged(), pytest.raises(NotAllowedNow, match="already paused"):
        table_admin.pause(ctx, boss, game, "again")
    # The hand being played goes on; no next hand is dealt while paused.
    play_hand(ctx, game, folder)
    everyone_continues(ctx, game)
    assert detail(ctx, game).hand.running is False  # type: ignore[union-attr]
    assert detail(ctx, game).deal_due_at is None
    with make_sessionmaker(ctx.engine)() as session:
        assert session.scalars(select(Deadline).where(Deadline.fired_at.is_(None))).all() == []
    resumed = table_admin.resume(ctx, boss, game, "back", source=source(2))
    assert kinds(resumed)[:2] == ["TableResumed", "HandDealt"]  # everyone had continued
    assert [(a.action, a.admin_id) for a in log(ctx)] == [("pause", alice), ("resume", boss)]
    assert log(ctx)[0].before["held"] is False and log(ctx)[0].after["held"] is True


def test_remove_an_idle_seat(ctx: ServiceContext, unchanged: Unchanged) -> None:
    game, alice, _, carol = table(ctx)
    boss = admin(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    with unchanged(), pytest.raises(NotAllowedNow, match="once the hand"):
        table_admin.remove_idle(ctx, boss, game, turn[0], "idle")
    play_hand(ctx, game, folder)
    with unchanged(), pytest.raises(NotHostOrAdmin, match="Only an admin can remove"):
        table_admin.remove_idle(ctx, alice, game, carol, "idle")
    stack = next(s.stack for s in detail(ctx, game).seats if s.user_id == carol)
    before = balance(ctx, carol)
    removed = table_admin.remove_idle(ctx, boss, game, carol, "idle for days")
    assert kinds(removed)[:2] == ["CashedOut", "PlayerLeft"]
    assert removed.events[1].payload["reason"] == "removed"
    assert balance(ctx, carol) == before + stack
    entry = log(ctx)[-1]
    assert (entry.action, entry.target_user_id, entry.before["stack"]) == (
        "remove_idle",
        carol,
        stack,
    )
    assert entry.after["seat"] is None
    assert_audit_clean(ctx)


def test_a_legacy_host_may_remove_an_idle_seat(ctx: ServiceContext) -> None:
    game, alice, _, carol = table(ctx, "legacy")
    play_hand(ctx, game, folder)
    assert "PlayerLeft" in kinds(table_admin.remove_idle(ctx, alice, game, carol, "idle"))


def test_cancel_a_waiting_game(ctx: ServiceContext, unchanged: Unchanged) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=20_00)).game_id
    lobby.join(ctx, game, bob)
    with unchanged(), pytest.raises(NotHostOrAdmin):
        lobby.cancel_game(ctx, bob, game, "not my game")
    with unchanged(), pytest.raises(Forbidden):
        lobby.cancel_game(ctx, 9999, game, "nobody")
    cancelled = lobby.cancel_game(ctx, alice, game, "nobody came")
    assert cancelled.status is GameStatus.CANCELLED
    assert kinds(cancelled).count("BuyInRefunded") == 2
    assert balance(ctx, alice) == balance(ctx, bob) == 100_00
    with unchanged(), pytest.raises(NotAllowedNow, match="not started"):
        lobby.cancel_game(ctx, alice, game, "again")
    with unchanged(), pytest.raises(NotAllowedNow, match="over"):
        lobby.join(ctx, game, bob)
    with unchanged(), pytest.raises(NotAllowedNow, match="over"):
        play.press_continue(ctx, game, alice)
    entry = log(ctx)[-1]
    assert (entry.action, entry.before["status"], entry.after["status"]) == (
        "cancel_game",
        "waiting",
        "cancelled",
    )
    assert_audit_clean(ctx)
