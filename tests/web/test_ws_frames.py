"""The server's WebSocket protocol (``cardroom.web.gathered_frames``): the frames a
socket is sent in one step of the event loop go out in one write, the same bytes in
the same order as uvicorn's own protocol writes them one by one; the rest (a close,
a lost connection, a full buffer, a client that closed) as uvicorn does it."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import pytest
import uvicorn
from starlette.websockets import WebSocket, WebSocketState
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Close, Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from cardroom.web.gathered_frames import GatheredFramesProtocol
from cardroom.web.routes import ws as ws_routes

Send = Callable[[Any], Awaitable[None]]
Script = Callable[[Send], Awaitable[None]]
# Each length a frame's header writes apart: under 126 bytes, up to 65,535, longer.
TEXTS = [
    '{"type":"events","version":7,"events":[]}',
    "x" * 125,
    "x" * 126,
    "é" * 300,
    "z" * 65_535,
    "y" * 65_536,
]


class Transport(asyncio.Transport):
    """The connection's socket: what was written, each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 50000) if name in ("peername", "sockname") else default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


class Connected:
    """A protocol of ``kind`` serving an app that runs ``script`` once accepted, with a
    client's handshake done; ``frames()``: what the client reads after it."""

    def __init__(
        self,
        kind: type[WebSocketsSansIOProtocol],
        script: Script,
        *,
        deflate: bool = False,
        max_size: int = 16 * 1024 * 1024,
    ) -> None:
        self.accepted = asyncio.Event()
        self.finished = asyncio.Event()
        self.failure: BaseException | None = None

        async def app(scope: Any, receive: Any, send: Send) -> None:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            self.accepted.set()
            try:
                await script(send)
            except BaseException as failure:
                self.failure = failure
            finally:
                self.finished.set()

        config = uvicorn.Config(
            app,
            ws_per_message_deflate=deflate,
            ws_max_size=max_size,
            lifespan="off",
            proxy_headers=False,
        )
        config.load()
        self.protocol = kind(config, ServerState(), {}, _loop=asyncio.get_running_loop())
        self.transport = Transport()
        self.protocol.connection_made(self.transport)
        offers = [ClientPerMessageDeflateFactory()] if deflate else []
        self.client = ClientProtocol(parse_uri("ws://127.0.0.1/ws"), extensions=offers)
        self.client.send_request(self.client.connect())
        self.protocol.data_received(b"".join(self.client.data_to_send()))

    async def run(self) -> None:
        await asyncio.wait_for(self.finished.wait(), 5)
        for _ in range(3):  # the writes asked of the loop
            await asyncio.sleep(0)

    def frame_writes(self) -> list[bytes]:
        """The writes after the handshake's response."""
        assert self.transport.writes[0].startswith(b"HTTP/1.1 101")
        return self.transport.writes[1:]

    def frames(self) -> list[Frame]:
        self.client.receive_data(b"".join(self.transport.writes))
        events = self.client.events_received()
        assert isinstance(events[0], Response) and events[0].status_code == 101
        return [e for e in events[1:] if isinstance(e, Frame)]


def _run(scenario: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    # In a thread of its own: an earlier test may leave an event loop running here.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, scenario()).result(timeout=30)


async def _texts_in_one_step(send: Send) -> None:
    for text in TEXTS:
        await send({"type": "websocket.send", "text": text})
    await send({"type": "websocket.send", "bytes": b"\x00\x01"})


def _served(
    kind: type[WebSocketsSansIOProtocol], script: Script, *, deflate: bool = False
) -> Connected:
    async def scenario() -> Connected:
        connected = Connected(kind, script, deflate=deflate)
        await connected.run()
        return connected

    connected: Connected = _run(scenario)
    return connected


@pytest.mark.parametrize("deflate", [False, True], ids=["plain", "compressed"])
def test_the_frames_of_one_step_go_out_in_one_write_as_uvicorn_writes_them(
    deflate: bool,
) -> None:
    uvicorns = _served(WebSocketsSansIOProtocol, _texts_in_one_step, deflate=deflate)
    ours = _served(GatheredFramesProtocol, _texts_in_one_step, deflate=deflate)
    assert ours.failure is None and uvicorns.failure is None
    assert len(uvicorns.frame_writes()) == len(TEXTS) + 1
    assert len(ours.frame_writes()) == 1
    assert ours.frame_writes() == [b"".join(uvicorns.frame_writes())]
    frames = ours.frames()
    assert [bytes(f.data).decode() for f in frames[:-1]] == TEXTS
    assert (frames[-1].opcode, frames[-1].data) == (Opcode.BINARY, b"\x00\x01")
    assert bool(ours.client.extensions) is deflate


def test_frames_of_different_steps_go_out_in_their_order() -> None:
    async def script(send: Send) -> None:
        await send({"type": "websocket.send", "text": TEXTS[0]})
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        await send({"type": "websocket.send", "text": TEXTS[1]})
        await send({"type": "websocket.send", "text": TEXTS[2]})

    ours = _served(GatheredFramesProtocol, script)
    assert ours.failure is None
    assert len(ours.frame_writes()) == 2
    assert [bytes(f.data).decode() for f in ours.frames()] == TEXTS[:3]


def test_a_close_goes_out_after_the_frames_sent_before_it() -> None:
    async def script(send: Send) -> None:
        await send({"type": "websocket.send", "text": TEXTS[0]})
        await send({"type": "websocket.send", "text": TEXTS[1]})
        await send({"type": "websocket.close", "code": 4403, "reason": ""})

    uvicorns = _served(WebSocketsSansIOProtocol, script)
    ours = _served(GatheredFramesProtocol, script)
    assert b"".join(ours.frame_writes()) == b"".join(uvicorns.frame_writes())
    frames = ours.frames()
    assert [f.opcode for f in frames] == [Opcode.TEXT, Opcode.TEXT, Opcode.CLOSE]
    assert Close.parse(frames[2].data).code == 4403


def test_a_shutdown_writes_what_was_sent_before_its_close() -> None:
    async def scenario(kind: type[WebSocketsSansIOProtocol]) -> Connected:
        sent = asyncio.Event()

        async def script(send: Send) -> None:
            await send({"type": "websocket.send", "text": TEXTS[0]})
            sent.set()
            await asyncio.sleep(0.05)

        connected = Connected(kind, script)
        await sent.wait()
        connected.protocol.shutdown()  # before the loop came round to write
        await connected.run()
        return connected

    ours: Connected = _run(lambda: scenario(GatheredFramesProtocol))
    uvicorns: Connected = _run(lambda: scenario(WebSocketsSansIOProtocol))
    assert b"".join(ours.frame_writes()) == b"".join(uvicorns.frame_writes())
    assert [f.opcode for f in ours.frames()] == [Opcode.TEXT, Opcode.CLOSE]


def test_frames_left_when_the_connection_is_lost_are_not_written() -> None:
    async def scenario() -> tuple[list[bytes], BaseException | None]:
        lost = asyncio.Event()

        async def script(send: Send) -> None:
            await send({"type": "websocket.send", "text": TEXTS[0]})
            lost.set()
            await asyncio.sleep(0.05)
            await send({"type": "websocket.send", "text": TEXTS[1]})

        connected = Connected(GatheredFramesProtocol, script)
        await connected.accepted.wait()
        await lost.wait()
        connected.protocol.connection_lost(None)  # before the loop came round to write
        await connected.run()
        return connected.frame_writes(), connected.failure

    writes, failure = _run(scenario)
    assert writes == []
    assert isinstance(failure, ClientDisconnected)  # the next send: as uvicorn says


def test_a_send_after_the_client_closed_is_refused_as_uvicorn_refuses_it() -> None:
    async def scenario(kind: type[WebSocketsSansIOProtocol]) -> str:
        closed = asyncio.Event()

        async def script(send: Send) -> None:
            await closed.wait()
            await send({"type": "websocket.send", "text": TEXTS[0]})

        connected = Connected(kind, script)
        await connected.accepted.wait()
        connected.client.receive_data(connected.transport.writes[0])  # the handshake's answer
        connected.client.events_received()
        connected.client.send_close(1000)
        connected.transport.closing = False  # the close's echo is out; the socket not yet
        connected.protocol.data_received(b"".join(connected.client.data_to_send()))
        connected.transport.closing = False
        closed.set()
        await connected.run()
        return type(connected.failure).__name__

    assert _run(lambda: scenario(GatheredFramesProtocol)) == "ClientDisconnected"
    assert _run(lambda: scenario(WebSocketsSansIOProtocol)) == "ClientDisconnected"


def test_a_send_after_the_protocol_closed_on_an_oversize_frame_is_a_client_gone() -> None:
    """A client's frame over ``ws_max_size`` makes the protocol close the connection
    (1009) before it is lost; a send in between is the client gone
    (``ClientDisconnected``, which the app's sockets take as a leaving), where
    uvicorn's own protocol raises a ``RuntimeError`` as if the app had closed."""

    async def scenario(kind: type[WebSocketsSansIOProtocol]) -> tuple[str, str]:
        oversized = asyncio.Event()

        async def script(send: Send) -> None:
            await oversized.wait()
            await send({"type": "websocket.send", "text": TEXTS[0]})

        connected = Connected(kind, script, max_size=1024)
        await connected.accepted.wait()
        connected.client.receive_data(connected.transport.writes[0])  # the handshake's answer
        connected.client.events_received()
        connected.client.send_text(b"y" * 1025)
        connected.protocol.data_received(b"".join(connected.client.data_to_send()))
        connected.transport.closing = False  # the close is out; the socket not yet lost
        oversized.set()
        await connected.run()
        connected.client.receive_data(b"".join(connected.frame_writes()))
        close = [e for e in connected.client.events_received() if isinstance(e, Frame)][-1]
        return type(connected.failure).__name__, str(Close.parse(close.data).code)

    assert _run(lambda: scenario(GatheredFramesProtocol)) == ("ClientDisconnected", "1009")
    assert _run(lambda: scenario(WebSocketsSansIOProtocol)) == ("RuntimeError", "1009")


def test_a_send_waits_while_the_transport_is_full_as_uvicorn_waits() -> None:
    async def scenario() -> tuple[int, int]:
        paused = asyncio.Event()

        async def script(send: Send) -> None:
            await paused.wait()
            await send({"type": "websocket.send", "text": TEXTS[0]})

        connected = Connected(GatheredFramesProtocol, script)
        await connected.accepted.wait()
        connected.protocol.pause_writing()
        paused.set()
        for _ in range(5):
            await asyncio.sleep(0)
        waiting = len(connected.frame_writes())
        connected.protocol.resume_writing()
        await connected.run()
        return waiting, len(connected.frame_writes())

    assert _run(scenario) == (0, 1)


def test_cardroom_serve_runs_the_gathering_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardroom serve`` hands uvicorn this protocol class (the floor does too)."""
    from cardroom.cli import serve_cmd

    given: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: given.update(options))
    monkeypatch.setattr(serve_cmd, "_check_database", lambda settings: None)
    monkeypatch.setattr(serve_cmd, "_check_port_free", lambda host, port: None)
    from cardroom.cli import main

    assert main(["serve", "--port", "8799", "--database-url", "sqlite://"]) == 0
    assert given["ws"] is GatheredFramesProtocol


# -- the room's sockets over it -----------------------------------------------------------


def _feed(send: Send) -> ws_routes.UserFeed:
    scope = {"type": "websocket", "path": "/ws/me", "headers": [], "query_string": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    socket = WebSocket(scope, receive, send)
    socket.application_state = WebSocketState.CONNECTED  # accepted by the harness
    return ws_routes.UserFeed(socket, live=None, token="t")  # type: ignore[arg-type]


def test_a_sockets_frames_go_to_the_protocol_without_its_coroutine() -> None:
    async def script(send: Send) -> None:
        feed = _feed(send)
        server = feed._direct
        assert isinstance(server, GatheredFramesProtocol)

        async def awaited(message: Any) -> None:
            raise AssertionError("sent through the protocol's send")

        server.send = awaited  # type: ignore[method-assign]
        await feed.send(TEXTS[0])
        await feed.send(TEXTS[1])

    ours = _served(GatheredFramesProtocol, script)
    assert ours.failure is None
    assert len(ours.frame_writes()) == 1
    assert [bytes(f.data).decode() for f in ours.frames()] == TEXTS[:2]


def test_a_frame_that_must_wait_goes_after_the_one_waiting() -> None:
    """The transport's buffer full: the first send waits in the server's ``send``;
    once it may go on, a second sent before it ran again goes after it."""

    async def scenario() -> Connected:
        go = asyncio.Event()

        async def script(send: Send) -> None:
            feed = _feed(send)
            await go.wait()
            first = asyncio.create_task(feed.send(TEXTS[0]))
            await asyncio.sleep(0)  # waiting for the buffer to drain
            connected.protocol.resume_writing()
            await feed.send(TEXTS[1])  # before the first one runs again
            await first

        connected = Connected(GatheredFramesProtocol, script)
        await connected.accepted.wait()
        connected.protocol.pause_writing()
        go.set()
        await connected.run()
        return connected

    connected: Connected = _run(scenario)
    assert connected.failure is None
    assert [bytes(f.data).decode() for f in connected.frames()] == TEXTS[:2]
