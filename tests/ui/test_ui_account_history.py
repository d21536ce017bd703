"""The account's notification fields and the history page's links and form, each used
in the browser and its effect read from the server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, ready, unique_name, visit

pytestmark = pytest.mark.slow


def test_browser_notifications_and_email_are_saved_or_refused(room: Room, browser: Any) -> None:
    account = Account(room.base, unique_name("nora"))
    player = account.open(browser)
    page = player.page
    visit(page, room.url("/account"))
    form = page.locator("[data-notify-form]")
    browser_box = form.get_by_label("As browser notifications while a page of the room is open")
    expect(browser_box).to_be_checked()  # the room's default
    browser_box.uncheck()
    form.get_by_role("button", name="Save notification settings").click()
    expect(form.locator("[data-notify-saved]")).to_have_text("Saved.")
    assert account.call("GET", "/api/me/notification-settings")["browser"] is False

    # this room has no mail server: email cannot be chosen, and the page says why; the
    # address is kept for when it has one
    expect(form.get_by_label("By email")).to_be_disabled()
    expect(page.locator("[data-permission]")).to_contain_text("no mail server")
    form.get_by_label("Email address").fill("nora@example.com")
    form.get_by_role("button", name="Save notification settings").click()
    expect(form.locator("[data-notify-saved]")).to_have_text("Saved.")
    settings = account.call("GET", "/api/me/notification-settings")
    assert (settings["email"], settings["email_address"]) == (False, "nora@example.com")
    assert player.errors == [], player.errors
    player.context.close()


def test_the_history_opens_a_game_by_link_and_by_number_and_replays_a_hand(
    room: Room, browser: Any
) -> None:
    host = Account(room.base, unique_name("hera"))
    guest = Account(room.base, unique_name("hank"))
    game_id = heads_up_game(host, guest)
    game = host.call("GET", f"/api/games/{game_id}")
    host.call("POST", f"/api/games/{game_id}/actions", {"kind": "fold", "version": game["version"]})
    hands = host.call("GET", f"/api/me/hands?game_id={game_id}")["hands"]
    assert [h["number"] for h in hands] == [1]

    player = host.open(browser)
    page = player.page
    visit(page, room.url("/history"))
    # a hand of the list replays in place
    page.get_by_role("button", name=f"Replay hand 1 of game #{game_id}").click()
    expect(page.locator("[data-replay]")).to_be_visible()
    expect(page.locator("[data-step-text]")).to_have_text("Hand #1 is dealt.")
    # the game's own page, by its link
    visit(page, room.url("/history"))
    page.get_by_role("link", name=re.compile(f"^#{game_id} · House")).click()
    page.wait_for_url(room.url(f"/games/{game_id}/history"))
    ready(page)
    expect(page.locator("[data-hands] tr[data-hand='1']")).to_be_visible()
    # and by its number
    visit(page, room.url("/history"))
    page.get_by_label("Game number").fill(str(game_id))
    page.get_by_role("button", name="Open a table's hands").click()
    page.wait_for_url(room.url(f"/games/{game_id}/history"))
    ready(page)
    expect(page.locator("[data-hands] tr[data-hand='1']")).to_contain_text(f"{guest.name} wins")
    assert player.errors == [], player.errors
    player.context.close()
