"""The audit checks every game's ledger account against the money its stored table
holds: clean after real play, and it notices chips added to a table by hand."""

from __future__ import annotations

import copy

import pytest
from sqlalchemy import Engine

from cardroom.cli import main
from cardroom.service import lobby, money
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Game
from tests.service.gamekit import (
    assert_audit_clean,
    everyone_continues,
    passive,
    play_hand,
    players,
    shove,
    source,
)


def played(ctx: ServiceContext) -> tuple[int, int]:
    """A cash game two hands in, and a tournament mid-hand: (cash game, tournament)."""
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    cash = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00, seats=3)).game_id
    lobby.join(ctx, cash, bob)
    lobby.start(ctx, cash, alice, source=source())
    play_hand(ctx, cash, passive)
    everyone_continues(ctx, cash, source(2))
    play_hand(ctx, cash, shove)
    options = GameOptions(format="tournament", buy_in=7_00, seats=3)
    tournament = lobby.create_game(ctx, carol, options).game_id
    lobby.join(ctx, tournament, bob)
    lobby.start(ctx, tournament, carol, source=source(3))
    return cash, tournament


def tamper(db: Engine, game_id: int, change: int) -> None:
    with make_sessionmaker(db).begin() as session:
        game = session.get(Game, game_id)
        assert game is not None
        state = copy.deepcopy(game.state)
        state["seats"][0]["stack"] += change
        game.state = state


def test_clean_after_play(ctx: ServiceContext) -> None:
    played(ctx)
    report = money.audit(ctx)
    assert report.differences == ()
    assert report.games == 2
    assert report.money_held_by_tables_cents == report.chips_on_tables_cents
    assert report.chips_on_tables_cents == 20_00 + 14_00
    assert report.player_balances_cents + report.chips_on_tables_cents == 300_00


def test_chips_added_to_a_table_are_a_difference(ctx: ServiceContext, db: Engine) -> None:
    cash, tournament = played(ctx)
    tamper(db, cash, 5_00)
    (difference,) = money.audit(ctx).differences
    assert difference.subject == f"game {cash}"
    assert difference.found_cents == difference.expected_cents + 5_00
    assert "differs from its ledger account" in difference.explanation
    tamper(db, cash, -5_00)
    assert_audit_clean(ctx)
    # A tournament's chips are not money (its prize pool is); its pool is.
    with make_sessionmaker(db).begin() as session:
        game = session.get(Game, tournament)
        assert game is not None
        game.state = {**game.state, "prize_pool": game.state["prize_pool"] + 1}
    assert [d.subject for d in money.audit(ctx).differences] == [f"game {tournament}"]


def test_an_unreadable_table_is_a_difference(ctx: ServiceContext, db: Engine) -> None:
    cash, _ = played(ctx)
    with make_sessionmaker(db).begin() as session:
        game = session.get(Game, cash)
        assert game is not None
        game.state = {"version": 99}
    (difference,) = money.audit(ctx).differences
    assert difference.explanation == "the game's stored table cannot be read"


def test_cardroom_audit_fails_on_a_tampered_table(
    ctx: ServiceContext,
    db: Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cash, _ = played(ctx)
    url = db.url.render_as_string(hide_password=False)
    monkeypatch.setenv("CARDROOM_PASSWORD_HASHING", "cheap")
    assert main(["audit", "--database-url", url]) == 0
    assert "No differences" in capsys.readouterr().out
    tamper(db, cash, 1)
    status = main(["audit", "--database-url", url])
    out, err = capsys.readouterr()
    assert status == 2
    assert f"game {cash}: the money the game's table holds differs" in out
    assert "difference" in err
