"""Issue 17, finding 9 (hygiene): no API answer is cached; a cookie-signed write and
a cookie-signed socket must come from the room's own origin, scheme included; an
integer in a query is written in digits."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.games_kit import heads_up, new_player, receive
from tests.web.kit import assert_refused, bearer, csrf, sign_in, sign_up


def test_every_api_answer_says_no_store(client: TestClient) -> None:
    alice = new_player(client, "alice")
    game = heads_up(client, alice, new_player(client, "bob"))
    described = client.get("/openapi.json").json()["paths"]
    gets = [path for path, ops in described.items() if path.startswith("/api/") and "get" in ops]
    paths = sorted(
        path.replace("{game_id}", str(game))
        for path in gets
        if "{" not in path or (path.count("{") == 1 and "{game_id}" in path)
    )
    assert f"/api/games/{game}" in paths and "/api/me" in paths and len(paths) > 15, paths
    for path in paths:
        response = client.get(path, headers=alice.auth)
        assert response.headers.get("cache-control") == "no-store", (path, response.status_code)
    # Refusals too (a 401 carries no secret, but one rule is the rule that holds).
    assert client.get("/api/me").headers["cache-control"] == "no-store"
    signed_in = client.post("/api/accounts/sign-in", json={"name": "alice", "password": "x"})
    assert signed_in.headers["cache-control"] == "no-store"
    # The pages keep their own rule (revalidate, so a release shows at once).
    assert client.get("/").headers.get("cache-control") != "no-store"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "https://testserver"},  # the room's host, but over another scheme
        {"Origin": "http://testserver:8080"},  # another port
        {"Origin": "null"},  # a sandboxed frame, a privacy redirect
        {"Referer": "https://evil.example/page"},  # no Origin: the Referer speaks
    ],
)
def test_a_cookie_write_from_another_origin_is_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    sign_up(client, "alice")
    token = sign_in(client, "alice", keep_cookies=True)
    refused = client.post("/api/accounts/sign-out", headers={**csrf(client), **headers})
    assert "not the room's" in assert_refused(refused, 403, "csrf_token_invalid")
    assert client.get("/api/me", headers=bearer(token)).status_code == 200  # still signed in


def test_a_cookie_write_from_the_rooms_own_page_goes_through(client: TestClient) -> None:
    sign_up(client, "alice")
    token = sign_in(client, "alice", keep_cookies=True)
    own = {"Origin": "http://testserver", "Referer": "http://testserver/lobby"}
    assert client.post("/api/accounts/sign-out", headers={**csrf(client), **own}).status_code == 204
    assert client.get("/api/me", headers=bearer(token)).status_code == 401


def test_a_bearer_write_needs_no_origin(client: TestClient) -> None:
    sign_up(client, "alice")
    token = sign_in(client, "alice")
    other = {"Origin": "https://evil.example", **bearer(token)}
    assert client.post("/api/accounts/sign-out", headers=other).status_code == 204


def test_a_cookie_socket_must_come_from_a_page_of_the_same_scheme(client: TestClient) -> None:
    alice = new_player(client, "alice")
    game = heads_up(client, alice, new_player(client, "bob"))
    sign_in(client, "alice", keep_cookies=True)
    with client.websocket_connect(
        f"/ws/games/{game}", headers={"Origin": "http://testserver"}
    ) as ws:
        assert receive(ws)["type"] == "snapshot"
    with client.websocket_connect(
        f"/ws/games/{game}", headers={"Origin": "https://testserver"}
    ) as ws:  # ws:// opened by an https page: not the page that served this socket
        assert receive(ws)["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4403


@pytest.mark.parametrize("text", ["100.0", "+5", "1_000", " 7", "7 ", "0x10", "٣"])
def test_integer_query_parameters_are_digits(client: TestClient, text: str) -> None:
    alice = new_player(client, "alice")
    for path in ("/api/games", "/api/me/ledger"):
        response = client.get(path, params={"limit": text}, headers=alice.auth)
        message = assert_refused(response, 422, "invalid_input")
        assert "limit" in message and "digits" in message, message
    assert client.get("/api/games", params={"limit": "5"}, headers=alice.auth).status_code == 200
