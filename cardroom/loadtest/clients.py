"""The bot clients: a player is a signed-in user with its own WebSocket to its
table, acting when a snapshot says it is its turn, as a browser would: over HTTP
(``via="http"``), or on the table's socket itself (``via="socket"``: an ``act`` or
``continue`` message with a ``ref``, answered by a ``result`` or ``refused`` with the
same ``ref``). Joining, leaving and rebuying are HTTP either way.

Latency bookkeeping (``TableClient``): an action's request leaves at ``t0``; its
answer names the events it committed (the last ``seq``); the action has been
broadcast once every player's socket has delivered an ``events`` message reaching
that ``seq``. The socket may deliver before the answer arrives, so each player
remembers when it reached which ``seq``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from cardroom.loadtest.http import HTTP_ERRORS, HttpClient, Reply
from cardroom.loadtest.metrics import Metrics

REACHED_MEMORY = 512  # (seq, time) pairs each player keeps
ANSWER_TIMEOUT_S = 60.0  # on the socket, and for each connection or answer over HTTP


@dataclass
class Pending:
    last_seq: int
    t0: float
    latest: float  # when the players that had it already got it (the latest of them)
    waiting: set[int]  # players (index) that have not got it yet


@dataclass
class Room:
    """What every player shares: the HTTP clients, the metrics, the phase."""

    metrics: Metrics
    http: dict[str, HttpClient]
    think_s: float = 0.0
    ws_compression: bool = True
    via: str = "http"  # how act and Continue are sent: "http" or "socket"
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stopping: bool = False
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


class TableClient:
    """One table's players and its broadcast bookkeeping."""

    def __init__(self, room: Room, game_id: int) -> None:
        self.room = room
        self.game_id = game_id
        self.players: list[Player] = []
        self.pending: list[Pending] = []

    def sent(self, last_seq: int, t0: float) -> None:
        """An action committed up to ``last_seq``: done when every player has it."""
        latest, waiting = t0, set()
        for player in self.players:
            at = player.reached_at(last_seq)
            if at is None:
                waiting.add(player.index)
            else:
                latest = max(latest, at)
        if waiting:
            self.pending.append(Pending(last_seq, t0, latest, waiting))
        else:
            self.room.metrics.latency(latest - t0)

    def arrived(self, player: Player, seq: int, at: float) -> None:
        if not self.pending:
            return
        still: list[Pending] = []
        for item in self.pending:
            if player.index in item.waiting and seq >= item.last_seq:
                item.waiting.discard(player.index)
                item.latest = max(item.latest, at)
            if item.waiting:
                still.append(item)
            else:
                self.room.metrics.latency(item.latest - item.t0)
        self.pending = still


class Player:
    def __init__(
        self,
        room: Room,
        table: TableClient,
        index: int,
        name: str,
        user_id: int,
        token: str,
        base_url: str,
        seed: int,
    ) -> None:
        self.room, self.table, self.index = room, table, index
        self.name, self.user_id, self.token = name, user_id, token
        self.base_url = base_url
        self.http = room.http[base_url]
        self.headers = {"Authorization": f"Bearer {token}"}
        self.rng = random.Random(seed)
        self.game: dict[str, Any] | None = None
        self.seen_seq = 0
        self.reached: deque[tuple[int, float]] = deque(maxlen=REACHED_MEMORY)
        self.busy = False
        self.acted_version = 0
        self.left = False
        self.connected = asyncio.Event()
        self.ws: ClientConnection | None = None
        self.refs = 0
        self.answers: dict[str, asyncio.Future[dict[str, Any] | None]] = {}

    # -- the socket -----------------------------------------------------------------

    @property
    def ws_url(self) -> str:
        return (
            self.base_url.replace("http://", "ws://", 1)
            + f"/ws/games/{self.table.game_id}?token={self.token}"
        )

    async def listen(self) -> None:
        """Read the table's messages until the socket closes."""
        metrics = self.room.metrics
        try:
            compression = "deflate" if self.room.ws_compression else None
            async with connect(
                self.ws_url, max_size=2**22, open_timeout=30, compression=compression
            ) as ws:
                self.ws = ws
                self.connected.set()
                async for raw in ws:
                    at = time.perf_counter()
                    message = json.loads(raw)
                    kind = message.get("type")
                    if kind == "events":
                        events = message["events"]
                        if events:
                            seq = max(e["seq"] for e in events)
                            if seq > self.seen_seq:
                                self.seen_seq = seq
                                self.reached.append((seq, at))
                                self.table.arrived(self, seq, at)
                    elif kind == "snapshot":
                        self.game = message["game"]
                        self.decide()
                    elif kind in ("result", "refused"):
                        self._answered(message)
                    elif kind == "error":
                        metrics.error("socket_error_message", message.get("message"))
        except (TimeoutError, OSError, WebSocketException):
            if not self.left:
                metrics.error("socket_closed")
        finally:
            self.connected.set()  # (a failed connect must not hang the setup)
            for waiting in self.answers.values():
                if not waiting.done():
                    waiting.set_result(None)  # the socket is gone: no answer will come

    def _answered(self, message: dict[str, Any]) -> None:
        waiting = self.answers.pop(str(message.get("ref")), None)
        if waiting is None:
            self.room.metrics.error("socket_answer_unmatched", json.dumps(message)[:200])
        elif not waiting.done():
            waiting.set_result(message)

    def reached_at(self, seq: int) -> float | None:
        """When this player's socket first delivered ``seq`` or later, if it has."""
        if self.seen_seq < seq:
            return None
        for got, at in self.reached:
            if got >= seq:
                return at
        return None  # older than memory: counted as not seen (should not happen)

    # -- deciding -------------------------------------------------------------------

    def me(self) -> dict[str, Any] | None:
        game = self.game
        if game is None:
            return None
        for seat in game["seats"]:
            if seat["user_id"] == self.user_id:
                return dict(seat)
        return None

    def decide(self) -> None:
        """Act on the latest snapshot, if it asks for something and nothing of ours
        is in flight."""
        if self.busy or self.left or not self.room.go.is_set() or self.game is None:
            return
        game = self.game
        version = game["version"]
        if version <= self.acted_version:
            return
        hand = game.get("hand")
        seat = self.me()
        running = hand is not None and hand["running"]
        if running and hand is not None and hand.get("legal") is not None:
            self._start(version, self._act(version, hand["legal"]))
        elif self.room.stopping and not running:
            self._start(version, self._leave())
        elif seat is None:
            return
        elif hand is not None and not running and not seat["continued"]:
            self._start(version, self._command("continue"))
        elif not running and seat["stack"] == 0 and not seat["in_hand"]:
            self._start(version, self._command("rebuy"))

    def _start(self, version: int, work: Awaitable[None]) -> None:
        self.busy = True
        self.acted_version = version
        self.room.spawn(self._run(work))

    async def _run(self, work: Awaitable[None]) -> None:
        try:
            if self.room.think_s:
                # from half to one and a half times the think time: tables that start
                # together drift apart instead of acting in bursts
                await asyncio.sleep(self.room.think_s * (0.5 + self.rng.random()))
            await work
        finally:
            self.busy = False
        self.decide()  # a snapshot may have come while we were busy

    def choose(self, legal: dict[str, Any]) -> dict[str, Any]:
        """A loose, cheap policy: mostly checks and calls, some bets, raises and
        folds, never a deliberate all-in (deep stacks keep the tables going)."""
        kinds = legal["actions"]
        r = self.rng.random()
        if "check" in kinds:
            if "bet" in kinds and r < 0.25:
                return {"kind": "bet", "amount": legal["min_to"]}
            return {"kind": "check"}
        if "fold" in kinds and r < 0.2:
            return {"kind": "fold"}
        if "raise" in kinds and r < 0.32:
            return {"kind": "raise", "amount": legal["min_to"]}
        for kind in ("call", "all_in", "fold"):
            if kind in kinds:
                return {"kind": kind}
        return {"kind": kinds[0]}

    # -- commands -------------------------------------------------------------------

    async def _post(self, path: str, body: dict[str, Any]) -> Reply | None:
        metrics = self.room.metrics
        metrics.request()
        try:
            return await self.http.post(path, body, self.headers)
        except HTTP_ERRORS as exc:
            metrics.error(f"http_{type(exc).__name__}")
            return None

    async def _send(self, message: dict[str, Any]) -> Reply | None:
        """A command on the table's socket; its ``result`` or ``refused``, matched by
        ``ref``, as a Reply (the HTTP route's status, and its body)."""
        metrics = self.room.metrics
        ws = self.ws
        if ws is None:
            metrics.error("socket_not_open")
            return None
        self.refs += 1
        ref = str(self.refs)
        waiting: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.answers[ref] = waiting
        try:
            await ws.send(json.dumps({**message, "ref": ref}))
            answer = await asyncio.wait_for(waiting, ANSWER_TIMEOUT_S)
        except (TimeoutError, OSError, WebSocketException) as exc:
            metrics.error(f"socket_{type(exc).__name__}")
            return None
        finally:
            self.answers.pop(ref, None)
        if answer is None:
            metrics.error("socket_closed_before_answer")
            return None
        if answer["type"] == "result":
            return Reply(200, answer["result"])
        return Reply(int(answer["status"]), {"error": answer["error"]})

    async def _act(self, version: int, legal: dict[str, Any]) -> None:
        body = {**self.choose(legal), "version": version}
        t0 = time.perf_counter()
        if self.room.via == "socket":
            reply = await self._send({"type": "act", **body})
        else:
            reply = await self._post(f"/api/games/{self.table.game_id}/actions", body)
        if self._ok(reply, "act"):
            assert reply is not None
            events = reply.body["events"]
            self.room.metrics.committed(action=True)
            if events:
                self.table.sent(max(e["seq"] for e in events), t0)

    async def _command(self, name: str) -> None:
        # No version: the other players' Continue changes it meanwhile, and the
        # command means the same whatever they did.
        if name == "continue" and self.room.via == "socket":
            reply = await self._send({"type": "continue"})
        else:
            reply = await self._post(f"/api/games/{self.table.game_id}/{name}", {})
        if self._ok(reply, name):
            self.room.metrics.committed(action=False)

    async def _leave(self) -> None:
        reply = await self._post(f"/api/games/{self.table.game_id}/leave", {})
        self._ok(reply, "leave")
        self.left = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    def _ok(self, reply: Reply | None, what: str) -> bool:
        if reply is None:
            self._resync_soon()
            return False
        if reply.status < 300:
            return True
        try:
            error = reply.body["error"]
            code, message = error["code"], error["message"]
        except (KeyError, TypeError):
            code, message = str(reply.status), reply.text
        kind = f"{what}_{reply.status}_{code}"
        if reply.status == 409:
            self.room.metrics.refused(kind, message)
        else:
            self.room.metrics.error(kind, message)
        self._resync_soon()
        return False

    def _resync_soon(self) -> None:
        """After a refusal, look again in a moment (a fresh snapshot lets us retry)."""

        async def later() -> None:
            await asyncio.sleep(0.1)
            self.acted_version = 0
            if self.ws is not None and not self.left:
                with contextlib.suppress(Exception):
                    await self.ws.send(json.dumps({"type": "resync", "after": self.seen_seq}))

        self.room.spawn(later())
