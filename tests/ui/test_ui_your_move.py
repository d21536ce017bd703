"""Your move, everywhere: the header's badge and the document title count the games
waiting for the player's action, live on every open page as other players act, and
the lobby lists those games first with their clocks' time left."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import account, act, game, no_page_errors, until
from tests.ui.kit import Account, heads_up_game

pytestmark = pytest.mark.slow


def waiting_on_server(player: Account) -> int:
    """How many of the player's games the server says wait for their action."""
    return sum(g["your_turn"] for g in player.call("GET", "/api/me/games")["games"])


def shows(page: Page, count: int, title: str) -> None:
    badge = page.get_by_role("link", name=f"Games waiting for your move: {count}")
    if count:
        expect(badge).to_be_visible()
        expect(badge).to_have_text(f"Your move {count}")
        expect(page).to_have_title(f"({count}) {title}")
    else:
        expect(page.locator("[data-your-move]")).to_be_hidden()
        expect(page).to_have_title(title)


def test_the_badge_title_and_lobby_follow_the_players_turns_live(
    room: Room, browser: Browser
) -> None:
    me, ann, bob = (account(room.base, n) for n in ("me", "ann", "bob"))
    # Heads-up the host acts first: my two tables wait for me, ann's for her.
    first = heads_up_game(me, ann, rules={"turn_clock_seconds": 600})
    second = heads_up_game(me, bob, rules={"turn_clock_seconds": None})
    third = heads_up_game(ann, me)
    assert waiting_on_server(me) == 2

    lobby = me.open(browser)
    lobby.visit(room.url("/"))
    mine = me.open(browser)
    mine.visit(room.url("/account"))
    shows(lobby.page, 2, "Lobby · Cardroom")
    shows(mine.page, 2, "Account · Cardroom")
    rows = lobby.page.locator("[data-mine] tr")
    expect(rows).to_have_count(3)
    # The soonest clock first, the table without one next, then the one not waiting.
    expect(rows.nth(0)).to_have_attribute("data-game", str(first))
    expect(rows.nth(0)).to_contain_text(re.compile(r"Your move (9|10):\d\d left"))
    expect(rows.nth(1)).to_have_attribute("data-game", str(second))
    expect(rows.nth(1)).to_contain_text("Your move no clock")
    expect(rows.nth(2)).to_have_attribute("data-game", str(third))
    expect(rows.nth(2)).not_to_contain_text("Your move")

    # Ann calls at her table: it waits for me now, on both pages, without a reload.
    act(ann, third, "call")
    assert waiting_on_server(me) == 3
    shows(lobby.page, 3, "Lobby · Cardroom")
    shows(mine.page, 3, "Account · Cardroom")
    expect(lobby.page.locator("[data-mine] tr[data-your-turn]")).to_have_count(3)

    # I call at the first table over the API, then at the second on its page.
    act(me, first, "call")
    assert waiting_on_server(me) == 2
    shows(lobby.page, 2, "Lobby · Cardroom")
    shows(mine.page, 2, "Account · Cardroom")
    expect(rows.nth(0)).not_to_have_attribute("data-game", str(first))
    expect(lobby.page.locator(f"[data-mine] tr[data-game='{first}']")).not_to_contain_text(
        "Your move"
    )

    # The badge is a link to the lobby's list of them.
    mine.page.get_by_role("link", name="Games waiting for your move: 2").click()
    mine.page.wait_for_url(room.url("/") + "#mine-h")
    mine.page.locator("body[data-ready]").wait_for(state="attached")
    table = me.open(browser)
    table.visit(room.url(f"/games/{second}"))
    expect(table.page).to_have_title(re.compile(r"^\(2\) #\d+ "))
    table.page.get_by_role("button", name=re.compile(r"^Call")).click()
    until(lambda: waiting_on_server(me), lambda n: n == 1)
    assert waiting_on_server(me) == 1
    shows(lobby.page, 1, "Lobby · Cardroom")
    shows(mine.page, 1, "Lobby · Cardroom")
    expect(table.page).to_have_title(re.compile(r"^\(1\) #\d+ "))

    # My raise at the last one hands the turn to ann: nothing waits for me.
    act(me, third, "raise", game(me, third)["hand"]["legal"]["min_to"])
    assert waiting_on_server(me) == 0
    shows(lobby.page, 0, "Lobby · Cardroom")
    expect(table.page).to_have_title(re.compile(r"^#\d+ "))
    no_page_errors(lobby, mine, table)
    for player in (lobby, mine, table):
        player.context.close()
