"""The server's WebSocket protocol: uvicorn's ``websockets-sansio`` one, writing the
frames a socket is sent in one step of the event loop in one ``transport.write``.

After a command a table's socket is sent its ``events`` and its ``snapshot`` (and
the sender's socket the command's ``result``), one after the other without the loop
going round in between. uvicorn's protocol writes each frame as it is sent: a
system call each, five a command at a heads-up table, and on loopback the call that
hands the bytes to the reader is most of what a frame costs the server (8% of its
CPU under load, docs/scaling.md). Here a frame sent is framed at once, by the
``websockets`` protocol object as uvicorn frames it (its state checked, the same
bytes), and left in that object's outgoing data; the first frame of a step asks the
loop to write them all when it comes round (``call_soon``). The client reads the
same bytes in the same order, in fewer segments.

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
from typing import Any

from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, ASGISendEvent, Scope
from uvicorn.config import Config
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.exceptions import InvalidState


class GatheredFramesProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` whose data frames go out once a step."""

    _write_soon = False  # a write of the gathered frames is asked of the loop

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

    def shutdown(self) -> None:
        """The server stops: what was sent goes out before the close."""
        self.write_gathered()
        super().shutdown()

    async def send(self, message: ASGISendEvent) -> None:
        if (
            message["type"] != "websocket.send"
            or not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
            or self.disconnected
            or not self.writable.is_set()
        ):
            await super().send(message)
            return
        data = message.get("bytes")
        try:
            if data is not None:
                self.conn.send_binary(data)
            else:
                text = message.get("text")
                if text is None:
                    return  # nothing to send (uvicorn writes nothing either)
                self.conn.send_text(text.encode())
        except InvalidState:
            raise ClientDisconnected() from None
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
