"""Every control this suite's fixes touched, in each state the table draws it in:
before the start, during a hand and after it; seated, standing and as the host. In
each state the expected controls are there and no page shows an error."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import (
    account,
    at_table,
    game,
    new_game,
    no_page_errors,
    seat_command,
    until,
)
from tests.ui.kit import Player

pytestmark = pytest.mark.slow


def shows(player: Player, *labels: str) -> None:
    for label in labels:
        expect(seat_command(player, label)).to_be_visible()


def test_the_controls_in_every_state(room: Room, browser: Browser) -> None:
    host, guest, watcher = (account(room.base, n) for n in ("host", "guest", "watcher"))
    game_id = new_game(host, seats=3)
    guest.call("POST", f"/api/games/{game_id}/join", {})
    pages = {a.name: at_table(browser, a, room.base, game_id) for a in (host, guest, watcher)}
    hosting, seated, standing = pages[host.name], pages[guest.name], pages[watcher.name]

    # before the start: the host starts or leaves, a player leaves, a visitor joins
    shows(hosting, "Start the game", "Leave (refund the buy-in)")
    shows(seated, "Leave (refund the buy-in)")
    expect(seat_command(seated, "Start the game")).to_have_count(0)
    shows(standing, "Join for $10.00")
    no_page_errors(*pages.values())

    seat_command(hosting, "Start the game").click()
    until(lambda: game(host, game_id)["summary"]["status"], lambda s: s == "running")

    # during the hand: the seats' commands, the host's tools, the action bar
    for player in (hosting, seated):
        shows(player, "Sit out", "Cash out")
    expect(hosting.page.locator("[data-host-tools]")).to_be_visible()
    shows(standing, "Join for $10.00")
    first = hosting if game(host, game_id)["hand"]["legal"] else seated
    bar = first.page.locator("[data-actions]")
    expect(bar).to_be_visible()
    bar.locator("[data-amount]").fill("999")
    expect(bar.locator("[data-bet]")).to_be_disabled()
    bar.locator("[data-amount]").fill("0.50")
    expect(bar.locator("[data-bet]")).to_have_text("Raise to $0.50")
    no_page_errors(*pages.values())
    bar.get_by_role("button", name="Fold").click()
    until(lambda: game(host, game_id)["hand"]["running"], lambda running: not running)

    # after the hand: the result, Continue, the seats' commands
    for player in pages.values():
        expect(player.page.locator("[data-result-lines]")).to_contain_text("Everyone else folded")
    for player in (hosting, seated):
        expect(player.page.locator("[data-continue]")).to_be_visible()
        shows(player, "Sit out", "Cash out")
    shows(standing, "Join for $10.00")
    no_page_errors(*pages.values())
    for player in pages.values():
        player.context.close()
