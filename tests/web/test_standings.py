"""``GET /api/games/{id}/standings``: a tournament's places, with names, last seats
and prizes, on each database; nothing before the first finish; 404 for no game."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.games_kit import Json, Player, create_game, detail, new_player


def test_a_heads_up_tournament_standings_from_start_to_end(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_game(client, alice, format="tournament")
    seats: dict[int, int] = {}

    def standings() -> Json:
        answer = client.get(f"/api/games/{game}/standings", headers=bob.auth)
        assert answer.status_code == 200, answer.text
        body: Json = answer.json()
        return body

    assert standings() == {"finished": False, "places": []}  # nobody has finished yet
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    seats = {s["user_id"]: s["seat"] for s in detail(client, game, alice)["seats"]}
    players = {alice.id: alice, bob.id: bob}
    for _ in range(50):  # all in and called until one of them has every chip
        state = detail(client, game, alice)
        if state["summary"]["status"] == "finished":
            break
        hand = state["hand"]
        if hand["running"]:
            seat = hand["seat_to_act"]
            who: Player = players[next(u for u, s in seats.items() if s == seat)]
            mine = detail(client, game, who)
            kind = "all_in" if "all_in" in mine["hand"]["legal"]["actions"] else "call"
            body = {"kind": kind, "version": mine["version"]}
            answer = client.post(f"/api/games/{game}/actions", json=body, headers=who.auth)
            assert answer.status_code == 200, answer.text
        else:
            for p in players.values():
                client.post(f"/api/games/{game}/continue", json={}, headers=p.auth)
    final = standings()
    assert final["finished"] is True
    first, second = final["places"]
    winner, loser = players[first["user_id"]], players[second["user_id"]]
    assert first == {
        "place": 1, "user_id": winner.id, "name": winner.name, "seat": seats[winner.id],
        "prize": 2000,
    }  # fmt: skip
    # the loser's seat is the one they were knocked out of: nobody sits there now
    assert second == {
        "place": 2, "user_id": loser.id, "name": loser.name, "seat": seats[loser.id], "prize": 0,
    }  # fmt: skip
    ledger = client.get("/api/me/ledger", headers=winner.auth).json()["lines"]
    paid = [line["amount_cents"] for line in ledger if line["kind"] == "prize"]
    assert paid == [first["prize"]]


def test_standings_of_no_game_are_a_404(client: TestClient) -> None:
    alice = new_player(client, "alice")
    answer = client.get("/api/games/999999/standings", headers=alice.auth)
    assert answer.status_code == 404
    assert "There is no game 999999." in answer.text
    assert client.get("/api/games/0/standings", headers=alice.auth).status_code == 422
