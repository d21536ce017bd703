"""Issue 17, finding 6, in one process (both databases): signing out closes that
session's sockets at once, a suspension all of the user's
(tests/reliability/test_session_ends.py runs it across two processes)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.games_kit import heads_up, new_player, receive
from tests.web.kit import bearer, sign_in


def closed_with(ws: object, code: int) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            receive(ws, timeout=5)  # type: ignore[arg-type]
    assert closed.value.code == code


def test_sign_out_closes_that_sessions_sockets_only(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    other = sign_in(client, "alice")  # a second session of alice's
    with (
        client.websocket_connect(f"/ws/games/{game}?token={alice.token}") as ending,
        client.websocket_connect(f"/ws/me?token={other}") as staying,
    ):
        assert receive(ending)["type"] == "snapshot"
        assert client.post("/api/accounts/sign-out", headers=alice.auth).status_code == 204
        closed_with(ending, 4401)
        staying.send_json({"type": "ping"})
        assert receive(staying)["type"] == "pong"


def test_a_suspension_closes_every_socket_of_the_user(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    with client.websocket_connect(f"/ws/games/{game}?token={bob.token}") as ws:
        assert receive(ws)["type"] == "snapshot"
        suspended = client.post(
            f"/api/admin/users/{bob.id}/suspend", json={"reason": "x"}, headers=bearer(admin[1])
        )
        assert suspended.status_code == 200, suspended.text
        closed_with(ws, 4403)
