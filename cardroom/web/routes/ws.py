"""The WebSockets: ``/ws/games/{id}``, a table live for one viewer, and ``/ws/me``,
the signed-in user's own stream (notifications and hints that their games changed).

Both are signed in like HTTP requests: the session cookie (the browser), or
``?token=<bearer token>`` (bots, scripts: a WebSocket cannot carry an Authorization
header from a browser). A browser sends cookies with a WebSocket opened by any site,
and the same-origin policy does not apply to WebSockets, so a cookie-authenticated
socket must come from a page of the room itself (its ``Origin`` names our host):
otherwise another site could watch a victim's table, hole cards included, or play
at it. (The check stands in for the CSRF token an HTTP write needs.)

Messages are JSON objects with a ``type`` (``cardroom.web.schemas_games``). A player
may send the two commands of play, ``act`` and ``continue``, over the table's socket
rather than over HTTP, with the HTTP routes' semantics, one at a time
(``cardroom.web.socket_commands``). Every payload about a game goes through the
per-viewer filter (``cardroom.service.game_views``, which calls ``cardroom.views``).
A bad message from the client gets an ``error`` message and the socket stays open.
Refusals on connecting are sent as an ``error`` message, then the socket is closed
with a 44xx code (4401 not signed in, 4403 not allowed, 4404 no such game, 4429 too
many sockets open for one player: ``open_sockets``). A frame larger than the server's
``--ws-max-size`` (16 KiB) is closed with 1009 by the server before it is read. An
unexpected error is logged, and the client gets an ``error`` message and the code
1011, never the traceback.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import contextlib
import json
import logging
import re
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

import orjson
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ValidationError
from starlette.routing import Match, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketState

from cardroom.service import accounts, invites
from cardroom.service.change_views import ChangeViews, Sealed
from cardroom.service.errors import (
    AccountSuspended,
    AuthenticationFailed,
    Forbidden,
    NotFound,
    ServiceError,
)
from cardroom.service.game_details import game_detail
from cardroom.service.game_records import GameDetail
from cardroom.service.game_views import ViewerUpdate, update_for
from cardroom.service.users import UserInfo
from cardroom.store.models import GameStatus
from cardroom.web import socket_commands
from cardroom.web.deps import WebSettings
from cardroom.web.errors import validation_message
from cardroom.web.game_answers import events_text, snapshot_text
from cardroom.web.gathered_frames import GatheredFramesProtocol
from cardroom.web.live import Live, live_of
from cardroom.web.open_sockets import CLOSE_TOO_MANY, TOO_MANY
from cardroom.web.origins import same_origin
from cardroom.web.schemas import FORWARDED_PROTO_HEADER, MAX_ROW_ID, SESSION_COOKIE
from cardroom.web.schemas_games import WS_MESSAGE_MAX_CHARS, WsError, WsPingIn, WsPong, WsResyncIn
from cardroom.web.watchers import watchers_message

log = logging.getLogger(__name__)


def install(app: FastAPI) -> None:
    """Add the sockets as plain Starlette routes: the app-wide dependencies (the JSON
    body check) are for HTTP requests and have no request to look at here. (The app
    built by ``create_app`` hands them their sockets before its middleware stack
    even sees them: ``socket_for``.)"""
    app.router.routes.extend(SOCKETS)


CLOSE_NOT_SIGNED_IN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_INTERNAL = 1011
USER_QUEUE_MAX = 100  # a /ws/me client this far behind loses the oldest messages
SESSION_RECHECK_SECONDS = 60.0  # how stale a socket's proof of its session may be

NOT_JSON = 'A message is a JSON object with a "type", such as {"type": "ping"}.'
GAME_MESSAGES = (
    'Send {"type": "ping"}, {"type": "resync", "after": <seq>}, {"type": "act", ...} '
    'or {"type": "continue", ...}.'
)


class Refused(Exception):
    def __init__(self, code: int, sentence: str) -> None:
        super().__init__(sentence)
        self.code = code
        self.sentence = sentence

    @classmethod
    def session_over(cls, refused: AuthenticationFailed | AccountSuspended) -> Refused:
        """The close for a session that proves nobody: 4403 suspended, else 4401."""
        code = CLOSE_FORBIDDEN if isinstance(refused, AccountSuspended) else CLOSE_NOT_SIGNED_IN
        return cls(code, refused.sentence)


# -- connecting ------------------------------------------------------------------------


def _same_origin(websocket: WebSocket) -> bool:
    """The page that opened the socket is the room's own, scheme included (or no
    browser at all: only browsers send Origin, and only they attach cookies on their
    own). A socket over TLS (``wss``, or ``X-Forwarded-Proto: https`` from a trusted
    proxy) must come from an ``https`` page."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    web = getattr(websocket.app.state, "web", None)
    https = websocket.url.scheme == "wss"
    if isinstance(web, WebSettings) and web.trust_proxy:
        forwarded = websocket.headers.get(FORWARDED_PROTO_HEADER)
        if forwarded:
            https = forwarded.split(",")[0].strip().lower() == "https"
    return same_origin(origin, https=https, host=websocket.headers.get("host", ""))


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
    except (AccountSuspended, AuthenticationFailed) as refused:
        raise Refused.session_over(refused) from None


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
        data = _loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long, nesting too deep
        return NOT_JSON
    return data if isinstance(data, dict) else NOT_JSON


# A run of digits as long as the largest 64-bit integers': orjson reads such an
# integer as a float, where json keeps it whole (and validation says so).
_LONG_DIGITS = re.compile(r"[0-9]{19}")
# What a flat object holds when orjson read each of its numbers as json does: an
# integer orjson reads at all it reads whole (a larger one comes out a float).
_WHOLE_VALUES = frozenset({str, int, bool, type(None)})


def _loads(text: str) -> Any:
    """``json.loads(text)``, the same objects or the same refusal, at a fifth of its
    CPU for a message of play: through orjson, unless the text holds a number orjson
    would read otherwise; what orjson refuses (``NaN``, a lone surrogate, ``1e400``,
    malformed text) goes to json, which accepts it or refuses it itself. A flat
    object without a float (every message of play) needs no look for long numbers:
    searching the text for them cost more than reading it."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
    if type(data) is dict and _WHOLE_VALUES.issuperset(map(type, data.values())):
        return data
    return data if _LONG_DIGITS.search(text) is None else json.loads(text)


def _parse(model: type[BaseModel], data: dict[str, Any]) -> BaseModel | str:
    try:
        return model.model_validate(data)
    except ValidationError as invalid:
        return validation_message([{**e, "loc": ("message", *e["loc"])} for e in invalid.errors()])


class Connection(abc.ABC):
    """One accepted socket: sends one message at a time, in order, and only while
    its session lasts (signed out, expired, revoked or suspended: the socket is
    closed, looked at again at most every ``SESSION_RECHECK_SECONDS``).

    What it has to send goes out through a task started when there is something to
    send, and ending when there is nothing left: an idle socket (most of them, most
    of the time) keeps no task, no event and no queue of its own."""

    def __init__(self, websocket: WebSocket, live: Live, token: str) -> None:
        self.websocket = websocket
        self.live = live
        self._token = token
        self._checked = time.monotonic()
        self._sending = asyncio.Lock()
        # The pump: a task, or for a table's socket woken by a change, first the loop's
        # call of ``GameFeed._pump_now`` (``GameFeed.changed``).
        self._pumping: asyncio.Task[None] | asyncio.Handle | None = None
        self._open = True  # False once the socket ends: nothing more is sent
        # Starlette's socket: what is sent goes straight to the server's ASGI
        # ``send`` (``_write``); a stand-in (tests, benchmarks): its ``send_text``.
        self._asgi_send = websocket._send if isinstance(websocket, WebSocket) else None
        # ``cardroom serve``'s protocol (the ASGI ``send`` is its method): a frame that
        # needs no waiting is handed to it without a coroutine (``_send_now``).
        server = getattr(self._asgi_send, "__self__", None)
        self._direct = server if isinstance(server, GatheredFramesProtocol) else None
        self._loop = asyncio.get_running_loop()

    async def send(self, message: BaseModel | dict[str, Any] | str) -> None:
        """``message``: a model, a dict, or the JSON text itself (what a change sends
        every socket is written without models: ``game_answers.snapshot_text``)."""
        # pydantic writes a model's JSON itself, at a third of the cost of a dict
        # through json.dumps; every change sends two messages to every socket.
        if isinstance(message, str):
            text = message
        elif isinstance(message, BaseModel):
            text = message.model_dump_json()
        else:
            text = json.dumps(message, separators=(",", ":"))
        if self._send_now(text):
            return
        sending = self._sending  # acquired and released without ``async with``'s two
        await sending.acquire()  # coroutines: five sends per command
        try:
            await self._write(text)
        finally:
            sending.release()

    def _send_now(self, text: str) -> bool:
        """Send ``text`` without awaiting, if nothing is being sent and the server's
        protocol can take it at once (``GatheredFramesProtocol.send_text_now``): the
        same frame, in the same order, without the lock's, ``_write``'s and the
        server's coroutines (five sends per command). False: nothing was done."""
        direct = self._direct
        return (
            direct is not None
            and not self._sending.locked()
            and self.websocket.application_state is WebSocketState.CONNECTED
            and direct.send_text_now(text)
        )

    def _sends_now(self) -> GatheredFramesProtocol | None:
        """The server's protocol, if ``_send_now`` would send a frame now, and the
        next one too if nothing else happens in between (its ``frame_text``: one
        look for a catch-up's two frames)."""
        direct = self._direct
        if (
            direct is not None
            and not self._sending.locked()
            and self.websocket.application_state is WebSocketState.CONNECTED
            and direct.takes_text_now()
        ):
            return direct
        return None

    async def _write(self, text: str) -> None:
        """``websocket.send_text(text)``, for a connected socket without Starlette's
        two layers (``send_text``, then ``send`` checking the message's type against
        the socket's state): the same ASGI message to the server, the same
        ``WebSocketDisconnect(1006)`` if the server's write fails. A socket in any
        other state goes through Starlette, which refuses as it does."""
        send = self._asgi_send
        websocket = self.websocket
        if send is None or websocket.application_state is not WebSocketState.CONNECTED:
            await websocket.send_text(text)
            return
        try:
            await send({"type": "websocket.send", "text": text})
        except OSError:
            websocket.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006) from None

    async def error(self, sentence: str) -> None:
        await self.send(WsError(message=sentence))

    async def end(self, code: int, sentence: str) -> None:
        """Close the socket now, saying why (``open_sockets.Closable``): nothing more
        is sent, and the reading side sees the client's close."""
        self._open = False
        async with self._sending:
            await _refuse(self.websocket, Refused(code, sentence))

    def proved_lately(self) -> bool:
        """The session was proved within ``SESSION_RECHECK_SECONDS``: no need to
        await ``still_signed_in`` (a coroutine per message and per change)."""
        return time.monotonic() - self._checked < SESSION_RECHECK_SECONDS

    async def still_signed_in(self) -> bool:
        if self.proved_lately():
            return True
        try:
            await _user_for(self.live, self._token)
        except Refused as refused:
            await _refuse(self.websocket, refused)
            return False
        self._checked = time.monotonic()
        return True

    @abc.abstractmethod
    async def answer(self, data: dict[str, Any]) -> None:
        """Answer one message from the client."""

    def _start_pump(self) -> None:
        """Send what there is to send, unless the pump runs already (it looks again
        before it ends)."""
        if self._pumping is None and self._open:
            # The loop's own ``create_task``: ``asyncio.create_task`` looks the loop up
            # each time, for a task per socket per change.
            self._pumping = self._loop.create_task(self._run_pump())

    @abc.abstractmethod
    async def _pump(self) -> bool:
        """Send until there is nothing left: False if the socket is done for (the
        client left, or the session ended and the socket was closed)."""

    async def _run_pump(self) -> None:
        try:
            if not await self._pump():
                self._open = False
        except (WebSocketDisconnect, RuntimeError):
            self._open = False  # the client is gone; the reading side sees it too
        except Exception:
            # The database hiccuped checking the session: the next wake tries again.
            log.exception("a WebSocket could not send")
        finally:
            self._pumping = None

    async def stop(self) -> None:
        """The socket ends: send nothing more."""
        self._open = False
        pumping, self._pumping = self._pumping, None
        if pumping is not None:
            pumping.cancel()
            if isinstance(pumping, asyncio.Task):
                with contextlib.suppress(BaseException):
                    await pumping


# -- a table ---------------------------------------------------------------------------


class GameFeed(Connection):
    """A table for one viewer. ``sent_seq``/``sent_version``: what the client has; a
    change starts the pump, which sends the events after ``sent_seq`` and a snapshot."""

    def __init__(
        self, websocket: WebSocket, live: Live, token: str, game_id: int, viewer_id: int
    ) -> None:
        super().__init__(websocket, live, token)
        self.game_id, self.viewer_id = game_id, viewer_id
        self.sent_seq = 0
        self.sent_version = 0
        self._behind = False  # a change came since the pump last looked
        self._catching_up = asyncio.Lock()
        self.spectating = False  # counted among the table's watchers (web/watchers.py)
        # ``?chat=1`` (the table page): table messages too, the chat and the watchers'
        # count; scripts and bots that did not ask get the game alone, as before.
        self.table_messages = websocket.query_params.get("chat") == "1"
        self._told: collections.deque[Mapping[str, Any]] | None = None  # table messages
        # The table's status when this viewer's right to watch was last proved (the
        # check on connecting, ``_still_may_watch``); None before the first snapshot.
        self._watch_proved: GameStatus | None = None

    def tell(self, message: Mapping[str, Any]) -> None:
        """A table message (chat, watchers): queued, sent by the pump in order."""
        if not self.table_messages:
            return
        if self._told is None:
            self._told = collections.deque(maxlen=USER_QUEUE_MAX)
        self._told.append(message)
        self._start_pump()

    def seat_seen(self, seat: int | None) -> None:
        """What the last snapshot said of the viewer's seat: without one, they watch."""
        watching = seat is None
        if watching != self.spectating:
            self.spectating = watching
            self.live.spectating(self.game_id, self.viewer_id, watching)

    def changed(self, seq: int, version: int) -> None:
        if seq > self.sent_seq or version > self.sent_version:
            self._behind = True
            if self._pumping is None and self._open:
                # One call of the loop, not a task: most wakes are caught up without
                # a coroutine (``_pump_now``). Called soon, not now: the game's other
                # sockets are told first, so the last of them to catch up knows it is
                # the last (``_last_to_catch_up``).
                self._pumping = self._loop.call_soon(self._pump_now)

    def _pump_now(self) -> None:
        """The pump of a wake, at once if it can be (``_catch_up_now``: a change made
        here, a client keeping up, nothing else to send), else as a task."""
        self._pumping = None
        if not self._open:
            return
        if not self._told and self.proved_lately() and self._catch_up_now():
            self._last_to_catch_up()
        else:
            self._start_pump()

    async def snapshot(self) -> None:
        async with self._catching_up:
            detail = await asyncio.to_thread(
                game_detail, self.live.ctx, self.game_id, self.viewer_id
            )
            await self.send(snapshot_text(detail))
            self.sent_seq, self.sent_version = detail.last_seq, detail.summary.version
            self._watch_proved = detail.summary.status  # game_detail checked it
            self.seat_seen(detail.viewer_seat)
            if self.table_messages:
                count = self.live.spectators.count(self.game_id)
                await self.send(watchers_message(self.game_id, count))

    async def catch_up(self, after: int | None = None) -> None:
        """Send the events after ``after`` (default: after what was sent) and a fresh
        snapshot; on a wake with nothing new, nothing. A wake shares one read of
        the game with the game's other sockets here (``cardroom.web.game_reads``);
        a resync (``after`` given) reads for this socket alone."""
        async with self._catching_up:
            start = self.sent_seq if after is None else after
            update = None
            views = None  # the shared views the update came from: their texts too
            if after is None:
                read = self.live.shared_read(self.game_id)
                shared = read.fresh(start) or await read.after(
                    self.live.ctx, self.game_id, start, self._oldest_needed
                )
                # Sealed: this socket's view was not made before the table went on to
                # the next command (``change_views``): it reads, as a resync does.
                with contextlib.suppress(Sealed):
                    update = shared.update(self.viewer_id, start, self.live.ctx.now())
                    views = shared
            if update is None:
                update = await asyncio.to_thread(
                    update_for, self.live.ctx, self.game_id, self.viewer_id, start
                )
            if after is None and self._nothing_new(update):
                return
            await self._still_may_watch(update.detail)
            events = self._events_frame(update, views, after)
            if events is not None and not self._send_now(events):
                await self.send(events)
            snapshot = snapshot_text(update.detail, views)
            if not self._send_now(snapshot):
                await self.send(snapshot)
            self._caught_up(update.detail)

    # ``catch_up`` and ``_catch_up_now`` decide with these: the same frames either way.

    def _nothing_new(self, update: ViewerUpdate) -> bool:
        """A wake's update holds no event and no version this socket was not sent."""
        return not update.events and update.detail.summary.version <= self.sent_version

    @staticmethod
    def _events_frame(
        update: ViewerUpdate, views: ChangeViews | None, after: int | None
    ) -> str | None:
        """The ``events`` frame of a catch-up: None on a wake with no event (a resync,
        ``after`` given, is always sent one, if empty)."""
        if not update.events and after is None:
            return None
        version = update.events[-1].version if update.events else update.detail.summary.version
        return events_text(version, update.events, views)

    def _caught_up(self, detail: GameDetail) -> None:
        """Sent ``detail``'s snapshot (and the events before it)."""
        self.seat_seen(detail.viewer_seat)
        self.sent_seq = max(self.sent_seq, detail.last_seq)
        self.sent_version = max(self.sent_version, detail.summary.version)

    def _watch_unproved(self, detail: GameDetail) -> bool:
        """A viewer without a seat, the table's status moved on since they were last
        let watch: ask again (``_still_may_watch``)."""
        return detail.viewer_seat is None and detail.summary.status is not self._watch_proved

    def _catch_up_now(self) -> bool:
        """``catch_up()``'s usual course after a change, without its coroutines (the
        lock's, the pump's task, the sends'): the change is fresh in the shared read,
        this socket's view of it needs no read, the viewer's right to watch needs no
        check, and the server's protocol takes the frames at once. The same frames in
        the same order. True: done (``_behind`` cleared); False: nothing was done, the
        pump's ``catch_up`` does it."""
        if self._catching_up.locked():
            return False
        # Asked once for both frames: nothing in between sends, closes or awaits.
        direct = self._sends_now()
        if direct is None:
            return False
        start = self.sent_seq
        views = self.live.shared_read(self.game_id).fresh(start)
        if views is None:
            return False
        try:
            update = views.update(self.viewer_id, start, self.live.ctx.now())
        except Sealed:
            return False
        if self._watch_unproved(update.detail):
            return False  # the pump asks again whether they may watch
        self._behind = False
        try:
            if self._nothing_new(update):
                return True
            events = self._events_frame(update, views, None)
            if events is not None:
                direct.frame_text(events)
            direct.frame_text(snapshot_text(update.detail, views))
            self._caught_up(update.detail)
        except Exception:
            # As the pump's catch-up: the next change (or a resync) tries again.
            log.exception("could not bring a watcher of game %s up to date", self.game_id)
        return True

    async def _still_may_watch(self, detail: GameDetail) -> None:
        """A viewer without a seat is asked again whether they may watch once the
        table's status moves on: a host's "no spectators" holds from the start, so a
        socket opened while the table waited for players must not go on watching it
        (``invites.may_watch``). Refused: the sentence, then 4403, and the socket
        reads no more. One read per status change, for spectators only."""
        if not self._watch_unproved(detail):
            return
        status = detail.summary.status
        try:
            await asyncio.to_thread(
                invites.check_may_see_game, self.live.ctx, self.game_id, self.viewer_id
            )
        except Forbidden as refused:
            self.seat_seen(0)  # no longer among the watchers, whenever the client goes
            await self.end(CLOSE_FORBIDDEN, refused.sentence)
            raise WebSocketDisconnect(CLOSE_FORBIDDEN) from None
        self._watch_proved = status

    def _oldest_needed(self) -> int:
        """The oldest event a socket of this game here has not been sent (sockets
        still taking their first snapshot, at 0, wait for it instead)."""
        sent = [
            feed.sent_seq
            for feed in self.live.games.get(self.game_id, ())
            if isinstance(feed, GameFeed) and feed.sent_seq > 0
        ]
        return min(sent, default=self.sent_seq)

    async def _pump(self) -> bool:
        while self._behind or self._told:
            while self._told:
                if not self.proved_lately() and not await self.still_signed_in():
                    return False
                await self.send(dict(self._told.popleft()))
            if not self._behind:
                break
            self._behind = False
            if not self.proved_lately() and not await self.still_signed_in():
                return False
            try:
                await self.catch_up()
            except (WebSocketDisconnect, RuntimeError):
                return False  # the client is gone; the reading side sees it too
            except Exception:
                # The database hiccuped: the next change (or a resync) tries again.
                log.exception("could not bring a watcher of game %s up to date", self.game_id)
        self._last_to_catch_up()
        return True

    def _last_to_catch_up(self) -> None:
        """The game's last socket here to be done with a change lets its shared views
        go (``ChangeViews.forget``): the change itself stays, for the next wake."""
        for feed in self.live.games.get(self.game_id, ()):
            if feed is not self and isinstance(feed, GameFeed) and feed._pumping is not None:
                return
        read = self.live.reads.get(self.game_id)
        if read is not None and read.views is not None:
            read.views.forget()

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
        elif socket_commands.is_command(kind):
            await self.command(data)
        else:
            await self.error(GAME_MESSAGES)

    async def command(self, data: dict[str, Any]) -> None:
        """``act`` or ``continue``, as the HTTP route does it, awaited: a socket's
        commands run one at a time, in order (``cardroom.web.socket_commands``). A
        session found over is refused as HTTP refuses it, then the socket closes."""
        done = await socket_commands.run_command(self.live, self._token, self.game_id, data)
        message = done.message
        if not (isinstance(message, str) and self._send_now(message)):
            await self.send(message)
        if done.ended is not None:
            refused = Refused.session_over(done.ended)
            self._open = False
            await _refuse(self.websocket, refused)
            raise WebSocketDisconnect(refused.code)  # read no more


async def game_socket(websocket: WebSocket) -> None:
    """A table, live: a ``snapshot`` on connecting, then ``events`` and a fresh
    ``snapshot`` after every change; answers ``ping`` and ``resync``."""
    live = live_of(websocket.app)
    await websocket.accept()
    try:
        number = _game_id(str(websocket.path_params.get("game_id", "")))
        user, token = await _sign_in(websocket, live)
        feed = GameFeed(websocket, live, token, number, user.id)
        # The count first: a player at the limit is refused without a database read.
        if not live.sockets.add(user.id, token, feed):
            raise Refused(CLOSE_TOO_MANY, TOO_MANY)
        try:
            try:  # a private table: before it is watched, so no change reaches the socket
                await asyncio.to_thread(invites.check_may_see_game, live.ctx, number, user.id)
            except NotFound as missing:
                raise Refused(CLOSE_NOT_FOUND, missing.sentence) from None
            except Forbidden as refused:
                raise Refused(CLOSE_FORBIDDEN, refused.sentence) from None
            live.watch_game(number, feed)  # before the snapshot: no change falls between
            try:
                try:
                    await feed.snapshot()
                except NotFound as missing:
                    raise Refused(CLOSE_NOT_FOUND, missing.sentence) from None
                await _serve(websocket, feed)
            finally:
                live.unwatch_game(number, feed)
                feed.seat_seen(0)  # no longer among the watchers
        finally:
            live.sockets.remove(user.id, feed)
            await feed.stop()
    except Refused as refused:
        await _refuse(websocket, refused)
    except WebSocketDisconnect:
        return  # the client left before its first snapshot (or was closed: 1009)
    except Exception:
        await _failed(websocket)


# -- the user's own stream --------------------------------------------------------------


class UserFeed(Connection):
    def __init__(self, websocket: WebSocket, live: Live, token: str) -> None:
        super().__init__(websocket, live, token)
        # Made with the first message: most sockets wait with nothing queued.
        self.queue: collections.deque[dict[str, Any]] | None = None

    def push(self, message: Any) -> None:
        if self.queue is None:
            # A client that stopped reading loses the oldest.
            self.queue = collections.deque(maxlen=USER_QUEUE_MAX)
        self.queue.append(dict(message))
        self._start_pump()

    async def _pump(self) -> bool:
        while self.queue:
            message = self.queue.popleft()
            if not self.proved_lately() and not await self.still_signed_in():
                return False
            await self.send(message)
        self.queue = None
        return True

    async def answer(self, data: dict[str, Any]) -> None:
        if data.get("type") == "ping":
            parsed = _parse(WsPingIn, data)
            await (self.send(WsPong()) if isinstance(parsed, BaseModel) else self.error(parsed))
        else:
            await self.error('Send {"type": "ping"}.')


async def me_socket(websocket: WebSocket) -> None:
    """The signed-in user's stream: ``notification`` and ``games_changed``; and with
    ``?lobby=1`` (the lobby page) ``lobby_changed``."""
    live = live_of(websocket.app)
    await websocket.accept()
    try:
        user, token = await _sign_in(websocket, live)
    except Refused as refused:
        await _refuse(websocket, refused)
        return
    except Exception:
        await _failed(websocket)
        return
    feed = UserFeed(websocket, live, token)
    if not live.sockets.add(user.id, token, feed):
        await _refuse(websocket, Refused(CLOSE_TOO_MANY, TOO_MANY))
        return
    live.watch_user(user.id, feed)
    if websocket.query_params.get("lobby") == "1":  # a lobby page: live listing too
        live.watch_lobby(feed)
    try:
        await _serve(websocket, feed)
    finally:
        live.unwatch_user(user.id, feed)
        live.sockets.remove(user.id, feed)
        await feed.stop()


# -- the loop both share -----------------------------------------------------------------


async def _serve(websocket: WebSocket, connection: Connection) -> None:
    """Read the client's messages (the connection sends ours as they come) until the
    client goes."""
    # Starlette's socket: its ASGI ``receive`` awaited straight (``_write``'s reason:
    # a coroutine less per message), with ``WebSocket.receive``'s state change.
    receive = websocket._receive if isinstance(websocket, WebSocket) else None
    try:
        while True:
            if receive is not None and websocket.client_state is WebSocketState.CONNECTED:
                raw = await receive()
                kind = raw["type"]
                if kind == "websocket.disconnect":
                    websocket.client_state = WebSocketState.DISCONNECTED
                    return
                if kind != "websocket.receive":
                    return  # as WebSocket.receive's RuntimeError ends the loop
            else:
                raw = await websocket.receive()
                if raw["type"] == "websocket.disconnect":
                    return
            if not connection.proved_lately() and not await connection.still_signed_in():
                return
            data = _read(raw)
            if isinstance(data, str):
                await connection.error(data)
                continue
            try:
                await connection.answer(data)
            except ServiceError as refused:  # a resync of a game that is gone...
                await connection.error(refused.sentence)
    except (WebSocketDisconnect, RuntimeError):
        return  # the client left mid-send (Starlette raises RuntimeError after close)
    except Exception:
        await _failed(websocket)


async def _failed(websocket: WebSocket) -> None:
    """A bug or an outage: logged with its traceback, and the client told in a
    sentence, closed with 1011 (never the traceback: it may hold anything)."""
    log.exception("a WebSocket failed")
    if websocket.client_state is WebSocketState.CONNECTED:
        await _refuse(websocket, Refused(CLOSE_INTERNAL, "Something went wrong; please reconnect."))


# -- routing -------------------------------------------------------------------------------

SOCKETS = (
    WebSocketRoute("/ws/games/{game_id}", game_socket),
    WebSocketRoute("/ws/me", me_socket),
)


def socket_for(
    app: FastAPI, scope: Scope, receive: Receive, send: Send
) -> Coroutine[Any, Any, None] | None:
    """The handler of one of the room's sockets, ready for the server to await, or
    None if the WebSocket is for another path. The app (``cardroom.web.app.
    CardroomApp``) hands such a socket straight to its handler: through the
    middleware stack, the socket would keep a suspended frame of every layer (the
    error and exception middlewares, the body limit, the router, the route, their
    exception wrappers...) for as long as it stays open, 10.7 of the 33.8 KB an idle
    table socket cost the server. The sockets need none of them: they are not HTTP,
    and the handlers refuse (44xx) and fail (1011, logged) by themselves."""
    for route in SOCKETS:
        match, child_scope = route.matches(scope)
        if match is Match.FULL:
            scope["app"] = app
            scope.update(child_scope)
            handler: Callable[[WebSocket], Coroutine[Any, Any, None]] = route.endpoint
            return handler(WebSocket(scope, receive, send))
    return None
