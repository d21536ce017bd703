"""The links every page has: the header's navigation and brand, the skip links, and
the sign-in and sign-up pages' links to each other; a new account made on the
sign-up page exists on the server and is signed in."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.kit import (
    PASSWORD,
    Account,
    heads_up_game,
    open_player,
    ready,
    sign_in,
    unique_name,
    visit,
)

pytestmark = pytest.mark.slow


def skip_link_targets(page: Page, name: str, target: str) -> None:
    """A skip link (shown when it has the keyboard's focus) moves the reader to ``target``."""
    link = page.get_by_role("link", name=name)
    link.focus()
    expect(link).to_be_visible()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(f"{target}$"))
    assert page.evaluate("document.querySelector(':target').id") == target.lstrip("#")


def test_sign_up_and_sign_in_pages_link_to_each_other_and_make_the_account(
    room: Room, browser: Any
) -> None:
    person = open_player(browser, unique_name("newbie"))
    page = person.page
    visit(page, room.url("/sign-in"))
    skip_link_targets(page, "Skip to the form", "#main")
    page.get_by_role("link", name="Create an account").click()
    page.wait_for_url(room.url("/sign-up"))
    ready(page)
    skip_link_targets(page, "Skip to the form", "#main")
    page.get_by_role("link", name="Sign in").click()
    page.wait_for_url(room.url("/sign-in"))
    ready(page)
    page.get_by_role("link", name="Create an account").click()
    ready(page)
    page.get_by_label("Name").fill(person.name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    page.wait_for_url(room.url("/"))
    ready(page)
    # the server has the account, with its starting balance, and the page's session
    signed_in = httpx.post(
        room.url("/api/accounts/sign-in"), json={"name": person.name, "password": PASSWORD}
    )
    assert signed_in.status_code == 200, signed_in.text
    me = page.evaluate("fetch('/api/me').then(r => r.json())")
    assert me["name"] == person.name
    expect(page.locator("[data-balance]")).to_have_text("$100.00")
    assert person.errors == [], person.errors
    person.context.close()


def test_the_header_and_skip_links_of_every_signed_in_page(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("navi"))
    guest = Account(room.base, unique_name("navg"))
    game_id = heads_up_game(host, guest)
    admin = open_player(browser, ADMIN)
    page = admin.page
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    header = page.locator("header.top")
    for name, path, heading in (
        ("History", "/history", "History"),
        ("Notifications", "/notifications", "Notifications"),
        ("Account", "/account", "Account"),
        ("Admin", "/admin", "Admin"),
        ("Lobby", "/", "Lobby"),
    ):
        header.get_by_role("link", name=name, exact=True).click()
        page.wait_for_url(room.url(path))
        ready(page)
        expect(page.get_by_role("heading", level=1)).to_contain_text(re.compile(heading, re.I))
        page.reload()
        ready(page)
        skip_link_targets(page, "Skip to content", "#main")
    # the brand leads to the lobby from anywhere
    visit(page, room.url("/account"))
    header.get_by_role("link", name="Cardroom").click()
    page.wait_for_url(room.url("/"))
    ready(page)
    # the table's skip link goes to the player's actions
    visit(page, room.url(f"/games/{game_id}"))
    skip_link_targets(page, "Skip to your actions", "#actions-h")
    # the admin link is there for admins only
    player = host.open(browser)
    visit(player.page, room.url("/"))
    expect(player.page.locator("header.top").get_by_role("link", name="Admin")).to_be_hidden()
    assert admin.errors == [] and player.errors == [], admin.errors + player.errors
    admin.context.close()
    player.context.close()
