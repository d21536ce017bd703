"""The table's hold tools for an admin (fold the player to act, pause, resume) and the
lobby's Start for a host's waiting game; each read back from the server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.kit import Account, heads_up_game, open_player, ready, sign_in, unique_name, visit

pytestmark = pytest.mark.slow


def with_reason(page: Page, title: str, reason: str) -> None:
    dialog = page.get_by_role("dialog", name=title)
    dialog.get_by_label("Reason").fill(reason)
    dialog.get_by_role("button", name="Yes").click()
    expect(dialog).to_be_hidden()


def test_an_admin_folds_the_player_to_act_pauses_and_resumes(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("wes"))
    guest = Account(room.base, unique_name("wyn"))
    game_id = heads_up_game(host, guest)  # the host is to act
    admin = open_player(browser, ADMIN)
    page = admin.page
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    visit(page, room.url(f"/games/{game_id}"))

    page.get_by_text("Admin", exact=True).last.click()  # the table's tools, not the header's
    page.get_by_role("button", name=f"Fold {host.name}").click()
    with_reason(page, f"Fold {host.name}", "Away for days")
    events = host.call("GET", f"/api/games/{game_id}/events")["events"]
    folds = [e for e in events if e["type"] == "PlayerActed" and e["data"]["action"] == "fold"]
    assert len(folds) == 1

    page.get_by_role("button", name="Pause the table").click()
    with_reason(page, "Pause the table", "Maintenance")
    expect(page.get_by_role("button", name="Resume the table")).to_be_visible()
    assert host.call("GET", f"/api/games/{game_id}")["summary"]["status"] == "paused"
    page.get_by_role("button", name="Resume the table").click()
    with_reason(page, "Resume the table", "Done")
    expect(page.get_by_role("button", name="Pause the table")).to_be_visible()
    assert host.call("GET", f"/api/games/{game_id}")["summary"]["status"] == "running"
    assert admin.errors == [], admin.errors
    admin.context.close()


def test_the_host_starts_a_waiting_game_from_the_lobby(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("xena"))
    guest = Account(room.base, unique_name("xavi"))
    body = {"preset": "house", "format": "cash", "seats": 4, "buy_in": 1000}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{game_id}/join", {})
    player = host.open(browser)
    page = player.page
    visit(page, room.url("/"))
    row = page.locator(f"[data-mine] tr[data-game='{game_id}']")
    row.get_by_role("button", name="Start").click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(page)
    summary = host.call("GET", f"/api/games/{game_id}")["summary"]
    assert summary["status"] == "running"
    expect(page.locator("[data-log]")).to_contain_text(re.compile("Hand #1"))
    assert player.errors == [], player.errors
    player.context.close()
