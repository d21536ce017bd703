"""The live lobby and the unread notices' count, in the browser, without a reload.

Two browser contexts: B's lobby shows A's new table appear, its seats change as C
joins, and its row change when it starts and leave Open tables when it finishes, each
checked against the server's lobby, and the page never navigates meanwhile. Every
page's Notifications link counts the unread notices: a "your turn" arrives, the count
shows it; marking it read takes it away, as the server says."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import account, game, no_page_errors, until
from tests.ui.kit import Account, Player, heads_up_game

pytestmark = pytest.mark.slow

# The lobby's message comes within LOBBY_PUSH_SECONDS (0.25 s), the page reads after
# at most 0.4 s more: about a second, with room for a loaded machine. The lobby's
# slow poll (20 s) is far beyond it, so a pass here is the live path's.
LIVE_SECONDS = 3_000


def listed(who: Account, game_id: int) -> dict[str, Any] | None:
    """The game as the server's lobby lists it to ``who`` (None: not listed)."""
    games = who.call("GET", "/api/games")["games"]
    return next((g for g in games if g["id"] == game_id), None)


def live_page(player: Player, address: str) -> Page:
    """The page, set up, its /ws/me open, and marked so a reload would show."""
    page = player.page
    player.visit(address)
    page.locator("body[data-live]").wait_for(state="attached")
    page.evaluate("window.cardroomStayed = true")
    return page


def never_navigated(page: Page, address: str) -> None:
    assert page.url == address
    assert page.evaluate("window.cardroomStayed === true"), "the page was reloaded"


def test_the_lobby_follows_a_table_from_open_to_finished_without_a_reload(
    room: Room, browser: Browser
) -> None:
    a, b, c = (account(room.base, n) for n in ("lia", "lib", "lic"))
    viewer = b.open(browser)
    page = live_page(viewer, room.url("/"))
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))

    # A opens a three-seat sit-and-go: it appears in B's Open tables.
    body = {"preset": "house", "format": "tournament", "seats": 3, "buy_in": 1000}
    game_id = int(a.call("POST", "/api/games", body)["game_id"])
    row = page.locator(f"[data-games] tr[data-game='{game_id}']")
    expect(row).to_be_visible(timeout=LIVE_SECONDS)
    expect(row.get_by_role("cell", name="1/3")).to_be_visible()
    expect(row.get_by_role("button", name="Join for $10.00")).to_be_enabled()
    assert listed(b, game_id)["seats_taken"] == 1  # type: ignore[index]

    # C joins: the seats go to 2/3.
    c.call("POST", f"/api/games/{game_id}/join", {})
    expect(row.get_by_role("cell", name="2/3")).to_be_visible(timeout=LIVE_SECONDS)
    assert listed(b, game_id)["seats_taken"] == 2  # type: ignore[index]

    # A starts it: it runs, and nobody can join a running tournament any more.
    a.call("POST", f"/api/games/{game_id}/start", {})
    expect(row.locator(".badge")).to_have_text("Running", timeout=LIVE_SECONDS)
    expect(row.get_by_role("button", name="Join for $10.00")).to_have_count(0)
    expect(row.get_by_role("link", name="Watch")).to_be_visible()
    assert listed(b, game_id)["status"] == "running"  # type: ignore[index]

    # All in until one of them has every chip: it leaves Open tables.
    play_to_the_end([a, c], game_id)
    assert game(a, game_id)["summary"]["status"] == "finished"
    expect(row).to_have_count(0, timeout=LIVE_SECONDS)
    assert listed(b, game_id) is None

    never_navigated(page, room.url("/"))
    assert navigations == [], navigations
    no_page_errors(viewer)
    viewer.context.close()


def play_to_the_end(players: list[Account], game_id: int) -> None:
    """All in and call, hand after hand (Continue between them), until it is over."""
    for _ in range(100):
        seen = game(players[0], game_id)
        if seen["summary"]["status"] == "finished":
            return
        moved = False
        for player in players:
            mine = game(player, game_id)
            hand = mine["hand"]
            if hand and hand["legal"]:
                actions = hand["legal"]["actions"]
                kind = next(k for k in ("all_in", "call", "check") if k in actions)
                body = {"kind": kind, "version": mine["version"]}
                player.call("POST", f"/api/games/{game_id}/actions", body)
                moved = True
                break
        if not moved:  # between hands: everyone still seated presses Continue
            for player in players:
                httpx.post(
                    f"{player.base}/api/games/{game_id}/continue",
                    json={},
                    headers={"Authorization": f"Bearer {player.token}"},
                    timeout=10,
                )
    raise AssertionError("the tournament did not end")


def unread_on_server(who: Account) -> int:
    return int(who.call("GET", "/api/me/notifications")["unread"])


def mark_all_read(who: Account) -> None:
    for notice in who.call("GET", "/api/me/notifications?limit=100")["notices"]:
        if not notice["read"]:
            who.call("POST", f"/api/me/notifications/{notice['id']}/read")


def test_the_notifications_link_counts_the_unread_notices_live(
    room: Room, browser: Browser
) -> None:
    me, ann = account(room.base, "unme"), account(room.base, "unann")
    # Ann hosts, so she acts first; my "game started" notice is read already.
    game_id = heads_up_game(ann, me, rules={"turn_clock_seconds": 600})
    mark_all_read(me)
    assert unread_on_server(me) == 0
    player = me.open(browser)
    page = live_page(player, room.url("/account"))
    link = page.locator("header.top").get_by_role("link", name="Notifications", exact=True)
    badge = link.locator("[data-unread-notices]")
    expect(badge).to_be_hidden()

    # Ann calls: it is my turn at the table, a notice arrives, the link says 1.
    mine = game(ann, game_id)
    ann.call("POST", f"/api/games/{game_id}/actions", {"kind": "call", "version": mine["version"]})
    assert until(lambda: unread_on_server(me), lambda n: n == 1) == 1
    expect(badge).to_be_visible(timeout=LIVE_SECONDS)
    expect(badge).to_have_text("1 unread")
    expect(link).to_have_attribute("aria-describedby", "unread-notices")
    never_navigated(page, room.url("/account"))

    # The link leads to the notices; marking the notice read takes the count away,
    # here and on my other page (told on its /ws/me).
    other = me.open(browser)
    elsewhere = live_page(other, room.url("/history"))
    other_badge = elsewhere.locator("header.top [data-unread-notices]")
    expect(other_badge).to_have_text("1 unread")
    link.click()
    page.wait_for_url(room.url("/notifications"))
    page.locator("body[data-ready]").wait_for(state="attached")
    expect(badge).to_have_text("1 unread")
    page.locator("[data-notices] [data-unread]").first.get_by_role(
        "button", name="Mark as read"
    ).click()
    expect(badge).to_be_hidden()
    expect(other_badge).to_be_hidden(timeout=LIVE_SECONDS)
    never_navigated(elsewhere, room.url("/history"))
    assert until(lambda: unread_on_server(me), lambda n: n == 0) == 0
    assert me.call("GET", "/api/me/notifications/unread")["unread"] == 0
    no_page_errors(player, other)
    player.context.close()
    other.context.close()
