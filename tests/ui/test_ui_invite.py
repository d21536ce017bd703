"""Invite links in the browser (issue 18): the host creates a private table and copies
its link; a brand-new player opens it signed out, signs up, lands at the table and
sits down (seat, stack and balance read back through the API); a player who was not
invited neither finds the table in the lobby nor opens it by its number. An existing
player signs in through the link; a wrong link says so; sign-up and sign-in go back
only to addresses on this site."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import Room
from tests.ui.kit import PASSWORD, Account, open_player, ready, unique_name, visit
from tests.ui.test_ui_navigation import skip_link_targets

pytestmark = pytest.mark.slow

CLIPBOARD = ["clipboard-read", "clipboard-write"]


def signed_in_account(base: str, name: str) -> Account:
    """An account made on the pages, signed in again over the API to read the server."""
    account = Account.__new__(Account)
    account.base, account.name = base, name
    body = {"name": name, "password": PASSWORD}
    session = httpx.post(f"{base}/api/accounts/sign-in", json=body, timeout=10)
    assert session.status_code == 200, session.text
    account.token, account.csrf = session.json()["token"], session.json()["csrf_token"]
    account.id = int(account.call("GET", "/api/me")["id"])
    return account


def balance(account: Account) -> int:
    return int(account.call("GET", "/api/me/balance")["balance_cents"])


def lobby_ids(account: Account) -> set[int]:
    return {g["id"] for g in account.call("GET", "/api/games")["games"]}


def create_private_table(page: Page, room: Room) -> int:
    """The lobby's form: a 3-seat House cash table, $10.00, private, the host seated."""
    visit(page, room.url("/"))
    page.get_by_role("link", name="Create a game").click()
    page.locator("#preset").select_option("house")
    page.locator("#format").select_option("cash")
    page.locator("#seats").select_option("3")
    page.get_by_label("Private: only people with the link can find it").check()
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    ready(page)
    return int(page.url.rsplit("/", 1)[1])


def copied_link(page: Page) -> str:
    """Press Copy link; the clipboard's text, which is the link shown."""
    section = page.locator("[data-invite]")
    expect(section).to_be_in_viewport()  # a waiting table: in the first view
    shown = page.get_by_label("Invite link")
    expect(shown).to_have_value(re.compile(r"/invite/[\w-]{20,}$"))
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("[data-invite-copied]")).to_contain_text("Copied")
    clipboard = str(page.evaluate("navigator.clipboard.readText()"))
    assert clipboard == shown.input_value()
    return clipboard


def test_a_private_table_found_only_through_its_link(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    host = Account(room.base, unique_name("ihost"))
    outsider = Account(room.base, unique_name("iout"))
    hosting = host.open(browser, permissions=CLIPBOARD)
    game_id = create_private_table(hosting.page, room)
    expect(hosting.page.locator("[data-invite-note]")).to_contain_text("Private table")
    link = copied_link(hosting.page)
    hosting.shot(artifacts, "invite-host-waiting")
    invite = host.call("GET", f"/api/games/{game_id}/invite")
    assert invite["private"] is True
    assert link == room.url(invite["path"]) and invite["token"] != str(game_id)

    # a brand-new player opens the link signed out, signs up, lands at the table
    name = unique_name("ifriend")
    friend = open_player(browser, name)
    page = friend.page
    visit(page, link)
    friend.shot(artifacts, "invite-signed-out")
    skip_link_targets(page, "Skip to content", "#main")
    page.get_by_role("link", name="Create an account").click()
    page.wait_for_url(re.compile(r"/sign-up\?next="))
    ready(page)
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(page)
    join = page.get_by_role("button", name="Join for $10.00")
    expect(join).to_be_visible()
    join.click()
    expect(join).to_be_hidden()
    account = signed_in_account(room.base, name)
    seats = {s["user_id"]: s["stack"] for s in host.call("GET", f"/api/games/{game_id}")["seats"]}
    assert seats == {host.id: 1000, account.id: 1000}
    assert balance(account) == 10_000 - 1000

    # a player who was not invited: not in the lobby, refused by the table's number
    assert game_id not in lobby_ids(outsider)
    outside = outsider.open(browser)
    visit(outside.page, room.url("/"))
    outside.page.wait_for_load_state("networkidle")
    expect(outside.page.locator(f"[data-games] tr[data-game='{game_id}']")).to_have_count(0)
    outside.page.goto(room.url(f"/games/{game_id}"))
    expect(outside.page.locator("[data-error]")).to_contain_text("private table")
    expect(outside.page.locator("[data-conn]")).to_be_hidden()  # no socket opened
    outside.shot(artifacts, "invite-refused")
    refused = httpx.get(
        room.url(f"/api/games/{game_id}"),
        headers={"Authorization": f"Bearer {outsider.token}"},
        timeout=10,
    )
    assert refused.status_code == 403
    assert friend.errors == [] and hosting.errors == [] and outside.errors == []
    for player in (friend, hosting, outside):
        player.context.close()


def test_a_signed_in_player_and_a_signed_out_one_reach_the_table(
    room: Room, browser: Browser
) -> None:
    host = Account(room.base, unique_name("jhost"))
    body = {"preset": "house", "format": "cash", "seats": 4, "buy_in": 1000, "private": True}
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    link = room.url(host.call("GET", f"/api/games/{game_id}/invite")["path"])
    # signed in already: straight to the table, ready to sit down
    member = Account(room.base, unique_name("jin"))
    inside = member.open(browser)
    visit(inside.page, link)
    inside.page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(inside.page)
    expect(inside.page.get_by_role("button", name="Join for $10.00")).to_be_visible()
    assert member.call("GET", f"/api/games/{game_id}")["viewer_cost"] == 1000  # now open
    # signed out with an account: Sign in, then back through the link to the table
    returning = Account(room.base, unique_name("jback"))
    outside = open_player(browser, returning.name)
    visit(outside.page, link)
    outside.page.get_by_role("link", name="Sign in").click()
    outside.page.wait_for_url(re.compile(r"/sign-in\?next="))
    ready(outside.page)
    outside.page.get_by_label("Name").fill(returning.name)
    outside.page.get_by_label("Password").fill(PASSWORD)
    outside.page.get_by_role("button", name="Sign in").click()
    outside.page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(outside.page)
    assert returning.call("GET", f"/api/games/{game_id}")["summary"]["id"] == game_id
    assert inside.errors == [] and outside.errors == []
    inside.context.close()
    outside.context.close()


def test_a_wrong_link_says_so(room: Room, browser: Browser) -> None:
    account = Account(room.base, unique_name("wrong"))
    player = account.open(browser)
    visit(player.page, room.url("/invite/not-a-real-token-at-all"))
    expect(player.page.locator("[data-error]")).to_contain_text("does not lead to any table")
    player.page.get_by_role("link", name="Go to the lobby").click()
    player.page.wait_for_url(room.url("/"))
    ready(player.page)
    refused = httpx.post(
        room.url("/api/invites/not-a-real-token-at-all"),
        headers={"Authorization": f"Bearer {account.token}"},
        json={},
        timeout=10,
    )
    assert refused.status_code == 404
    assert player.errors == []
    player.context.close()


@pytest.mark.parametrize(
    "next_, lands",
    [
        ("/history", "/history"),
        ("//evil.example/", "/"),
        ("/\\evil.example/", "/"),
        ("/\t/evil.example/", "/"),
        ("https://evil.example/", "/"),
    ],
)
def test_sign_up_goes_back_only_to_this_site(
    room: Room, browser: Browser, next_: str, lands: str
) -> None:
    name = unique_name("nx")
    person = open_player(browser, name)
    page = person.page
    visit(page, room.url(f"/sign-up?{httpx.QueryParams({'next': next_})}"))
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.wait_for_url(room.url(lands))
    ready(page)
    assert signed_in_account(room.base, name).name == name  # the account exists
    assert person.errors == []
    person.context.close()
