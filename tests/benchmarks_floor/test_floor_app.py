"""The stack's floor (``benchmarks/floor_app.py``) as ``benchmarks/stack_floor.py``
runs it: a real uvicorn process on SQLite, without the transaction, with one per
command, and with commands committed together (``group``). An action is answered,
broadcast to both players' sockets, and (``commit``, ``group``) in the database once
answered; ``cardroom loadtest`` drives it without an error; and a batch of ``group``
refuses a stale command without losing the others."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from cardroom.loadtest import LoadPlan, run_load_test
from tests.servers import free_port, started

FLOOR_APP = Path(__file__).resolve().parents[2] / "benchmarks" / "floor_app.py"


def _floor_module() -> ModuleType:
    """benchmarks/ is not a package: load floor_app.py from its file (registered
    under its own name first, as its dataclasses need)."""
    name = "floor_app_under_test"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, FLOOR_APP)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


Floor = tuple[str, Path]  # base URL, the SQLite file


@pytest.fixture(scope="module", params=["nodb", "commit", "group"])
def floor(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Floor]:
    """One server per mode for the module's tests (starting one takes a second or
    two): each test signs up players of its own."""
    tmp_path = tmp_path_factory.mktemp(f"floor-{request.param}")
    database = tmp_path / "floor.db"
    url = f"sqlite:///{database}"
    _floor_module().create_schema(url)
    port = free_port()
    log = tmp_path / "server.out"
    command = [sys.executable, str(FLOOR_APP), "--port", str(port), "--mode", request.param]
    command += ["--database-url", url]
    with started(command, port, log, cwd=tmp_path, stop_seconds=10):
        yield f"http://127.0.0.1:{port}", database
    assert "Traceback" not in log.read_text(), log.read_text()


def stored_events(database: Path) -> list[tuple[int, int, str]]:
    if not database.exists():
        return []
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT game_id, seq, kind FROM floor_events ORDER BY seq")
        return [(int(g), int(s), str(k)) for g, s, k in rows]


class Inbox:
    """A socket's messages, kept: an answer and a broadcast may come in either order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.kept: list[dict[str, Any]] = []

    async def until(self, kind: str, check: Any = None) -> dict[str, Any]:
        """The first message of ``kind`` (that passes ``check``) not taken yet,
        waiting up to 5 s for it."""

        def wanted(message: dict[str, Any]) -> bool:
            return bool(message["type"] == kind and (check is None or check(message)))

        async with asyncio.timeout(5):
            while True:
                for message in self.kept:
                    if wanted(message):
                        self.kept.remove(message)
                        return message
                self.kept.append(json.loads(await self.ws.recv()))


async def play_one_action_each_way(base: str, database: Path, durable: bool) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        tokens, ids = [], []
        for name in ("ann", "bob"):
            body = {"name": name, "password": "pw"}
            assert (await http.post("/api/accounts/sign-up", json=body)).status_code == 201
            signed = (await http.post("/api/accounts/sign-in", json=body)).json()
            tokens.append(signed["token"])
            ids.append(signed["user"]["id"])
        headers = [{"Authorization": f"Bearer {t}"} for t in tokens]
        made = await http.post("/api/games", json={"seats": 2}, headers=headers[0])
        assert made.status_code == 201
        game_id = made.json()["game_id"]
        ws_base = base.replace("http://", "ws://")
        async with (
            connect(f"{ws_base}/ws/games/{game_id}?token={tokens[0]}") as ws_ann,
            connect(f"{ws_base}/ws/games/{game_id}?token={tokens[1]}") as ws_bob,
        ):
            sockets = (Inbox(ws_ann), Inbox(ws_bob))
            for ws in sockets:
                await ws.until("snapshot")
            joined = await http.post(f"/api/games/{game_id}/join", json={}, headers=headers[1])
            assert joined.status_code == 200, joined.text
            dealt = [await ws.until("snapshot", lambda m: m["game"]["hand"]) for ws in sockets]
            first = dealt[0]["game"]["hand"]["turn"]
            assert dealt[first]["game"]["hand"]["legal"] is not None
            assert dealt[1 - first]["game"]["hand"]["legal"] is None
            version = dealt[0]["game"]["version"]

            # Over HTTP: answered with its event, which is then in the database and
            # on both sockets.
            acted = await http.post(
                f"/api/games/{game_id}/actions",
                json={"kind": "check", "version": version},
                headers=headers[first],
            )
            assert acted.status_code == 200, acted.text
            seq = acted.json()["events"][0]["seq"]
            if durable:
                assert (game_id, seq, "check") in stored_events(database)
            for ws in sockets:
                got = await ws.until("events", lambda m: m["events"][-1]["seq"] >= seq)
                assert got["events"][-1]["seq"] == seq

            # On the socket: the same, answered by a result with the ref.
            second = sockets[1 - first]
            await second.ws.send(
                json.dumps({"type": "act", "kind": "check", "version": version + 1, "ref": "r1"})
            )
            result = await second.until("result")
            assert result["ref"] == "r1"
            seq = result["result"]["events"][0]["seq"]
            if durable:
                assert (game_id, seq, "check") in stored_events(database)
            for ws in sockets:
                got = await ws.until("events", lambda m: m["events"][-1]["seq"] >= seq)
                assert got["events"][-1]["seq"] == seq

            # Out of turn, or against an old version: refused, nothing written.
            again = await http.post(
                f"/api/games/{game_id}/actions",
                json={"kind": "check", "version": version},
                headers=headers[first],
            )
            assert again.status_code == 409
    if not durable:
        assert stored_events(database) == [], "nodb writes nothing"


def test_an_action_is_answered_durable_and_broadcast_to_both_sockets(floor: Floor) -> None:
    base, database = floor
    durable = httpx.get(f"{base}/healthz").json()["mode"] != "nodb"
    asyncio.run(play_one_action_each_way(base, database, durable))


@pytest.mark.parametrize("floor", ["commit", "group"], indirect=True)
@pytest.mark.parametrize("via", ["http", "socket"])
def test_cardroom_loadtest_plays_the_floor_without_errors(
    floor: Floor, tmp_path: Path, via: str
) -> None:
    base, database = floor
    plan = LoadPlan(urls=(base,), tables=2, duration_s=2.0, warmup_s=0.3, out=tmp_path, via=via)
    result = run_load_test(plan)
    assert result["errors"]["count"] == 0, result["errors"]
    assert result["actions"] > 0
    assert result["commands"] > result["actions"], "Continue between hands"
    assert result["latency_ms"]["count"] > 0
    mode = httpx.get(f"{base}/healthz").json()["mode"]
    assert len(stored_events(database)) >= result["commands"]
    if mode == "group":
        stats = httpx.get(f"{base}/stats").json()
        assert stats["commands"] >= result["commands"]
        assert 0 < stats["batches"] <= stats["commands"]
    assert os.path.exists(tmp_path / "loadtest.json")


class Listener:
    """A stand-in for a player's socket: what the table sent it, and whether each
    event was already in the database when it was sent."""

    def __init__(self, user_id: int, database: Path) -> None:
        self.user_id, self.database = user_id, database
        self.events: list[tuple[int, bool]] = []  # seq, stored when sent

    def push(self, *texts: str) -> None:
        for text in texts:
            message = json.loads(text)
            if message["type"] == "events":
                seq = message["events"][-1]["seq"]
                stored = {(g, s) for g, s, _ in stored_events(self.database)}
                self.events.append((seq, (message["game_id"], seq) in stored))


async def play_one_batch(database: Path) -> None:
    floor_app = _floor_module()
    url = f"sqlite:///{database}"
    floor_app.create_schema(url)
    room = floor_app.Room("group", url, 0)
    room.loop = asyncio.get_running_loop()
    room.engine = floor_app.make_engine(floor_app.Settings(database_url=url))
    try:
        # Two tables dealt through --mode commit's path (its own transactions).
        ann, bob, cat, dan = 1, 2, 3, 4
        first, second = room.create(ann), room.create(cat)
        room.join(first, bob)
        room.join(second, dan)
        table, other = room.tables[first], room.tables[second]
        listeners = [Listener(ann, database), Listener(bob, database)]
        table.viewers.extend(listeners)
        await asyncio.sleep(0)  # the set-up's broadcasts
        for listener in listeners:
            listener.events.clear()
        to_act = table.seats[table.turn].user_id
        waiting = bob if to_act == ann else ann
        version = table.version
        # The second table's row moved behind the process's back: its command passes
        # the check in memory and is refused by the UPDATE's ``WHERE version = seen``.
        with room.engine.begin() as connection:
            connection.execute(
                floor_app.update(floor_app.games)
                .where(floor_app.games.c.id == second)
                .values(version=other.version + 5)
            )
        other_to_act = other.seats[other.turn].user_id

        # All queued before the committer starts: one batch.
        committer = room.committer = floor_app.Committer(room)
        answers = [
            committer.submit(first, partial(room.act, first, to_act, version)),
            committer.submit(first, partial(room.act, first, waiting, version)),  # stale
            committer.submit(second, partial(room.act, second, other_to_act, other.version)),
            committer.submit(first, partial(room.act, first, waiting, version + 1)),
        ]
        committer.start()
        done = await asyncio.gather(*answers, return_exceptions=True)
        committer.stop()

        assert committer.stats()["batches"] == 1
        assert committer.stats()["commands"] == 4
        acted, stale, moved_away, answered = done
        assert isinstance(stale, floor_app.Refusal) and stale.code == "stale_version"
        assert isinstance(moved_away, floor_app.Refusal), moved_away
        assert moved_away.code == "stale_version"
        assert not isinstance(acted, BaseException) and not isinstance(answered, BaseException)
        assert [acted.version, answered.version] == [version + 1, version + 2]
        seqs = [acted.events[0].seq, answered.events[0].seq]
        stored = stored_events(database)
        assert [(first, seq, "check") for seq in seqs] == [e for e in stored if e[0] == first][-2:]
        assert not [e for e in stored if e[0] == second and e[2] == "check"]
        assert other.version == 2, "a refused command leaves its table as it was"
        for listener in listeners:
            # Both events, each sent once committed.
            assert listener.events == [(seqs[0], True), (seqs[1], True)]
    finally:
        room.engine.dispose()


def test_a_batch_refuses_a_stale_command_and_commits_the_others(tmp_path: Path) -> None:
    """``--mode group``: four commands in one transaction; the two stale ones (one
    caught in memory, one by the UPDATE's version check) are refused, and the two
    others committed, in the database when their events go out, and answered."""
    asyncio.run(play_one_batch(tmp_path / "floor.db"))
