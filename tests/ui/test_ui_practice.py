"""Practice bots from the lobby's own plain control: one click makes a points table
with the bots seated, and the server's game has them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import account, balance, game, no_page_errors, until
from tests.ui.kit import ready

pytestmark = pytest.mark.slow


def test_play_against_bots_from_the_lobby(room: Room, browser: Browser, artifacts: Path) -> None:
    me = account(room.base, "solo")
    player = me.open(browser)
    player.visit(room.url("/"))
    page = player.page
    page.get_by_role("link", name="Play against bots").click()
    practice = page.locator("[data-practice]")
    expect(practice).to_be_in_viewport()
    practice.get_by_label("Bots", exact=True).select_option("2")
    practice.get_by_label("Level").select_option("beginner")
    player.shot(artifacts, "lobby-practice")
    practice.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    ready(page)
    game_id = int(page.url.rsplit("/", 1)[1])
    table = until(lambda: game(me, game_id), lambda g: g["summary"]["status"] == "running")
    assert table["summary"]["preset"] == "arena" and not table["summary"]["pays_money"]
    names = sorted(s["name"] for s in table["seats"])
    assert len(names) == 3 and me.name in names, names
    bots = [n for n in names if n != me.name]
    assert all(re.fullmatch(r"bot-beginner-\d+", n) for n in bots), bots
    assert balance(me) == 10000  # points: no money moved
    expect(page.locator("[data-seats] .seat")).to_have_count(3)
    no_page_errors(player)
    player.context.close()
