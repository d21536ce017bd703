"""The admin page's player rows at 390x844 and 1280x800, one row in each state (active
or suspended, muted in chat or not: Suspend and Reinstate, Mute in chat and Unmute in
chat each shown), named with 20 capitals, the widest a name draws: none of a row's
buttons, badges and words overlap another or leave the screen (kit.overlaps_within),
nor does anything on the page stick out sideways. On the phone each button of the
rows is clicked once, its dialog measured too, and its effect read from the server:
Grant and Remove the balance, Suspend and Reinstate the suspension, Mute in chat and
Unmute in chat the room's mute list (GET /api/admin/chat/mutes); every row redrawn is
measured again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, Player, admin_user_row, overlaps_within, unique_name, visit
from tests.ui.layout_kit import out_of_width
from tests.ui.test_ui_chat import room_admin

pytestmark = pytest.mark.slow

SCREENS: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}
# What a row shows: its buttons and badges as boxes; the words of its cells (role,
# balance), of the name and of the "#id" after it.
ROW_PIECES = "button, .badge"
ROW_TEXTS = "td, td > strong, td > .muted"
DIALOG_PIECES = "input, select, button"
DIALOG_TEXTS = "h2, p, label"


def row_problems(page: Page, user_id: int, state: str) -> list[str]:
    row = admin_user_row(page, user_id)
    row.scroll_into_view_if_needed()
    return [f"{state}: {p}" for p in overlaps_within(row, ROW_PIECES, ROW_TEXTS)]


def answer(
    admining: Player, artifacts: Path, title: str, reason: str, amount: str | None = None
) -> None:
    """Fill the open dialog, measure it (its screenshot kept), and press Do it."""
    page = admining.page
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("[data-admin-title]")).to_have_text(title)
    if amount is not None:
        dialog.get_by_label("Amount ($)").fill(amount)
    dialog.get_by_label("Reason").fill(reason)
    verb = title.split(":")[0].lower().replace(" ", "-")
    admining.shot(artifacts, f"admin-dialog-{verb}-phone")
    assert overlaps_within(dialog, DIALOG_PIECES, DIALOG_TEXTS) == [], title
    dialog.get_by_role("button", name="Do it").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("[data-notice]")).to_have_text(f"{title}, done.")


def user_of(admin: Account, user_id: int) -> dict[str, Any]:
    page = admin.call("GET", f"/api/admin/users?after_id={user_id - 1}&limit=1")
    found: dict[str, Any] = page["users"][0]
    assert found["id"] == user_id
    return found


def room_mutes(admin: Account) -> list[dict[str, Any]]:
    mutes: list[dict[str, Any]] = admin.call("GET", "/api/admin/chat/mutes")
    return mutes


def long_name(state: str) -> str:
    return f"{unique_name('ROW')}{state.replace(' ', '').upper()}".ljust(20, "W")[:20]


def button(page: Page, user_id: int, name: str) -> Locator:
    row: Locator = admin_user_row(page, user_id)
    return row.get_by_role("button", name=name, exact=True)


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_admin_rows_fit_in_every_state(
    room: Room, browser: Browser, artifacts: Path, screen: str
) -> None:
    admin = room_admin(room)
    # 20 capitals, with nowhere to break: such a name once pushed a phone's row (its
    # balance) off the screen and a dialog's title out of the dialog
    states = ("active", "muted", "suspended", "suspended and muted")
    players = {state: Account(room.base, long_name(state)) for state in states}
    for state, player in players.items():
        if "suspended" in state:
            admin.call("POST", f"/api/admin/users/{player.id}/suspend", {"reason": "the test"})
        if "muted" in state:
            body = {"user_id": player.id, "reason": "the test"}
            admin.call("POST", "/api/admin/chat/mute", body)

    admining = admin.open(browser, viewport=SCREENS[screen])
    page = admining.page
    visit(page, room.url("/admin"))
    page.locator("[data-users] tr").first.wait_for()
    faces = {
        "active": ("Suspend", "Mute in chat"),
        "muted": ("Suspend", "Unmute in chat"),
        "suspended": ("Reinstate", "Mute in chat"),
        "suspended and muted": ("Reinstate", "Unmute in chat"),
    }
    problems: list[str] = []
    for state, player in players.items():
        for name in ("Grant", "Remove", *faces[state]):
            expect(button(page, player.id, name)).to_be_visible()
        problems += row_problems(page, player.id, state)
    admin_user_row(page, players["active"].id).evaluate("row => row.scrollIntoView()")
    admining.shot(artifacts, f"admin-rows-{screen}")
    assert problems == []
    assert out_of_width(page) == []  # nor anything else on the page sticks out sideways

    if screen == "phone":  # each button once, on the phone, read back from the server
        loud, quiet = players["active"], players["muted"]
        button(page, loud.id, "Mute in chat").click()
        answer(admining, artifacts, f"Mute in chat: {loud.name}", "Shouting")
        expect(button(page, loud.id, "Unmute in chat")).to_be_visible()
        assert {"user_id": loud.id, "game_id": None} in room_mutes(admin)
        button(page, quiet.id, "Unmute in chat").click()
        answer(admining, artifacts, f"Unmute in chat: {quiet.name}", "Calmer now")
        expect(button(page, quiet.id, "Mute in chat")).to_be_visible()
        assert quiet.id not in [m["user_id"] for m in room_mutes(admin)]

        balance = user_of(admin, loud.id)["balance_cents"]
        button(page, loud.id, "Grant").click()
        answer(admining, artifacts, f"Grant: {loud.name}", "A prize", amount="5")
        assert user_of(admin, loud.id)["balance_cents"] == balance + 500
        button(page, loud.id, "Remove").click()
        answer(admining, artifacts, f"Remove: {loud.name}", "A mistake", amount="2.50")
        assert user_of(admin, loud.id)["balance_cents"] == balance + 250

        button(page, quiet.id, "Suspend").click()
        answer(admining, artifacts, f"Suspend: {quiet.name}", "Collusion")
        expect(button(page, quiet.id, "Reinstate")).to_be_visible()
        assert user_of(admin, quiet.id)["suspended"] is True
        gone = players["suspended"]
        button(page, gone.id, "Reinstate").click()
        answer(admining, artifacts, f"Reinstate: {gone.name}", "Appeal upheld")
        expect(button(page, gone.id, "Suspend")).to_be_visible()
        assert user_of(admin, gone.id)["suspended"] is False

        # the rows redrawn in their new states fit too
        redrawn = {"muted": loud, "suspended": quiet, "active": gone}
        problems = [p for state, who in redrawn.items() for p in row_problems(page, who.id, state)]
        assert problems == []
    assert admining.errors == [], admining.errors
    admining.context.close()
    # The room is shared with the worker's later tests (the controls inventory walks
    # the admin page): nobody is left suspended or muted by this one.
    for player in players.values():
        if user_of(admin, player.id)["suspended"]:
            admin.call("POST", f"/api/admin/users/{player.id}/reinstate", {"reason": "the end"})
    for muted in [m["user_id"] for m in room_mutes(admin) if m["user_id"] in ids(players)]:
        admin.call("POST", "/api/admin/chat/unmute", {"user_id": muted, "reason": "the end"})


def ids(players: dict[str, Account]) -> set[int]:
    return {player.id for player in players.values()}
