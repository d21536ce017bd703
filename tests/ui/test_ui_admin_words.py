"""The admin page's open tables name each format as the lobby does: the walk-through
of 2026-12-02 read "Standard per_hand", the code's word."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.kit import Account, open_player, sign_in, unique_name, visit

pytestmark = pytest.mark.slow


def test_the_admin_tables_name_the_format_in_words(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("fmt"))
    body = {"preset": "standard", "seats": 2, "buy_in": 500}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    assert host.call("GET", f"/api/games/{game_id}")["summary"]["format"] == "per_hand"
    admin = open_player(browser, ADMIN)
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    visit(admin.page, room.url("/admin"))
    row = admin.page.locator(f"[data-tables] tr[data-game='{game_id}']")
    expect(row).to_contain_text("Standard · Per-hand cash")
    expect(row).not_to_contain_text("per_hand")
    assert admin.errors == [], admin.errors
    admin.context.close()
