"""Real loopback sockets for the in-process socket benchmarks (``socket_fanout.py``,
``socket_loop.py`` with ``--server``): each player's socket a TCP connection on
127.0.0.1 served by a uvicorn WebSocket protocol class on the benchmark's own event
loop (the handshake, the frames, ``transport.write``), its client side a thread that
only drains what the server writes (counting the bytes and the reads), so that the
loop's CPU per command includes what uvicorn and the kernel's sends cost it.

``--server uvicorn`` is uvicorn's ``websockets-sansio`` protocol as it is;
``--server gathered`` is ``cardroom serve``'s (``cardroom.web.gathered_frames``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import uvicorn
from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

PROTOCOLS: dict[str, type[WebSocketsSansIOProtocol]] = {"uvicorn": WebSocketsSansIOProtocol}
try:  # a tree from before it (to compare with) has uvicorn's alone
    from cardroom.web.gathered_frames import GatheredFramesProtocol

    PROTOCOLS["gathered"] = GatheredFramesProtocol
except ImportError:
    pass
Opened = Callable[[WebSocket, str], Awaitable[None]]


def add_server_argument(parser: argparse.ArgumentParser) -> None:
    """The benchmarks' ``--server``: stand-in sockets, or real ones served by one of
    ``PROTOCOLS``."""
    parser.add_argument(
        "--server",
        choices=("stand-in", *PROTOCOLS),
        default="stand-in",
        help="the sockets: stand-ins (the default), or real ones served by uvicorn's "
        "protocol or cardroom serve's (gathered)",
    )


class Drained:
    """A client's end: a thread reads all the server writes, counting it."""

    def __init__(self, client: socket.socket) -> None:
        self.client = client
        self.bytes = 0
        self.reads = 0
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while True:
            try:
                data = self.client.recv(1 << 20)
            except OSError:
                return
            if not data:
                return
            self.bytes += len(data)
            self.reads += 1

    def send_text(self, text: str) -> None:
        """A client's message: a masked text frame, as a browser sends it."""
        frame = Frame(Opcode.TEXT, text.encode())
        self.client.sendall(frame.serialize(mask=True, extensions=[]))

    def close(self) -> None:
        with contextlib.suppress(
            OSError
        ):  # the reading thread's recv ends, and the server sees EOF
            self.client.shutdown(socket.SHUT_RDWR)
        self.client.close()


class Sockets:
    """Connections served by ``kind`` on the running loop; ``opened(websocket, path)``
    runs as the app for each once accepted (it serves the socket until it ends)."""

    def __init__(self, kind: str, opened: Opened) -> None:
        self.kind = PROTOCOLS[kind]

        async def app(scope: Any, receive: Any, send: Any) -> None:
            websocket = WebSocket(scope, receive, send)
            await websocket.accept()
            await opened(websocket, scope["path"])

        self.config = uvicorn.Config(
            app,
            lifespan="off",
            proxy_headers=False,
            ws_per_message_deflate=False,
            # The drained clients answer no ping: a run longer than the ping's
            # interval and timeout (a loaded machine, valgrind) would lose its sockets.
            ws_ping_interval=None,
            log_level="warning",
        )
        self.config.load()
        self.state = ServerState()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.clients: list[Drained] = []

    async def connect(self, path: str) -> Drained:
        loop = asyncio.get_running_loop()
        client = socket.create_connection(self.listener.getsockname())
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        served, _ = self.listener.accept()
        await loop.connect_accepted_socket(
            lambda: self.kind(self.config, self.state, {}, _loop=loop), served
        )
        handshake = ClientProtocol(parse_uri(f"ws://127.0.0.1{path}"))
        handshake.send_request(handshake.connect())
        client.sendall(b"".join(handshake.data_to_send()))
        drained = Drained(client)
        self.clients.append(drained)
        return drained

    def close(self) -> None:
        for client in self.clients:
            client.close()
        self.listener.close()

    def reads(self) -> int:
        return sum(c.reads for c in self.clients)
