"""Spectators in the browser (issue 22): a table made on the lobby's form with
"Spectators may chat" is watched by a user without a seat, who sees the watchers'
count and no hole card (the players' cards are backs; a seated player sees their own
faces), and writes in the chat; a table made without "Allow spectators" is refused to
a user without a seat once it has started. Read back from the server each time."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, ready, unique_name, visit

pytestmark = pytest.mark.slow

FACES = "[data-seats] .card:not(.back):not(.empty)"
BACKS = "[data-seats] .card.back"


def create_on_the_form(page: Page, room: Room, *, watch: bool, chat: bool) -> int:
    """The lobby's form: a 2-seat House cash table, $10.00, the host seated."""
    visit(page, room.url("/"))
    page.get_by_role("link", name="Create a game").click()
    page.locator("#preset").select_option("house")
    page.locator("#format").select_option("cash")
    page.locator("#seats").select_option("2")
    page.get_by_label("Allow spectators").set_checked(watch)
    page.get_by_label("Spectators may chat").set_checked(chat)
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    ready(page)
    return int(page.url.rsplit("/", 1)[1])


def test_a_spectator_sees_the_count_no_hole_card_and_may_chat(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    host, guest = (
        Account(room.base, unique_name("shost")),
        Account(room.base, unique_name("sguest")),
    )
    fan = Account(room.base, unique_name("sfan"))
    hosting = host.open(browser)
    game_id = create_on_the_form(hosting.page, room, watch=True, chat=True)
    guest.call("POST", f"/api/games/{game_id}/join", {})  # full: the hand is dealt
    expect(hosting.page.locator(FACES)).to_have_count(2)  # the host's own two cards
    expect(hosting.page.locator("[data-watchers]")).to_have_text("Nobody watching")

    watching = fan.open(browser, viewport={"width": 390, "height": 844})
    visit(watching.page, room.url(f"/games/{game_id}"))
    page = watching.page
    expect(page.locator(BACKS)).to_have_count(4)  # two players, two backs each
    expect(page.locator(FACES)).to_have_count(0)
    hand = page.evaluate("window.cardroomTable.game.hand")
    assert hand["my_cards"] == [] and all(p["cards"] is None for p in hand["players"])
    expect(page.locator("[data-watchers]")).to_have_text("1 watching")
    expect(hosting.page.locator("[data-watchers]")).to_have_text("1 watching")  # live
    assert host.call("GET", f"/api/games/{game_id}/chat")["watchers"] == 1
    watching.shot(artifacts, "spectator-phone")

    page.get_by_label("Message", exact=True).fill("watching from the rail")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(hosting.page.locator("[data-chat-list] .chat-text")).to_have_text(
        ["watching from the rail"]
    )
    said = host.call("GET", f"/api/games/{game_id}/chat")["messages"]
    assert [(m["user_id"], m["text"]) for m in said] == [(fan.id, "watching from the rail")]
    assert host.call("GET", f"/api/games/{game_id}/chat")["spectators_may_chat"] is True

    watching.context.close()  # the spectator leaves: the count goes down, live
    expect(hosting.page.locator("[data-watchers]")).to_have_text("Nobody watching")
    assert not hosting.errors and not watching.errors, hosting.errors + watching.errors


def test_a_table_without_spectators_is_refused_to_a_user_without_a_seat(
    room: Room, browser: Browser
) -> None:
    host, guest = (
        Account(room.base, unique_name("shost")),
        Account(room.base, unique_name("sguest")),
    )
    fan = Account(room.base, unique_name("sfan"))
    hosting = host.open(browser)
    game_id = create_on_the_form(hosting.page, room, watch=False, chat=False)
    guest.call("POST", f"/api/games/{game_id}/join", {})
    watching = fan.open(browser)
    watching.page.goto(room.url(f"/games/{game_id}"))
    expect(watching.page.locator("[data-error]")).to_contain_text("does not allow spectators")
    expect(watching.page.locator("[data-conn]")).to_be_hidden()
    expect(watching.page.locator("[data-chat]")).to_be_hidden()
    refused = httpx.get(
        room.url(f"/api/games/{game_id}"), headers={"Authorization": f"Bearer {fan.token}"}
    )
    assert refused.status_code == 403, refused.text
    # the players still see their table and its chat
    expect(hosting.page.locator(FACES)).to_have_count(2)
    assert host.call("GET", f"/api/games/{game_id}/chat")["spectators_may_chat"] is False


def test_a_watcher_from_before_the_start_loses_a_table_without_spectators(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    """Anyone may open a waiting table, to take a seat; once it starts, the host's "no
    spectators" holds for a page opened before too: its socket is closed (4403) with
    the room's sentence, which the page shows, and it does not knock again."""
    host, guest = (
        Account(room.base, unique_name("shost")),
        Account(room.base, unique_name("sguest")),
    )
    fan = Account(room.base, unique_name("sfan"))
    body = {"preset": "house", "format": "cash", "seats": 2, "buy_in": 1000, "spectators": False}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    hosting = host.open(browser)
    visit(hosting.page, room.url(f"/games/{game_id}"))
    watching = fan.open(browser, viewport={"width": 390, "height": 844})
    page = watching.page
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    visit(page, room.url(f"/games/{game_id}"))
    expect(page.locator("[data-conn]")).to_have_text("Live")
    expect(page.get_by_role("button", name="Join for $10.00")).to_be_visible()
    expect(hosting.page.locator("[data-watchers]")).to_have_text("1 watching")

    guest.call("POST", f"/api/games/{game_id}/join", {})  # full: it starts and deals
    expect(page.locator("[data-error]")).to_have_text(
        f"The host of game {game_id} does not allow spectators: only its players can open"
        " the table."
    )
    expect(page.locator("[data-conn]")).to_have_text("Not live: the room closed this table to you.")
    expect(page.locator("[data-chat]")).to_be_hidden()
    expect(hosting.page.locator("[data-watchers]")).to_have_text("Nobody watching")  # live
    expect(hosting.page.locator(FACES)).to_have_count(2)  # the players play on
    watching.shot(artifacts, "spectator-closed-out")
    # nothing of the hand reached the page, and it does not knock again
    assert page.evaluate("window.cardroomTable.game.summary.status") == "waiting"
    assert page.evaluate("window.cardroomTable.events.some(e => e.type === 'HandDealt')") is False
    page.wait_for_timeout(3000)  # a reconnection would come within 0.5 s, then 1 s...
    assert [u for u in sockets if "/ws/games/" in u] == [
        room.url(f"/ws/games/{game_id}?chat=1").replace("http", "ws", 1)
    ]
    assert host.call("GET", f"/api/games/{game_id}/chat")["watchers"] == 0
    refused = httpx.get(
        room.url(f"/api/games/{game_id}"), headers={"Authorization": f"Bearer {fan.token}"}
    )
    assert refused.status_code == 403, refused.text
    for player in (hosting, watching):
        assert player.errors == [], player.errors
        player.context.close()
