"""The statistics page and a table's ledger at a phone's and a desktop's size: nothing
sticks out sideways (layout_kit.out_of_width), the figures and rows are shown, no page
error; the screenshots are kept in artifacts/ui/ to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, ready, unique_name, visit
from tests.ui.layout_kit import out_of_width
from tests.ui.played_hands import three_hands

pytestmark = pytest.mark.slow

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_statistics_and_ledger_fit_the_screen(
    room: Room, browser: Any, artifacts: Path, size: str
) -> None:
    host = Account(room.base, unique_name("lyh"))
    guest = Account(room.base, unique_name("lyg"))
    game_id, _, _ = three_hands(host, guest)
    player = host.open(browser, viewport=SIZES[size])
    page = player.page

    visit(page, room.url("/stats"))
    ready(page)
    hands = host.call("GET", "/api/me/statistics")["overall"]["hands"]
    expect(page.locator("[data-figures] [data-figure=hands] dd")).to_have_text(str(hands))
    expect(page.locator(f"[data-stats-games] tr[data-game='{game_id}']")).to_be_visible()
    page.screenshot(path=str(artifacts / f"stats-{size}.png"), full_page=True)
    assert out_of_width(page) == []

    visit(page, room.url(f"/games/{game_id}/ledger"))
    ready(page)
    for line in host.call("GET", f"/api/games/{game_id}/ledger")["players"]:
        row = page.locator(f"[data-ledger-players] tr[data-player='{line['user_id']}']")
        expect(row).to_contain_text(line["name"])
    page.screenshot(path=str(artifacts / f"ledger-{size}.png"), full_page=True)
    assert out_of_width(page) == []
    assert player.errors == [], player.errors
    player.context.close()
