"""The table page's header is the one every signed-in page shares (the walk-through
of 2026-12-02 found no Sign out there): at 390x844 and 1280x800 none of its pieces
overlap another or leave the screen, with the your-move badge showing; its Sign out
ends the session on the server (the token is refused afterwards) and lands on the
sign-in page."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit
from tests.ui.layout_kit import header_overlaps

pytestmark = pytest.mark.slow

SCREENS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_tables_header_fits_and_its_sign_out_ends_the_session(
    room: Room, browser: Browser, artifacts: Path, screen: str
) -> None:
    # a long name, and the host's turn: the badge, the balance and the name all shown
    host = Account(room.base, unique_name("signing-out-host")[:20])
    guest = Account(room.base, unique_name("sog"))
    game_id = heads_up_game(host, guest)
    player = host.open(browser, viewport=SCREENS[screen])
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    header = page.locator("header.top")
    expect(header.locator("[data-your-move]")).to_be_visible()
    expect(header.locator("[data-balance]")).to_have_text("$90.00")
    sign_out = header.get_by_role("button", name="Sign out")
    player.shot(artifacts, f"table-header-{screen}")
    assert header_overlaps(page) == []
    # one line: the felt below is sized for it, and your own seat must stay in view
    # above the action bar on your turn
    box = header.bounding_box()
    assert box is not None and box["height"] < 60, box
    if screen == "phone":  # Sign out comes with the links folded behind Menu
        expect(sign_out).to_be_hidden()
        header.get_by_role("button", name="Menu").click()
        expect(header.get_by_role("link", name="Statistics")).to_be_visible()
        player.shot(artifacts, f"table-header-{screen}-menu")
        assert header_overlaps(page) == []
    expect(sign_out).to_be_visible()

    assert httpx.get(room.url("/api/me"), headers=_bearer(host)).status_code == 200
    sign_out.click()
    page.wait_for_url(room.url("/sign-in"))
    # the session is over on the server, not only forgotten by the browser
    assert httpx.get(room.url("/api/me"), headers=_bearer(host)).status_code == 401
    page.goto(room.url(f"/games/{game_id}"))
    page.wait_for_url(room.url(f"/sign-in?next=%2Fgames%2F{game_id}"))
    assert player.errors == [], player.errors
    player.context.close()


def _bearer(account: Account) -> dict[str, str]:
    return {"Authorization": f"Bearer {account.token}"}
