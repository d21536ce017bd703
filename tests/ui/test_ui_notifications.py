"""The notification centre (/notifications): the notices the room kept for a player,
newest first with the unread ones marked, each markable as read and each opening its
table (which marks it read), older ones behind "More". Each effect is read back from
the server (GET /api/me/notifications)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit

pytestmark = pytest.mark.slow

PAGE = 20  # what the page lists at once (js/pages/notifications.js)


def notices(account: Account, **query: Any) -> dict[str, Any]:
    params = "&".join(f"{k}={v}" for k, v in query.items())
    page: dict[str, Any] = account.call("GET", f"/api/me/notifications?{params}")
    return page


def play_until(host: Account, guest: Account, game_id: int, wanted: int) -> None:
    """Check or call, hand after hand, until the host has ``wanted`` notices: each
    street the action reaches them is a "your turn" notice."""
    for _ in range(200):
        if len(notices(host, limit=100)["notices"]) >= wanted:
            return
        for account in (host, guest):
            game = account.call("GET", f"/api/games/{game_id}")
            hand = game.get("hand")
            if hand is not None and not hand.get("running"):
                account.call("POST", f"/api/games/{game_id}/continue", {"version": game["version"]})
            elif hand and hand.get("legal"):
                kind = "check" if "check" in hand["legal"]["actions"] else "call"
                body = {"kind": kind, "version": game["version"]}
                account.call("POST", f"/api/games/{game_id}/actions", body)
                break
    raise AssertionError(f"the host never had {wanted} notices")


def test_notices_newest_first_marked_read_and_opening_their_table(
    room: Room, browser: Browser
) -> None:
    host = Account(room.base, unique_name("nora"))
    guest = Account(room.base, unique_name("otto"))
    # Two games: in each the host is told it started and that it is their turn (a
    # game keeps one unread turn notice: a later one would mark the older read).
    heads_up_game(host, guest)
    heads_up_game(host, guest)
    before = notices(host)
    told = before["notices"]
    assert before["unread"] == len(told) == 4 and not any(n["read"] for n in told)
    player = host.open(browser)
    page = player.page
    visit(page, room.url("/notifications"))
    items = page.locator("[data-notices] > li")
    expect(items).to_have_count(len(told))
    # newest first, as the server keeps them, each unread, said in words too
    assert [int(i) for i in items.evaluate_all("els => els.map(e => e.dataset.notice)")] == [
        n["id"] for n in told
    ]
    for index, notice in enumerate(told):
        item = items.nth(index)
        expect(item).to_contain_text(notice["title"])
        expect(item).to_contain_text(notice["body"])
        expect(item.locator("[data-state]")).to_have_text("Unread")
    expect(page.locator("[data-unread-count]")).to_have_text(f"{len(told)} unread notifications.")
    # mark the second newest read: the server has it read, and one fewer unread
    second = items.nth(1)
    second.get_by_role("button", name="Mark as read").click()
    expect(second.locator("[data-state]")).to_have_text("Read")
    expect(second.get_by_role("button", name="Mark as read")).to_have_count(0)
    after = notices(host)
    assert after["unread"] == before["unread"] - 1
    assert [n["id"] for n in after["notices"] if n["read"]] == [told[1]["id"]]
    # open the third one's table: the table's page, and the notice read on the server
    third = told[2]
    items.nth(2).get_by_role("link", name=third["title"]).click()
    page.wait_for_url(re.compile(rf"/games/{third['game_id']}$"))
    opened = {n["id"]: n for n in notices(host)["notices"]}
    assert opened[third["id"]]["read"] and not opened[told[0]["id"]]["read"]
    assert notices(host)["unread"] == before["unread"] - 2
    # back on the page the read ones say so; "Mark all as read" reads the rest
    visit(page, room.url("/notifications"))
    expect(items.nth(2).locator("[data-state]")).to_have_text("Read")
    expect(items.nth(0).locator("[data-state]")).to_have_text("Unread")
    page.get_by_role("button", name="Mark all as read").click()
    expect(page.locator("[data-unread-count]")).to_have_text("Everything is read.")
    final = notices(host)
    assert final["unread"] == 0 and all(n["read"] for n in final["notices"])
    assert not player.errors, player.errors
    player.context.close()


def test_more_pages_back_and_a_player_without_notices_is_told_so(
    room: Room, browser: Browser
) -> None:
    host = Account(room.base, unique_name("paula"))
    guest = Account(room.base, unique_name("quinn"))
    game_id = heads_up_game(host, guest)
    play_until(host, guest, game_id, PAGE + 2)
    told = [n["id"] for n in notices(host, limit=100)["notices"]]
    player = host.open(browser)
    page = player.page
    visit(page, room.url("/notifications"))
    items = page.locator("[data-notices] > li")
    expect(items).to_have_count(PAGE)
    page.get_by_role("button", name="More").click()
    expect(items).to_have_count(len(told))
    shown = items.evaluate_all("els => els.map(e => Number(e.dataset.notice))")
    assert shown == told  # the older ones follow, none twice, none missing
    expect(page.get_by_role("button", name="More")).to_be_hidden()
    expect(page.locator("[data-notices-empty]")).to_be_hidden()
    # someone the room never told anything: one sentence, no list, no buttons
    stranger = Account(room.base, unique_name("rhea")).open(browser)
    visit(stranger.page, room.url("/notifications"))
    expect(stranger.page.locator("[data-notices-empty]")).to_be_visible()
    expect(stranger.page.locator("[data-notices] > li")).to_have_count(0)
    expect(stranger.page.get_by_role("button", name="Mark all as read")).to_be_hidden()
    assert not player.errors and not stranger.errors, player.errors + stranger.errors
    player.context.close()
    stranger.context.close()
