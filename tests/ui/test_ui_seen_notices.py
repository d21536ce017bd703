"""A notice about the table the player is looking at is seen: the walk-through of
2026-12-02 found "Notifications 5" after one hand played at an open table, one
unread "Your turn" for every street, each already answered there."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit
from tests.ui.played_hands import move

pytestmark = pytest.mark.slow


def newest(account: Account, game_id: int) -> dict[str, Any]:
    notices = account.call("GET", "/api/me/notifications?limit=20")["notices"]
    found: dict[str, Any] = next(n for n in notices if n["game_id"] == game_id)
    return found


def test_a_turn_told_at_the_open_table_is_marked_read(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("seenh"))
    guest = Account(room.base, unique_name("seeng"))
    game_id = heads_up_game(host, guest)  # the host (button, small blind) acts first
    player = host.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    expect(page.locator("[data-conn]")).to_have_text("Live")
    unread_before = host.call("GET", "/api/me/notifications/unread")["unread"]
    told_before = newest(host, game_id)["id"]

    # called, checked: the flop, where the guest checks and the host is to act
    move(host, game_id, "call")
    move(guest, game_id, "check")
    move(guest, game_id, "check")
    turn = newest(host, game_id)
    assert turn["id"] != told_before and turn["kind"] == "your_turn"
    assert turn["data"]["street"] == "flop"
    for _ in range(50):  # the open page marks it read
        if newest(host, game_id)["read"]:
            break
        time.sleep(0.1)
    assert newest(host, game_id)["read"], "the notice of the table on screen stayed unread"
    # One fewer: the host's preflop turn notice, unread (no page was open then), was
    # superseded by the flop's (one unread turn notice per game), and that one was
    # seen at the table.
    unread_after = unread_before - 1
    assert host.call("GET", "/api/me/notifications/unread")["unread"] == unread_after
    shown = page.locator("[data-unread-notices]")
    if unread_after:
        expect(shown).to_contain_text(str(unread_after))
    else:
        expect(shown).to_be_hidden()

    # the guest, with no page open, keeps their notices unread
    assert not newest(guest, game_id)["read"]
    assert player.errors == [], player.errors
    player.context.close()
