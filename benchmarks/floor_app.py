"""The floor of the stack: a server with Cardroom's components and settings and none
of its poker, for ``benchmarks/stack_floor.py``.

FastAPI on uvicorn with ``cardroom serve``'s options and WebSocket protocol
(``cardroom.web.gathered_frames``); SQLAlchemy 2 Core on the engine
``cardroom.store.db.make_engine`` makes (SQLite: WAL, the same pragmas, ``BEGIN
IMMEDIATE`` behind the process's writer lock, SQLite's default ``synchronous``, as
Cardroom leaves it; PostgreSQL through psycopg); the worker-thread pools Cardroom
sizes (HTTP routes on anyio's pool of 8 threads on SQLite and 40 on PostgreSQL,
socket commands on the event loop's default executor); start-up's objects frozen out
of garbage collection. It speaks just enough of Cardroom's API for ``cardroom
loadtest`` to drive it unchanged, so the client's cost is the same on both sides:

- accounts in memory (no password hashing), a bearer token that proves itself (an
  HMAC: no session to look up, as Cardroom's cache of recently proven sessions);
- a table of two players whose "hand" is 6 or 7 checks in turn and then a Continue
  from each (about 1.3 commands per action, Cardroom's measured ratio under the load
  test); every action and Continue is one command;
- per command, in ``--mode commit``: one transaction on a worker thread (the table's
  row version moved, one event row inserted, commit), then the event and a small
  snapshot to both players' sockets, as Cardroom sends ``events`` then ``snapshot``;
  in ``--mode nodb`` the same on the event loop, without the transaction or the
  thread: the web stack's own ceiling; in ``--mode group`` the same statements, but
  the commands are queued to the process's one committer thread, which takes all
  that queued (up to ``BATCH_BOUND``) into one transaction, commits once, and only
  then answers and broadcasts each of them (group commit; ``GET /stats`` counts the
  batches);
- commands as HTTP requests (``POST /api/games/{id}/actions``, ``/continue``) or on
  the table's socket (``{"type": "act", ..., "ref"}`` answered by ``{"type":
  "result", "ref", "result"}``).

A table lives in the process that made it: with two processes, route the players by
table (``cardroom loadtest --route-by table``). Nothing of a table is read back from
the database; the rows are written to be durable, as a command's are.

    $ python benchmarks/floor_app.py --port 8501 --mode commit \\
          --database-url sqlite:////tmp/floor.db
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import hmac
import json
import os
import queue
import sys
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Annotated, Any, Literal, TypeVar

import anyio.to_thread
from fastapi import Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from sqlalchemy import (
    Column,
    Connection,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    insert,
    update,
)

from cardroom.config import Settings
from cardroom.store.db import is_sqlite, make_engine
from cardroom.web.deps import POSTGRESQL_WORKER_THREADS, SQLITE_WORKER_THREADS

T = TypeVar("T")
MODES = ("nodb", "commit", "group")
# The most commands ``--mode group`` commits in one transaction: a bound on what one
# commit makes wait, far above what queues in one commit's time at the load test's rates.
BATCH_BOUND = 64
STACK = 100_000  # cents: never runs out, so nobody rebuys
# Checks per hand, by the hand's number: 6.5 on average, which makes the Continue
# pressed by both players after each hand 2 / 6.5 = 0.31 commands per action, as in
# Cardroom's load test (165 commands/s for 126 actions/s, 230 for 176).
HAND_ACTIONS = (6, 7)
# Ids are unique across the processes that share a database: a process numbers its
# users and tables n * ID_STRIDE + its index.
ID_STRIDE = 16
SECRET = os.environ.get("FLOOR_SECRET", "the floor's token key").encode()

metadata = MetaData()
games = Table(
    "floor_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("version", Integer, nullable=False),
)
game_events = Table(
    "floor_events",
    metadata,
    Column("game_id", Integer, ForeignKey("floor_games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("payload", String(400), nullable=False),
)
# Built once, as Cardroom's hot statements are: the version moves only from the one
# the command saw (what Cardroom's row lock guarantees), and one event row.
MOVE_VERSION = (
    update(games)
    .where(games.c.id == bindparam("gid"), games.c.version == bindparam("seen"))
    .values(version=bindparam("next"))
)
ADD_EVENT = insert(game_events)


def create_schema(database_url: str) -> None:
    engine = make_engine(Settings(database_url=database_url))
    try:
        metadata.create_all(engine)
    finally:
        engine.dispose()


class Refusal(Exception):
    """A command refused, as Cardroom refuses it: a status and an error body."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


# -- the wire ------------------------------------------------------------------------


class Credentials(BaseModel):
    name: str
    password: str


class ActionIn(BaseModel):
    kind: Literal["fold", "check", "call", "bet", "raise", "all_in"]
    amount: int | None = None
    version: int


class SocketActIn(ActionIn):
    type: Literal["act"]
    ref: str


class SocketContinueIn(BaseModel):
    type: Literal["continue"]
    ref: str


class EventOut(BaseModel):
    seq: int
    kind: str
    seat: int


class CommandOut(BaseModel):
    events: list[EventOut]
    version: int


# -- the room ------------------------------------------------------------------------


@dataclass
class Seat:
    user_id: int
    continued: bool = True
    left: bool = False


class Viewer:
    """One player's socket; messages go out in order through one outbox, drained by
    a task only while there is something to send."""

    def __init__(self, websocket: WebSocket, user_id: int, room: Room) -> None:
        self.websocket, self.user_id, self.room = websocket, user_id, room
        self.outbox: deque[str] = deque()
        self.sending = False
        self.open = True

    def push(self, *texts: str) -> None:
        if not self.open:
            return
        self.outbox.extend(texts)
        if not self.sending:
            self.sending = True
            self.room.spawn(self._drain())

    async def _drain(self) -> None:
        try:
            while self.outbox:
                await self.websocket.send_text(self.outbox.popleft())
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.open = False
            self.outbox.clear()
        finally:
            self.sending = False


@dataclass
class GameTable:
    game_id: int
    seats: list[Seat]
    version: int = 1
    seq: int = 0
    hand: int = -1  # no hand before the second player sits
    running: bool = False
    turn: int = 0
    actions_left: int = 0
    viewers: list[Viewer] = field(default_factory=list)
    # Reentrant: the committer of ``--mode group`` holds it from a table's first
    # command in a batch until the batch is committed and handed to the loop, and
    # each command takes it again, as it does in ``--mode commit``.
    lock: threading.RLock = field(default_factory=threading.RLock)

    def memento(self) -> tuple[Any, ...]:
        """What a command changes in memory, to put back if its batch fails to commit."""
        seats = [replace(seat) for seat in self.seats]
        return (
            seats,
            self.version,
            self.seq,
            self.hand,
            self.running,
            self.turn,
            self.actions_left,
        )

    def restore(self, memento: tuple[Any, ...]) -> None:
        seats, self.version, self.seq, self.hand, self.running, self.turn, self.actions_left = (
            memento
        )
        self.seats[:] = seats

    def seat_of(self, user_id: int) -> int:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.left:
                return index
        raise Refusal(403, "not_seated", "You are not seated at this table.")

    def deal(self) -> None:
        self.hand += 1
        self.running = True
        self.turn = self.hand % 2
        self.actions_left = HAND_ACTIONS[self.hand % len(HAND_ACTIONS)]
        for seat in self.seats:
            seat.continued = False

    def view(self) -> dict[str, Any]:
        """The table as every viewer sees it (``legal`` is added for the one to act)."""
        return {
            "game_id": self.game_id,
            "version": self.version,
            "seats": [
                {
                    "user_id": s.user_id,
                    "stack": STACK,
                    "continued": s.continued,
                    "in_hand": self.running,
                }
                for s in self.seats
            ],
            "hand": None if self.hand < 0 else {"running": self.running, "turn": self.turn},
        }


LEGAL = {"actions": ["check"], "min_to": 0}


def snapshot_text(view: dict[str, Any], user_id: int) -> str:
    hand = view["hand"]
    if hand is not None:
        seat = hand["turn"]
        mine = hand["running"] and view["seats"][seat]["user_id"] == user_id
        view = {**view, "hand": {**hand, "legal": LEGAL if mine else None}}
    return json.dumps({"type": "snapshot", "game": view})


class Room:
    def __init__(self, mode: str, database_url: str | None, process_index: int) -> None:
        if mode not in MODES:
            raise ValueError(f"mode is one of {MODES}, not {mode!r}")
        self.mode = mode
        self.database_url = database_url
        self.process_index = process_index
        self.engine: Engine | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.users: dict[str, int] = {}
        self.tables: dict[int, GameTable] = {}
        self.counter = 0
        self.count_lock = threading.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.committer: Committer | None = None  # --mode group's, once started
        # The transaction the committer has open: set only on the committer's thread,
        # the only one that runs commands in --mode group (None in the other modes).
        self.batch: Batch | None = None

    def next_id(self) -> int:
        with self.count_lock:
            self.counter += 1
            return self.counter * ID_STRIDE + self.process_index

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- tokens ----------------------------------------------------------------------

    @staticmethod
    def token_for(user_id: int) -> str:
        sig = hmac.new(SECRET, str(user_id).encode(), hashlib.sha256).hexdigest()[:32]
        return f"{user_id}.{sig}"

    @staticmethod
    def user_of(token: str) -> int:
        user = token.partition(".")[0]
        if user.isdigit() and hmac.compare_digest(Room.token_for(int(user)), token):
            return int(user)
        raise Refusal(401, "not_signed_in", "Sign in first.")

    # -- where the blocking work runs ------------------------------------------------

    async def on_http_threads(self, work: Callable[..., T], *args: Any) -> T:
        """As Cardroom's routes that touch the database: on anyio's worker threads;
        without a database, on the loop."""
        if self.engine is None:
            return work(*args)
        return await anyio.to_thread.run_sync(work, *args)

    async def on_socket_threads(self, work: Callable[..., T], *args: Any) -> T:
        """As Cardroom's socket commands: on the loop's default executor."""
        if self.engine is None:
            return work(*args)
        return await asyncio.to_thread(work, *args)

    async def run_command(
        self,
        on_threads: Callable[..., Any],
        work: Callable[..., CommandOut],
        game_id: int,
        *args: Any,
    ) -> CommandOut:
        """A command on ``on_threads`` (the HTTP routes' or the sockets' pool), or in
        ``--mode group`` queued from the loop to the committer, without a thread hop
        of its own: answered once its batch is committed."""
        if self.committer is not None:
            return await self.committer.submit(game_id, partial(work, game_id, *args))
        result: CommandOut = await on_threads(work, game_id, *args)
        return result

    # -- commands (on a worker thread in commit mode, the committer's in group) -----

    def table(self, game_id: int) -> GameTable:
        table = self.tables.get(game_id)
        if table is None:
            raise Refusal(404, "not_found", "No such table.")
        return table

    def create(self, user_id: int) -> int:
        game_id = self.next_id()
        if self.engine is not None:
            with self.engine.begin() as connection:
                connection.execute(insert(games).values(id=game_id, version=1))
        self.tables[game_id] = GameTable(game_id, [Seat(user_id)])
        return game_id

    def join(self, game_id: int, user_id: int) -> CommandOut:
        table = self.table(game_id)
        with table.lock:
            if any(s.user_id == user_id for s in table.seats) or len(table.seats) >= 2:
                raise Refusal(409, "seat_taken", "The table is full.")
            table.seats.append(Seat(user_id))
            return self._commit(table, len(table.seats) - 1, "join", table.deal)

    def act(self, game_id: int, user_id: int, version: int) -> CommandOut:
        table = self.table(game_id)
        with table.lock:
            seat = table.seat_of(user_id)
            if version != table.version:
                raise Refusal(409, "stale_version", "The table has moved on; look again.")
            if not table.running or table.turn != seat:
                raise Refusal(409, "not_your_turn", "It is not your turn.")

            def checked() -> None:
                table.turn = 1 - table.turn
                table.actions_left -= 1
                if table.actions_left == 0:
                    table.running = False

            return self._commit(table, seat, "check", checked)

    def press_continue(self, game_id: int, user_id: int) -> CommandOut:
        table = self.table(game_id)
        with table.lock:
            seat = table.seat_of(user_id)
            if table.running or table.seats[seat].continued or table.hand < 0:
                raise Refusal(409, "nothing_to_continue", "The hand is still on.")

            def pressed() -> None:
                table.seats[seat].continued = True
                if all(s.continued for s in table.seats):
                    table.deal()

            return self._commit(table, seat, "continue", pressed)

    def leave(self, game_id: int, user_id: int) -> None:
        table = self.tables.get(game_id)
        if table is None:
            return
        with table.lock:
            for seat in table.seats:
                if seat.user_id == user_id:
                    seat.left = True
            if all(s.left for s in table.seats):
                self.tables.pop(game_id, None)

    def _commit(
        self, table: GameTable, seat: int, kind: str, change: Callable[[], None]
    ) -> CommandOut:
        """The command's one transaction, then the table in memory, then the
        broadcast handed to the loop (called with the table's lock held: the loop
        gets the tables' changes in the order they were committed)."""
        seq = table.seq + 1
        event = {"seq": seq, "kind": kind, "seat": seat}
        if self.batch is not None:
            # --mode group: in the batch's transaction, committed with the others.
            self._write(self.batch.connection, table, seq, kind, event)
        elif self.engine is not None:
            with self.engine.begin() as connection:
                self._write(connection, table, seq, kind, event)
        table.seq = seq
        table.version += 1
        change()
        view = table.view()
        if self.batch is not None:
            self.batch.broadcast = (table, event, view)  # sent once the batch commits
        else:
            assert self.loop is not None
            self.loop.call_soon_threadsafe(self._broadcast, table, event, view)
        return CommandOut(events=[EventOut(seq=seq, kind=kind, seat=seat)], version=table.version)

    @staticmethod
    def _write(
        connection: Connection, table: GameTable, seq: int, kind: str, event: dict[str, Any]
    ) -> None:
        """The command's two statements. The version moves only from the one seen; if
        it does not, nothing was written, so the refusal leaves the rest of a
        ``--mode group`` batch's transaction as it was (no savepoint needed)."""
        moved = connection.execute(
            MOVE_VERSION,
            {"gid": table.game_id, "seen": table.version, "next": table.version + 1},
        )
        if moved.rowcount != 1:
            raise Refusal(409, "stale_version", "The table has moved on; look again.")
        connection.execute(
            ADD_EVENT,
            {"game_id": table.game_id, "seq": seq, "kind": kind, "payload": json.dumps(event)},
        )

    def _broadcast(self, table: GameTable, event: dict[str, Any], view: dict[str, Any]) -> None:
        events = json.dumps({"type": "events", "game_id": table.game_id, "events": [event]})
        for viewer in table.viewers:
            viewer.push(events, snapshot_text(view, viewer.user_id))


# -- group commit (--mode group) -----------------------------------------------------

Broadcast = tuple[GameTable, dict[str, Any], dict[str, Any]]  # table, event, view


@dataclass
class QueuedCommand:
    game_id: int
    work: Callable[[], CommandOut]
    answer: asyncio.Future[CommandOut]


@dataclass
class Batch:
    """The committer's open transaction, and the broadcast of the command in hand."""

    connection: Connection
    broadcast: Broadcast | None = None


# What the loop gets per command once its batch is done: its answer (or refusal), and
# the broadcast to send first if it changed the table.
Outcome = tuple[QueuedCommand, CommandOut | Refusal, Broadcast | None]


class Committer:
    """The process's one thread that writes commands: it takes every command queued
    (up to ``BATCH_BOUND``), runs each in one shared transaction, commits once, then
    hands the loop every answer and broadcast of the batch. It blocks on the queue
    when there is nothing to do and starts as soon as a command comes, so batches
    are what queued while the previous batch committed."""

    def __init__(self, room: Room) -> None:
        assert room.engine is not None and room.loop is not None
        self.room, self.engine, self.loop = room, room.engine, room.loop
        self.queue: queue.SimpleQueue[QueuedCommand | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="floor-committer", daemon=True)
        self.batches = 0
        self.commands = 0
        self.largest = 0

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=10)

    def stats(self) -> dict[str, Any]:
        mean = self.commands / self.batches if self.batches else None
        return {
            "batches": self.batches,
            "commands": self.commands,
            "mean_batch": None if mean is None else round(mean, 2),
            "largest_batch": self.largest,
        }

    def submit(self, game_id: int, work: Callable[[], CommandOut]) -> asyncio.Future[CommandOut]:
        """Queue a command (called on the loop); the future is its answer."""
        answer: asyncio.Future[CommandOut] = self.loop.create_future()
        self.queue.put(QueuedCommand(game_id, work, answer))
        return answer

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            stopping = False
            while len(batch) < BATCH_BOUND:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stopping = True
                    break
                batch.append(more)
            self._commit(batch)
            if stopping:
                return

    def _commit(self, batch: list[QueuedCommand]) -> None:
        held: dict[int, GameTable] = {}  # locked until the loop has the batch's outcomes
        mementos: dict[int, tuple[Any, ...]] = {}
        outcomes: list[Outcome] = []
        try:
            try:
                with self.engine.begin() as connection:
                    self.room.batch = Batch(connection)
                    for command in batch:
                        self._hold(command.game_id, held, mementos)
                        try:
                            result: CommandOut | Refusal = command.work()
                        except Refusal as refusal:
                            result = refusal
                        outcomes.append((command, result, self.room.batch.broadcast))
                        self.room.batch.broadcast = None
            except Exception as failed:
                # Not committed: nothing of the batch happened, in memory either.
                print(f"floor-group: a batch of {len(batch)} failed: {failed!r}", file=sys.stderr)
                for game_id, memento in mementos.items():
                    held[game_id].restore(memento)
                lost = Refusal(503, "not_committed", "The command was not written; retry.")
                outcomes = [(command, lost, None) for command in batch]
            finally:
                self.room.batch = None
            self.batches += 1
            self.commands += len(batch)
            self.largest = max(self.largest, len(batch))
            self.loop.call_soon_threadsafe(self._deliver, outcomes)
        finally:
            for table in held.values():
                table.lock.release()

    def _hold(
        self, game_id: int, held: dict[int, GameTable], mementos: dict[int, tuple[Any, ...]]
    ) -> None:
        """Lock the command's table for the rest of the batch, as ``--mode commit``
        holds it through its transaction: nobody sees a change before its commit."""
        table = self.room.tables.get(game_id)
        if table is None or game_id in held:
            return
        table.lock.acquire()
        held[game_id] = table
        mementos[game_id] = table.memento()

    def _deliver(self, outcomes: list[Outcome]) -> None:
        """On the loop, once committed: each command's broadcast, then its answer, in
        the order they were run (``--mode commit``'s order)."""
        for command, result, broadcast in outcomes:
            if broadcast is not None:
                self.room._broadcast(*broadcast)
            if command.answer.done():  # the request went away
                continue
            if isinstance(result, Refusal):
                command.answer.set_exception(result)
            else:
                command.answer.set_result(result)


# -- the application -----------------------------------------------------------------


def signed_in(authorization: Annotated[str, Header()] = "") -> int:
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer":
        raise Refusal(401, "not_signed_in", "Sign in first.")
    return Room.user_of(token)


# (At module level: FastAPI resolves the routes' annotations in the module's names.)
User = Annotated[int, Depends(signed_in)]


def create_app(room: Room) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        room.loop = asyncio.get_running_loop()
        if room.mode in ("commit", "group"):
            assert room.database_url is not None
            room.engine = make_engine(Settings(database_url=room.database_url))
            threads = SQLITE_WORKER_THREADS if is_sqlite(room.engine) else POSTGRESQL_WORKER_THREADS
            anyio.to_thread.current_default_thread_limiter().total_tokens = threads
        if room.mode == "group":
            room.committer = Committer(room)
            room.committer.start()
        gc.collect()
        gc.freeze()  # as Cardroom's server does after start-up
        try:
            yield
        finally:
            if room.committer is not None:
                room.committer.stop()
                # In the log at shutdown too, for a run that could not ask /stats.
                print(f"floor-group: {json.dumps(room.committer.stats())}", file=sys.stderr)
            if room.engine is not None:
                room.engine.dispose()

    app = FastAPI(title="Cardroom's stack floor", lifespan=lifespan)

    @app.exception_handler(Refusal)
    async def refused(_request: Request, refusal: Refusal) -> JSONResponse:
        return JSONResponse(refusal.body(), status_code=refusal.status)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "mode": room.mode}

    @app.get("/stats")
    async def stats() -> dict[str, Any]:
        """The committer's batches (``--mode group``; empty otherwise)."""
        return {} if room.committer is None else room.committer.stats()

    @app.post("/api/accounts/sign-up", status_code=201)
    async def sign_up(body: Credentials) -> dict[str, Any]:
        if body.name in room.users:
            raise Refusal(409, "name_taken", "That name is taken.")
        user_id = room.users[body.name] = room.next_id()
        return {"user": {"id": user_id, "name": body.name}}

    @app.post("/api/accounts/sign-in")
    async def sign_in(body: Credentials) -> dict[str, Any]:
        user_id = room.users.get(body.name)
        if user_id is None:
            raise Refusal(401, "bad_credentials", "Wrong name or password.")
        return {"user": {"id": user_id, "name": body.name}, "token": Room.token_for(user_id)}

    @app.post("/api/games", status_code=201)
    async def create_game(_options: dict[str, Any], user: User) -> dict[str, int]:
        return {"game_id": await room.on_http_threads(room.create, user)}

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: int, _body: dict[str, Any], user: User) -> CommandOut:
        return await room.run_command(room.on_http_threads, room.join, game_id, user)

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: int, body: ActionIn, user: User) -> CommandOut:
        return await room.run_command(room.on_http_threads, room.act, game_id, user, body.version)

    @app.post("/api/games/{game_id}/continue")
    async def press_continue(game_id: int, _body: dict[str, Any], user: User) -> CommandOut:
        return await room.run_command(room.on_http_threads, room.press_continue, game_id, user)

    @app.post("/api/games/{game_id}/leave")
    async def leave(game_id: int, _body: dict[str, Any], user: User) -> dict[str, Any]:
        room.leave(game_id, user)
        return {"events": []}

    @app.websocket("/ws/games/{game_id}")
    async def table_socket(websocket: WebSocket, game_id: int, token: str = "") -> None:
        try:
            user_id = Room.user_of(token)
            table = room.table(game_id)
        except Refusal:
            await websocket.close(code=4401)
            return
        await websocket.accept()
        viewer = Viewer(websocket, user_id, room)
        with table.lock:
            table.viewers.append(viewer)
            viewer.push(snapshot_text(table.view(), user_id))
        try:
            while True:
                await answer(viewer, table, json.loads(await websocket.receive_text()))
        except (WebSocketDisconnect, ValueError):
            pass
        finally:
            viewer.open = False
            with table.lock:
                table.viewers.remove(viewer)

    async def answer(viewer: Viewer, table: GameTable, data: Any) -> None:
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "ping":
            viewer.push(json.dumps({"type": "pong"}))
        elif kind == "resync":
            viewer.push(snapshot_text(table.view(), viewer.user_id))
        elif kind in ("act", "continue"):
            ref = data.get("ref")
            try:
                if kind == "act":
                    command: SocketActIn | SocketContinueIn = SocketActIn.model_validate(data)
                else:
                    command = SocketContinueIn.model_validate(data)
                if isinstance(command, SocketActIn):
                    result = await room.run_command(
                        room.on_socket_threads,
                        room.act,
                        table.game_id,
                        viewer.user_id,
                        command.version,
                    )
                else:
                    result = await room.run_command(
                        room.on_socket_threads, room.press_continue, table.game_id, viewer.user_id
                    )
            except ValidationError as invalid:
                viewer.push(refused_text(ref, Refusal(422, "invalid_input", str(invalid))))
            except Refusal as refusal:
                viewer.push(refused_text(ref, refusal))
            else:
                message = {"type": "result", "ref": ref, "result": result.model_dump()}
                viewer.push(json.dumps(message))
        else:
            viewer.push(json.dumps({"type": "error", "message": "Unknown message."}))

    return app


def refused_text(ref: Any, refusal: Refusal) -> str:
    return json.dumps({"type": "refused", "ref": ref, "status": refusal.status, **refusal.body()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=MODES, required=True)
    parser.add_argument("--database-url", help="needed with --mode commit or group")
    parser.add_argument(
        "--process-index", type=int, default=0, help=f"0 to {ID_STRIDE - 1}: this process's ids"
    )
    args = parser.parse_args()
    if args.mode != "nodb" and not args.database_url:
        parser.error(f"--mode {args.mode} needs --database-url")
    if not 0 <= args.process_index < ID_STRIDE:
        parser.error(f"--process-index is 0 to {ID_STRIDE - 1}")

    import uvicorn

    from cardroom.web.gathered_frames import GatheredFramesProtocol

    uvicorn.run(
        create_app(Room(args.mode, args.database_url, args.process_index)),
        host=args.host,
        port=args.port,
        # cardroom serve's options (cardroom/cli/serve_cmd.py), and its defaults for
        # the rest (uvloop, httptools, the websockets library where installed).
        proxy_headers=False,
        server_header=False,
        lifespan="on",
        ws_per_message_deflate=False,
        # cardroom serve's protocol: uvicorn's websockets-sansio one, writing the
        # frames a socket is sent in one step of the loop in one system call.
        ws=GatheredFramesProtocol,
    )


if __name__ == "__main__":
    main()
