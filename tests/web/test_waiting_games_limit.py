"""Issue 17, item 5: games created without taking a seat were unlimited (60 empty
games from one account in half a second). They now count against the waiting-games
limit (3) like seats in waiting games, both ways, and a refusal makes nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardroom.store.models import WAITING_GAMES_PER_PLAYER
from tests.conftest import Unchanged
from tests.web.games_kit import create_game, new_player
from tests.web.kit import assert_refused


def test_games_hosted_without_a_seat_take_waiting_slots(
    client: TestClient, unchanged: Unchanged
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    body = {"buy_in": 1000, "seats": 6, "sit": False}
    empty = [create_game(client, alice, sit=False) for _ in range(WAITING_GAMES_PER_PLAYER)]
    with unchanged():
        refused = client.post("/api/games", json=body, headers=alice.auth)
        message = assert_refused(refused, 409, "conflict")
        assert "waiting to start" in message
        seated = client.post("/api/games", json={**body, "sit": True}, headers=alice.auth)
        assert_refused(seated, 409, "conflict")
    other = create_game(client, bob, seats=6)
    with unchanged():
        joined = client.post(f"/api/games/{other}/join", json={}, headers=alice.auth)
        assert_refused(joined, 409, "conflict")
    # sitting down in one of her own empty games takes no new slot
    mine = client.post(f"/api/games/{empty[0]}/join", json={}, headers=alice.auth)
    assert mine.status_code == 200, mine.text
