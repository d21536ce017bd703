"""The WebSockets: ``/ws/games/{id}``, a table live for one viewer, and ``/ws/me``,
the signed-in user's own stream (notifications and hints that their games changed).

Both are signed in like HTTP requests: the session cookie (the browser), or
``?token=<bearer token>`` (bots, scripts: a WebSocket cannot carry an Authorization
header from a browser). A browser sends cookies with a WebSocket opened by any site,
and the same-origin policy does not apply to WebSockets, so a cookie-authenticated
socket must come from a page of the room itself (its ``Origin`` names our host):
otherwise another site could watch a victim's table, hole cards included.

Messages are JSON objects with a ``type`` (``cardroom.web.schemas_games``). Every
payload about a game goes through the per-viewer filter (``cardroom.service.
game_views``, which calls ``cardroom.views``). A bad message from the client gets
an ``error`` message and the socket stays open. Refusals on connecting are sent as an
``error`` message, then the socket is closed with a 44xx code (4401 not signed in,
4403 not allowed, 4404 no such game).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocketState

from cardroom.service import accounts
from cardroom.service.errors import AccountSuspended, AuthenticationFailed, NotFound, ServiceError
from cardroom.service.game_views import update_for, update_from
from cardroom.service.lobby import game_detail
from cardroom.service.users import UserInfo
from cardroom.web.errors import validation_message
from cardroom.web.live import Live, live_of
from cardroom.web.schemas import MAX_ROW_ID, SESSION_COOKIE
from cardroom.web.schemas_games import (
    WS_MESSAGE_MAX_CHARS,
    WsError,
    WsEvents,
    WsPingIn,
    WsPong,
    WsResyncIn,
    event_out,
    snapshot_message,
)

log = logging.getLogger(__name__)


def install(app: FastAPI) -> None:
    """Add the sockets as plain Starlette routes: the app-wide dependencies (the JSON
    body check) are for HTTP requests and have no request to look at here."""
    app.router.routes.append(WebSocketRoute("/ws/games/{game_id}", game_socket))
    app.router.routes.append(WebSocketRoute("/ws/me", me_socket))


CLOSE_NOT_SIGNED_IN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_INTERNAL = 1011
USER_QUEUE_MAX = 100  # a /ws/me client this far behind loses the oldest messages
SESSION_RECHECK_SECONDS = 60.0  # how stale a socket's proof of its session may be

NOT_JSON = 'A message is a JSON object with a "type", such as {"type": "ping"}.'


class Refused(Exception):
    def __init__(self, code: int, sentence: str) -> None:
        super().__init__(sentence)
        self.code = code
        self.sentence = sentence


# -- connecting ------------------------------------------------------------------------


def _same_origin(websocket: WebSocket) -> bool:
    """The page that opened the socket is the room's own (or no browser at all: only
    browsers send Origin, and only they attach cookies on their own)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


async def _sign_in(websocket: WebSocket, live: Live) -> tuple[UserInfo, str]:
    """The user the socket is for, and the session token that proves it."""
    token = websocket.query_params.get("token")
    if not token:
        token = websocket.cookies.get(SESSION_COOKIE)
        if token and not _same_origin(websocket):
            raise Refused(CLOSE_FORBIDDEN, "This page may not open the room's sockets.")
    if not token:
        raise Refused(CLOSE_NOT_SIGNED_IN, "Please sign in first.")
    return await _user_for(live, token), token


async def _user_for(live: Live, token: str) -> UserInfo:
    try:
        return await asyncio.to_thread(accounts.user_for_token, live.ctx, token)
    except AccountSuspended as refused:
        raise Refused(CLOSE_FORBIDDEN, refused.sentence) from None
    except AuthenticationFailed as refused:
        raise Refused(CLOSE_NOT_SIGNED_IN, refused.sentence) from None


def _game_id(text: str) -> int:
    if not text.isdigit() or len(text) > 10 or not 1 <= int(text) <= MAX_ROW_ID:
        raise Refused(CLOSE_NOT_FOUND, "There is no such game.")
    return int(text)


async def _refuse(websocket: WebSocket, refused: Refused) -> None:
    with contextlib.suppress(Exception):  # the client may be gone already
        await websocket.send_json(WsError(message=refused.sentence).model_dump(mode="json"))
        await websocket.close(code=refused.code)


# -- messages from the client ----------------------------------------------------------


def _read(raw: Mapping[str, Any]) -> dict[str, Any] | str:
    """The client's message as a JSON object, or the sentence refusing it."""
    text = raw.get("text")
    if text is None:
        return NOT_JSON
    if len(text) > WS_MESSAGE_MAX_CHARS:
        return f"A message is at most {WS_MESSAGE_MAX_CHARS} characters."
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long, nesting too deep
        return NOT_JSON
    return data if isinstance(data, dict) else NOT_JSON


def _parse(model: type[BaseModel], data: dict[str, Any]) -> BaseModel | str:
    try:
        return model.model_validate(data)
    except ValidationError as invalid:
        return validation_message([{**e, "loc": ("message", *e["loc"])} for e in invalid.errors()])


class Connection:
    """One accepted socket: sends one message at a time, in order, and only while
    its session lasts (signed out, expired, revoked or suspended: the socket is
    closed, looked at again at most every ``SESSION_RECHECK_SECONDS``)."""

    def __init__(self, websocket: WebSocket, live: Live, token: str) -> None:
        self.websocket = websocket
        self.live = live
        self._token = token
        self._checked = time.monotonic()
        self._sending = asyncio.Lock()

    async def send(self, message: BaseModel | dict[str, Any]) -> None:
        # pydantic writes a model's JSON itself, at a third of the cost of a dict
        # through json.dumps; every change sends two messages to every socket.
        if isinstance(message, BaseModel):
            text = message.model_dump_json()
        else:
            text = json.dumps(message, separators=(",", ":"))
        async with self._sending:
            await self.websocket.send_text(text)

    async def error(self, sentence: str) -> None:
        await self.send(WsError(message=sentence))

    async def still_signed_in(self) -> bool:
        if time.monotonic() - self._checked < SESSION_RECHECK_SECONDS:
            return True
        try:
            await _user_for(self.live, self._token)
        except Refused as refused:
            await _refuse(self.websocket, refused)
            return False
        self._checked = time.monotonic()
        return True


# -- a table ---------------------------------------------------------------------------


class GameFeed(Connection):
    """A table for one viewer. ``sent_seq``/``sent_version``: what the client has; a
    change wakes the pump, which sends the events after ``sent_seq`` and a snapshot."""

    def __init__(
        self, websocket: WebSocket, live: Live, token: str, game_id: int, viewer_id: int
    ) -> None:
        super().__init__(websocket, live, token)
        self.game_id, self.viewer_id = game_id, viewer_id
        self.sent_seq = 0
        self.sent_version = 0
        self._wake = asyncio.Event()
        self._catching_up = asyncio.Lock()

    def changed(self, seq: int, version: int) -> None:
        if seq > self.sent_seq or version > self.sent_version:
            self._wake.set()

    async def snapshot(self) -> None:
        async with self._catching_up:
            detail = await asyncio.to_thread(
                game_detail, self.live.ctx, self.game_id, self.viewer_id
            )
            await self.send(snapshot_message(detail))
            self.sent_seq, self.sent_version = detail.last_seq, detail.summary.version

    async def catch_up(self, after: int | None = None) -> None:
        """Send the events after ``after`` (default: after what was sent) and a fresh
        snapshot; on a wake with nothing new, nothing. A wake shares one read of
        the game with the game's other sockets here (``cardroom.web.game_reads``);
        a resync (``after`` given) reads for this socket alone."""
        async with self._catching_up:
            start = self.sent_seq if after is None else after
            if after is None:
                change = await self.live.shared_read(self.game_id).after(
                    self.live.ctx, self.game_id, start, self._oldest_needed
                )
                update = update_from(change, self.viewer_id, start, self.live.ctx.now())
            else:
                update = await asyncio.to_thread(
                    update_for, self.live.ctx, self.game_id, self.viewer_id, start
                )
            detail = update.detail
            if after is None and not update.events and detail.summary.version <= self.sent_version:
                return
            if update.events or after is not None:
                version = update.events[-1].version if update.events else detail.summary.version
                await self.send(
                    WsEvents(version=version, events=[event_out(e) for e in update.events])
                )
            await self.send(snapshot_message(detail))
            self.sent_seq = max(self.sent_seq, detail.last_seq)
            self.sent_version = max(self.sent_version, detail.summary.version)

    def _oldest_needed(self) -> int:
        """The oldest event a socket of this game here has not been sent (sockets
        still taking their first snapshot, at 0, wait for it instead)."""
        sent = [
            feed.sent_seq
            for feed in self.live.games.get(self.game_id, ())
            if isinstance(feed, GameFeed) and feed.sent_seq > 0
        ]
        return min(sent, default=self.sent_seq)

    async def pump(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not await self.still_signed_in():
                return
            try:
                await self.catch_up()
            except (WebSocketDisconnect, RuntimeError):
                return  # the client is gone; the reading side sees it too
            except Exception:
                # The database hiccuped: the next change (or a resync) tries again.
                log.exception("could not bring a watcher of game %s up to date", self.game_id)

    async def answer(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind == "ping":
            parsed = _parse(WsPingIn, data)
            await (self.send(WsPong()) if isinstance(parsed, BaseModel) else self.error(parsed))
        elif kind == "resync":
            parsed = _parse(WsResyncIn, data)
            if isinstance(parsed, WsResyncIn):
                await self.catch_up(parsed.after)
            else:
                await self.error(str(parsed))
        else:
            await self.error('Send {"type": "ping"} or {"type": "resync", "after": <seq>}.')


async def game_socket(websocket: WebSocket) -> None:
    """A table, live: a ``snapshot`` on connecting, then ``events`` and a fresh
    ``snapshot`` after every change; answers ``ping`` and ``resync``."""
    live = live_of(websocket.app)
    await websocket.accept()
    try:
        number = _game_id(str(websocket.path_params.get("game_id", "")))
        user, token = await _sign_in(websocket, live)
        feed = GameFeed(websocket, live, token, number, user.id)
        live.watch_game(number, feed)  # before the snapshot: no change falls between
        try:
            try:
                await feed.snapshot()
            except NotFound as missing:
                raise Refused(CLOSE_NOT_FOUND, missing.sentence) from None
            await _serve(websocket, feed, feed.pump(), feed.answer)
        finally:
            live.unwatch_game(number, feed)
    except Refused as refused:
        await _refuse(websocket, refused)


# -- the user's own stream --------------------------------------------------------------


class UserFeed(Connection):
    def __init__(self, websocket: WebSocket, live: Live, token: str) -> None:
        super().__init__(websocket, live, token)
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=USER_QUEUE_MAX)

    def push(self, message: Any) -> None:
        if self.queue.full():
            self.queue.get_nowait()  # a client that stopped reading loses the oldest
        self.queue.put_nowait(dict(message))

    async def pump(self) -> None:
        while True:
            message = await self.queue.get()
            if not await self.still_signed_in():
                return
            await self.send(message)

    async def answer(self, data: dict[str, Any]) -> None:
        if data.get("type") == "ping":
            parsed = _parse(WsPingIn, data)
            await (self.send(WsPong()) if isinstance(parsed, BaseModel) else self.error(parsed))
        else:
            await self.error('Send {"type": "ping"}.')


async def me_socket(websocket: WebSocket) -> None:
    """The signed-in user's stream: ``notification`` and ``games_changed``."""
    live = live_of(websocket.app)
    await websocket.accept()
    try:
        user, token = await _sign_in(websocket, live)
    except Refused as refused:
        await _refuse(websocket, refused)
        return
    feed = UserFeed(websocket, live, token)
    live.watch_user(user.id, feed)
    try:
        await _serve(websocket, feed, feed.pump(), feed.answer)
    finally:
        live.unwatch_user(user.id, feed)


# -- the loop both share -----------------------------------------------------------------


async def _serve(
    websocket: WebSocket,
    connection: Connection,
    pump: Coroutine[Any, Any, None],
    answer: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """Read the client's messages while ``pump`` sends ours, until the client goes."""
    pumping = asyncio.create_task(pump)
    try:
        while True:
            raw = await websocket.receive()
            if raw["type"] == "websocket.disconnect":
                return
            if not await connection.still_signed_in():
                return
            data = _read(raw)
            if isinstance(data, str):
                await connection.error(data)
                continue
            try:
                await answer(data)
            except ServiceError as refused:  # a resync of a game that is gone...
                await connection.error(refused.sentence)
    except (WebSocketDisconnect, RuntimeError):
        return  # the client left mid-send (Starlette raises RuntimeError after close)
    except Exception:
        log.exception("a WebSocket failed")
        if websocket.client_state is WebSocketState.CONNECTED:
            await _refuse(
                websocket, Refused(CLOSE_INTERNAL, "Something went wrong; please reconnect.")
            )
    finally:
        pumping.cancel()
        with contextlib.suppress(BaseException):
            await pumping
