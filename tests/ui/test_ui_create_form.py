"""The lobby's create form, every field of it: filled in the browser, sent, and read
back from the server (the game's summary and the rules of its GameCreated event)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, Player, ready, unique_name, visit

pytestmark = pytest.mark.slow


def create(player: Player, room: Room) -> int:
    page = player.page
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    ready(page)
    return int(page.url.rsplit("/", 1)[1])


def created_rules(account: Account, game_id: int) -> dict[str, Any]:
    events = account.call("GET", f"/api/games/{game_id}/events?after=0")["events"]
    created = next(e for e in events if e["type"] == "GameCreated")
    rules: dict[str, Any] = created["data"]["config"]["rules"]
    return rules


def open_create_form(page: Page, room: Room) -> None:
    visit(page, room.url("/"))
    page.get_by_role("link", name="Create a game").click()
    expect(page.locator("#create")).to_be_focused()


def test_a_cash_game_with_every_rule_changed(room: Room, browser: Any) -> None:
    account = Account(room.base, unique_name("form"))
    player = account.open(browser)
    page = player.page
    open_create_form(page, room)
    page.get_by_label("Rules", exact=True).select_option("house")
    page.get_by_label("Format", exact=True).select_option("cash")
    page.get_by_label("Seats", exact=True).select_option("3")
    page.get_by_label("Buy-in ($)").fill("20.00")
    page.get_by_label("Small blind", exact=True).fill("0.10")
    page.get_by_label("Big blind", exact=True).fill("0.25")
    page.get_by_text("More rules").click()  # the summary opens the other rules
    choices = {
        "Turn clock": "300",
        "Between hands": "30",
        "Raise cap": "2",
        "Showdown": "ordered",
        "Minimum raise": "big_blind",
        "Full big blind call (BGC 6a)": "no",
        "Short all-ins add up": "no",
        "Rebuy at zero (cash)": "no",
        "Timeouts before cash-out": "5",
        "Idle seats removable": "yes",
    }
    for label, value in choices.items():
        page.get_by_label(label, exact=True).select_option(value)
    page.get_by_label("Take a seat (pays the buy-in now)").uncheck()
    game_id = create(player, room)

    summary = account.call("GET", f"/api/games/{game_id}")["summary"]
    assert (summary["preset"], summary["format"], summary["seat_count"]) == ("house", "cash", 3)
    assert (summary["buy_in"], summary["small_blind"], summary["big_blind"]) == (2000, 10, 25)
    assert (summary["turn_clock_seconds"], summary["between_hands_seconds"]) == (300, 30)
    assert summary["seats_taken"] == 0  # not seated: no buy-in taken
    assert account.call("GET", "/api/me/balance")["balance_cents"] == 10_000
    rules = created_rules(account, game_id)
    assert rules["raise_cap"] == 2
    assert rules["showdown"] == "ordered"
    assert rules["min_raise"] == "big_blind"
    assert rules["full_big_blind_call"] is False
    assert rules["short_all_ins_add_up"] is False
    assert rules["cash_rebuy"] is False
    assert rules["cash_timeouts_to_cash_out"] == 5
    assert rules["idle_seats_removable"] is True
    assert player.errors == [], player.errors
    player.context.close()


def test_a_tournament_with_prizes_and_rising_blinds(room: Room, browser: Any) -> None:
    account = Account(room.base, unique_name("form"))
    player = account.open(browser)
    page = player.page
    open_create_form(page, room)
    page.get_by_label("Rules", exact=True).select_option("house")
    page.get_by_label("Format", exact=True).select_option("tournament")
    page.get_by_label("Seats", exact=True).select_option("4")
    page.get_by_label("Entry ($)").fill("5.00")
    page.get_by_label("Prizes (% per place)").fill("65/35")
    page.get_by_label("Raise the blinds").select_option("hands")
    page.get_by_label("Every", exact=True).fill("5")
    page.get_by_label("By (%)").fill("25")
    game_id = create(player, room)
    summary = account.call("GET", f"/api/games/{game_id}")["summary"]
    assert (summary["format"], summary["buy_in"], summary["payouts"]) == (
        "tournament",
        500,
        [65, 35],
    )
    assert (summary["blinds_every_hands"], summary["blinds_rate_percent"]) == (5, 25)
    assert summary["seats_taken"] == 1  # seated: the entry is paid
    assert account.call("GET", "/api/me/balance")["balance_cents"] == 9_500

    # the blinds every M minutes, on a second table
    open_create_form(page, room)
    page.get_by_label("Format", exact=True).select_option("tournament")
    page.get_by_label("Raise the blinds").select_option("minutes")
    page.get_by_label("Every", exact=True).fill("15")
    game_id = create(player, room)
    summary = account.call("GET", f"/api/games/{game_id}")["summary"]
    assert (summary["blinds_every_minutes"], summary["blinds_every_hands"]) == (15, None)
    assert player.errors == [], player.errors
    player.context.close()


def test_an_arena_table_in_points(room: Room, browser: Any) -> None:
    account = Account(room.base, unique_name("form"))
    player = account.open(browser)
    page = player.page
    open_create_form(page, room)
    page.get_by_label("Rules", exact=True).select_option("arena")
    page.get_by_label("Starting points").fill("1500")
    page.get_by_label("Small blind", exact=True).fill("15")
    page.get_by_label("Big blind", exact=True).fill("30")
    page.get_by_label("Raise the blinds").select_option("hands")
    page.get_by_label("Every", exact=True).fill("8")
    game_id = create(player, room)
    summary = account.call("GET", f"/api/games/{game_id}")["summary"]
    assert (summary["preset"], summary["pays_money"], summary["buy_in"]) == ("arena", False, 1500)
    assert (summary["small_blind"], summary["big_blind"], summary["blinds_every_hands"]) == (
        15,
        30,
        8,
    )
    assert account.call("GET", "/api/me/balance")["balance_cents"] == 10_000  # points only
    assert player.errors == [], player.errors
    player.context.close()
