"""The WebSocket protocol: signing in (token or cookie, never a cookie from another
site), the messages a client may send, and bad ones answered with an error while the
socket stays usable; ``/ws/me`` and its notices and hints."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from cardroom.service.context import ServiceContext
from cardroom.service.notices import record as outbox
from cardroom.web.app import create_app
from cardroom.web.deps import WebSettings
from cardroom.web.routes import ws as ws_routes
from tests.web.games_kit import (
    Player,
    act,
    create_game,
    heads_up,
    last_seq,
    listening,
    new_player,
    receive,
    silent,
    watching,
)
from tests.web.kit import sign_in


@pytest.fixture
def pair(client: TestClient) -> tuple[int, Player, Player]:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    return heads_up(client, alice, bob), alice, bob


BAD_MESSAGES: list[tuple[str, str]] = [
    ("not json", "JSON object"),
    ("[1, 2]", "JSON object"),
    ('"ping"', "JSON object"),
    ("{}", "ping"),
    ('{"type": "shout"}', "ping"),
    ('{"type": "ping", "extra": 1}', "extra"),
    ('{"type": "resync"}', "after"),
    ('{"type": "resync", "after": -1}', "after"),
    ('{"type": "resync", "after": 1.5}', "after"),
    ('{"type": "resync", "after": "3"}', "after"),
    ('{"type": "resync", "after": 1e400}', "after"),
    ('{"type": "resync", "after": ' + "9" * 4000 + "}", "after"),
    ('{"type": "resync", "after": ' + "9" * 4090 + "}", "4096"),
    ('{"type": "ping", "pad": "' + "x" * 5000 + '"}', "at most 4096"),
    ("{" * 3000 + "}" * 3000, "4096"),
]


def test_bad_messages_get_an_error_and_the_socket_stays_usable(
    client: TestClient, pair: tuple[int, Player, Player]
) -> None:
    game, alice, _ = pair
    with watching(client, game, alice) as w:
        for text, named in BAD_MESSAGES:
            w.ws.send_text(text)
            answer = receive(w.ws)
            assert answer["type"] == "error", (text, answer)
            assert named in answer["message"] and answer["message"].endswith("."), answer
        w.ws.send_bytes(b'{"type": "ping"}')
        assert receive(w.ws)["type"] == "error"
        w.ws.send_json({"type": "ping"})
        assert receive(w.ws) == {"type": "pong"}
        w.ws.send_json({"type": "resync", "after": 10**9})
        events, snapshot = w.until_snapshot()
        assert w.messages[-2] == {"type": "events", "version": snapshot["version"], "events": []}
        assert events == []


def test_signing_in_to_a_socket(client: TestClient, pair: tuple[int, Player, Player]) -> None:
    game, alice, _ = pair
    for url, code in [
        (f"/ws/games/{game}", 4401),
        (f"/ws/games/{game}?token=nonsense", 4401),
        (f"/ws/games/999999?token={alice.token}", 4404),
        (f"/ws/games/abc?token={alice.token}", 4404),
        (f"/ws/games/{2**40}?token={alice.token}", 4404),
        ("/ws/me", 4401),
    ]:
        with client.websocket_connect(url) as ws:
            refusal = receive(ws)
            assert refusal["type"] == "error" and refusal["message"].endswith("."), refusal
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == code, url


def test_the_session_cookie_opens_a_socket_only_from_the_rooms_own_pages(
    client: TestClient, pair: tuple[int, Player, Player]
) -> None:
    game, _, _ = pair
    sign_in(client, "alice", keep_cookies=True)
    with client.websocket_connect(f"/ws/games/{game}") as ws:
        assert receive(ws)["type"] == "snapshot"  # no Origin: not a browser
    own = {"Origin": "http://testserver"}
    with client.websocket_connect(f"/ws/games/{game}", headers=own) as ws:
        assert receive(ws)["type"] == "snapshot"
    other = {"Origin": "https://evil.example"}
    with client.websocket_connect(f"/ws/games/{game}", headers=other) as ws:
        assert receive(ws)["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4403


def test_a_suspended_player_cannot_open_a_socket(
    client: TestClient, pair: tuple[int, Player, Player], admin: tuple[int, str]
) -> None:
    game, alice, _ = pair
    response = client.post(
        f"/api/admin/users/{alice.id}/suspend",
        json={"reason": "cheating"},
        headers={"Authorization": f"Bearer {admin[1]}"},
    )
    assert response.status_code == 200, response.text
    with client.websocket_connect(f"/ws/games/{game}?token={alice.token}") as ws:
        assert receive(ws)["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code in (4401, 4403)


def test_each_change_sends_events_then_a_snapshot(
    client: TestClient, ctx: ServiceContext, pair: tuple[int, Player, Player]
) -> None:
    game, alice, bob = pair
    with watching(client, game, bob) as w:
        assert act(client, game, alice, "call").status_code == 200
        events, snapshot = w.until_snapshot()
        assert [e["type"] for e in events] == ["PlayerActed"]
        assert events[0]["data"] == {
            "seat": 1,
            "action": "call",
            "amount": 10,
            "bet": 20,
            "all_in": False,
            "timed_out": False,
        }
        assert snapshot["seq"] == events[-1]["seq"] == last_seq(ctx, game)
        assert snapshot["game"]["hand"]["legal"]["actions"] == ["check", "raise", "all_in"]
        assert w.messages[-2]["version"] == snapshot["version"] == snapshot["game"]["version"]
        # A replayed request changed nothing and sends nothing.
        assert silent(w.ws)


def test_ws_me_gets_hints_and_notices(client: TestClient) -> None:
    """The notices a command records in its own transaction are pushed to each
    user's own stream as a ``notification``, beside the ``games_changed`` hints."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    with client.websocket_connect(f"/ws/me?token={alice.token}") as me:
        listening(me)
        game = create_game(client, alice)
        assert receive(me) == {"type": "games_changed", "game_id": game}
        joined = client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
        assert joined.status_code == 200
        got = [receive(me)]
        while len(got) < 5 and not (
            {"type": "games_changed", "game_id": game} in got
            and any(m.get("kind") == "game_started" for m in got)
        ):
            got.append(receive(me))  # the hint, the start, maybe alice's turn
        assert {"type": "games_changed", "game_id": game} in got
        started = [m for m in got if m.get("kind") == "game_started"]
        assert len(started) == 1, got
        assert started[0]["type"] == "notification" and started[0]["game_id"] == game
        assert started[0]["title"] and started[0]["read"] is False
        me.send_json({"type": "ping"})
        while (answer := receive(me))["type"] in ("notification", "games_changed"):
            pass  # a your-turn notice or a hint may still be on its way
        assert answer == {"type": "pong"}
        me.send_text("hello")
        assert receive(me)["type"] == "error"


def test_notifications_failing_never_fail_the_move(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, pair: tuple[int, Player, Player]
) -> None:
    game, alice, _ = pair

    def broken(*args: Any, **kwargs: Any) -> list[Any]:
        raise RuntimeError("the notifications are down")

    monkeypatch.setattr(outbox, "notices_in", broken)
    assert act(client, game, alice, "call").status_code == 200


def test_a_socket_ends_with_its_session(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, pair: tuple[int, Player, Player]
) -> None:
    """Signed out (or expired, revoked, suspended) while watching: the next message
    finds out, and the socket is closed."""
    game, alice, bob = pair
    monkeypatch.setattr(ws_routes, "SESSION_RECHECK_SECONDS", 0.0)
    with watching(client, game, bob) as w:
        signed_out = client.post("/api/accounts/sign-out", headers=bob.auth)
        assert signed_out.status_code == 204
        assert act(client, game, alice, "call").status_code == 200
        refusal = receive(w.ws)
        assert refusal["type"] == "error" and "sign in" in refusal["message"].lower()
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(w.ws)
        assert closed.value.code == 4401


def assert_failed_with_1011(ws: WebSocketTestSession) -> str:
    """The socket got the room's sentence for its own fault, then the close code
    1011; the sentence, for more checks."""
    refusal = receive(ws)
    assert refusal["type"] == "error" and "went wrong" in refusal["message"]
    with pytest.raises(WebSocketDisconnect) as closed:
        receive(ws)
    assert closed.value.code == 1011
    message: str = refusal["message"]
    return message


def assert_logged(caplog: pytest.LogCaptureFixture, error: type[BaseException]) -> None:
    assert any(r.exc_info and r.exc_info[0] is error for r in caplog.records)


def test_an_unexpected_error_on_connecting_closes_the_socket_with_1011(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    pair: tuple[int, Player, Player],
) -> None:
    """A bug while a socket connects (here: reading the table) is logged, and the
    client gets a sentence and the close code 1011, never the traceback."""
    game, alice, _ = pair

    def broken(*_args: Any) -> Any:
        raise ZeroDivisionError("a bug with a secret in it")

    monkeypatch.setattr(ws_routes, "game_detail", broken)
    with client.websocket_connect(f"/ws/games/{game}?token={alice.token}") as ws:
        assert "secret" not in assert_failed_with_1011(ws)
    assert_logged(caplog, ZeroDivisionError)


def test_an_unexpected_error_on_ws_me_closes_it_with_1011(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    alice = new_player(client, "alice")

    def broken(*_args: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(ws_routes.accounts, "user_for_token", broken)
    with client.websocket_connect(f"/ws/me?token={alice.token}") as ws:
        assert_failed_with_1011(ws)
    assert_logged(caplog, ZeroDivisionError)


def test_an_unexpected_error_while_serving_closes_the_socket_with_1011(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    pair: tuple[int, Player, Player],
) -> None:
    game, alice, _ = pair

    async def broken(*_args: Any) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(ws_routes.GameFeed, "answer", broken)
    with client.websocket_connect(f"/ws/games/{game}?token={alice.token}") as ws:
        assert receive(ws)["type"] == "snapshot"
        ws.send_text('{"type": "ping"}')
        assert_failed_with_1011(ws)
    assert_logged(caplog, ZeroDivisionError)


def test_sockets_go_straight_to_their_handlers_past_the_middleware_stack(
    ctx: ServiceContext,
) -> None:
    """An open socket holds a frame of every middleware layer it went through (a
    third of an idle socket's memory): the room's sockets skip them; HTTP does not."""
    seen: list[str] = []

    class Recorder:
        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            seen.append(f"{scope['type']} {scope.get('path', '')}")
            await self.app(scope, receive, send)

    app = create_app(ctx, web=WebSettings(trust_proxy=False))
    app.add_middleware(Recorder)
    with TestClient(app) as client:
        alice, bob = new_player(client, "alice"), new_player(client, "bob")
        game = heads_up(client, alice, bob)
        seen.clear()
        with client.websocket_connect(f"/ws/games/{game}?token={alice.token}") as ws:
            assert receive(ws)["type"] == "snapshot"
            ws.send_text('{"type": "ping"}')
            assert receive(ws)["type"] == "pong"
        with client.websocket_connect(f"/ws/me?token={alice.token}") as ws:
            ws.send_text('{"type": "ping"}')
            assert receive(ws)["type"] == "pong"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/elsewhere") as ws:
            receive(ws)  # not a socket of ours: the stack refuses it as before
        assert client.get("/healthz").status_code == 200
    assert seen == ["websocket /ws/elsewhere", "http /healthz"]


def test_a_ws_me_client_that_stops_reading_loses_the_oldest_messages() -> None:
    """Queued for a slow client: at most USER_QUEUE_MAX, the newest; and once all is
    sent, the socket keeps no task."""

    async def scenario() -> tuple[list[int], bool]:
        sent: list[str] = []
        release = asyncio.Event()

        class Stuck:
            async def send_text(self, text: str) -> None:
                sent.append(text)
                await release.wait()

        feed = ws_routes.UserFeed(Stuck(), live=None, token="t")  # type: ignore[arg-type]
        for n in range(ws_routes.USER_QUEUE_MAX + 50):
            feed.push({"n": n})
        await asyncio.sleep(0.01)
        release.set()
        for _ in range(1000):
            if feed._pumping is None:
                break
            await asyncio.sleep(0)
        return [json.loads(text)["n"] for text in sent], feed._pumping is None

    # In a thread of its own: an earlier test in the run may leave an event loop
    # running in this one (asyncio.run refuses to nest).
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        sent, idle = pool.submit(asyncio.run, scenario()).result(timeout=30)
    assert sent == list(range(50, 50 + ws_routes.USER_QUEUE_MAX))
    assert idle
