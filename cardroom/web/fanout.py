"""Telling the other server processes that a game changed.

- **SQLite** (one process): nothing to tell; ``LocalFanout`` only delivers ``/ws/me``
  messages to this process's sockets.
- **PostgreSQL** (any number of processes on one database): ``PostgresFanout``
  publishes with ``NOTIFY`` after the commit, and every process (this one included)
  runs a listener that ``LISTEN``s and wakes its own sockets:

  - channel ``cardroom_games``, payload ``game_id:last_seq:version``: the game's
    sockets read what they miss from the database (so the payload stays tiny and a
    lost or repeated notification does no harm);
  - channel ``cardroom_users``, payload ``{"user_id": ..., "message": {...}}``: a
    ``/ws/me`` message (a notification), sent as it is;
  - channel ``cardroom_lobby``, payload the game's id: what the lobby lists of that
    game changed (``PlayResult.lobby_changed``); every process tells its open lobby
    pages to look again (``Live.lobby_changed``);
  - channel ``cardroom_tables``, payload ``{"game_id": ..., "message": {...}}``: a
    message for the game's table sockets, sent as it is: a chat message, a deleted
    one, the chat turned off, who watches (``Live.tell_table``). Chat is no game
    change: it bumps no version, and a lost one is made good when a page opens again.

PostgreSQL delivers a notification to every listening session once the publishing
transaction commits, in commit order; a listener that loses its connection reconnects
and wakes every local socket, which then catches up from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Engine, make_url, text

from cardroom.service.context import ServiceContext

log = logging.getLogger(__name__)

GAMES_CHANNEL = "cardroom_games"
USERS_CHANNEL = "cardroom_users"
LOBBY_CHANNEL = "cardroom_lobby"
TABLES_CHANNEL = "cardroom_tables"
# PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
MAX_PAYLOAD_BYTES = 7900
RECONNECT_SECONDS = 1.0
# A batch's notifications go in statements of at most this many ``pg_notify`` calls
# (two parameters each; a statement's text and parameters stay small).
NOTES_PER_STATEMENT = 100


GameAt = tuple[int, int, int]  # game id, last seq, version
UserMessage = tuple[int, Mapping[str, Any]]  # user id, a /ws/me message
TableMessage = tuple[int, Mapping[str, Any]]  # game id, a message for its table sockets


class Sink(Protocol):
    """Where the fan-out delivers what it hears: this process's sockets
    (``cardroom.web.live.Live``). The fan-out knows no more of it than this."""

    def game_changed(self, game_id: int, seq: int, version: int) -> None:
        """On the event loop: the game is at ``seq`` and ``version``."""

    def push_user(self, user_id: int, message: Mapping[str, Any]) -> None:
        """On the event loop: a message for the user's ``/ws/me`` sockets here."""

    def push_user_soon(self, user_id: int, message: Mapping[str, Any]) -> None:
        """From any thread: ``push_user`` on the event loop, if it is serving."""

    def everything_changed(self) -> None:
        """On the event loop: something may have been missed; look again."""

    def lobby_changed(self) -> None:
        """On the event loop: what some lobby lists changed; tell the lobby pages."""

    def table_message(self, game_id: int, message: Mapping[str, Any]) -> None:
        """On the event loop: a message for the game's table sockets here."""

    def table_message_soon(self, game_id: int, message: Mapping[str, Any]) -> None:
        """From any thread: ``table_message`` on the event loop, if it is serving."""


class Fanout(Protocol):
    def publish(
        self,
        ctx: ServiceContext,
        sink: Sink,
        game: GameAt | None,
        messages: Sequence[UserMessage] = (),
        *,
        lobby: bool = False,
    ) -> None:
        """After a commit (any thread): the game is at ``seq`` and ``version``, and
        each message goes to its user's ``/ws/me`` sockets, wherever they are;
        ``lobby``: the game's lobby listing changed, for every process's lobby pages."""

    async def listen(self, sink: Sink) -> None:
        """Run for as long as the server does, waking ``sink``'s sockets."""

    def publish_table(self, ctx: ServiceContext, sink: Sink, message: TableMessage) -> None:
        """After a commit (any thread): the message to the game's table sockets in
        every process, this one included."""

    def gathered(self) -> AbstractContextManager[None]:
        """On one thread: what is published inside goes out together when it ends
        (the committer's answers to a batch)."""


class LocalFanout:
    """One process: every socket is here."""

    def publish(
        self,
        ctx: ServiceContext,
        sink: Sink,
        game: GameAt | None,
        messages: Sequence[UserMessage] = (),
        *,
        lobby: bool = False,
    ) -> None:
        # The game and the lobby: Live.committed has told this process's sockets
        # already.
        for user_id, message in messages:
            sink.push_user_soon(user_id, message)

    async def listen(self, sink: Sink) -> None:
        return None

    def publish_table(self, ctx: ServiceContext, sink: Sink, message: TableMessage) -> None:
        sink.table_message_soon(*message)

    def gathered(self) -> AbstractContextManager[None]:
        return contextlib.nullcontext()


def fanout_for(database_url: str) -> Fanout:
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql":
        return PostgresFanout(url.set(drivername="postgresql").render_as_string(False))
    return LocalFanout()


def parse_game_payload(payload: str) -> tuple[int, int, int] | None:
    """``"12:345:67"`` -> (12, 345, 67); anything else -> None."""
    parts = payload.split(":")
    if len(parts) != 3 or not all(p.isdigit() and len(p) < 20 for p in parts):
        return None
    game, seq, version = (int(p) for p in parts)
    return game, seq, version


def parse_user_payload(payload: str) -> tuple[int, dict[str, Any]] | None:
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    user, message = data.get("user_id"), data.get("message")
    if type(user) is not int or not isinstance(message, dict):
        return None
    return user, message


def parse_table_payload(payload: str) -> tuple[int, dict[str, Any]] | None:
    try:
        data = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    game, message = data.get("game_id"), data.get("message")
    if type(game) is not int or not isinstance(message, dict):
        return None
    return game, message


def tell_servers(ctx: ServiceContext, user_id: int, message: Mapping[str, Any]) -> None:
    """From a process that serves no sockets (``cardroom admin``): a ``/ws/me``
    message to the user's sockets in every server on a PostgreSQL database. On SQLite
    there is no channel to the server; its sockets recheck their session by
    themselves (``routes.ws.SESSION_RECHECK_SECONDS``)."""
    if make_url(ctx.settings.database_url).get_backend_name() != "postgresql":
        return
    payload = json.dumps({"user_id": user_id, "message": dict(message)}, default=str)
    with ctx.engine.connect() as connection:
        connection.execute(text("SELECT pg_notify(:c, :p)"), {"c": USERS_CHANNEL, "p": payload})
        connection.commit()


@dataclass
class _Gathered:
    """The notifications a thread gathered, and the engine to send them through."""

    engine: Engine | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)


def _send(engine: Engine, notes: Sequence[tuple[str, str]]) -> None:
    """``notes`` (channel, payload) in one statement (or a few, past
    ``NOTES_PER_STATEMENT``) and one commit: listeners hear them in this order."""
    with engine.connect() as connection:
        for start in range(0, len(notes), NOTES_PER_STATEMENT):
            part = notes[start : start + NOTES_PER_STATEMENT]
            calls = ", ".join(f"pg_notify(:c{i}, :p{i})" for i in range(len(part)))
            params: dict[str, str] = {}
            for i, (channel, payload) in enumerate(part):
                params[f"c{i}"], params[f"p{i}"] = channel, payload
            connection.execute(text(f"SELECT {calls}"), params)
        connection.commit()


class PostgresFanout:
    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self.listening = asyncio.Event()  # set while the listener is connected (tests)
        # The notifications a thread gathers (``gathered``) until it sends them.
        self._gathering = threading.local()

    @contextlib.contextmanager
    def gathered(self) -> Iterator[None]:
        """Every notification published inside, sent in one statement and one
        commit at the end: the committer answers a batch of commands (ten or more
        under load) inside one, where each command's notifications cost a round trip
        for the statement and one for its commit (docs/benchmarks.md, session 12's
        section). They go out as soon as the batch is answered; a listener hears
        them in the same order. Not nested: an inner one sends with the outer."""
        if getattr(self._gathering, "batch", None) is not None:
            yield
            return
        batch = _Gathered()
        self._gathering.batch = batch
        try:
            yield
        finally:
            self._gathering.batch = None
            if batch.engine is not None:
                try:
                    _send(batch.engine, batch.notes)
                except Exception as failed:  # the changes are committed and answered
                    # The other processes' sockets learn of them with the next change
                    # or when their listener reconnects and wakes them all.
                    log.warning("could not tell the other processes of a batch (%s)", failed)

    def publish(
        self,
        ctx: ServiceContext,
        sink: Sink,
        game: GameAt | None,
        messages: Sequence[UserMessage] = (),
        *,
        lobby: bool = False,
    ) -> None:
        """Every notification of one command in one statement and one commit: a
        ``NOTIFY`` each on its own connection cost a transaction apiece (a game and
        a your-turn notice: two per action)."""
        notes: list[tuple[str, str]] = []
        if game is not None:
            notes.append((GAMES_CHANNEL, "{}:{}:{}".format(*game)))
            if lobby:  # in the same statement: a lobby change costs no round trip
                notes.append((LOBBY_CHANNEL, str(game[0])))
        for user_id, message in messages:
            payload = json.dumps({"user_id": user_id, "message": dict(message)}, default=str)
            if len(payload.encode()) > MAX_PAYLOAD_BYTES:
                # Too big for NOTIFY: this process's sockets still get it; the notice
                # itself is stored, for the other processes' clients to load.
                log.warning("a notice for user %s is too large to publish", user_id)
                sink.push_user_soon(user_id, message)
                continue
            notes.append((USERS_CHANNEL, payload))
        if not notes:
            return
        batch: _Gathered | None = getattr(self._gathering, "batch", None)
        if batch is not None:
            batch.engine = ctx.engine
            batch.notes.extend(notes)
        else:
            _send(ctx.engine, notes)

    def publish_table(self, ctx: ServiceContext, sink: Sink, message: TableMessage) -> None:
        """This process hears it back through its own listener, as the others do."""
        game_id, body = message
        payload = json.dumps({"game_id": game_id, "message": dict(body)}, default=str)
        if len(payload.encode()) > MAX_PAYLOAD_BYTES:  # never a chat message (500 chars)
            log.warning("a message for game %s is too large to publish", game_id)
            sink.table_message_soon(game_id, body)
            return
        with ctx.engine.connect() as connection:
            connection.execute(
                text("SELECT pg_notify(:c, :p)"), {"c": TABLES_CHANNEL, "p": payload}
            )
            connection.commit()

    async def listen(self, sink: Sink) -> None:
        import psycopg  # only PostgreSQL deployments need it loaded

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {GAMES_CHANNEL}")
                    await connection.execute(f"LISTEN {USERS_CHANNEL}")
                    await connection.execute(f"LISTEN {LOBBY_CHANNEL}")
                    await connection.execute(f"LISTEN {TABLES_CHANNEL}")
                    self.listening.set()
                    # Whatever was published while we were not listening is lost:
                    # every socket here looks for itself.
                    sink.everything_changed()
                    async for note in connection.notifies():
                        self._dispatch(sink, note.channel, note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the change listener lost the database (%s); reconnecting", exc)
            self.listening.clear()
            await asyncio.sleep(RECONNECT_SECONDS)

    def _dispatch(self, sink: Sink, channel: str, payload: str) -> None:
        if channel == GAMES_CHANNEL:
            game = parse_game_payload(payload)
            if game is not None:
                sink.game_changed(*game)
        elif channel == USERS_CHANNEL:
            user = parse_user_payload(payload)
            if user is not None:
                sink.push_user(*user)
        elif channel == LOBBY_CHANNEL:
            sink.lobby_changed()
        elif channel == TABLES_CHANNEL:
            table = parse_table_payload(payload)
            if table is not None:
                sink.table_message(*table)
