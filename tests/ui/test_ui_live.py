"""The table live: a raise sized with the keyboard alone, a browser notification when
the turn comes, a dropped connection that catches up, and the first view's weight."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit

pytestmark = pytest.mark.slow

# The page's Notification replaced by one that records what it is asked to show, and
# the page told it is not in front (where a real turn notice would be wanted).
NOTIFICATIONS = """
window.notices = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.notices.push({title, body: options && options.body}); }
  addEventListener() {}
  close() {}
};
document.hasFocus = () => false;
localStorage.setItem("cardroom.prefs", JSON.stringify({turnNotifications: true}));
"""

FIRST_VIEW_LIMIT = 100 * 1024


def tab_to(page: Page, selector: str, *, back: bool = False) -> None:
    """Press Tab (or Shift+Tab) until ``selector`` has the keyboard's focus."""
    for _ in range(15):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_keyboard_raise_notice_and_reconnect(room: Room, browser: Browser, artifacts: Path) -> None:
    host = Account(room.base, unique_name("carol"))
    guest = Account(room.base, unique_name("dave"))
    game_id = heads_up_game(host, guest)
    carol = host.open(browser, init_script=NOTIFICATIONS)
    dave = guest.open(browser)
    for p in (carol, dave):
        visit(p.page, room.url(f"/games/{game_id}"))
        expect(p.page.locator("[data-conn]")).to_have_text("Live")

    # carol's turn: the browser shows her a notification, the keyboard is on Call
    page = carol.page
    page.wait_for_function("window.notices.length > 0")
    assert page.evaluate("window.notices[0].title") == "Your turn"
    assert f"Table #{game_id}" in page.evaluate("window.notices[0].body")
    expect(page.get_by_role("button", name="Call $0.10")).to_be_focused()
    bet = page.locator("[data-bet]")

    # the slider, by keyboard: End is all in, Home the least raise, arrows a chip each
    tab_to(page, "[data-slider]")
    page.keyboard.press("End")
    expect(bet).to_have_text("All in $10.00")
    page.keyboard.press("Home")
    expect(bet).to_have_text("Raise to $0.40")
    page.keyboard.press("ArrowRight")
    expect(bet).to_have_text("Raise to $0.41")
    # "Pot": to 0.20 to match, plus the pot after calling (0.30 + 0.10)
    tab_to(page, "[data-preset=pot]", back=True)
    page.keyboard.press("Enter")
    expect(bet).to_have_text("Raise to $0.60")
    tab_to(page, "[data-bet]")
    page.keyboard.press("Enter")
    expect(dave.page.locator("[data-log]")).to_contain_text(f"{carol.name} raises to $0.60.")
    expect(dave.page.locator(".bet[data-seat='1']")).to_have_text("$0.60")
    expect(dave.page.get_by_role("button", name="Call $0.40")).to_be_focused()

    # carol's connection drops; dave calls meanwhile; carol's table catches up
    carol.context.set_offline(True)
    page.evaluate("window.cardroomTable.socket.drop()")
    expect(page.locator("[data-conn]")).not_to_have_text("Live")
    dave.page.get_by_role("button", name="Call $0.40").click()
    expect(dave.page.locator("[data-board] .card[data-suit]")).to_have_count(3)
    page.wait_for_timeout(500)
    expect(page.locator("[data-board] .card[data-suit]")).to_have_count(0)  # not yet
    carol.context.set_offline(False)
    expect(page.locator("[data-conn]")).to_have_text("Live")
    expect(page.locator("[data-board] .card[data-suit]")).to_have_count(3)
    expect(page.locator("[data-log]")).to_contain_text(f"{dave.name} calls $0.40.")
    expect(page.locator("[data-pot]")).to_have_text("Pot $1.20")
    # the flop: dave (the big blind) acts first after the flop
    expect(page.locator("[data-status]")).to_contain_text(f"{dave.name} to act")
    carol.shot(artifacts, "table-after-reconnect")
    # every event once, in order, none missing
    seqs = page.evaluate("window.cardroomTable.events.map(e => e.seq)")
    assert seqs == list(range(1, len(seqs) + 1))
    log = page.locator("[data-log] li").all_text_contents()
    assert log.count(f"{dave.name} calls $0.40.") == 1
    for p in (carol, dave):
        assert p.errors == [], p.errors
        p.context.close()


def test_first_view_of_a_table_is_under_100_kb(room: Room, browser: Browser) -> None:
    host = Account(room.base, unique_name("erin"))
    guest = Account(room.base, unique_name("frank"))
    game_id = heads_up_game(host, guest)
    erin = host.open(browser)
    page = erin.page
    sizes: list[tuple[str, int]] = []

    def finished(request: Any) -> None:
        size = request.sizes()
        sizes.append((request.url, size["responseBodySize"] + size["responseHeadersSize"]))

    frames: list[int] = []
    page.on("requestfinished", finished)
    page.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda data: frames.append(len(data))),
    )
    visit(page, room.url(f"/games/{game_id}"))
    expect(page.locator("[data-conn]")).to_have_text("Live")
    expect(page.get_by_role("button", name="Call $0.10")).to_be_visible()
    page.wait_for_load_state("networkidle")
    total = sum(size for _, size in sizes) + sum(frames)
    report = "\n".join(f"{size:7d} {url}" for url, size in sorted(sizes, key=lambda s: -s[1]))
    print(f"first view of a table: {total} bytes in {len(sizes)} requests\n{report}")
    assert total < FIRST_VIEW_LIMIT, report
    # every script and style is the room's own, compressed
    assert all(url.startswith(room.base) for url, _ in sizes)

    # the host holds the table from it, with a reason for the log
    page.get_by_text("Host", exact=True).click()
    page.get_by_role("button", name="Pause the table").click()
    dialog = page.get_by_role("dialog", name="Pause the table")
    dialog.get_by_label("Reason").fill("Dinner break")
    dialog.get_by_role("button", name="Yes").click()
    expect(page.locator("[data-status]")).to_have_text(
        "Paused by the host: no hand is dealt until the table is resumed."
    )
    expect(page.get_by_role("button", name="Resume the table")).to_be_visible()
    assert erin.errors == [], erin.errors
    erin.context.close()
