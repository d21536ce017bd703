"""The seat's own commands under the table (Cash out, Leave, Rebuy, Sit out, I'm
back), each clicked in the browser and its effect read back from the server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import (
    account,
    act,
    at_table,
    balance,
    confirm_yes,
    game,
    new_game,
    no_page_errors,
    seat_command,
    seat_of,
    to_act,
    until,
)
from tests.ui.kit import heads_up_game

pytestmark = pytest.mark.slow


def test_cash_out_between_hands_brings_the_stack_back(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    act(host, game_id, "fold")  # the guest wins the blinds: $10.10 in front of him
    stack = seat_of(guest, game_id)
    assert stack is not None and stack["stack"] == 1010
    before = balance(guest)
    player = at_table(browser, guest, room.base, game_id)
    seat_command(player, "Cash out").click()
    expect(player.page.locator("[data-confirm-text]")).to_have_text("Leave the table with $10.10?")
    confirm_yes(player)
    expect(player.page.locator("[data-balance]")).to_have_text("$100.10")
    assert balance(guest) == before + 1010
    assert seat_of(guest, game_id) is None
    no_page_errors(player)
    player.context.close()


def test_cash_out_during_a_hand_waits_for_its_end(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    player = at_table(browser, guest, room.base, game_id)
    seat_command(player, "Cash out").click()
    expect(player.page.locator("[data-confirm-text]")).to_have_text(
        "You will be cashed out with your chips when this hand ends."
    )
    confirm_yes(player)
    seat = until(
        lambda: seat_of(guest, game_id), lambda s: s is not None and s["leaving"] == "left"
    )
    assert seat is not None and seat["leaving"] == "left", seat
    before = balance(guest)
    act(host, game_id, "fold")  # the hand ends: he goes with $10.10
    assert seat_of(guest, game_id) is None
    assert balance(guest) == before + 1010
    expect(player.page.locator("[data-balance]")).to_have_text("$100.10")
    no_page_errors(player)
    player.context.close()


def test_sit_out_and_back(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    player = at_table(browser, guest, room.base, game_id)
    seat_command(player, "Sit out").click()
    seat = until(lambda: seat_of(guest, game_id), lambda s: s is not None and s["sitting_out"])
    assert seat is not None and seat["sitting_out"], seat
    seat_command(player, "I'm back").click()
    seat = until(lambda: seat_of(guest, game_id), lambda s: s is not None and not s["sitting_out"])
    assert seat is not None and not seat["sitting_out"], seat
    expect(seat_command(player, "Sit out")).to_be_visible()
    no_page_errors(player)
    player.context.close()


def test_leave_a_waiting_game_refunds_the_buy_in(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    body = {"preset": "house", "format": "cash", "seats": 3, "buy_in": 1000}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{game_id}/join", {})
    assert balance(guest) == 9000
    player = at_table(browser, guest, room.base, game_id)
    seat_command(player, "Leave (refund the buy-in)").click()
    assert until(lambda: seat_of(guest, game_id), lambda s: s is None) is None
    assert balance(guest) == 10000
    expect(player.page.locator("[data-balance]")).to_have_text("$100.00")
    no_page_errors(player)
    player.context.close()


def test_leave_a_per_hand_table(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    body = {"preset": "standard", "format": "per_hand", "seats": 2, "buy_in": 1000}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{game_id}/join", {})
    if game(host, game_id)["summary"]["status"] == "waiting":
        host.call("POST", f"/api/games/{game_id}/start", {})
    act(to_act([host, guest], game_id), game_id, "fold")  # the hand settles at once
    before = balance(guest)
    player = at_table(browser, guest, room.base, game_id)
    seat_command(player, "Leave the table").click()
    expect(player.page.locator("[data-confirm-text]")).to_have_text("Leave the table?")
    confirm_yes(player)
    assert until(lambda: seat_of(guest, game_id), lambda s: s is None) is None
    assert balance(guest) == before  # the hand's chips went back as it ended
    no_page_errors(player)
    player.context.close()


def test_rebuy_at_zero_chips(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    loser = None
    for _ in range(5):  # all in and called until somebody has nothing left (not a split)
        first = to_act([host, guest], game_id)  # the button moves after a split pot
        act(first, game_id, "all_in")
        act(guest if first is host else host, game_id, "call")
        stacks = {s["user_id"]: s["stack"] for s in game(host, game_id)["seats"]}
        loser = next((a for a in (host, guest) if stacks.get(a.id) == 0), None)
        if loser is not None:
            break
        for each in (host, guest):
            each.call("POST", f"/api/games/{game_id}/continue", {})
        until(lambda: game(host, game_id)["hand"]["running"], bool)
    assert loser is not None, "five split pots in a row"
    before = balance(loser)
    player = at_table(browser, loser, room.base, game_id)
    seat_command(player, "Rebuy for $10.00").click()
    seat = until(lambda: seat_of(loser, game_id), lambda s: s is not None and s["stack"] > 0)
    assert seat is not None and seat["stack"] == 1000, seat
    assert balance(loser) == before - 1000
    expect(player.page.locator("[data-balance]")).to_have_text(f"${(before - 1000) / 100:.2f}")
    no_page_errors(player)
    player.context.close()


def test_leave_a_waiting_tournament_refunds_the_entry(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = new_game(host, format="tournament", buy_in=500)
    guest.call("POST", f"/api/games/{game_id}/join", {})
    assert balance(guest) == 9500
    player = at_table(browser, guest, room.base, game_id)
    seat_command(player, "Leave (refund the entry)").click()
    assert until(lambda: seat_of(guest, game_id), lambda s: s is None) is None
    assert balance(guest) == 10000
    no_page_errors(player)
    player.context.close()
