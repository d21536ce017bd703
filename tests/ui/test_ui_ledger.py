"""A table's ledger in the browser: reached from the statistics page, its rows and
payments against GET /api/games/{id}/ledger, the Download CSV link's file against
the same ledger, and the refusal a player who never sat there is shown."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, ready, unique_name, visit
from tests.ui.played_hands import three_hands

pytestmark = pytest.mark.slow


def dollars(cents: int, sign: str = "−") -> str:
    return f"{sign if cents < 0 else ''}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def csv_amount(cents: int) -> str:
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def test_the_ledger_page_and_its_csv_match_the_server(
    room: Room, browser: Any, tmp_path: Path
) -> None:
    host = Account(room.base, unique_name("ledh"))
    guest = Account(room.base, unique_name("ledg"))
    game_id, small, big = three_hands(host, guest)
    up = 2 * big - small  # the host's result over the three hands
    player = guest.open(browser, accept_downloads=True)
    page = player.page
    visit(page, room.url("/stats"))
    page.locator(f"[data-stats-games] tr[data-game='{game_id}']").get_by_role(
        "link", name="Ledger"
    ).click()
    page.wait_for_url(room.url(f"/games/{game_id}/ledger"))
    ready(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Ledger · table #{game_id}")
    expect(page.get_by_role("link", name="Skip to content")).to_have_attribute("href", "#main")

    ledger = guest.call("GET", f"/api/games/{game_id}/ledger")
    assert {p["name"]: p["net"] for p in ledger["players"]} == {host.name: up, guest.name: -up}
    for line in ledger["players"]:
        row = page.locator(f"[data-ledger-players] tr[data-player='{line['user_id']}']")
        expect(row).to_contain_text(line["name"])
        expect(row.locator("[data-column=buy_ins]")).to_have_text(dollars(line["buy_ins"]))
        expect(row.locator("[data-column=on_table]")).to_have_text(dollars(line["on_table"]))
        expect(row.locator("[data-column=net]")).to_have_text(dollars(line["net"]))
    (payment,) = ledger["payments"]
    shown = page.locator("[data-ledger-payments] li")
    expect(shown).to_have_count(1)
    expect(shown).to_have_text(f"{guest.name} pays {host.name} {dollars(up)}")
    assert payment == {
        "payer_id": guest.id,
        "payer": guest.name,
        "payee_id": host.id,
        "payee": host.name,
        "amount": up,
    }

    # Download CSV: the file's rows are the server's ledger, in dollars.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download CSV").click()
    saved = tmp_path / "ledger.csv"
    download.value.save_as(saved)
    assert download.value.suggested_filename == f"cardroom-game-{game_id}-ledger.csv"
    rows = list(csv.reader(io.StringIO(saved.read_text())))
    header = rows[0]
    assert header[:3] == ["player", "place", "buy_ins"] and header[-1] == "net"
    by_name = {r[0]: dict(zip(header, r, strict=True)) for r in rows[1:3]}
    for line in ledger["players"]:
        got = by_name[line["name"]]
        for column in ("buy_ins", "rebuys", "cash_outs", "on_table", "net"):
            assert got[column] == csv_amount(line[column]), (line["name"], column)
    assert rows[3] == [] and rows[4] == ["payer", "payee", "amount"]
    assert rows[5:] == [[guest.name, host.name, csv_amount(up)]]

    # Someone who never sat at the table is refused, and told why.
    stranger = Account(room.base, unique_name("ledx"))
    other = stranger.open(browser)
    visit(other.page, room.url(f"/games/{game_id}/ledger"))
    expect(other.page.locator("[data-error]")).to_contain_text(
        f"Only the players of game {game_id} and admins may read its ledger."
    )
    expect(other.page.locator("[data-ledger]")).to_be_hidden()
    errors = player.errors + other.errors
    player.context.close()
    other.context.close()
    assert errors == [], errors
