"""The browser tests: a real ``cardroom serve`` in a subprocess on a free port, over a
migrated SQLite database in a temporary folder with cheap password hashing, and
Debian's Chromium driven by Playwright (never a downloaded browser).

One server and one browser serve the whole session; each test opens its own browser
contexts (separate cookie jars: separate players). Screenshots go to artifacts/ui/.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.servers import free_port, started
from tests.ui import kit

ADMIN = "boss"
ADMIN_PASSWORD = "correct horse"
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "ui"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass(frozen=True)
class Room:
    base: str
    folder: Path
    log: Path
    database_url: str

    def url(self, path: str) -> str:
        return self.base + path


def room_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env["CARDROOM_PASSWORD_HASHING"] = "cheap"
    env["CARDROOM_SIGN_UPS_PER_ADDRESS"] = "0"  # every test player signs up from 127.0.0.1
    env["CARDROOM_WRITES_PER_ADDRESS_PER_SECOND"] = "0"  # so do all their writes
    env["CARDROOM_WRITES_PER_SECOND"] = "0"  # bots act as fast as they can
    env["CARDROOM_CHECK_KEPT_TABLES"] = "1"  # see tests/conftest.py
    return env


@pytest.fixture(scope="session")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    folder = tmp_path_factory.mktemp("ui-room")
    url = f"sqlite:///{folder / 'room.db'}"
    env = room_env()
    cli = [sys.executable, "-m", "cardroom"]
    database = ["--database-url", url]
    # the database and its first admin, before the server holds the file
    for command in (
        ["db", "upgrade"],
        ["admin", "create-user", ADMIN, "--admin", "--password", ADMIN_PASSWORD],
    ):
        done = subprocess.run(
            [*cli, *command, *database], env=env, cwd=folder, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    port = free_port()
    log = folder / "serve.out"
    command = [*cli, "serve", "--port", str(port), *database]
    with started(command, port, log, cwd=folder, env=env, start_seconds=30):
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/sign-in").status_code == 200, "the UI is not served"
        yield Room(base, folder, log, url)
    printed = log.read_text(errors="replace")
    if "Traceback" in printed:  # the server's own log: show the traceback, not the requests
        lines = [line for line in printed.splitlines() if not line.startswith("INFO:")]
        pytest.fail("the server logged a traceback:\n" + "\n".join(lines[-80:]))


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/ensure-chromium installs it.", pytrace=False)
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def close_what_the_test_opened() -> Iterator[None]:
    """Close the browser contexts the test opened (``kit.OPENED``), not those of a
    module's fixtures, which were opened before this fixture starts."""
    before = len(kit.OPENED)
    yield
    for context in kit.OPENED[before:]:
        with contextlib.suppress(Exception):  # closed by the test already
            context.close()
    del kit.OPENED[before:]
