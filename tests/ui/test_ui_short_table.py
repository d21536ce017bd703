"""A cash table left with one player is not "Paused" (the word of the host's pause):
the table says it waits for players and the lobby's badge "Needs players", from the
summary's ``waiting_for_players``; the host may still pause it, and then it reads
Paused, with Resume (a table short of players has no hold to resume)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit
from tests.ui.played_hands import game_of, move

pytestmark = pytest.mark.slow

SHORT = (
    "Waiting for players: a hand needs two. The next is dealt when another player sits"
    " down or comes back."
)
HELD = "Paused by the host: no hand is dealt until the table is resumed."


def test_a_table_left_with_one_player_waits_for_players(room: Room, browser: Browser) -> None:
    host = Account(room.base, unique_name("shorth"))
    guest = Account(room.base, unique_name("shortg"))
    passer = Account(room.base, unique_name("shortp"))
    game_id = heads_up_game(host, guest)
    move(host, game_id, "fold")
    guest.call("POST", f"/api/games/{game_id}/cash-out", {})
    summary = game_of(host, game_id)["summary"]
    assert summary["status"] == "paused" and summary["waiting_for_players"] is True

    hosting = host.open(browser)
    visit(hosting.page, room.url(f"/games/{game_id}"))
    expect(hosting.page.locator("[data-status]")).to_have_text(SHORT)
    looking = passer.open(browser, viewport={"width": 390, "height": 844})
    visit(looking.page, room.url("/"))
    row = looking.page.locator(f"[data-games] tr[data-game='{game_id}']")
    expect(row.locator(".badge")).to_have_text("Needs players")
    listed = next(g for g in passer.call("GET", "/api/games")["games"] if g["id"] == game_id)
    assert listed["waiting_for_players"] is True

    # the host's own pause still reads Paused, everywhere; nothing is held before it
    hosting.page.get_by_text("Host", exact=True).click()
    expect(hosting.page.get_by_role("button", name="Resume the table")).to_have_count(0)
    hosting.page.get_by_role("button", name="Pause the table").click()
    dialog = hosting.page.get_by_role("dialog", name="Pause the table")
    dialog.get_by_label("Reason").fill("Back after dinner")
    dialog.get_by_role("button", name="Yes").click()
    expect(hosting.page.locator("[data-status]")).to_have_text(HELD)
    expect(hosting.page.get_by_role("button", name="Resume the table")).to_be_visible()
    summary = game_of(host, game_id)["summary"]
    assert summary["status"] == "paused" and summary["waiting_for_players"] is False
    visit(looking.page, room.url("/"))
    expect(row.locator(".badge")).to_have_text("Paused")
    for player in (hosting, looking):
        assert player.errors == [], player.errors
        player.context.close()
