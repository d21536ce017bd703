"""The browser tests: a real ``cardroom serve`` in a subprocess on a free port, over a
migrated SQLite database in a temporary folder with cheap password hashing, and
Debian's Chromium driven by Playwright (never a downloaded browser).

One server and one browser serve the whole session; each test opens its own browser
contexts (separate cookie jars: separate players). Screenshots go to artifacts/ui/.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*cli, "serve", "--port", str(port), *database],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=folder,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not answer /healthz in 30 s"
            time.sleep(0.1)
        assert httpx.get(f"{base}/sign-in").status_code == 200, "the UI is not served"
        yield Room(base, folder, log, url)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
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
