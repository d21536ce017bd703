"""Invite links and private tables (issue 18): every table has a link whose secret is
not its id; a private table is not listed, and neither its detail, its events, its
standings, its socket, its hands nor a seat at it is open to someone who has not
opened the link (admins excepted); opening the link opens all of them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.games_kit import (
    Player,
    check_down,
    create_game,
    detail,
    new_player,
    receive,
)
from tests.web.kit import assert_refused, bearer

BUY_IN = 1000
START = 10_000  # every new player's $100.00


def invite(client: TestClient, game: int, who: Player) -> dict[str, Any]:
    response = client.get(f"/api/games/{game}/invite", headers=who.auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def accept(client: TestClient, token: str, who: Player) -> Any:
    return client.post(f"/api/invites/{token}", json={}, headers=who.auth)


def balance(client: TestClient, who: Player) -> int:
    response = client.get("/api/me/balance", headers=who.auth)
    assert response.status_code == 200, response.text
    return int(response.json()["balance_cents"])


def lobby_ids(client: TestClient, who: Player) -> set[int]:
    response = client.get("/api/games", headers=who.auth)
    assert response.status_code == 200, response.text
    return {g["id"] for g in response.json()["games"]}


def my_game_ids(client: TestClient, who: Player) -> set[int]:
    response = client.get("/api/me/games", headers=who.auth)
    assert response.status_code == 200, response.text
    return {g["id"] for g in response.json()["games"]}


@pytest.fixture
def room(client: TestClient) -> tuple[int, int, Player, Player]:
    """alice hosts a private 3-seat table and a public one; carol is not invited."""
    alice, carol = new_player(client, "alice"), new_player(client, "carol")
    hidden = create_game(client, alice, seats=3, private=True)
    listed = create_game(client, alice, seats=3)
    return hidden, listed, alice, carol


def test_a_private_table_is_not_listed(client: TestClient, room: Any) -> None:
    hidden, listed, alice, carol = room
    assert listed in lobby_ids(client, carol)
    assert hidden not in lobby_ids(client, carol)
    assert hidden not in lobby_ids(client, alice)  # not under Open tables, even for its host
    assert hidden in my_game_ids(client, alice)  # but among the host's own games
    assert hidden not in my_game_ids(client, carol)


def test_a_private_table_is_refused_by_its_id(client: TestClient, room: Any) -> None:
    hidden, listed, alice, carol = room
    for path in ("", "/events", "/standings", "/invite"):
        message = assert_refused(
            client.get(f"/api/games/{hidden}{path}", headers=carol.auth), 403, "forbidden"
        )
        assert "private" in message and "invite link" in message
    message = assert_refused(
        client.post(f"/api/games/{hidden}/join", json={}, headers=carol.auth), 403, "forbidden"
    )
    assert "invite link" in message
    assert balance(client, carol) == START  # nothing paid
    assert [s["user_id"] for s in detail(client, hidden, alice)["seats"]] == [alice.id]
    # the public table is open to all, by id
    assert detail(client, listed, carol)["summary"]["id"] == listed


def test_the_link_opens_the_table_and_a_seat(client: TestClient, room: Any) -> None:
    hidden, _listed, alice, carol = room
    link = invite(client, hidden, alice)
    assert link["private"] is True and link["game_id"] == hidden
    token = link["token"]
    assert len(token) >= 22 and str(hidden) != token
    assert link["path"] == f"/invite/{token}" and link["table_path"] == f"/games/{hidden}"

    opened = accept(client, token, carol)
    assert opened.status_code == 200, opened.text
    assert opened.json()["game_id"] == hidden
    assert accept(client, token, carol).status_code == 200  # twice: still fine
    seen = detail(client, hidden, carol)  # now open to carol without the token
    assert seen["viewer_seat"] is None and seen["viewer_cost"] == BUY_IN
    assert invite(client, hidden, carol)["token"] == token  # she may pass it on
    joined = client.post(f"/api/games/{hidden}/join", json={}, headers=carol.auth)
    assert joined.status_code == 200, joined.text
    seats = {s["user_id"]: s["stack"] for s in detail(client, hidden, alice)["seats"]}
    assert seats == {alice.id: BUY_IN, carol.id: BUY_IN}
    assert balance(client, carol) == START - BUY_IN
    assert hidden in my_game_ids(client, carol)
    assert hidden not in lobby_ids(client, carol)  # still private


def test_a_public_table_has_a_link_too(client: TestClient, room: Any) -> None:
    _hidden, listed, alice, carol = room
    link = invite(client, listed, carol)  # anyone who can see it may share it
    assert link["private"] is False and link["token"] != str(listed)
    assert link["token"] == invite(client, listed, alice)["token"]
    opened = accept(client, link["token"], carol)
    assert opened.status_code == 200 and opened.json()["table_path"] == f"/games/{listed}"


def test_each_table_has_its_own_secret(client: TestClient, room: Any) -> None:
    hidden, listed, alice, _carol = room
    assert invite(client, hidden, alice)["token"] != invite(client, listed, alice)["token"]


@pytest.mark.parametrize("token", ["nope", "1", "x" * 22, "y" * 300, "%2e%2e"])
def test_a_wrong_link_is_not_found(client: TestClient, room: Any, token: str) -> None:
    hidden, _listed, _alice, carol = room
    message = assert_refused(accept(client, token, carol), 404, "not_found")
    assert "invite link" in message
    assert_refused(client.get(f"/api/games/{hidden}", headers=carol.auth), 403, "forbidden")


def test_opening_a_link_needs_an_account(client: TestClient, room: Any) -> None:
    hidden, _listed, alice, _carol = room
    token = invite(client, hidden, alice)["token"]
    assert_refused(client.post(f"/api/invites/{token}", json={}), 401, "not_signed_in")


def test_the_socket_refuses_a_private_table_until_the_link_is_opened(
    client: TestClient, room: Any
) -> None:
    hidden, _listed, alice, carol = room
    with client.websocket_connect(f"/ws/games/{hidden}?token={carol.token}") as ws:
        refused = receive(ws)
        assert refused["type"] == "error" and "private" in refused["message"], refused
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4403
    assert accept(client, invite(client, hidden, alice)["token"], carol).status_code == 200
    with client.websocket_connect(f"/ws/games/{hidden}?token={carol.token}") as ws:
        assert receive(ws)["type"] == "snapshot"


def test_an_admin_sees_a_private_table(
    client: TestClient, room: Any, admin: tuple[int, str]
) -> None:
    hidden, _listed, _alice, _carol = room
    boss = bearer(admin[1])
    assert client.get(f"/api/games/{hidden}", headers=boss).status_code == 200
    assert client.get(f"/api/games/{hidden}/invite", headers=boss).status_code == 200


def test_a_private_tables_hands_are_its_players_only(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, private=True)
    token = invite(client, game, alice)["token"]
    assert accept(client, token, bob).status_code == 200
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    check_down(client, game, [alice, bob])  # a showdown: both hands shown
    hands = client.get("/api/me/hands", params={"game_id": game}, headers=alice.auth).json()
    hand = hands["hands"][0]["id"]
    paths = (
        f"/api/hands/{hand}",
        f"/api/hands/{hand}/export?format=phh",
        f"/api/hands/{hand}/proof",
    )
    for path in paths:
        assert client.get(path, headers=bob.auth).status_code == 200, path
        message = assert_refused(client.get(path, headers=carol.auth), 403, "forbidden")
        assert "private" in message
        assert client.get(path, headers=bearer(admin[1])).status_code == 200, path
    history = client.get("/api/me/history", headers=carol.auth).json()
    assert all(g["game_id"] != game for g in history.get("games", []))
