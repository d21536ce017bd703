"""What the event loop spends on one socket command, without uvicorn: the load test's
busy heads-up tables played over their table sockets (``routes.ws``'s reading loop,
``socket_commands``, the process's real committer thread, ``Live``'s announcements
and each socket's catch-up), each socket a stand-in that hands the loop the client's
text and takes what is sent. The figure is the CPU time of the loop's thread per
command: the committer's own work is on its thread and not counted.

Each round sends one command per table (the player to act checks or calls; after a
hand, each player presses Continue) and waits until every socket has its answer and
both players' sockets have the change.

With ``--server uvicorn`` or ``--server gathered`` the sockets are real loopback
connections served by that uvicorn protocol class (``real_sockets.py``): the
client's messages arrive as masked frames (sent from a thread of their own), and
the figure has uvicorn's reading and framing and the writes too.

    $ .venv/bin/python benchmarks/socket_loop.py --rounds 300
    $ .venv/bin/python benchmarks/socket_loop.py --rounds 300 --server gathered

The loop's CPU time moves with the machine's load; its instructions do not. Under
callgrind (``benchmarks/instructions.py``'s ``Marks``: the measured rounds only), one
file a thread, the main thread's (``-01``, the event loop) over ``commands`` is the
loop's instructions per command (``benchmarks/loop_instructions.sh`` does it all):

    $ valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \\
        --separate-threads=yes --callgrind-out-file=/tmp/loop.cg \\
        .venv/bin/python benchmarks/socket_loop.py --rounds 30 --server gathered
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import queue
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS))

from command_path import TABLES  # noqa: E402
from instructions import Marks  # noqa: E402
from real_sockets import Drained, Sockets, add_server_argument  # noqa: E402
from starlette.websockets import WebSocket  # noqa: E402

from cardroom.config import PasswordHashing, Settings  # noqa: E402
from cardroom.deck import SeededRandomSource  # noqa: E402
from cardroom.service import accounts, lobby  # noqa: E402
from cardroom.service.context import ServiceContext  # noqa: E402
from cardroom.service.game_records import PlayResult  # noqa: E402
from cardroom.store.db import make_engine, make_sessionmaker  # noqa: E402
from cardroom.store.migrate import upgrade  # noqa: E402
from cardroom.store.models import Game  # noqa: E402
from cardroom.table import Table, table_from_dict  # noqa: E402
from cardroom.web import game_reads  # noqa: E402
from cardroom.web.app import freeze_what_start_up_made  # noqa: E402
from cardroom.web.live import Live  # noqa: E402
from cardroom.web.routes import ws  # noqa: E402

PASSWORD = "correct horse battery"


class _Socket:
    """Starlette's ``WebSocket`` as far as the room's sockets use it."""

    def __init__(self, watcher: _Watchers, user: int) -> None:
        self.query_params: dict[str, str] = {}
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.watchers = watcher
        self.user = user
        self.sent = 0

    async def receive(self) -> dict[str, Any]:
        return await self.incoming.get()

    async def send_text(self, text: str) -> None:
        self.sent += 1
        if text.startswith('{"type":"result"') or text.startswith('{"type":"refused"'):
            self.watchers.answered()

    async def close(self, code: int = 1000) -> None:
        pass

    async def send_json(self, data: Any) -> None:
        pass


class _Watchers:
    def __init__(self) -> None:
        self.waiting = 0
        self.done = asyncio.Event()

    def expect(self, answers: int) -> None:
        self.waiting = answers
        self.done.clear()

    def answered(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0:
            self.done.set()


def _next_messages(table: Table, version: int, ref: int) -> list[tuple[int, str]]:
    hand = table.hand
    if hand is not None and not hand.is_over:
        seat = hand.seat_to_act
        player = next(s.player for s in table.seats.values() if s.number == seat)
        kind = "check" if hand.legal_actions().to_call == 0 else "call"
        body = {"type": "act", "ref": str(ref), "kind": kind, "version": version}
        return [(player, json.dumps(body))]
    players = [s.player for s in table.seats.values()]
    waiting = [u for u in players if u not in table.continued]
    return [(u, json.dumps({"type": "continue", "ref": str(ref)})) for u in waiting]


def _counted(reads: dict[str, int], name: str, read: Any) -> Any:
    """``read``, counting its calls in ``reads[name]`` (a socket reading the game)."""

    def counted(*args: Any) -> Any:
        reads[name] += 1
        return read(*args)

    return counted


class _Collections:
    """The CPU time each thread spends in the garbage collector, by generation."""

    def __init__(self) -> None:
        self.cpu: Counter[tuple[str, int]] = Counter()
        self._began: dict[int, float] = {}

    def hear(self, phase: str, info: dict[str, Any]) -> None:
        now = time.thread_time()
        if phase == "start":
            self._began[threading.get_ident()] = now
            return
        began = self._began.pop(threading.get_ident(), None)
        if began is not None:
            self.cpu[threading.current_thread().name, info["generation"]] += now - began


class _AnsweredFeed(ws.GameFeed):
    """A table socket that tells the round when it has sent a command's answer."""

    watchers: _Watchers

    async def command(self, data: dict[str, Any]) -> None:
        await super().command(data)
        self.watchers.answered()


class _Sender:
    """The clients' messages, written from a thread of their own."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[list[tuple[Drained, str]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._send, daemon=True)
        self.thread.start()

    def _send(self) -> None:
        while (batch := self.queue.get()) is not None:
            for client, text in batch:
                client.send_text(text)


async def _real_tables(
    live: Live, seated: dict[int, list[tuple[int, str]]], server: str, watchers: _Watchers
) -> tuple[dict[tuple[int, int], Drained], Sockets]:
    """Each player's feed on a real socket served by ``server``'s protocol class."""
    tokens = {(game, user): token for game, pair in seated.items() for user, token in pair}
    opened_all = asyncio.Event()
    ready: set[tuple[int, int]] = set()

    async def opened(websocket: WebSocket, path: str) -> None:
        game, user = (int(part) for part in path.rsplit("/", 2)[1:])
        feed = _AnsweredFeed(websocket, live, tokens[game, user], game, user)
        feed.watchers = watchers
        live.watch_game(game, feed)
        await feed.snapshot()
        ready.add((game, user))
        if len(ready) == len(tokens):
            opened_all.set()
        await ws._serve(websocket, feed)

    sockets = Sockets(server, opened)
    clients = {key: await sockets.connect(f"/ws/games/{key[0]}/{key[1]}") for key in tokens}
    await asyncio.wait_for(opened_all.wait(), 60)
    return clients, sockets


async def _run(
    ctx: ServiceContext,
    tables: int,
    rounds: int,
    threshold: tuple[int, ...] | None,
    server: str = "stand-in",
) -> dict[str, Any]:
    live = Live(lambda: ctx, clock=False)
    live._loop = asyncio.get_running_loop()
    after: dict[int, tuple[Table, int]] = {}
    announce = live.announce

    def kept(result: PlayResult, answering: int | None = None) -> Any:
        if result.after is not None:
            after[result.game_id] = (result.after.table, result.version)
        return announce(result, answering)

    live.announce = kept  # type: ignore[method-assign]
    reads = {"change_after": 0, "update_for": 0}
    for module, name in ((game_reads, "change_after"), (ws, "update_for")):
        setattr(module, name, _counted(reads, name, getattr(module, name)))
    stamp = time.time_ns() % 10**9
    source = SeededRandomSource(1)
    watchers = _Watchers()
    sockets: dict[tuple[int, int], _Socket] = {}
    serving = []
    seats: dict[int, list[tuple[int, str]]] = {}
    for t in range(tables):
        seated = []
        for i in range(2):
            name = f"s{stamp}t{t}p{i}"
            user = accounts.sign_up(ctx, name, PASSWORD).id
            token = accounts.sign_in(ctx, name, PASSWORD).token
            seated.append((user, token))
        game = lobby.create_game(ctx, seated[0][0], TABLES["cash"]).game_id
        lobby.join(ctx, game, seated[1][0], source=source)
        with ctx.sessions() as session:
            row = session.get_one(Game, game)
            after[game] = (table_from_dict(row.state), row.version)
        seats[game] = seated
        if server != "stand-in":
            continue
        for user, token in seated:
            socket = _Socket(watchers, user)
            sockets[game, user] = socket
            feed = ws.GameFeed(socket, live, token, game, user)  # type: ignore[arg-type]
            live.watch_game(game, feed)
            await feed.snapshot()
            serving.append(asyncio.create_task(ws._serve(socket, feed)))  # type: ignore[arg-type]
    real = None
    clients: dict[tuple[int, int], Drained] = {}
    sender = _Sender()
    if server != "stand-in":
        clients, real = await _real_tables(live, seats, server, watchers)
    freeze_what_start_up_made()  # as the server does after start-up
    if threshold:
        gc.set_threshold(*threshold)
    collected = _Collections()
    gc.callbacks.append(collected.hear)
    cpu = 0.0
    commands = 0
    marks = Marks()  # under callgrind: count the measured rounds only
    for round_no in range(rounds + 1):
        messages = [
            (game, user, text)
            for game, (table, version) in sorted(after.items())
            for user, text in _next_messages(table, version, round_no)
        ]
        watchers.expect(len(messages))
        if round_no > 0:
            marks.begin()
        start = time.thread_time()
        if real is not None:
            sender.queue.put([(clients[game, user], text) for game, user, text in messages])
        for game, user, text in messages:
            if real is None:
                message = {"type": "websocket.receive", "text": text}
                sockets[game, user].incoming.put_nowait(message)
        await watchers.done.wait()
        for _ in range(20):  # the sockets' pumps finish after the last answer
            await asyncio.sleep(0)
        if round_no > 0:  # the first round decodes every table: not counted
            cpu += time.thread_time() - start
            marks.end()
            commands += len(messages)
        else:
            collected.cpu.clear()
    for socket in sockets.values():
        socket.incoming.put_nowait({"type": "websocket.disconnect"})
    await asyncio.gather(*serving)
    sender.queue.put(None)
    if real is not None:
        real.close()
        await asyncio.sleep(0.3)  # the server sees the clients go
    await asyncio.to_thread(live.committer.stop)
    return {
        "server": server,
        "tables": tables,
        "commands": commands,
        "loop_cpu_ms_per_command": round(1000 * cpu / commands, 4),
        "reads": reads,
        "gc_cpu_ms_per_command_by_thread_and_generation": {
            f"{who} {gen}": round(1000 * spent / commands, 4)
            for (who, gen), spent in sorted(collected.cpu.items())
        },
        "messages_sent_per_command": round(
            sum(s.sent for s in sockets.values()) / max(commands, 1), 2
        )
        if real is None
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument(
        "--gc-threshold",
        type=int,
        nargs="+",
        help="gc.set_threshold's, after the freeze (default: the server's, GC_THRESHOLDS)",
    )
    add_server_argument(parser)
    args = parser.parse_args()
    with scratch_context() as ctx:
        running = _run(ctx, args.tables, args.rounds, args.gc_threshold, args.server)
        try:
            import uvloop

            result = uvloop.run(running)
        except ImportError:
            result = asyncio.run(running)
    print(json.dumps(result, indent=2))


@contextmanager
def scratch_context() -> Iterator[ServiceContext]:
    """A migrated SQLite file of its own, with cheap password hashing (the sign-ups
    are set-up, not what is measured); disposed of afterwards."""
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(
            database_url=f"sqlite:///{Path(scratch) / 'bench.db'}",
            password_hashing=PasswordHashing.cheap(),
        )
        engine = make_engine(settings)
        upgrade(engine)
        try:
            yield ServiceContext(settings=settings, sessions=make_sessionmaker(engine))
        finally:
            engine.dispose()


if __name__ == "__main__":
    main()
