"""``GET /api/me/games`` says, for the viewer, which of their games wait for their
action and when that turn's clock acts: what the header's badge and the lobby's
"Your tables" are built from."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.games_kit import Player, act, detail, heads_up, new_player, to_act


def mine(client: TestClient, who: Player) -> dict[int, dict[str, Any]]:
    response = client.get("/api/me/games", headers=who.auth)
    assert response.status_code == 200, response.text
    return {g["id"]: g for g in response.json()["games"]}


def test_the_player_to_act_is_told_it_is_their_turn_and_when_the_clock_acts(
    client: TestClient,
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    mover = to_act(client, game, [alice, bob])
    assert mover is not None
    other = bob if mover is alice else alice
    due = detail(client, game, mover)["deadlines"]["turn_due_at"]
    assert due is not None
    theirs, waiting = mine(client, mover)[game], mine(client, other)[game]
    assert theirs["your_turn"] is True
    assert theirs["turn_due_at"] == due
    assert waiting["your_turn"] is False and waiting["turn_due_at"] is None
    # The summary's own fields are all still there: the answer only grew.
    assert theirs["id"] == game and theirs["seats_taken"] == 2
    # Once the mover acts, the turn and its clock pass to the other player.
    assert act(client, game, mover, "call").status_code == 200
    assert mine(client, mover)[game]["your_turn"] is False
    passed = mine(client, other)[game]
    assert passed["your_turn"] is True and passed["turn_due_at"] is not None


def test_a_table_without_a_clock_says_your_turn_without_a_time(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob, rules={"turn_clock_seconds": None})
    mover = to_act(client, game, [alice, bob])
    assert mover is not None
    theirs = mine(client, mover)[game]
    assert theirs["your_turn"] is True and theirs["turn_due_at"] is None


def test_a_waiting_game_waits_for_nobody(client: TestClient) -> None:
    alice = new_player(client, "alice")
    made = client.post("/api/games", json={"seats": 3}, headers=alice.auth)
    assert made.status_code == 201, made.text
    game = made.json()["game_id"]
    assert mine(client, alice)[game]["your_turn"] is False


def test_a_paused_table_waits_for_nobody(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    mover = to_act(client, game, [alice, bob])
    assert mover is not None
    paused = client.post(f"/api/games/{game}/pause", json={"reason": "a break"}, headers=alice.auth)
    assert paused.status_code == 200, paused.text
    assert mine(client, mover)[game]["your_turn"] is False
