"""Issue 17, finding 8: what a server's log holds. uvicorn logged every socket's
``?token=...`` in full (344 live tokens in one log; sessions last 14 days), and a
text frame that is not UTF-8 logged an ERROR with a traceback each time. The log of
a real ``cardroom serve`` is read here."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.reliability.clients import sign_up
from tests.reliability.servers import Server, Zygote, room, serving

pytestmark = pytest.mark.slow

BAD_FRAMES = 3


@pytest.fixture
def server(zygote: Zygote, tmp_path: Path) -> Iterator[Server]:
    with room("sqlite", tmp_path) as the_room, serving(zygote, the_room) as running:
        yield running


def test_tokens_stay_out_of_the_log_and_bad_frames_are_one_line(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        alice = sign_up(client, "alice")
        client.get("/api/me", params={"token": alice.token})  # a token in an HTTP query too
    with connect(f"{server.ws_base}/ws/me?token={alice.token}", open_timeout=15) as ws:
        ws.send('{"type": "ping"}')
        assert ws.recv(timeout=15)
    # game 1 does not exist: its socket says so and closes with 4404, which may come
    # before a ping could be answered (so none is sent)
    with connect(f"{server.ws_base}/ws/games/1?token={alice.token}", open_timeout=15) as ws:
        try:
            assert ws.recv(timeout=15)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4404, closed
    codes = []
    for _ in range(BAD_FRAMES):
        with connect(f"{server.ws_base}/ws/me?token={alice.token}", open_timeout=15) as ws:
            ws.send(b"\xff\xfe not UTF-8", text=True)
            try:
                ws.recv(timeout=15)
            except ConnectionClosed as closed:
                codes.append(closed.rcvd.code if closed.rcvd is not None else None)
    assert codes == [1007] * BAD_FRAMES
    deadline = time.monotonic() + 10
    while server.log_text().count("not UTF-8") < BAD_FRAMES and time.monotonic() < deadline:
        time.sleep(0.05)
    log = server.log_text()
    assert alice.token not in log
    assert alice.token[:12] not in log
    assert log.count("token=[redacted]") >= 4, log  # four sockets and one request
    assert "Traceback" not in log and "ERROR" not in log, log
    warned = [line for line in log.splitlines() if "not UTF-8; closed with 1007" in line]
    assert len(warned) == BAD_FRAMES and all(line.startswith("WARNING") for line in warned)
