"""A table's socket woken by a change made here catches up without a task of its own
(``GameFeed._catch_up_now``), when the server's protocol takes its frames at once
(``cardroom serve``'s, ``gathered_frames``): the same messages, in the same order,
as the pump's ``catch_up`` and a resync send."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket

from cardroom.service.context import ServiceContext
from cardroom.web.live import Live
from cardroom.web.routes import ws as ws_routes
from tests.web.games_kit import (
    Json,
    Watcher,
    act,
    check_down,
    heads_up,
    last_seq,
    new_player,
    to_act,
    watching,
)


class _Direct:
    """What a socket takes of ``GatheredFramesProtocol`` (``takes_text_now``,
    ``send_text_now``, ``frame_text``), over the test client's socket, whose ASGI ``send`` is a
    memory stream that never waits: a frame handed over without a coroutine."""

    def __init__(self, stream: Any, sent: list[str]) -> None:
        self.stream = stream
        self.sent = sent

    def takes_text_now(self) -> bool:
        return True

    def send_text_now(self, text: str) -> bool:
        self.frame_text(text)
        return True

    def frame_text(self, text: str) -> None:
        self.stream.send_nowait({"type": "websocket.send", "text": text})
        self.sent.append(text)


@pytest.fixture
def pumps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every socket served as ``cardroom serve`` serves it; the game sockets' pump
    tasks started, by viewer."""
    started: list[int] = []
    sent: list[str] = []
    connect = ws_routes.Connection.__init__
    start_pump = ws_routes.GameFeed._start_pump

    def served_direct(
        self: ws_routes.Connection, websocket: WebSocket, live: Live, token: str
    ) -> None:
        connect(self, websocket, live, token)
        self._direct = _Direct(websocket._send.__self__, sent)  # type: ignore[assignment,attr-defined]

    def counted(self: ws_routes.GameFeed) -> None:
        started.append(self.viewer_id)
        start_pump(self)

    monkeypatch.setattr(ws_routes.Connection, "__init__", served_direct)
    monkeypatch.setattr(ws_routes.GameFeed, "_start_pump", counted)
    yield started
    assert sent  # the sockets did send through the stand-in


def _events_after_the_first_snapshot(watcher: Watcher) -> tuple[int, list[Json], Json]:
    first, *rest = watcher.messages
    assert first["type"] == "snapshot"
    events = [e for m in rest if m["type"] == "events" for e in m["events"]]
    last = rest[-1]
    assert last["type"] == "snapshot"
    return first["seq"], events, last


def test_a_change_made_here_is_caught_up_without_a_task_as_a_resync_sends_it(
    client: TestClient, ctx: ServiceContext, pumps: list[int]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    carol = new_player(client, "carol")  # a spectator
    game = heads_up(client, alice, bob)
    with ExitStack() as stack:
        watchers = [stack.enter_context(watching(client, game, p)) for p in (alice, bob, carol)]
        # The first change: nothing read yet to share, each socket's pump reads it.
        mover = to_act(client, game, [alice, bob])
        assert mover is not None
        assert act(client, game, mover, "call").status_code == 200
        for watcher in watchers:
            watcher.settle(last_seq(ctx, game))
        first_pumps = len(pumps)
        check_down(client, game, [alice, bob])  # street by street to the showdown
        seq = last_seq(ctx, game)
        for watcher in watchers:
            watcher.settle(seq)
        assert len(pumps) == first_pumps, "a change made here started a pump"
        for watcher in watchers:
            after, events, snapshot = _events_after_the_first_snapshot(watcher)
            assert watcher.who is not None
            with watching(client, game, watcher.who) as again:
                again.ws.send_json({"type": "resync", "after": after})
                resent, fresh = again.until_snapshot()
            assert events == resent
            assert snapshot == fresh
            assert [m["type"] for m in watcher.messages[1:]] == ["events", "snapshot"] * (
                (len(watcher.messages) - 1) // 2
            )
