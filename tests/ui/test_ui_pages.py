"""The pages around the table: account (statement, deck, password), the hand history's
replay, admin (grant, fold an inactive player, pause, the logs), the rules dialog,
leaving a waiting game, and signing out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.kit import (
    PASSWORD,
    Account,
    admin_user_row,
    heads_up_game,
    open_player,
    ready,
    sign_in,
    unique_name,
    visit,
)

pytestmark = pytest.mark.slow


def fold_first_hand(host: Account, game_id: int) -> None:
    """The host (small blind, first to act) folds hand 1."""
    game = host.call("GET", f"/api/games/{game_id}")
    body = {"kind": "fold", "version": game["version"]}
    host.call("POST", f"/api/games/{game_id}/actions", body)


def test_account_history_and_rules(room: Room, browser: Browser, artifacts: Path) -> None:
    host = Account(room.base, unique_name("gina"))
    guest = Account(room.base, unique_name("hugo"))
    game_id = heads_up_game(host, guest)
    fold_first_hand(host, game_id)
    gina = host.open(browser)
    page = gina.page

    # the account: balance, the statement with the buy-in, the deck, the password
    visit(page, room.url("/account"))
    expect(page.locator("[data-balance-big]")).to_have_text("$90.00")
    buy_in = page.locator("[data-ledger] tr", has_text="Buy-in")
    expect(buy_in).to_contain_text("−$10.00")
    expect(buy_in.get_by_role("link", name=f"#{game_id}")).to_be_visible()
    page.get_by_label("Four-colour deck").check()
    expect(page.locator("html")).to_have_class("four-colour")
    form = page.locator("[data-password-form]")
    form.get_by_label("Current password").fill("not my password")
    form.get_by_label("New password", exact=True).fill("a better password")
    form.get_by_label("New password again").fill("a better password")
    form.get_by_role("button", name="Change the password").click()
    expect(form.locator("[data-password-error]")).to_have_text("The current password is not right.")
    form.get_by_label("Current password").fill(PASSWORD)
    form.get_by_role("button", name="Change the password").click()
    expect(form.locator("[data-password-saved]")).to_contain_text("Your password is changed")
    # notification settings: the room's defaults, changed and kept
    notify = page.locator("[data-notify-form]")
    expect(notify.get_by_label("In the room's pages")).to_be_checked()
    expect(notify.get_by_label("By Web Push, even when the room is closed")).not_to_be_checked()
    notify.get_by_label("In the room's pages").uncheck()
    notify.get_by_role("button", name="Save notification settings").click()
    expect(notify.locator("[data-notify-saved]")).to_have_text("Saved.")
    settings = host.call("GET", "/api/me/notification-settings")
    assert (settings["in_app"], settings["browser"]) == (False, True)
    page.screenshot(path=str(artifacts / "account.png"), full_page=True)

    # the history: hand 1, replayed step by step; her cards, never his
    visit(page, room.url("/history"))
    page.get_by_role("link", name=re.compile(f"^#{game_id}")).click()
    page.wait_for_url(room.url(f"/games/{game_id}/history"))
    ready(page)
    row = page.locator("[data-hands] tr[data-hand='1']")
    expect(row).to_contain_text(f"Everyone else folded: {guest.name} wins $0.20.")
    expect(row).to_contain_text("−$0.10")
    row.get_by_role("button", name="Replay hand 1").click()
    replay = page.locator("[data-replay]")
    expect(page.locator("[data-replay-title]")).to_be_focused()
    expect(replay.locator("[data-step-text]")).to_have_text("Hand #1 is dealt.")
    expect(replay.locator("[data-seats] .card[data-suit]")).to_have_count(0)
    for _ in range(3):  # small blind, big blind, the hole cards
        page.keyboard.press("ArrowRight")
    expect(replay.locator("[data-step-text]")).to_have_text("The hole cards are dealt.")
    mine = replay.locator(".seat.me .card[data-suit]")
    expect(mine).to_have_count(2)
    expect(replay.locator(".seat:not(.me) .card.back")).to_have_count(2)
    replay.get_by_role("button", name="To the end").click()
    expect(replay.locator("[data-step-text]")).to_have_text(
        f"{guest.name} wins the main pot, $0.20."
    )
    expect(replay.locator(".seat.winner .name")).to_have_text(guest.name)
    expect(replay.locator(".seat:not(.me) .card[data-suit]")).to_have_count(0)
    page.screenshot(path=str(artifacts / "history-replay.png"), full_page=True)
    # the downloads: her PHH and PokerStars text, and the deck proof, as the page offers
    downloads = page.locator("[data-downloads] a")
    expect(downloads).to_have_count(3)
    for link, marker in zip(
        downloads.all(), ('variant = "NT"', "PokerStars Hand #", '"root"'), strict=True
    ):
        body = page.evaluate(
            "async (href) => (await fetch(href, {credentials: 'same-origin'})).text()",
            link.get_attribute("href"),
        )
        assert marker in body, (link.get_attribute("href"), body[:200])

    # the table's rules, one click away
    visit(page, room.url(f"/games/{game_id}"))
    page.get_by_role("button", name="Rules").click()
    dialog = page.get_by_role("dialog", name="Rules of this table")
    expect(dialog).to_contain_text("3 raises a round")
    expect(dialog).to_contain_text("Moving big blind")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert gina.errors == [], gina.errors
    gina.context.close()


def test_admin_grants_folds_an_inactive_player_and_pauses(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    host = Account(room.base, unique_name("ivan"))
    guest = Account(room.base, unique_name("jill"))
    game_id = heads_up_game(host, guest)
    admin = open_player(browser, ADMIN)
    page = admin.page
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    page.get_by_role("link", name="Admin").click()
    page.wait_for_url(room.url("/admin"))
    ready(page)

    # a grant, with its reason
    page.locator("[data-users] tr").first.wait_for()
    user = admin_user_row(page, host.id)
    expect(user).to_contain_text("$90.00")
    user.get_by_role("button", name="Grant").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Amount ($)").fill("5")
    dialog.get_by_label("Reason").fill("Welcome back")
    dialog.get_by_role("button", name="Do it").click()
    expect(dialog).to_be_hidden()
    expect(user).to_contain_text("$95.00")

    # ivan is to act and away: fold him
    table = page.locator(f"[data-tables] tr[data-game='{game_id}']")
    expect(table).to_contain_text(host.name)
    table.get_by_role("button", name="Fold a player").click()
    expect(dialog.get_by_label("Player")).to_have_value("1")  # the one to act comes first
    dialog.get_by_label("Reason").fill("Away for days")
    dialog.get_by_role("button", name="Do it").click()
    expect(dialog).to_be_hidden()
    events = host.call("GET", f"/api/games/{game_id}/events")["events"]
    assert any(e["type"] == "PlayerActed" and e["data"]["action"] == "fold" for e in events)

    # and pause the table
    page.locator(f"[data-tables] tr[data-game='{game_id}']").get_by_role(
        "button", name="Pause"
    ).click()
    dialog.get_by_label("Reason").fill("Maintenance")
    dialog.get_by_role("button", name="Do it").click()
    expect(page.locator(f"[data-tables] tr[data-game='{game_id}']")).to_contain_text("Paused")
    assert host.call("GET", f"/api/games/{game_id}")["summary"]["status"] == "paused"
    page.reload()
    log = page.locator("[data-actions]")
    expect(log).to_contain_text("Welcome back")
    expect(log).to_contain_text("Away for days")
    expect(log).to_contain_text("Maintenance")
    expect(page.locator("[data-audit]")).to_contain_text("Yes: balances plus chips")
    page.screenshot(path=str(artifacts / "admin.png"), full_page=True)
    assert admin.errors == [], admin.errors
    admin.context.close()


def test_leave_a_waiting_game_and_sign_out(room: Room, browser: Browser) -> None:
    account = Account(room.base, unique_name("kate"))
    game = account.call("POST", "/api/games", {"preset": "standard", "seats": 6, "buy_in": 500})
    kate = account.open(browser)
    page = kate.page
    visit(page, room.url("/"))
    expect(page.locator("[data-balance]")).to_have_text("$100.00")  # per-hand: nothing taken
    row = page.locator(f"[data-mine] tr[data-game='{game['game_id']}']")
    expect(row).to_contain_text("Standard · Per-hand cash")
    expect(row).to_contain_text("$0.05/$0.10")
    expect(row).to_contain_text("30 s")
    row.get_by_role("button", name="Leave").click()
    expect(row).to_have_count(0)
    expect(page.locator(f"[data-games] tr[data-game='{game['game_id']}']")).to_contain_text("0/6")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(room.url("/sign-in"))
    page.goto(room.url("/account"))
    page.wait_for_url(re.compile(r"/sign-in\?next=%2Faccount$"))
    assert kate.errors == [], kate.errors
    kate.context.close()


def test_practice_bots_fill_a_points_table(room: Room, browser: Browser) -> None:
    account = Account(room.base, unique_name("liam"))
    body = {"preset": "arena", "format": "tournament", "seats": 3, "buy_in": 1000}
    game = account.call("POST", "/api/games", {**body, "small_blind": 10, "big_blind": 20})
    liam = account.open(browser)
    page = liam.page
    visit(page, room.url(f"/games/{game['game_id']}"))
    expect(page.locator("[data-status]")).to_have_text("Waiting for players: 1 of 3 seats taken.")
    bots = page.locator("[data-bots]")
    bots.get_by_label("Practice bots").select_option("2")
    bots.get_by_label("Level").select_option("beginner")
    bots.get_by_role("button", name="Seat them").click()
    # a full table starts by itself and deals; the bots play their turns
    expect(page.locator("[data-log]")).to_contain_text("Hand #1:")
    expect(page.locator(".seat:not(.empty)")).to_have_count(3)
    expect(page.locator("[data-title]")).to_contain_text("Arena Tournament · 10/20")
    assert liam.errors == [], liam.errors
    liam.context.close()
