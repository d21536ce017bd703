"""A socket's sends go to the server's ASGI ``send`` without Starlette's
``send_text`` (``routes.ws.Connection._write``): the same messages, the same
refusals as through Starlette."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from cardroom.web.routes import ws as ws_routes

SCOPE: dict[str, Any] = {"type": "websocket", "path": "/ws/me", "headers": [], "query_string": b""}


class Server:
    """The ASGI server's side: what it was sent, and a failing write on demand."""

    def __init__(self) -> None:
        self.sent: list[Message] = []
        self.fail: BaseException | None = None

    async def receive(self) -> Message:
        return {"type": "websocket.connect"}

    async def send(self, message: Message) -> None:
        if self.fail is not None:
            raise self.fail
        self.sent.append(message)


def _run(scenario: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    # In a thread of its own: an earlier test may leave an event loop running here.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, scenario()).result(timeout=30)


def _socket(server: Server, state: WebSocketState) -> WebSocket:
    socket = WebSocket(dict(SCOPE), server.receive, server.send)
    socket.application_state = state
    return socket


async def _outcome(sending: Coroutine[Any, Any, None]) -> str:
    try:
        await sending
    except Exception as refused:
        code = getattr(refused, "code", None)
        return f"{type(refused).__name__} {code}"
    return "sent"


@pytest.mark.parametrize(
    ("state", "fail"),
    [
        (WebSocketState.CONNECTED, None),
        (WebSocketState.CONNECTED, OSError("broken pipe")),
        (WebSocketState.CONNECTED, RuntimeError("closed")),
        (WebSocketState.DISCONNECTED, None),
        (WebSocketState.CONNECTING, None),
    ],
)
def test_a_send_is_what_starlette_would_send_or_refuse(
    state: WebSocketState, fail: BaseException | None
) -> None:
    texts = ['{"type":"pong"}', '{"type":"snapshot","game":{"id":1}}']

    async def scenario() -> tuple[Any, Any]:
        results = []
        for through_starlette in (True, False):
            server = Server()
            server.fail = fail
            socket = _socket(server, state)
            feed = ws_routes.UserFeed(socket, live=None, token="t")  # type: ignore[arg-type]
            outcomes = []
            for text in texts:
                sending = socket.send_text(text) if through_starlette else feed.send(text)
                outcomes.append(await _outcome(sending))
            results.append((outcomes, server.sent, socket.application_state))
        return results[0], results[1]

    starlette, ours = _run(scenario)
    assert ours == starlette
    if state is WebSocketState.CONNECTED and fail is None:  # it did send, both texts
        assert [m["text"] for m in ours[1]] == texts


def test_a_send_goes_to_the_servers_send_itself() -> None:
    """Not through Starlette's ``send_text`` (which would still give the same
    messages): the path the test above pins is the one taken."""

    async def scenario() -> list[Message]:
        server = Server()
        socket = _socket(server, WebSocketState.CONNECTED)

        async def refused(text: str) -> None:
            raise AssertionError("sent through Starlette")

        socket.send_text = refused  # type: ignore[method-assign, assignment]
        feed = ws_routes.UserFeed(socket, live=None, token="t")  # type: ignore[arg-type]
        await feed.send('{"type":"pong"}')
        return server.sent

    assert _run(scenario) == [{"type": "websocket.send", "text": '{"type":"pong"}'}]


def test_a_failed_write_ends_the_socket_as_starlette_says() -> None:
    async def scenario() -> tuple[int, WebSocketState]:
        server = Server()
        server.fail = OSError("reset")
        socket = _socket(server, WebSocketState.CONNECTED)
        feed = ws_routes.UserFeed(socket, live=None, token="t")  # type: ignore[arg-type]
        with pytest.raises(WebSocketDisconnect) as gone:
            await feed.send('{"type":"pong"}')
        return gone.value.code, socket.application_state

    assert _run(scenario) == (1006, WebSocketState.DISCONNECTED)
