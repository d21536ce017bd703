"""Joining: the lobby and the table say what a seat costs and whether the balance
covers it, and the room's refusal of a join stays on the page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import account, act, at_table, balance, no_page_errors, seat_of
from tests.ui.kit import Account, heads_up_game

pytestmark = pytest.mark.slow


def test_a_join_the_balance_does_not_cover_is_marked_and_not_sent(
    room: Room, browser: Browser
) -> None:
    host, guest, other = (account(room.base, n) for n in ("host", "guest", "other"))
    dear = int(
        host.call("POST", "/api/games", {"preset": "house", "seats": 3, "buy_in": 10000})["game_id"]
    )
    cheap = int(
        other.call("POST", "/api/games", {"preset": "house", "seats": 3, "buy_in": 2000})["game_id"]
    )
    guest.call("POST", f"/api/games/{cheap}/join", {})
    assert balance(guest) == 8000
    player = guest.open(browser)
    player.visit(room.url("/"))
    row = player.page.locator(f"tr[data-game='{dear}']")
    join = row.get_by_role("button", name=re.compile(r"^Join for \$100\.00"))
    expect(join).to_be_disabled()
    expect(row.locator("[data-join-note]")).to_have_text(
        "Your balance, $80.00, does not cover the $100.00 buy-in."
    )
    join.click(force=True)  # a disabled button does nothing, even when pressed
    player.page.wait_for_timeout(300)
    assert seat_of(guest, dear) is None and balance(guest) == 8000

    # the table's own Join says the same
    table = at_table(browser, guest, room.base, dear)
    tools = table.page.locator("[data-seat-tools]")
    expect(tools.get_by_role("button", name="Join for $100.00")).to_be_disabled()
    expect(tools.locator("[data-join-note]")).to_have_text(
        "Your balance, $80.00, does not cover the $100.00 buy-in."
    )
    no_page_errors(player, table)
    player.context.close()
    table.context.close()


def test_the_rooms_refusal_of_a_join_stays_on_the_page(room: Room, browser: Browser) -> None:
    host, guest, late = (account(room.base, n) for n in ("host", "guest", "late"))
    game_id = int(
        host.call("POST", "/api/games", {"preset": "house", "seats": 3, "buy_in": 1000})["game_id"]
    )
    player = late.open(browser)
    player.visit(room.url("/"))
    row = player.page.locator(f"tr[data-game='{game_id}']")
    join = row.get_by_role("button", name="Join for $10.00")
    expect(join).to_be_enabled()
    guest.call("POST", f"/api/games/{game_id}/join", {})  # the last seats go meanwhile
    third = account(room.base, "third")
    third.call("POST", f"/api/games/{game_id}/join", {})
    join.click()
    error = player.page.locator("[data-error]")
    expect(error).to_contain_text("full")
    player.page.wait_for_timeout(1000)  # the lobby reloads after a refusal: it stays
    expect(error).to_contain_text("full")
    assert seat_of(late, game_id) is None and balance(late) == 10000
    no_page_errors(player)
    player.context.close()


def lobby_cost(account: Account, game_id: int) -> int | None:
    """What the server's lobby says a seat at the game costs ``account``."""
    games = account.call("GET", "/api/games")["games"]
    cost: int | None = next(g["viewer_cost"] for g in games if g["id"] == game_id)
    return cost


def test_a_rejoin_within_two_hours_says_its_price_before_it_joins(
    room: Room, browser: Browser
) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    act(host, game_id, "fold")  # the guest has $10.10 in front of him
    guest.call("POST", f"/api/games/{game_id}/cash-out", {})
    assert balance(guest) == 10010
    # the lobby lists the seat at his price already (GET /api/games's viewer_cost)
    assert lobby_cost(guest, game_id) == 1010
    player = guest.open(browser)
    player.visit(room.url("/"))
    row = player.page.locator(f"tr[data-game='{game_id}']")
    # the room asks the larger of the buy-in and what he left with: said, not paid
    join = row.get_by_role("button", name="Join for $10.10")
    expect(join).to_be_enabled()
    expect(row.get_by_role("button", name="Join for $10.00")).to_have_count(0)
    expect(row.locator("[data-join-note]")).to_have_text(
        "Rejoining within two hours costs $10.10, the larger of the buy-in and what you"
        " cashed out with."
    )
    assert seat_of(guest, game_id) is None and balance(guest) == 10010
    join.click()
    player.page.wait_for_url(room.url(f"/games/{game_id}"))
    seat = seat_of(guest, game_id)
    assert seat is not None and seat["stack"] == 1010, seat
    assert balance(guest) == 9000
    no_page_errors(player)
    player.context.close()


def test_a_rejoin_the_balance_cannot_pay_is_marked_before_it_is_pressed(
    room: Room, browser: Browser
) -> None:
    host, guest, other = (account(room.base, n) for n in ("rhost", "rguest", "rother"))
    game_id = heads_up_game(host, guest)
    act(host, game_id, "fold")  # the guest has $10.10 in front of him
    guest.call("POST", f"/api/games/{game_id}/cash-out", {})
    # Elsewhere he buys in for $90.05: $10.05 left, enough for the buy-in but not
    # for the rejoin's $10.10.
    body = {"preset": "house", "seats": 3, "buy_in": 9005}
    elsewhere = int(other.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{elsewhere}/join", {})
    assert balance(guest) == 1005 and lobby_cost(guest, game_id) == 1010
    player = guest.open(browser)
    player.visit(room.url("/"))
    row = player.page.locator(f"[data-games] tr[data-game='{game_id}']")
    join = row.get_by_role("button", name="Join for $10.10")
    expect(join).to_be_disabled()
    expect(row.locator("[data-join-note]")).to_have_text(
        "Your balance, $10.05, does not cover the $10.10 buy-in."
    )
    join.click(force=True)  # a disabled button does nothing, even when pressed
    player.page.wait_for_timeout(300)
    assert seat_of(guest, game_id) is None and balance(guest) == 1005
    no_page_errors(player)
    player.context.close()


def test_a_points_tables_join_joins_at_the_first_press(room: Room, browser: Browser) -> None:
    """A points table's seat costs no money (its ``viewer_cost`` is 0): the button
    says the starting points, and one press sits the player down, paying nothing."""
    host, guest = account(room.base, "phost"), account(room.base, "pguest")
    body = {"preset": "arena", "seats": 3, "buy_in": 1000, "small_blind": 10, "big_blind": 20}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    assert lobby_cost(guest, game_id) == 0
    before = balance(guest)
    player = guest.open(browser)
    player.visit(room.url("/"))
    row = player.page.locator(f"[data-games] tr[data-game='{game_id}']")
    row.get_by_role("button", name="Join for 1,000", exact=True).click()
    player.page.wait_for_url(room.url(f"/games/{game_id}"))
    seat = seat_of(guest, game_id)
    assert seat is not None and seat["stack"] == 1000, seat
    assert balance(guest) == before
    no_page_errors(player)
    player.context.close()
