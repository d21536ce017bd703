"""A sit-and-go played to its winner with the three players' tables open: at the end
each page shows the winner, every finishing place and the prizes paid, the same
amounts as the players' ledgers, and a player knocked out keeps their own view of
the table (their old seat at the bottom, their place on it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, Player, unique_name, visit

pytestmark = pytest.mark.slow

BUY_IN = 1000
PAYOUTS = [65, 35]


def dollars(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def play_to_the_end(host: Account, players: list[Account], game_id: int) -> dict[str, Any]:
    """Hands in which the first to act moves all in, the next calls and any other
    folds, until one player has every chip: one player at most is knocked out in a
    hand, so no place is shared. Every action and Continue goes over the API."""
    by_id = {p.id: p for p in players}
    into: dict[int, int] = {}  # hand number -> players who put chips in (all in or call)
    for _ in range(100):
        game: dict[str, Any] = host.call("GET", f"/api/games/{game_id}")
        if game["summary"]["status"] == "finished":
            return game
        hand = game["hand"]
        if hand and hand["running"]:
            seat = next(s for s in game["seats"] if s["seat"] == hand["seat_to_act"])
            actor = by_id[seat["user_id"]]
            mine: dict[str, Any] = actor.call("GET", f"/api/games/{game_id}")
            legal = mine["hand"]["legal"]["actions"]
            played = into.setdefault(hand["number"], 0)
            kind = "fold" if played >= 2 else "all_in" if "all_in" in legal else "call"
            into[hand["number"]] = played + (kind != "fold")
            body = {"kind": kind, "version": mine["version"]}
            actor.call("POST", f"/api/games/{game_id}/actions", body)
        else:
            for seat in game["seats"]:
                if not seat["continued"]:
                    by_id[seat["user_id"]].call("POST", f"/api/games/{game_id}/continue", {})
    raise AssertionError("the tournament did not end in 100 steps")


def prize_paid(player: Account, game_id: int) -> int:
    """What the ledger says the game paid the player as a prize."""
    ledger = player.call("GET", "/api/me/ledger")
    return sum(
        line["amount_cents"]
        for line in ledger["lines"]
        if line["kind"] == "prize" and line["game_id"] == game_id
    )


def test_the_end_of_a_tournament_shows_the_winner_places_and_prizes(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    players = [Account(room.base, unique_name("sitngo")) for _ in range(3)]
    host = players[0]
    body = {"preset": "house", "format": "tournament", "seats": 3, "buy_in": BUY_IN}
    game_id = int(host.call("POST", "/api/games", {**body, "payouts": PAYOUTS})["game_id"])
    for guest in players[1:]:
        guest.call("POST", f"/api/games/{game_id}/join", {})  # the third starts it
    pages: dict[int, Player] = {}
    for i, account in enumerate(players):
        phone = {"width": 390, "height": 844} if i == 2 else None
        pages[account.id] = account.open(browser, viewport=phone)
        visit(pages[account.id].page, room.url(f"/games/{game_id}"))
    seats = {s["user_id"]: s["seat"] for s in host.call("GET", f"/api/games/{game_id}")["seats"]}

    final = play_to_the_end(host, players, game_id)

    places = {f["user_id"]: f["place"] for f in final["finishes"]}
    assert sorted(places.values()) == [1, 2, 3], places  # no shared place in this run
    winner = next(p for p in players if places[p.id] == 1)
    paid = {p.id: prize_paid(p, game_id) for p in players}
    assert paid[winner.id] == 1950 and sum(paid.values()) == 3 * BUY_IN
    for p in players:  # the balances moved by the entry and the prize, nothing else
        assert p.call("GET", "/api/me/balance")["balance_cents"] == 10000 - BUY_IN + paid[p.id]

    for account in players:
        page = pages[account.id].page
        status = page.locator("[data-status]")
        if account is winner:
            expect(status).to_have_text(f"You win the tournament and {dollars(1950)}!")
        else:
            expect(status).to_contain_text(f"{winner.name} wins the tournament and $19.50.")
            expect(status).to_contain_text(f"You finished {['2nd', '3rd'][places[account.id] - 2]}")
        standings = page.locator("[data-standings]")
        expect(standings).to_be_visible()
        expect(standings.locator("h2")).to_have_text("Final standings")
        rows = standings.locator("li")
        expect(rows).to_have_count(3)
        for row, who in zip(rows.all(), sorted(players, key=lambda p: places[p.id]), strict=True):
            shown = dollars(paid[who.id]) if paid[who.id] else "no prize"
            expect(row).to_contain_text(who.name)
            expect(row.locator(".prize")).to_have_text(shown)  # as the ledger says
        expect(standings.locator("li.you")).to_contain_text(account.name)
        if account is not winner:
            # their own table: their old seat at the bottom, with their place on it
            mine = page.locator(f".seat.gone.me[data-seat='{seats[account.id]}']")
            expect(mine).to_contain_text(account.name)
            expect(mine).to_contain_text(re.compile(rf"Finished {places[account.id]}(nd|rd)"))
            lowest = page.evaluate(
                "() => [...document.querySelectorAll('[data-seats] > .seat')]"
                ".sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top)[0]"
                ".dataset.seat"
            )
            assert lowest == str(seats[account.id])
        pages[account.id].shot(artifacts, f"tournament-end-{places[account.id]}")

    for account in players:
        pages[account.id].context.close()
        assert not pages[account.id].errors, pages[account.id].errors

    # the standings' own answers: a cash table has none, a game that is not there 404s
    cash = {"preset": "house", "format": "cash", "seats": 2, "buy_in": BUY_IN, "sit": False}
    cash_id = int(host.call("POST", "/api/games", cash)["game_id"])
    assert host.call("GET", f"/api/games/{cash_id}/standings") == {"finished": False, "places": []}
    missing = httpx.get(
        room.url("/api/games/999999/standings"),
        headers={"Authorization": f"Bearer {host.token}"},
    )
    assert missing.status_code == 404 and "There is no game 999999." in missing.text
