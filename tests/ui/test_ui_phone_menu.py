"""On a phone (390x844) the navigation folds behind a Menu button, on the table as
on every page: each link is reachable through it and takes the player there."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, ready, unique_name, visit

pytestmark = pytest.mark.slow

LINKS = {
    "Lobby": "/",
    "History": "/history",
    "Statistics": "/stats",
    "Notifications": "/notifications",
    "Account": "/account",
}


def test_the_phone_menu_reaches_every_page(room: Room, browser: Browser, artifacts: Path) -> None:
    host = Account(room.base, unique_name("mona"))
    guest = Account(room.base, unique_name("nils"))
    game_id = heads_up_game(host, guest)
    player = host.open(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    page = player.page
    for start in (f"/games/{game_id}", "/", "/history", "/notifications", "/account"):
        for name, path in LINKS.items():
            visit(page, room.url(start))
            nav = page.get_by_role("navigation", name="Main")
            link = nav.get_by_role("link", name=name, exact=True)
            expect(link).to_be_hidden()  # folded away: the screen is narrow
            menu = page.get_by_role("button", name="Menu")
            expect(menu).to_have_attribute("aria-expanded", "false")
            menu.click()
            expect(menu).to_have_attribute("aria-expanded", "true")
            expect(link).to_be_visible()
            box = link.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
            if start == f"/games/{game_id}" and name == "Lobby":
                player.shot(artifacts, "phone-menu-open")
            link.click()
            page.wait_for_url(room.url(path))
            ready(page)
    # Escape folds it again, the keyboard back on the button
    page.get_by_role("button", name="Menu").click()
    page.keyboard.press("Tab")
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Menu")).to_be_focused()
    expect(
        page.get_by_role("navigation", name="Main").get_by_role("link", name="Lobby")
    ).to_be_hidden()
    player.context.close()
    assert not player.errors, player.errors
