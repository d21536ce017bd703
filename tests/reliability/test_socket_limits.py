"""Issue 17, finding 4: memory from large socket frames. Forty sockets each sending
one 16 MiB frame took a server from 237 MB to 1,587 MB in 3.5 s: uvicorn read every
frame whole, up to its default 16 MiB, before the room's 4,096-character check. Now
``cardroom serve`` reads frames of at most 16 KiB (a larger one closes its socket
with 1009 before it is read) and a player holds at most 20 sockets per process."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardroom.web.open_sockets import CLOSE_TOO_MANY, MAX_SOCKETS_PER_USER
from tests.reliability.clients import Player, create_game, join, sign_up
from tests.reliability.figures import keep
from tests.reliability.servers import Server, Zygote, room, serving

pytestmark = pytest.mark.slow

FRAME_BYTES = 8 * 1024 * 1024
SOCKETS = 10


@pytest.fixture
def server(zygote: Zygote, tmp_path: Path) -> Iterator[Server]:
    with room("sqlite", tmp_path) as the_room, serving(zygote, the_room) as running:
        yield running


def memory_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def close_code(ws: ClientConnection, seconds: float = 15.0) -> int | None:
    """Read until the server closes the socket; its close code."""
    try:
        while True:
            ws.recv(timeout=seconds)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    except TimeoutError:
        return None


def send_big(ws: ClientConnection, frame: str, codes: list[int | None]) -> None:
    with contextlib.suppress(ConnectionClosed, OSError):  # closed before all was sent
        ws.send(frame)
    codes.append(close_code(ws))


def test_an_oversize_frame_closes_its_socket_and_is_never_held(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        alice = sign_up(client, "alice")
    assert server.pid is not None
    url = f"{server.ws_base}/ws/me?token={alice.token}"
    with ExitStack() as stack:
        sockets = [stack.enter_context(connect(url, open_timeout=15)) for _ in range(SOCKETS)]
        for ws in sockets:  # all open and answering before the frames
            ws.send('{"type": "ping"}')
            assert json.loads(ws.recv(timeout=15))["type"] == "pong"
        peak_before = memory_kib(server.pid, "VmHWM")
        frame = "x" * FRAME_BYTES
        codes: list[int | None] = []
        senders = [threading.Thread(target=send_big, args=(ws, frame, codes)) for ws in sockets]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(timeout=60)
        peak_after = memory_kib(server.pid, "VmHWM")
    grew_mib = (peak_after - peak_before) / 1024
    sent_mib = SOCKETS * FRAME_BYTES / (1024 * 1024)
    keep(
        "socket_frames",
        {"sockets": SOCKETS, "frame_mib": FRAME_BYTES >> 20, "peak_growth_mib": grew_mib},
    )
    # Each socket was closed, none answered. (The server closes with 1009 after the
    # frame's header; with megabytes still coming, the client's kernel may see the
    # reset before the close frame, so the code is checked on a smaller frame below.)
    assert set(codes) <= {1009, None} and len(codes) == SOCKETS, codes
    # Sent 80 MiB; the server's peak memory grew by far less than one frame.
    assert grew_mib < FRAME_BYTES / (1024 * 1024), (grew_mib, sent_mib)
    with connect(url, open_timeout=15) as ws:
        ws.send("x" * (16 * 1024 + 1))  # one byte over the cap
        assert close_code(ws) == 1009
    # A frame under the cap is still a message the room answers.
    with connect(url, open_timeout=15) as ws:
        ws.send(json.dumps({"type": "ping", "pad": "x" * 8000}))
        assert json.loads(ws.recv(timeout=15))["type"] == "error"  # too long, but answered


def test_a_player_holds_at_most_twenty_sockets(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        alice: Player = sign_up(client, "alice")
        bob: Player = sign_up(client, "bob")
    me = f"{server.ws_base}/ws/me?token="
    with ExitStack() as stack:
        mine = [
            stack.enter_context(connect(me + alice.token, open_timeout=15))
            for _ in range(MAX_SOCKETS_PER_USER)
        ]
        for ws in mine:
            ws.send('{"type": "ping"}')
            assert json.loads(ws.recv(timeout=15))["type"] == "pong"
        # The 21st, to a table or the user's stream, is refused with a sentence.
        for path in ("/ws/me", "/ws/games/1"):
            with connect(f"{server.ws_base}{path}?token={alice.token}", open_timeout=15) as extra:
                refusal = json.loads(extra.recv(timeout=15))
                assert refusal["type"] == "error" and "20 connections" in refusal["message"]
                assert close_code(extra) == CLOSE_TOO_MANY
        # Another player is not held back by alice's sockets.
        with connect(me + bob.token, open_timeout=15) as other:
            other.send('{"type": "ping"}')
            assert json.loads(other.recv(timeout=15))["type"] == "pong"
        # One closed, one more may open.
        mine.pop().close()
        with connect(me + alice.token, open_timeout=15) as again:
            again.send('{"type": "ping"}')
            assert json.loads(again.recv(timeout=15))["type"] == "pong"


def test_a_client_closed_before_its_first_snapshot_is_no_failure(server: Server) -> None:
    """An oversize frame sent at once closes the socket while the server is still
    reading the table for its first snapshot: a client gone, not a fault (no 1011,
    no traceback in the log)."""
    with httpx.Client(base_url=server.base, timeout=10) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        game = create_game(client, alice, seats=2, buy_in=1000)
        join(client, game, bob)
    for _ in range(5):
        with connect(f"{server.ws_base}/ws/games/{game}?token={alice.token}") as ws:
            ws.send("y" * (16 * 1024 + 1))
            close_code(ws)
    time.sleep(0.5)
    log = server.log_text()
    assert "Traceback" not in log and "a WebSocket failed" not in log, log
