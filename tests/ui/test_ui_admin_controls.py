"""The admin page's controls that the grant-and-fold test leaves: Remove, Suspend and
Reinstate a player, Resume a paused table and Open one; and the lobby's links to a
table (Open your own, Watch another's). Each effect is read from the server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.kit import (
    Account,
    admin_user_row,
    heads_up_game,
    open_player,
    ready,
    sign_in,
    unique_name,
    visit,
)

pytestmark = pytest.mark.slow


def do_it(page: Page, reason: str, amount: str | None = None) -> None:
    dialog = page.get_by_role("dialog")
    if amount is not None:
        dialog.get_by_label("Amount ($)").fill(amount)
    dialog.get_by_label("Reason").fill(reason)
    dialog.get_by_role("button", name="Do it").click()
    expect(dialog).to_be_hidden()


def admin_user(admin: Account, user_id: int) -> dict[str, Any]:
    users = admin.call("GET", "/api/admin/users?limit=200")["users"]
    found: dict[str, Any] = next(u for u in users if u["id"] == user_id)
    return found


def test_remove_suspend_reinstate_resume_and_open(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("uma"))
    guest = Account(room.base, unique_name("ugo"))
    game_id = heads_up_game(host, guest)
    version = host.call("GET", f"/api/games/{game_id}")["version"]
    host.call("POST", f"/api/games/{game_id}/pause", {"reason": "a break", "version": version})

    admin = open_player(browser, ADMIN)
    page = admin.page
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    visit(page, room.url("/admin"))
    session = page.context.cookies()
    token = next(c["value"] for c in session if c["name"] == "cardroom_session")
    api = Account.__new__(Account)  # the page's own session, for reading back
    api.base, api.name, api.token = room.base, ADMIN, token

    page.locator("[data-users] tr").first.wait_for()
    user = admin_user_row(page, guest.id)
    expect(user).to_contain_text("$90.00")
    user.get_by_role("button", name="Remove").click()
    do_it(page, "Duplicate grant", amount="2.50")
    expect(user).to_contain_text("$87.50")
    assert guest.call("GET", "/api/me/balance")["balance_cents"] == 8_750

    user.get_by_role("button", name="Suspend").click()
    do_it(page, "Collusion")
    expect(user).to_contain_text("Suspended")
    assert admin_user(api, guest.id)["suspended"] is True
    user.get_by_role("button", name="Reinstate").click()
    do_it(page, "Appeal upheld")
    expect(user).to_contain_text("Active")
    assert admin_user(api, guest.id)["suspended"] is False

    table = page.locator(f"[data-tables] tr[data-game='{game_id}']")
    table.get_by_role("button", name="Resume").click()
    do_it(page, "Back from the break")
    expect(table).to_contain_text(re.compile("running", re.I))
    assert host.call("GET", f"/api/games/{game_id}")["summary"]["status"] == "running"
    table.get_by_role("link", name="Open").click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(page)
    expect(page.locator("[data-title]")).to_contain_text("House")
    assert admin.errors == [], admin.errors
    admin.context.close()


def test_the_lobby_opens_your_table_and_watches_anothers(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("vera"))
    other = Account(room.base, unique_name("vick"))
    body = {"preset": "house", "format": "cash", "seats": 6, "buy_in": 1000}
    mine = int(host.call("POST", "/api/games", body)["game_id"])
    theirs = int(other.call("POST", "/api/games", body)["game_id"])
    player = host.open(browser)
    page = player.page
    visit(page, room.url("/"))
    page.locator(f"[data-mine] tr[data-game='{mine}']").get_by_role("link", name="Open").click()
    page.wait_for_url(room.url(f"/games/{mine}"))
    ready(page)
    expect(page.locator(".seat.me")).to_be_visible()  # her own seat
    visit(page, room.url("/"))
    row = page.locator(f"[data-games] tr[data-game='{theirs}']")
    row.get_by_role("link", name="Watch").click()
    page.wait_for_url(room.url(f"/games/{theirs}"))
    ready(page)
    # watching takes no seat and no money
    expect(page.locator(".seat.me")).to_have_count(0)
    seats = other.call("GET", f"/api/games/{theirs}")["seats"]
    assert [s["name"] for s in seats] == [other.name]
    assert host.call("GET", "/api/me/balance")["balance_cents"] == 9_000  # her own buy-in
    assert player.errors == [], player.errors
    player.context.close()


def test_more_players_pressed_twice_lists_each_player_once(room: Room, browser: Any) -> None:
    """A second press of "More players" before the next page came in asked for the same
    page again and listed its players twice (seen as two "Unmute in chat" buttons in one
    player's row); it is ignored while a page is on its way."""
    admin = open_player(browser, ADMIN)
    page = admin.page
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    session = page.context.cookies()
    api = Account.__new__(Account)
    api.base, api.name = room.base, ADMIN
    api.token = next(c["value"] for c in session if c["name"] == "cardroom_session")
    while api.call("GET", "/api/admin/users?limit=50")["next_after_id"] is None:
        Account(room.base, unique_name("filler"))  # more than a page of players
    visit(page, room.url("/admin"))
    page.locator("[data-users] tr").first.wait_for()
    more = page.get_by_role("button", name="More players")
    expect(more).to_be_visible()
    listed = page.locator("[data-users] tr").count()
    more.evaluate("button => { button.click(); button.click(); }")  # in one step
    expect(page.locator("[data-users] tr")).not_to_have_count(listed)
    page.wait_for_timeout(500)  # the second press's page, had it been asked for
    shown = page.locator("[data-users] tr").evaluate_all(
        "rows => rows.map(row => Number(row.dataset.user))"
    )
    first = api.call("GET", "/api/admin/users?limit=50")
    second = api.call("GET", f"/api/admin/users?limit=50&after_id={first['next_after_id']}")
    assert shown == [u["id"] for u in first["users"] + second["users"]]
    assert not admin.errors, admin.errors
