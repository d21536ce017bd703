"""The ways between a table, its hands and its ledger (the walk-through of
2026-12-02 found none from the table to its ledger, nor back from either), and the
names of players who have left: a snapshot names only who sits there now, so a
reloaded page read "Player 7" for them."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, heads_up_game, ready, unique_name, visit
from tests.ui.played_hands import game_of, move

pytestmark = pytest.mark.slow


def test_the_table_links_its_ledger_and_both_lead_back(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("lnkh"))
    guest = Account(room.base, unique_name("lnkg"))
    watcher = Account(room.base, unique_name("lnkw"))
    game_id = heads_up_game(host, guest)
    player = host.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))

    page.locator(".table-tools").get_by_role("link", name="Ledger").click()
    page.wait_for_url(room.url(f"/games/{game_id}/ledger"))
    ready(page)
    ledger = host.call("GET", f"/api/games/{game_id}/ledger")
    assert {p["name"] for p in ledger["players"]} == {host.name, guest.name}
    for line in ledger["players"]:
        row = page.locator(f"[data-ledger-players] tr[data-player='{line['user_id']}']")
        expect(row).to_contain_text(line["name"])

    page.get_by_role("link", name="The table's hands").click()
    page.wait_for_url(room.url(f"/games/{game_id}/history"))
    ready(page)
    page.get_by_role("link", name="Back to the table").click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(page)
    expect(page.locator("[data-title]")).to_contain_text(f"#{game_id}")

    visit(page, room.url(f"/games/{game_id}/ledger"))
    page.get_by_role("link", name="Back to the table").click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(page)
    assert game_of(host, game_id)["viewer_seat"] == 1  # the page is the host's table

    # a spectator may not read the ledger (the room refuses it): no link to a refusal
    looker = watcher.open(browser)
    visit(looker.page, room.url(f"/games/{game_id}"))
    expect(looker.page.locator(".table-tools").get_by_role("link", name="History")).to_be_visible()
    expect(looker.page.locator("[data-ledger-link]")).to_be_hidden()
    refused = httpx.get(
        room.url(f"/api/games/{game_id}/ledger"),
        headers={"Authorization": f"Bearer {watcher.token}"},
    )
    assert refused.status_code == 403
    for one in (player, looker):
        assert one.errors == [], one.errors
        one.context.close()


def test_a_player_who_left_keeps_their_name(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("lefth"))
    guest = Account(room.base, unique_name("leftg"))
    game_id = heads_up_game(host, guest)
    move(host, game_id, "fold")  # the host, on the button, folds: the guest wins the blinds
    guest.call("POST", f"/api/games/{game_id}/cash-out", {})
    seated = {s["user_id"] for s in game_of(host, game_id)["seats"]}
    assert guest.id not in seated  # gone from the snapshot
    (gone,) = [
        p
        for p in host.call("GET", f"/api/games/{game_id}/ledger")["players"]
        if p["user_id"] == guest.id
    ]
    assert gone["seat"] is None and gone["cash_outs"] > 0

    player = host.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    expect(page.locator("[data-result]")).to_contain_text(f"{guest.name} wins")
    page.get_by_text("Table log").click()
    expect(page.locator("[data-log]")).to_contain_text(f"{guest.name} sits down")
    expect(page.locator("[data-log]")).not_to_contain_text(re.compile(r"Player \d"))

    visit(page, room.url(f"/games/{game_id}/history"))
    expect(page.locator("[data-hands] tr").first).to_contain_text(f"{guest.name} wins")
    assert player.errors == [], player.errors
    player.context.close()


def test_a_spectator_reads_the_names_of_players_who_left(room: Room, browser: Any) -> None:
    """The ledger is not a spectator's to read, so the names come from the table's
    players (``GET /api/games/{id}/players``: names only, no money)."""
    host = Account(room.base, unique_name("specnh"))
    guest = Account(room.base, unique_name("specng"))
    fan = Account(room.base, unique_name("specnf"))
    game_id = heads_up_game(host, guest)
    move(host, game_id, "fold")  # the guest wins the blinds
    guest.call("POST", f"/api/games/{game_id}/cash-out", {})
    assert guest.id not in {s["user_id"] for s in game_of(fan, game_id)["seats"]}
    listed = fan.call("GET", f"/api/games/{game_id}/players")["players"]
    assert listed == [
        {"user_id": host.id, "name": host.name},
        {"user_id": guest.id, "name": guest.name},
    ]
    refused = httpx.get(
        room.url(f"/api/games/{game_id}/ledger"), headers={"Authorization": f"Bearer {fan.token}"}
    )
    assert refused.status_code == 403  # the money stays the players' own

    looker = fan.open(browser)
    page = looker.page
    visit(page, room.url(f"/games/{game_id}"))
    expect(page.locator("[data-result]")).to_contain_text(f"{guest.name} wins")
    page.get_by_text("Table log").click()
    expect(page.locator("[data-log]")).to_contain_text(f"{guest.name} sits down")
    expect(page.locator("[data-log]")).not_to_contain_text(re.compile(r"Player \d"))
    expect(page.locator("[data-result]")).not_to_contain_text(re.compile(r"Player \d"))
    expect(page.locator("[data-ledger-link]")).to_be_hidden()

    visit(page, room.url(f"/games/{game_id}/history"))
    expect(page.locator("[data-hands] tr").first).to_contain_text(f"{guest.name} wins")
    expect(page.locator("[data-hands]")).not_to_contain_text(re.compile(r"Player \d"))
    assert looker.errors == [], looker.errors
    looker.context.close()


def test_a_player_who_cashed_out_keeps_the_ledger_and_the_hands(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("cashlh"))
    guest = Account(room.base, unique_name("cashlg"))
    game_id = heads_up_game(host, guest)
    move(host, game_id, "fold")
    guest.call("POST", f"/api/games/{game_id}/cash-out", {})
    assert game_of(guest, game_id)["viewer_seat"] is None  # no seat: the page sees a watcher

    player = guest.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    tools = page.locator(".table-tools")
    tools.get_by_role("link", name="Ledger").click()
    page.wait_for_url(room.url(f"/games/{game_id}/ledger"))
    ready(page)
    ledger = guest.call("GET", f"/api/games/{game_id}/ledger")
    (mine,) = [p for p in ledger["players"] if p["user_id"] == guest.id]
    assert mine["cash_outs"] == 1010  # their $10.00 and the host's small blind
    for line in ledger["players"]:
        row = page.locator(f"[data-ledger-players] tr[data-player='{line['user_id']}']")
        expect(row).to_contain_text(line["name"])

    visit(page, room.url(f"/games/{game_id}"))
    tools.get_by_role("link", name="History").click()
    page.wait_for_url(room.url(f"/games/{game_id}/history"))
    ready(page)
    (hand,) = guest.call("GET", f"/api/me/hands?game_id={game_id}")["hands"]
    rows = page.locator("[data-hands] tr")
    expect(rows).to_have_count(1)  # the one hand dealt, as the server lists it
    expect(rows.first).to_contain_text(f"{guest.name} wins")
    assert hand["game_id"] == game_id
    assert player.errors == [], player.errors
    player.context.close()
