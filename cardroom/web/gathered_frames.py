"""The server's WebSocket protocol: uvicorn's ``websockets-sansio`` one, writing the
frames a socket is sent in one step of the event loop in one ``transport.write``.

After a command a table's socket is sent its ``events`` and its ``snapshot`` (and
the sender's socket the command's ``result``), one after the other without the loop
going round in between. uvicorn's protocol writes each frame as it is sent: a
system call each, five a command at a heads-up table, and on loopback the call that
hands the bytes to the reader is most of what a frame costs the server (8% of its
CPU under load, docs/scaling.md). Here a frame sent is framed at once and left in
the ``websockets`` protocol object's outgoing data; the first frame of a step asks
the loop to write them all when it comes round (``call_soon``). The client reads
the same bytes in the same order, in fewer segments. A text frame on an open
connection without extensions (compression) gets its header here, the bytes
``conn.send_text`` would make, at a quarter of its CPU (its ``Frame`` object and
checks, 2.9 against 0.7 us for a snapshot); anything else is framed by
``conn.send_text`` or ``conn.send_binary`` themselves.

What else uvicorn writes (the close, a pong, a keepalive ping, the shutdown's close)
takes the protocol object's outgoing data as it is, so a frame still waiting goes
out before it, in order. A socket whose connection is gone by then writes nothing,
as the kernel would have dropped it. A send that must wait (the transport's buffer
is full: ``pause_writing``), or that is not a frame of an open socket, goes through
uvicorn's own ``send`` as it always did.

Which protocol class the server runs is a setting of the stack, not of the room:
``benchmarks/floor_app.py`` runs this one too.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, ASGISendEvent, Scope
from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import InvalidState
from websockets.protocol import State

_MEDIUM = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")
_FIN_TEXT = 0b10000001  # a whole text message in one frame


def _text_header(length: int) -> bytes:
    """The header ``websockets.frames.Frame.serialize`` writes of a server's
    (unmasked) final text frame of ``length`` bytes, without extensions."""
    if length < 126:
        return bytes((_FIN_TEXT, length))
    if length < 65536:
        return _MEDIUM.pack(_FIN_TEXT, 126, length)
    return _LONG.pack(_FIN_TEXT, 127, length)


class GatheredFramesProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` whose data frames go out once a step."""

    _write_soon = False  # a write of the gathered frames is asked of the loop
    _app_closed = False  # the app sent ``websocket.close``

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        # uvicorn closes the transport as soon as the app returns: what it sent last
        # is written first.
        self._served_app = self.app
        self.app = self._serve_app

    async def _serve_app(
        self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        try:
            await self._served_app(scope, receive, send)
        finally:
            self.write_gathered()

    async def send(self, message: ASGISendEvent) -> None:
        if message["type"] == "websocket.close":
            self._app_closed = True
        elif message["type"] == "websocket.send":
            text = message.get("text")
            data = message.get("bytes")
            if data is None and text is not None and self.send_text_now(text):
                return
            if self._frames_go_now():
                try:
                    if data is not None:
                        self.conn.send_binary(data)
                    elif text is not None:
                        self.conn.send_text(text.encode())
                    else:
                        return  # nothing to send (uvicorn writes nothing either)
                except InvalidState:
                    raise ClientDisconnected() from None
                self._write_in_a_moment()
                return
            if self._closed_by_the_protocol():
                raise ClientDisconnected()
        await super().send(message)

    def _closed_by_the_protocol(self) -> bool:
        """The connection is closing, and not by the app's ``websocket.close``: the
        protocol closed it itself (a frame over ``ws_max_size`` or a malformed one,
        ``handle_parser_exception``; a keepalive ping unanswered) before it is lost.
        uvicorn answers a send then with a ``RuntimeError``, as if the app had closed
        it; for the app the client is gone, as it is told once the connection is lost
        (``ClientDisconnected``)."""
        return self.close_sent and not self._app_closed and self.handshake_complete

    def send_text_now(self, text: str) -> bool:
        """``send({"type": "websocket.send", "text": text})`` without awaiting, for a
        frame that needs no waiting and no help from the protocol object (an open
        connection, its buffer not full, no extensions): True if it was sent, else
        False and nothing was done (``send`` it then). The app's sockets call it
        straight (``cardroom.web.routes.ws``): no coroutine per frame."""
        if not self.takes_text_now():
            return False
        self.frame_text(text)
        return True

    def frame_text(self, text: str) -> None:
        """``send_text_now(text)`` for a caller that was just told ``takes_text_now()``,
        nothing having happened in between: not asked again (a table's socket sends
        its ``events``, then its ``snapshot``, after one look)."""
        # ``conn.send_text``'s frame without its objects: the header, then the
        # payload, left with what the protocol object has to send.
        payload = text.encode()
        writes = self.conn.writes
        writes.append(_text_header(len(payload)))
        writes.append(payload)
        if not self._write_soon:
            self._write_soon = True
            self.loop.call_soon(self.write_gathered)

    def takes_text_now(self) -> bool:
        """``send_text_now`` would send a frame now (and, nothing else happening in
        between, the next one too: sending one changes none of this)."""
        conn = self.conn
        return (
            self._frames_go_now()
            and conn.state is State.OPEN
            and not conn.extensions
            and not conn.expect_continuation_frame
            and not conn.debug
        )

    def _frames_go_now(self) -> bool:
        """A data frame would be framed and written by uvicorn at once."""
        return (
            self.handshake_complete
            and not self.close_sent
            and self.initial_response is None
            and not self.disconnected
            and self.writable.is_set()
        )

    def _write_in_a_moment(self) -> None:
        if not self._write_soon:
            self._write_soon = True
            self.loop.call_soon(self.write_gathered)

    def write_gathered(self) -> None:
        """Write the frames sent since the last write, in one call (none once the
        connection is going: nobody would read them)."""
        self._write_soon = False
        output = self.conn.data_to_send()
        if not output or self.transport.is_closing():
            return
        self.transport.write(output[0] if len(output) == 1 else b"".join(output))
