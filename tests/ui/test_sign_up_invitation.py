"""Issue 17, item 5: a room that asks for an invitation code. The sign-up page's code
field is sent, a missing or wrong code is shown as the room's refusal and makes no
account, and the right one makes the account (read back through the API)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.servers import started
from tests.ui.conftest import room_env
from tests.ui.kit import PASSWORD, open_player, ready, visit
from tests.web.test_web_serve import free_port

CODE = "river-card-42"


@pytest.fixture
def invitation_room(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'room.db'}"
    env = {**room_env(), "CARDROOM_SIGN_UP": "invitation", "CARDROOM_INVITATION_CODE": CODE}
    cli = [sys.executable, "-m", "cardroom"]
    done = subprocess.run(
        [*cli, "db", "upgrade", "--database-url", url], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    port = free_port()
    command = [*cli, "serve", "--port", str(port), "--database-url", url]
    with started(command, port, tmp_path / "serve.out", cwd=tmp_path, env=env):
        yield f"http://127.0.0.1:{port}"


def signs_in(base: str, name: str) -> int:
    body = {"name": name, "password": PASSWORD}
    return httpx.post(f"{base}/api/accounts/sign-in", json=body, timeout=10).status_code


def test_sign_up_with_the_rooms_invitation_code(invitation_room: str, browser: Browser) -> None:
    base = invitation_room
    player = open_player(browser, "newcomer")
    page = player.page
    visit(page, base + "/sign-up")
    page.get_by_label("Name").fill("newcomer")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    create = page.get_by_role("button", name="Create the account")
    for code in ("", "river-card-41"):
        page.get_by_label("Invitation code").fill(code)
        create.click()
        expect(page.locator("[data-error]")).to_contain_text("invitation code")
        assert signs_in(base, "newcomer") == 401  # no account was made
        expect(create).to_be_enabled()
    page.get_by_label("Invitation code").fill(CODE)
    create.click()
    page.wait_for_url(base + "/")
    ready(page)
    assert signs_in(base, "newcomer") == 200
    assert player.errors == []
    player.context.close()
