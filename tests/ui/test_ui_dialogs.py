"""The dialogs' own answers. The inventory walk opens every dialog it can reach
(tests/ui/test_ui_inventory.py); Yes, Do it and the forms' fields are proven by the
tests of the commands they confirm. Here: No and Cancel, which must send nothing
(the table and the balance read from the server are as they were), and the Settings
dialog's turn notifications, which must show the next turn."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.controls_kit import seat_command
from tests.ui.kit import (
    Account,
    admin_user_row,
    heads_up_game,
    open_player,
    ready,
    sign_in,
    unique_name,
    visit,
)
from tests.ui.played_hands import game_of, move

pytestmark = pytest.mark.slow


def test_no_in_a_confirmation_sends_nothing(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("noh"))
    guest = Account(room.base, unique_name("nog"))
    game_id = heads_up_game(host, guest)
    before = game_of(guest, game_id)
    balance = guest.call("GET", "/api/me/balance")["balance_cents"]
    player = guest.open(browser)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    dialog = page.locator("[data-confirm-dialog]")

    # Cash out, then No: still seated with every chip, the balance untouched
    seat_command(player, "Cash out").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="No").click()
    expect(dialog).to_be_hidden()
    page.wait_for_load_state("networkidle")
    after = game_of(guest, game_id)
    mine = next(s for s in after["seats"] if s["user_id"] == guest.id)
    assert mine["leaving"] is None
    assert mine["stack"] == next(s["stack"] for s in before["seats"] if s["user_id"] == guest.id)
    assert after["version"] == before["version"]
    assert guest.call("GET", "/api/me/balance")["balance_cents"] == balance
    expect(seat_command(player, "Cash out")).to_be_enabled()  # and may be asked again

    # the host's Pause the table, then No: the table plays on
    hosting = host.open(browser)
    visit(hosting.page, room.url(f"/games/{game_id}"))
    hosting.page.locator("details[data-host-tools] > summary").click()
    hosting.page.get_by_role("button", name="Pause the table").click()
    asked = hosting.page.locator("[data-confirm-dialog]")
    asked.get_by_label("Reason (kept in the admin log)").fill("not now")
    asked.get_by_role("button", name="No").click()
    expect(asked).to_be_hidden()
    hosting.page.wait_for_load_state("networkidle")
    assert game_of(host, game_id)["summary"]["status"] == "running"
    for one in (player, hosting):
        assert one.errors == [], one.errors
        one.context.close()


def test_cancel_in_an_admin_dialog_changes_nothing(room: Room, browser: Any) -> None:
    target = Account(room.base, unique_name("cancel"))
    admin = open_player(browser, ADMIN)
    sign_in(admin, room.base, ADMIN, ADMIN_PASSWORD)
    page = admin.page
    visit(page, room.url("/admin"))
    page.locator("[data-users] tr").first.wait_for()
    row = admin_user_row(page, target.id)
    row.get_by_role("button", name="Grant").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Amount ($)").fill("25")
    dialog.get_by_label("Reason").fill("cancelled grant")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    page.wait_for_load_state("networkidle")
    assert target.call("GET", "/api/me/balance")["balance_cents"] == 10_000
    body = {"name": ADMIN, "password": ADMIN_PASSWORD}
    boss = Account.__new__(Account)  # the room's admin, signed in over the API
    boss.base = room.base
    session = httpx.post(room.url("/api/accounts/sign-in"), json=body).json()
    boss.token = str(session["token"])
    log = boss.call("GET", f"/api/admin/actions?user_id={target.id}")
    assert all(entry.get("reason") != "cancelled grant" for entry in log["actions"])
    expect(row).to_contain_text("$100.00")
    assert admin.errors == [], admin.errors
    admin.context.close()


# A browser that may show notifications, and whose tab is in the background.
NOTIFICATIONS = """
window.notices = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.notices.push({title, body: options && options.body}); }
  addEventListener() {}
  close() {}
};
document.hasFocus = () => false;
"""


def test_the_settings_turn_notifications_show_the_next_turn(room: Room, browser: Any) -> None:
    host = Account(room.base, unique_name("toth"))
    guest = Account(room.base, unique_name("totg"))
    game_id = heads_up_game(host, guest)  # the host acts first
    player = guest.open(browser, init_script=NOTIFICATIONS)
    page = player.page
    visit(page, room.url(f"/games/{game_id}"))
    page.get_by_role("button", name="Settings").click()
    dialog = page.get_by_role("dialog", name="Settings")
    box = dialog.get_by_label("Tell me when it is my turn (browser notification)")
    expect(box).not_to_be_checked()
    box.check()
    expect(dialog).to_contain_text("This browser may show notifications.")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    move(host, game_id, "call")  # now the guest is to act, told by the server
    assert game_of(guest, game_id)["hand"]["legal"] is not None
    # (a polled wait_for_function would be an eval, which the pages' CSP refuses)
    for _ in range(50):
        if page.evaluate("window.notices.length"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.notices.map(n => n.title)") == ["Your turn"]
    page.reload()
    ready(page)
    page.get_by_role("button", name="Settings").click()
    expect(dialog.get_by_label("Tell me when it is my turn (browser notification)")).to_be_checked()
    assert player.errors == [], player.errors
    player.context.close()
