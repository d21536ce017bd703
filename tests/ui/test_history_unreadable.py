"""Issue 17, item 1 (d), in the browser: a hand whose stored record cannot be read is
marked in the history list (no replay to open, a sentence instead) while the
player's other hands list and replay as before. The room's own answer is read
through the API: the same hand is ``unreadable`` there, the other not."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import create_engine, delete, select

from cardroom.store.models import GameEvent
from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit

pytestmark = pytest.mark.slow


def fold_a_hand(host: Account, guest: Account, game: int) -> None:
    """The player to act folds: one finished hand."""
    seen = host.call("GET", f"/api/games/{game}")
    seat = seen["hand"]["seat_to_act"]
    actor = host if seat == seen["viewer_seat"] else guest
    version = actor.call("GET", f"/api/games/{game}")["version"]
    actor.call("POST", f"/api/games/{game}/actions", {"kind": "fold", "version": version})


def test_a_damaged_hand_is_marked_and_the_others_still_replay(room: Room, browser: Browser) -> None:
    alice = Account(room.base, unique_name("unread"))
    bob = Account(room.base, unique_name("unread"))
    broken_game = heads_up_game(alice, bob, rules={"turn_clock_seconds": None})
    fold_a_hand(alice, bob, broken_game)
    good_game = heads_up_game(alice, bob, rules={"turn_clock_seconds": None})
    fold_a_hand(alice, bob, good_game)
    hands: list[dict[str, Any]] = alice.call("GET", "/api/me/hands")["hands"]
    broken = next(h["id"] for h in hands if h["game_id"] == broken_game)
    good = next(h["id"] for h in hands if h["game_id"] == good_game)
    engine = create_engine(room.database_url)
    try:
        with engine.begin() as connection:  # one of the hand's action rows is lost
            lost = connection.scalar(
                select(GameEvent.id).where(
                    GameEvent.hand_id == broken, GameEvent.kind == "PlayerActed"
                )
            )
            connection.execute(delete(GameEvent).where(GameEvent.id == lost))
    finally:
        engine.dispose()
    listed = {h["id"]: h for h in alice.call("GET", "/api/me/hands")["hands"]}
    assert listed[broken]["unreadable"] and not listed[good]["unreadable"]

    player = alice.open(browser)
    page = player.page
    visit(page, room.url("/history"))
    row = page.locator(f"tr[data-hand-id='{broken}']")
    expect(row).to_contain_text("cannot be read")
    expect(row.get_by_role("button")).to_be_disabled()
    page.locator(f"tr[data-hand-id='{good}']").get_by_role("button", name="Replay").click()
    expect(page.locator("[data-error]")).to_be_empty()
    assert player.errors == []
    player.context.close()
