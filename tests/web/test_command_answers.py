"""A command's HTTP answer is written straight to JSON (``game_answers.command_json``),
not through FastAPI's response model: the bytes must be the ones the model writes,
the status the route's, and the API's description must still name ``CommandOut``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response

from cardroom.web.schemas_games import CommandOut
from tests.web.games_kit import Player, act, check_down, create_game, detail, new_player, to_act


def as_the_model_writes_it(response: Response) -> dict[str, Any]:
    """The answer, checked to be exactly ``CommandOut``'s JSON of the same data: a
    missing, extra, misnamed or reordered field, or another spelling of a value,
    changes the bytes."""
    assert response.headers["content-type"] == "application/json"
    model = CommandOut.model_validate_json(response.content)
    assert response.content == model.model_dump_json().encode()
    body: dict[str, Any] = response.json()
    return body


def test_every_command_of_a_hand_answers_commandout_bytes(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    created = client.post("/api/games", json={"buy_in": 1000, "seats": 2}, headers=alice.auth)
    assert created.status_code == 201, created.text  # the route's status, kept
    game = as_the_model_writes_it(created)["game_id"]
    joined = client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
    assert joined.status_code == 200, joined.text
    assert as_the_model_writes_it(joined)["events"]  # the hand dealt: several events

    players = [alice, bob]
    answers = 0
    while (player := to_act(client, game, players)) is not None:
        legal = detail(client, game, player)["hand"]["legal"]
        kind = "check" if "check" in legal["actions"] else "call"
        response = act(client, game, player, kind)
        assert response.status_code == 200, response.text
        body = as_the_model_writes_it(response)
        assert body["game_id"] == game and body["replayed"] is False
        answers += 1
    assert answers >= 4  # every street: preflop, flop, turn, river

    pressed = client.post(f"/api/games/{game}/continue", json={}, headers=alice.auth)
    assert pressed.status_code == 200, pressed.text
    as_the_model_writes_it(pressed)


def test_a_replayed_answer_is_the_same_bytes(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_game(client, alice)
    client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
    player = to_act(client, game, [alice, bob])
    assert isinstance(player, Player)
    body = {"kind": "call", "version": detail(client, game, player)["version"]}
    keyed = {**body, "idempotency_key": "k-1"}
    url = f"/api/games/{game}/actions"
    first = client.post(url, json=keyed, headers=player.auth)
    again = client.post(url, json=keyed, headers=player.auth)
    assert first.status_code == again.status_code == 200, again.text
    replayed = as_the_model_writes_it(again)
    assert replayed["replayed"] is True
    assert replayed["version"] == as_the_model_writes_it(first)["version"]
    check_down(client, game, [alice, bob])


def test_the_api_description_still_names_commandout(app: FastAPI) -> None:
    paths = app.openapi()["paths"]
    expected = {
        ("/api/games", "201"),
        ("/api/games/{game_id}/join", "200"),
        ("/api/games/{game_id}/actions", "200"),
        ("/api/games/{game_id}/continue", "200"),
        ("/api/games/{game_id}/bots", "200"),
        ("/api/games/{game_id}/pause", "200"),
        ("/api/admin/games/{game_id}/cancel", "200"),
    }
    for path, code in expected:
        answer = paths[path]["post"]["responses"][code]
        schema = answer["content"]["application/json"]["schema"]
        assert schema == {"$ref": "#/components/schemas/CommandOut"}, (path, schema)
