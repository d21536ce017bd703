"""What a hand's end says: a fold win names it as one with what was won, a per-hand
table says what each player won or lost and that it went back to their balance, and
the status badges read alike."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import (
    account,
    act,
    at_table,
    balance,
    game,
    new_game,
    no_page_errors,
    to_act,
    until,
)
from tests.ui.kit import heads_up_game

pytestmark = pytest.mark.slow


def test_a_fold_win_says_everyone_else_folded(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    player = at_table(browser, guest, room.base, game_id)
    act(host, game_id, "fold")  # the big blind's extra $0.10 goes back: the pot is $0.20
    lines = player.page.locator("[data-result-lines]")
    expect(lines).to_contain_text(f"Everyone else folded: {guest.name} wins $0.20.")
    expect(player.page.locator("[data-status]")).to_contain_text(
        f"Everyone else folded: {guest.name} wins $0.20."
    )
    no_page_errors(player)
    player.context.close()


def test_a_per_hand_table_says_what_went_back_to_the_balance(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = new_game(host, preset="standard", format="per_hand", seats=2)
    guest.call("POST", f"/api/games/{game_id}/join", {})
    if game(host, game_id)["summary"]["status"] == "waiting":
        host.call("POST", f"/api/games/{game_id}/start", {})
    folder = to_act([host, guest], game_id)
    winner = guest if folder is host else host
    player = at_table(browser, winner, room.base, game_id)
    act(folder, game_id, "fold")
    lines = player.page.locator("[data-result-lines]")
    expect(lines).to_contain_text("You won $0.10: $10.10 back to your balance.")
    expect(lines).to_contain_text(f"{folder.name} lost $0.10: $9.90 back to their balance.")
    # the seats read $0.00 now: the money is in the balances, as the lines say
    assert until(lambda: balance(winner), lambda b: b == 10010) == 10010
    assert balance(folder) == 9990
    expect(player.page.locator("[data-balance]")).to_have_text("$100.10")
    no_page_errors(player)
    player.context.close()


def test_a_finished_game_has_a_capitalised_badge(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    body = {"preset": "arena", "format": "tournament", "seats": 2, "buy_in": 200,
            "small_blind": 10, "big_blind": 20}  # fmt: skip
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{game_id}/join", {})
    for _ in range(20):  # all in and called until one of them has every point
        if game(host, game_id)["summary"]["status"] == "finished":
            break
        table = game(host, game_id)
        if table["hand"] and table["hand"]["running"]:
            first = to_act([host, guest], game_id)
            act(first, game_id, "all_in")
            second = guest if first is host else host
            if game(second, game_id)["hand"]["running"]:
                act(second, game_id, "call")
        else:
            for each in (host, guest):
                each.call("POST", f"/api/games/{game_id}/continue", {})
            until(lambda: game(host, game_id)["hand"]["running"], bool)
    assert game(host, game_id)["summary"]["status"] == "finished"
    winner = next(
        a for a in (host, guest) if any(s["user_id"] == a.id for s in game(a, game_id)["seats"])
    )
    player = winner.open(browser)
    player.visit(room.url("/"))
    expect(player.page.locator(f"[data-mine] tr[data-game='{game_id}'] .badge")).to_have_text(
        "Finished"
    )
    no_page_errors(player)
    player.context.close()
