"""The admin page mutes a player in every table's chat, and unmutes them (the API had
it, the page had no button): each with its reason, read back from the server (the
room-wide mute, the admin log) and from the muted player's side (their message
refused with the room's sentence, at any table; after Unmute, sent)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import Room
from tests.ui.kit import Account, admin_user_row, heads_up_game, unique_name, visit
from tests.ui.test_ui_chat import room_admin, send, server_texts

pytestmark = pytest.mark.slow

MUTED = "An admin has muted you: you cannot write in the chat."


def answer_the_dialog(page: Page, title: str, reason: str) -> None:
    dialog = page.get_by_role("dialog")
    expect(dialog.locator("[data-admin-title]")).to_have_text(title)
    dialog.get_by_label("Reason").fill(reason)
    dialog.get_by_role("button", name="Do it").click()
    expect(dialog).to_be_hidden()


def test_an_admin_mutes_a_player_in_every_chat_and_unmutes_them(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    loud, other, third = (Account(room.base, unique_name(p)) for p in ("mloud", "mothr", "mthrd"))
    here = heads_up_game(loud, other)
    there = heads_up_game(third, loud)  # a second table: the mute is room-wide
    admin = room_admin(room)
    talking = loud.open(browser)
    visit(talking.page, room.url(f"/games/{here}"))
    admining = admin.open(browser)
    page = admining.page
    visit(page, room.url("/admin"))
    page.locator("[data-users] tr").first.wait_for()

    row = admin_user_row(page, loud.id)
    expect(row.get_by_role("button", name="Unmute in chat")).to_have_count(0)
    row.get_by_role("button", name="Mute in chat").click()
    answer_the_dialog(page, f"Mute in chat: {loud.name}", "Shouting at every table")
    row = admin_user_row(page, loud.id)
    expect(row.locator("[data-chat-muted]")).to_have_text("Muted in chat")
    expect(row.get_by_role("button", name="Unmute in chat")).to_be_visible()
    expect(page.locator("[data-notice]")).to_have_text(f"Mute in chat: {loud.name}, done.")
    admining.shot(artifacts, "admin-chat-muted")
    # on the server: a mute with no table, in the admin log with its reason
    assert admin.call("GET", f"/api/admin/users/{loud.id}/chat-mutes") == [
        {"user_id": loud.id, "game_id": None}
    ]
    assert {"user_id": loud.id, "game_id": None} in admin.call("GET", "/api/admin/chat/mutes")
    (entry,) = admin.call("GET", f"/api/admin/actions?user_id={loud.id}")["actions"]
    assert (entry["action"], entry["reason"]) == ("chat_mute", "Shouting at every table")
    assert entry["after"] == {"game_id": None, "muted": True}

    # the player's message is refused with the room's sentence, at this table and that
    send(talking.page, "can anyone hear me?")
    expect(talking.page.locator("[data-chat-error]")).to_have_text(MUTED)
    assert "can anyone hear me?" not in server_texts(other, here)
    refused = httpx.post(
        room.url(f"/api/games/{there}/chat"),
        json={"text": "or here?"},
        headers={"Authorization": f"Bearer {loud.token}"},
    )
    assert refused.status_code == 403 and refused.json()["error"]["message"] == MUTED
    visit(talking.page, room.url(f"/games/{there}"))  # a table opened afresh says so
    expect(talking.page.locator("[data-chat-note]")).to_have_text(MUTED)
    expect(talking.page.get_by_label("Message", exact=True)).to_be_hidden()

    # the admin log on the page shows it too
    visit(page, room.url("/admin"))
    logged = page.locator("[data-actions] tr", has_text="Shouting at every table")
    expect(logged).to_contain_text("chat_mute")
    expect(logged).to_contain_text(loud.name)

    row = admin_user_row(page, loud.id)
    row.get_by_role("button", name="Unmute in chat").click()
    answer_the_dialog(page, f"Unmute in chat: {loud.name}", "Calmer now")
    row = admin_user_row(page, loud.id)
    expect(row.get_by_role("button", name="Mute in chat")).to_be_visible()
    expect(row.locator("[data-chat-muted]")).to_have_count(0)
    assert admin.call("GET", f"/api/admin/users/{loud.id}/chat-mutes") == []
    latest = admin.call("GET", f"/api/admin/actions?user_id={loud.id}")["actions"][0]
    assert (latest["action"], latest["reason"]) == ("chat_unmute", "Calmer now")
    visit(talking.page, room.url(f"/games/{there}"))
    send(talking.page, "sorry, everyone")
    expect(talking.page.locator("[data-chat-list] .chat-text")).to_have_text(["sorry, everyone"])
    assert server_texts(third, there) == ["sorry, everyone"]
    for player in (talking, admining):
        assert player.errors == [], player.errors
        player.context.close()
