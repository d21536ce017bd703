"""The table's controls not covered elsewhere, each used in the browser and its effect
read from the server: the sizing buttons and the slider, Check and Bet, Skip waiting
and deal, taking a given seat; and the page's own tools (the log, the history link,
the settings)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit

pytestmark = pytest.mark.slow


def hand_of(account: Account, game_id: int) -> dict[str, Any]:
    hand: dict[str, Any] = account.call("GET", f"/api/games/{game_id}")["hand"]
    return hand


def api_act(account: Account, game_id: int, kind: str) -> None:
    version = account.call("GET", f"/api/games/{game_id}")["version"]
    account.call("POST", f"/api/games/{game_id}/actions", {"kind": kind, "version": version})


def bet_of(hand: dict[str, Any], seat: int) -> int:
    return int(next(p["bet"] for p in hand["players"] if p["seat"] == seat))


def wait_for_turn(page: Page) -> None:
    expect(page.locator("[data-actions]")).to_be_visible()


def test_sizes_slider_check_bet_and_skip_waiting(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("sara"))
    guest = Account(room.base, unique_name("sean"))
    game_id = heads_up_game(host, guest)  # the host: seat 1, small blind, first to act
    player = host.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    wait_for_turn(page)
    box = page.locator("[data-amount]")
    bet_button = page.locator("[data-bet]")

    # the sizes fill the box and the button follows: Min is a raise to $0.40
    page.get_by_role("button", name=re.compile(r"^Min: \$0\.40$")).click()
    expect(box).to_have_value("0.40")
    expect(bet_button).to_have_text("Raise to $0.40")
    page.get_by_role("button", name=re.compile(r"^½ Pot: ")).click()
    half_pot = box.input_value()
    expect(bet_button).to_have_text(f"Raise to ${half_pot}")
    # the slider moves the box too; its value is in chips
    slider = page.locator("[data-slider]")
    slider.evaluate(
        "(el) => { el.value = '55'; el.dispatchEvent(new Event('input', {bubbles: true})); }"
    )
    expect(box).to_have_value("0.55")
    expect(bet_button).to_have_text("Raise to $0.55")
    bet_button.click()
    expect(page.locator("[data-actions]")).to_be_hidden()
    assert bet_of(hand_of(host, game_id), 1) == 55  # the server holds the raise to $0.55

    # the guest calls; on the flop he checks and the host checks behind with the button
    api_act(guest, game_id, "call")
    api_act(guest, game_id, "check")
    wait_for_turn(page)
    page.get_by_role("button", name="Check", exact=True).click()
    expect(page.locator("[data-actions]")).to_be_hidden()
    assert hand_of(host, game_id)["street"] == "turn"

    # on the turn, a bet of the minimum, which the guest folds to
    api_act(guest, game_id, "check")
    wait_for_turn(page)
    page.get_by_role("button", name=re.compile(r"^Min: \$0\.20$")).click()
    bet_button = page.get_by_role("button", name="Bet $0.20")
    bet_button.click()
    expect(page.locator("[data-actions]")).to_be_hidden()
    assert bet_of(hand_of(host, game_id), 1) == 20
    api_act(guest, game_id, "fold")

    # the host deals the next hand without waiting for Continue
    page.get_by_role("button", name="Skip waiting and deal").click()
    expect(page.locator("[data-log]")).to_contain_text("Hand #2", timeout=10_000)
    hand = hand_of(host, game_id)
    assert (hand["number"], hand["running"]) == (2, True)
    assert player.errors == [], player.errors
    player.context.close()


def test_take_a_given_seat_and_the_pages_tools(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("tina"))
    viewer = Account(room.base, unique_name("theo"))
    body = {"preset": "house", "format": "cash", "seats": 3, "buy_in": 1000}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    player = viewer.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))

    # a chosen seat: the third, at the buy-in
    page.get_by_role("button", name="Sit at seat 3 for $10.00").click()
    expect(page.locator(".seat.me")).to_be_visible()
    seats = host.call("GET", f"/api/games/{game_id}")["seats"]
    assert {s["seat"]: s["name"] for s in seats} == {1: host.name, 3: viewer.name}
    assert viewer.call("GET", "/api/me/balance")["balance_cents"] == 9_000

    # the log opens; the settings dialog changes the deck's colours
    page.get_by_text("Table log").click()
    expect(page.locator("[data-log]")).to_be_visible()
    page.get_by_role("button", name="Settings").click()
    dialog = page.get_by_role("dialog", name="Settings")
    dialog.get_by_label("Four-colour deck").check()
    expect(page.locator("html")).to_have_class(re.compile("four-colour"))
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    # the history link leads to this table's hands
    page.get_by_role("link", name="History", exact=True).last.click()
    page.wait_for_url(re.compile(r"/history$"))
    assert player.errors == [], player.errors
    player.context.close()
