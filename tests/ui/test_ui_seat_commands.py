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
    expect(player.page.locator("[data-confirm-text]")).to_have_text(
        "Leave the table with $10.10?"
    )
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
    seat = until(lambda: seat_of(guest, game_id), lambda s: s is not None and s["leaving"] == "left")
    assert seat is not None and seat["leaving"] == "left", seat
    before = balance(guest)
    act(host, game_id, "fold")  # the hand ends: he goes with $10.10
    assert seat_of(guest, game_id) is None
    assert balance(guest) == before + 1010
    expect(player.page.locator("[data-balance]")).to_have_text("$100.10")
    no_page_errors(player)
    player.context.close()
