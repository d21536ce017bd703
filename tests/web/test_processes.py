"""Two real ``cardroom serve`` processes on one PostgreSQL database: a command through
either reaches the WebSocket clients of both (LISTEN/NOTIFY), and every deadline is
fired once although both run the clock."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select
from websockets.sync.client import ClientConnection, connect

from cardroom.cli import main
from cardroom.store.models import Deadline, DeadlineKind, GameEvent
from tests.conftest import BACKENDS, scratch_database
from tests.servers import free_port, started
from tests.web.kit import PASSWORD

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif("postgresql" not in BACKENDS, reason="CARDROOM_TEST_POSTGRES=0"),
]


@contextmanager
def serving(url: str, folder: Path, name: str) -> Iterator[str]:
    """A ``cardroom serve`` process on ``url``; yields its base URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env["CARDROOM_PASSWORD_HASHING"] = "cheap"
    env["CARDROOM_SIGN_UPS_PER_ADDRESS"] = "0"  # every test player signs up from 127.0.0.1
    env["CARDROOM_WRITES_PER_ADDRESS_PER_SECOND"] = "0"  # so do all their writes
    env["CARDROOM_WRITES_PER_SECOND"] = "0"  # bots act as fast as they can
    output = folder / f"{name}.out"
    command = [sys.executable, "-m", "cardroom", "serve", "--port", str(port)]
    command += ["--database-url", url]
    # generous start: a loaded machine starts slowly
    with started(command, port, output, cwd=folder, env=env, start_seconds=90):
        yield f"http://127.0.0.1:{port}"
    printed = output.read_text()
    assert "Traceback" not in printed, printed


def player(base: str, name: str) -> dict[str, str]:
    body = {"name": name, "password": PASSWORD}
    assert httpx.post(f"{base}/api/accounts/sign-up", json=body).status_code == 201
    token = httpx.post(f"{base}/api/accounts/sign-in", json=body).json()["token"]
    return {"Authorization": f"Bearer {token}", "token": token}


def auth(who: dict[str, str]) -> dict[str, str]:
    return {"Authorization": who["Authorization"]}


def messages_until(
    ws: ClientConnection, wanted: str, seconds: float = 30.0
) -> list[dict[str, Any]]:
    """Messages until one holds an event of kind ``wanted`` (and its snapshot)."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    found = False
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        got.append(message)
        if message["type"] == "events" and wanted in [e["type"] for e in message["events"]]:
            found = True
        elif found and message["type"] == "snapshot":
            return got


def test_two_servers_serve_one_room(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ExitStack() as stack:
        url = stack.enter_context(scratch_database("postgresql", tmp_path))
        assert main(["db", "upgrade", "--database-url", url]) == 0
        capsys.readouterr()
        one = stack.enter_context(serving(url, tmp_path, "one"))
        two = stack.enter_context(serving(url, tmp_path, "two"))
        alice, bob, carol = (player(one, n) for n in ("alice", "bob", "carol"))
        five_seconds = {"seats": 2, "buy_in": 1000, "rules": {"turn_clock_seconds": 5}}
        created = httpx.post(f"{one}/api/games", json=five_seconds, headers=auth(alice))
        assert created.status_code == 201, created.text
        game = created.json()["game_id"]
        ws_two = stack.enter_context(
            connect(f"{two.replace('http', 'ws')}/ws/games/{game}?token={carol['token']}")
        )
        ws_one = stack.enter_context(
            connect(f"{one.replace('http', 'ws')}/ws/games/{game}?token={alice['token']}")
        )
        for ws in (ws_one, ws_two):
            assert json.loads(ws.recv(timeout=15))["type"] == "snapshot"

        # A command through server one reaches a client of server two...
        joined = httpx.post(f"{one}/api/games/{game}/join", json={}, headers=auth(bob))
        assert joined.status_code == 200, joined.text
        seen = messages_until(ws_two, "HandDealt")
        snapshot = seen[-1]
        assert snapshot["game"]["hand"]["my_cards"] == [], "carol watches; she has no cards"
        messages_until(ws_one, "HandDealt")

        # ... and one through server two reaches a client of server one.
        version = snapshot["version"]
        acted = httpx.post(
            f"{two}/api/games/{game}/actions",
            json={"kind": "call", "version": version},
            headers=auth(alice),
        )
        assert acted.status_code == 200, acted.text
        assert messages_until(ws_one, "PlayerActed")[-1]["version"] == version + 1

        # Three more tables, filled through server two, whose first turns run out too.
        people = [player(two, n) for n in ("ann", "ben", "cat", "dan", "eve", "fay")]
        for host, guest in zip(people[::2], people[1::2], strict=True):
            other = httpx.post(f"{two}/api/games", json=five_seconds, headers=auth(host))
            assert other.status_code == 201, other.text
            joining = httpx.post(
                f"{one}/api/games/{other.json()['game_id']}/join", headers=auth(guest)
            )
            assert joining.status_code == 200, joining.text

        # Bob stays away: after 5 s one of the two clocks checks for him, and both
        # servers' clients see it.
        for ws in (ws_one, ws_two):
            messages_until(ws, "ClockActed")

        # Each deadline fired once: one clock action per fired turn deadline, read in
        # one snapshot (the claim and the action commit together).
        engine = create_engine(url, isolation_level="REPEATABLE READ")
        try:
            deadline = time.monotonic() + 30
            while True:
                with engine.connect() as connection:
                    tables = connection.scalar(
                        select(func.count(func.distinct(GameEvent.game_id))).where(
                            GameEvent.kind == "ClockActed"
                        )
                    )
                    clock_acted = connection.scalar(
                        select(func.count())
                        .select_from(GameEvent)
                        .where(GameEvent.kind == "ClockActed")
                    )
                    fired_turns = connection.scalar(
                        select(func.count())
                        .select_from(Deadline)
                        .where(Deadline.kind == DeadlineKind.TURN, Deadline.fired_at.is_not(None))
                    )
                    workers = connection.scalars(
                        select(Deadline.claimed_by).where(
                            Deadline.kind == DeadlineKind.TURN, Deadline.claimed_by.is_not(None)
                        )
                    ).all()
                if tables == 4 or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        finally:
            engine.dispose()
    assert tables == 4, "every table's first turn timed out"
    assert clock_acted == fired_turns == len(workers)


def lobby_changed_within(ws: ClientConnection, seconds: float) -> bool:
    """Whether a ``lobby_changed`` comes within ``seconds`` (other messages skipped)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            return False
        if message["type"] == "lobby_changed":
            return True
    return False


def test_a_lobby_in_one_server_hears_tables_change_in_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The live lobby across processes: a table created, joined and started through
    server one reaches a lobby page's ``/ws/me?lobby=1`` on server two within about a
    second; a bet does not."""
    with ExitStack() as stack:
        url = stack.enter_context(scratch_database("postgresql", tmp_path))
        assert main(["db", "upgrade", "--database-url", url]) == 0
        capsys.readouterr()
        one = stack.enter_context(serving(url, tmp_path, "one"))
        two = stack.enter_context(serving(url, tmp_path, "two"))
        alice, bob, carol = (player(one, n) for n in ("alice", "bob", "carol"))
        lobby = stack.enter_context(
            connect(f"{two.replace('http', 'ws')}/ws/me?lobby=1&token={carol['token']}")
        )
        time.sleep(0.5)  # the socket is registered before the first change
        created = httpx.post(f"{one}/api/games", json={"seats": 2}, headers=auth(alice))
        assert created.status_code == 201, created.text
        game = created.json()["game_id"]
        assert lobby_changed_within(lobby, 3.0), "server two's lobby heard the new table"
        listed = httpx.get(f"{two}/api/games", headers=auth(carol)).json()["games"]
        assert [g["seats_taken"] for g in listed if g["id"] == game] == [1]
        joined = httpx.post(f"{one}/api/games/{game}/join", json={}, headers=auth(bob))
        assert joined.status_code == 200, joined.text  # full: it starts
        assert lobby_changed_within(lobby, 3.0)
        listed = httpx.get(f"{two}/api/games", headers=auth(carol)).json()["games"]
        assert [(g["seats_taken"], g["status"]) for g in listed if g["id"] == game] == [
            (2, "running")
        ]
        assert not lobby_changed_within(lobby, 1.0)  # one message for the join
        state = httpx.get(f"{one}/api/games/{game}", headers=auth(alice)).json()
        acted = httpx.post(
            f"{one}/api/games/{game}/actions",
            json={"kind": "call", "version": state["version"]},
            headers=auth(alice),
        )
        assert acted.status_code == 200, acted.text
        assert not lobby_changed_within(lobby, 1.0), "a bet changes nothing listed"
