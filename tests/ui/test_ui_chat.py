"""Table chat in the browser (issue 22): two players chat live; markup typed into the
chat shows as text and runs nothing; the sixth quick message shows the 429 sentence;
the host turns the chat off and on; an admin deletes a message (gone from the other
pages live) and mutes a player. Every effect is read back from the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.ui.conftest import ADMIN, ADMIN_PASSWORD, Room
from tests.ui.kit import Account, heads_up_game, unique_name, visit
from tests.ui.layout_kit import chat_off_the_felt

pytestmark = pytest.mark.slow

MARKUP = '<img src=x onerror="window.chatRan=1"><script>window.chatRan=2</script>'


def room_admin(room: Room) -> Account:
    admin = Account.__new__(Account)  # signed in, not signed up
    admin.base, admin.name = room.base, ADMIN
    body = {"name": ADMIN, "password": ADMIN_PASSWORD}
    session = httpx.post(f"{room.base}/api/accounts/sign-in", json=body, timeout=10).json()
    admin.token, admin.csrf = str(session["token"]), str(session["csrf_token"])
    admin.id = int(admin.call("GET", "/api/me")["id"])
    return admin


def chat_of(account: Account, game_id: int) -> dict[str, Any]:
    chat: dict[str, Any] = account.call("GET", f"/api/games/{game_id}/chat")
    return chat


def server_texts(account: Account, game_id: int) -> list[str]:
    return [m["text"] for m in chat_of(account, game_id)["messages"]]


def send(page: Page, text: str) -> None:
    page.get_by_label("Message", exact=True).fill(text)
    page.get_by_role("button", name="Send", exact=True).click()


def lines(page: Page) -> Any:
    return page.locator("[data-chat-list] .chat-text")


def test_two_players_chat_live_and_the_sixth_quick_message_is_refused(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    host, guest = (
        Account(room.base, unique_name("chost")),
        Account(room.base, unique_name("cguest")),
    )
    game_id = heads_up_game(host, guest)
    hosting, guesting = host.open(browser), guest.open(browser)
    for player in (hosting, guesting):
        visit(player.page, room.url(f"/games/{game_id}"))
    send(hosting.page, "good luck")
    expect(lines(guesting.page)).to_have_text(["good luck"])  # live, no reload
    expect(hosting.page.get_by_label("Message", exact=True)).to_have_value("")
    send(guesting.page, MARKUP)
    expect(lines(hosting.page)).to_have_text(["good luck", MARKUP])
    assert hosting.page.locator("[data-chat-list] img, [data-chat-list] script").count() == 0
    assert hosting.page.evaluate("window.chatRan") is None
    assert server_texts(host, game_id) == ["good luck", MARKUP]
    for n in range(4):
        send(hosting.page, f"quick {n}")
        expect(lines(hosting.page).last).to_have_text(f"quick {n}")
    send(hosting.page, "one too many")
    expect(hosting.page.locator("[data-chat-error]")).to_contain_text(
        "You are sending messages too fast: at most 5 in 10 seconds."
    )
    hosting.shot(artifacts, "chat-too-fast")
    assert "one too many" not in server_texts(host, game_id)
    assert server_texts(host, game_id)[-1] == "quick 3"
    for player in (hosting, guesting):
        assert not player.errors, player.errors


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_chat_panel_stays_off_the_felt(
    room: Room, browser: Browser, artifacts: Path, size: tuple[int, int]
) -> None:
    host, guest = (
        Account(room.base, unique_name("chost")),
        Account(room.base, unique_name("cguest")),
    )
    game_id = heads_up_game(host, guest)
    for n in range(5):  # a full panel: long messages, wrapped
        host.call("POST", f"/api/games/{game_id}/chat", {"text": f"{n} " + "long words " * 40})
    width, height = size
    viewer = guest.open(browser, viewport={"width": width, "height": height})
    visit(viewer.page, room.url(f"/games/{game_id}"))
    expect(lines(viewer.page)).to_have_count(5)
    viewer.page.evaluate(
        "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
    )
    assert chat_off_the_felt(viewer.page) == []
    viewer.page.locator("[data-chat]").scroll_into_view_if_needed()
    viewer.shot(artifacts, f"chat-{width}x{height}")
    assert len(server_texts(guest, game_id)) == 5
    assert not viewer.errors, viewer.errors


def test_the_host_turns_chat_off_and_an_admin_deletes_and_mutes(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    host, guest = (
        Account(room.base, unique_name("chost")),
        Account(room.base, unique_name("cguest")),
    )
    game_id = heads_up_game(host, guest)
    admin = room_admin(room)
    hosting, guesting, admining = host.open(browser), guest.open(browser), admin.open(browser)
    for player in (hosting, guesting, admining):
        visit(player.page, room.url(f"/games/{game_id}"))

    # the host turns the chat off: the guest can no longer write, and on again
    switch = hosting.page.get_by_label("Chat on")
    expect(switch).to_be_checked()
    expect(guesting.page.get_by_label("Chat on")).to_be_hidden()  # the host's alone
    switch.uncheck()
    expect(guesting.page.locator("[data-chat-note]")).to_contain_text("turned the chat off")
    expect(guesting.page.get_by_label("Message", exact=True)).to_be_hidden()
    assert chat_of(guest, game_id)["on"] is False
    switch.check()
    expect(guesting.page.get_by_label("Message", exact=True)).to_be_visible()
    assert chat_of(guest, game_id)["on"] is True

    # an admin deletes the guest's message: gone from every page, live
    send(guesting.page, "something rude")
    send(hosting.page, "something kind")
    expect(lines(admining.page)).to_have_text(["something rude", "something kind"])
    admining.page.get_by_role("button", name=f"Delete {guest.name}'s message").click()
    expect(lines(hosting.page)).to_have_text(["something kind"])
    expect(lines(guesting.page)).to_have_text(["something kind"])
    assert server_texts(host, game_id) == ["something kind"]
    log = admin.call("GET", "/api/admin/actions")["actions"]
    assert log[0]["action"] == "chat_delete" and log[0]["before"]["text"] == "something rude"

    # and mutes the host at this table
    admining.page.get_by_role("button", name=f"Mute {host.name} at this table").click()
    expect(admining.page.locator("[data-chat-note]")).to_contain_text("is muted at this table")
    mutes = admin.call("GET", f"/api/admin/users/{host.id}/chat-mutes")
    assert mutes == [{"user_id": host.id, "game_id": game_id}]
    send(hosting.page, "am I muted?")
    expect(hosting.page.locator("[data-chat-error]")).to_contain_text("An admin has muted you")
    assert "am I muted?" not in server_texts(host, game_id)
    admining.shot(artifacts, "chat-admin")
    for player in (hosting, guesting, admining):
        assert not player.errors, player.errors
