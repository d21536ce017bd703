"""The statistics page in the browser: the header's Statistics link, the figures and
the results graph against GET /api/me/statistics after three hands played over the
API, the Table menu narrowing them to one table, and the link to the table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, ready, unique_name, visit
from tests.ui.played_hands import three_hands

pytestmark = pytest.mark.slow


def ratio_text(ratio: dict[str, Any]) -> str:
    shown = "–" if ratio["percent"] is None else f"{ratio['percent']:.1f}%"
    return f"{shown} ({ratio['count']} of {ratio['chances']})"


def dollars(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def test_the_statistics_page_shows_the_servers_figures_and_graph(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("stah"))
    guest = Account(room.base, unique_name("stag"))
    game_id, small, big = three_hands(host, guest)
    other = Account(room.base, unique_name("stao"))  # a second table, no hand finished
    player = host.open(browser)
    page = player.page
    visit(page, room.url("/"))
    page.locator("header.top").get_by_role("link", name="Statistics", exact=True).click()
    page.wait_for_url(room.url("/stats"))
    ready(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Statistics")
    expect(page.get_by_role("link", name="Skip to content")).to_have_attribute("href", "#main")

    served = host.call("GET", "/api/me/statistics")
    overall = served["overall"]
    assert overall["hands"] == 3 and overall["net_cents"] == 2 * big - small  # as worked out
    figures = page.locator("[data-figures]")
    expect(figures.locator("[data-figure=hands] dd")).to_have_text("3")
    for key in ("vpip", "pfr", "three_bet", "wtsd", "wsd"):
        expect(figures.locator(f"[data-figure={key}] dd")).to_have_text(ratio_text(overall[key]))
    expect(figures.locator("[data-figure=vpip] dd")).to_have_text("33.3% (1 of 3)")
    expect(figures.locator("[data-figure=net_cents] dd")).to_have_text(
        dollars(overall["net_cents"])
    )
    expect(figures.locator("[data-figure=net_chips] dd")).to_have_text(str(overall["net_chips"]))
    # The graph: a line from 0 through each hand's running total, drawn in the page.
    line = page.locator("[data-graph] svg polyline")
    expect(line).to_have_attribute("data-points", "3")
    assert len(str(line.get_attribute("points")).split()) == 4
    expect(page.locator("[data-graph] svg")).to_have_attribute(
        "aria-label", re.compile(rf"to {overall['net_chips']} chips")
    )

    # One row per table; the Table menu narrows the figures to one table.
    row = page.locator(f"[data-stats-games] tr[data-game='{game_id}']")
    expect(row).to_contain_text("33.3%")
    page.get_by_label("Table", exact=True).select_option(str(game_id))
    page.wait_for_url(room.url(f"/stats?game={game_id}"))
    one = host.call("GET", f"/api/me/statistics?game={game_id}")
    expect(page.locator("[data-stats-title]")).to_contain_text(f"#{game_id}")
    expect(figures.locator("[data-figure=pfr] dd")).to_have_text(ratio_text(one["overall"]["pfr"]))
    page.get_by_label("Table", exact=True).select_option("")
    page.wait_for_url(room.url("/stats"))
    expect(page.locator("[data-stats-title]")).to_have_text("Every table")

    # The guest's page shows the guest's own figures, the other side of the hands.
    guest_page = guest.open(browser)
    visit(guest_page.page, room.url(f"/stats?game={game_id}"))
    theirs = guest.call("GET", f"/api/me/statistics?game={game_id}")["overall"]
    expect(guest_page.page.locator("[data-figure=vpip] dd")).to_have_text(
        ratio_text(theirs["vpip"])
    )
    expect(guest_page.page.locator("[data-figure=net_cents] dd")).to_have_text(
        dollars(-(2 * big - small))
    )

    # A player without hands is told so.
    empty = other.open(browser)
    visit(empty.page, room.url("/stats"))
    expect(empty.page.locator("[data-stats-empty]")).to_be_visible()
    assert other.call("GET", "/api/me/statistics")["overall"]["hands"] == 0

    # The table's link opens the table.
    row.get_by_role("link", name=f"Table #{game_id}").click()
    page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(page)
    assert host.call("GET", f"/api/games/{game_id}")["viewer_seat"] is not None
    errors = player.errors + guest_page.errors + empty.errors
    for p in (player, guest_page, empty):
        p.context.close()
    assert errors == [], errors


def test_by_table_on_a_phone_names_each_figure(room: Room, browser: Any) -> None:
    """On a phone a table's row is a grid without the header row: each figure says
    what it is (the walk-through of 2026-12-02 met bare "0.0%" four times over)."""
    host = Account(room.base, unique_name("phst"))
    guest = Account(room.base, unique_name("phsg"))
    game_id, _, _ = three_hands(host, guest)
    (one,) = [
        g for g in guest.call("GET", "/api/me/statistics")["games"] if g["game_id"] == game_id
    ]
    player = guest.open(browser, viewport={"width": 390, "height": 844})
    page = player.page
    visit(page, room.url("/stats"))
    row = page.locator(f"[data-stats-games] tr[data-game='{game_id}']")
    expect(row).to_be_visible()
    cells = row.locator("td.num")
    shown = cells.evaluate_all(
        "cells => cells.map(c => [getComputedStyle(c, '::before').content, c.textContent])"
    )
    percent = lambda key: "–" if one[key]["percent"] is None else f"{one[key]['percent']:.1f}%"  # noqa: E731
    assert shown[:6] == [
        ['"Hands "', str(one["hands"])],
        ['"VPIP "', percent("vpip")],
        ['"PFR "', percent("pfr")],
        ['"3-bet "', percent("three_bet")],
        ['"WTSD "', percent("wtsd")],
        ['"W$SD "', percent("wsd")],
    ]
    assert shown[6][0] == '"Net "'
    assert player.errors == [], player.errors
    player.context.close()
