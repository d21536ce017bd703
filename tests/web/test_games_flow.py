"""Whole games through HTTP and the table WebSocket, with two players and a spectator:
a hand to the showdown and a hand won by a fold. Every message and every answer each
of them gets is scanned for cards they may not see."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from tests.web.games_kit import (
    Json,
    Player,
    Truth,
    Watcher,
    act,
    check_down,
    detail,
    last_seq,
    new_player,
    to_act,
    watching,
)


def test_two_players_and_a_spectator_play_a_showdown_and_a_fold(
    client: TestClient, ctx: ServiceContext
) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    players = [alice, bob]
    answers: list[tuple[Player, Json]] = []  # every HTTP answer, for the scan

    def post(who: Player, path: str, body: Json | None = None) -> Json:
        response = client.post(path, json=body or {}, headers=who.auth)
        assert response.status_code in (200, 201), response.text
        answers.append((who, response.json()))
        return dict(response.json())

    game = int(post(alice, "/api/games", {"buy_in": 1000, "seats": 2})["game_id"])
    with (
        watching(client, game, alice) as a,
        watching(client, game, bob) as b,
        watching(client, game, carol) as c,
    ):
        watchers = [a, b, c]
        joined = post(bob, f"/api/games/{game}/join", {"idempotency_key": "join-1"})
        assert "HandDealt" in [e["type"] for e in joined["events"]]
        for w in watchers:
            w.settle(last_seq(ctx, game))

        # Each player sees their own two cards; the spectator sees none.
        for w, who in ((a, alice), (b, bob)):
            hand = w.messages[-1]["game"]["hand"]
            assert len(hand["my_cards"]) == 2
            mine = next(p for p in hand["players"] if p["cards"] is not None)
            assert mine["cards"] == hand["my_cards"]
            assert sum(p["cards"] is not None for p in hand["players"]) == 1, who
        spectator_hand = c.messages[-1]["game"]["hand"]
        assert spectator_hand["my_cards"] == []
        assert all(p["cards"] is None for p in spectator_hand["players"])
        assert c.messages[-1]["game"]["viewer_seat"] is None

        # Hand 1: checked and called down to the showdown.
        check_down(client, game, players)
        for w in watchers:
            w.settle(last_seq(ctx, game))
        shown = c.messages[-1]["game"]["hand"]
        assert not shown["running"]
        assert all(p["cards"] is not None for p in shown["players"]), "shown at the showdown"

        # Hand 2: both press Continue, and whoever acts first folds.
        for who in players:
            post(who, f"/api/games/{game}/continue")
        first = to_act(client, game, players)
        assert first is not None
        folded = act(client, game, first, "fold")
        assert folded.status_code == 200, folded.text
        answers.append((first, folded.json()))
        assert "PotAwarded" in [e["type"] for e in folded.json()["events"]]
        for w in watchers:
            w.settle(last_seq(ctx, game))
        final = c.messages[-1]["game"]["hand"]
        assert final["number"] == 2 and not final["running"]
        assert all(p["cards"] is None for p in final["players"]), "a fold shows nothing"

    for who in (alice, bob, carol):
        answers.append((who, detail(client, game, who)))
        events = client.get(f"/api/games/{game}/events", headers=who.auth).json()
        answers.append((who, events))

    truth = Truth.of(ctx, game)
    checked = 0
    for w in watchers:
        checked += sum(truth.check_message(m, w.who) for m in w.messages)
        assert_no_gaps(w)
    for who, answer in answers:
        checked += truth.check_message(answer, who)
    assert checked > 150
    # The spectator never saw a hole card but those shown at the showdown.
    seen_by_carol = {
        e["data"]["card"]
        for m in c.messages
        if m["type"] == "events"
        for e in m["events"]
        if e["type"] == "HoleCardDealt"
    }
    assert seen_by_carol == {None}
    # Each player got their own two cards of each hand in the events, and only those.
    for w in (a, b):
        dealt = [
            e["data"]["card"]
            for m in w.messages
            if m["type"] == "events"
            for e in m["events"]
            if e["type"] == "HoleCardDealt"
        ]
        assert len(dealt) == 8 and sum(card is not None for card in dealt) == 4


def assert_no_gaps(watcher: Watcher) -> None:
    """Events arrive once each, in order, from the first snapshot on."""
    seqs = [e["seq"] for m in watcher.messages if m["type"] == "events" for e in m["events"]]
    start = watcher.messages[0]["seq"]
    assert seqs == list(range(start + 1, start + 1 + len(seqs)))
    snapshots = [m for m in watcher.messages if m["type"] == "snapshot"]
    # Every snapshot is of the state once the events sent before it had happened.
    sent = start
    for message in watcher.messages:
        if message["type"] == "events":
            sent = message["events"][-1]["seq"]
        else:
            assert message["seq"] == sent
    assert len(snapshots) >= 2


def test_a_player_who_reconnects_gets_what_they_missed_and_their_seat(
    client: TestClient, ctx: ServiceContext
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_and_fill(client, alice, bob)
    with watching(client, game, bob) as b:
        before = b.messages[0]["seq"]
        seat = b.messages[0]["game"]["viewer_seat"]
    # Bob is away while alice acts (she is the small blind and acts first heads-up).
    first = to_act(client, game, [alice, bob])
    assert first == alice
    assert act(client, game, alice, "call").status_code == 200

    with watching(client, game, bob) as b:
        snapshot = b.messages[0]
        assert snapshot["seq"] == last_seq(ctx, game) > before
        game_now = snapshot["game"]
        assert game_now["viewer_seat"] == seat
        assert len(game_now["hand"]["my_cards"]) == 2
        assert game_now["hand"]["legal"] is not None, "it is bob's turn, and he sees it"
        # What he missed, as events: by resync on the socket and by HTTP alike.
        b.ws.send_json({"type": "resync", "after": before})
        missed, again = b.until_snapshot()
        assert [e["seq"] for e in missed] == list(range(before + 1, snapshot["seq"] + 1))
        assert missed[0]["type"] == "PlayerActed"
        assert again["seq"] == snapshot["seq"]
        page = client.get(f"/api/games/{game}/events?after={before}", headers=bob.auth).json()
        assert page["events"] == missed and page["last_seq"] == snapshot["seq"]


def create_and_fill(client: TestClient, alice: Player, bob: Player, **options: Any) -> int:
    response = client.post(
        "/api/games", json={"buy_in": 1000, "seats": 2, **options}, headers=alice.auth
    )
    assert response.status_code == 201, response.text
    game = int(response.json()["game_id"])
    joined = client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
    assert joined.status_code == 200, joined.text
    return game


def test_the_lobby_and_my_games(client: TestClient) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    waiting = client.post("/api/games", json={"seats": 3}, headers=carol.auth).json()["game_id"]
    running = create_and_fill(client, alice, bob)
    lobby = client.get("/api/games", headers=bob.auth).json()["games"]
    assert [g["id"] for g in lobby] == [waiting, running]  # waiting games first
    assert lobby[0]["status"] == "waiting" and lobby[1]["status"] == "running"
    assert lobby[1]["seats_taken"] == 2 and lobby[1]["host_name"] == "alice"
    mine = client.get("/api/me/games", headers=bob.auth).json()["games"]
    assert [g["id"] for g in mine] == [running]
    assert client.get("/api/games?limit=1", headers=bob.auth).json()["games"][0]["id"] == waiting
    # A viewer without a seat is told what sitting down would cost.
    seen = client.get(f"/api/games/{waiting}", headers=bob.auth).json()
    assert seen["viewer_seat"] is None and seen["viewer_cost"] == 1000
    assert seen["deadlines"]["cancel_due_at"] is not None


def test_leaving_and_the_commands_between_hands(client: TestClient, ctx: ServiceContext) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_and_fill(client, alice, bob)
    check_down(client, game, [alice, bob])
    # Alice, the host, deals the next hand without waiting for Continue.
    dealt = client.post(f"/api/games/{game}/skip-waiting", json={}, headers=alice.auth)
    assert dealt.status_code == 200, dealt.text
    assert "HandDealt" in [e["type"] for e in dealt.json()["events"]]
    refused = client.post(f"/api/games/{game}/skip-waiting", headers=bob.auth)
    assert refused.status_code == 403, refused.text
    sat_out = client.post(f"/api/games/{game}/sit-out", headers=bob.auth)
    assert sat_out.status_code == 200, sat_out.text
    assert client.post(f"/api/games/{game}/sit-in", headers=bob.auth).status_code == 200
    cashed = client.post(f"/api/games/{game}/cash-out", headers=bob.auth)
    assert cashed.status_code == 200, cashed.text
    # Bob is in the hand: he is cashed out as soon as it ends.
    seats = detail(client, game, bob)["seats"]
    assert next(s for s in seats if s["user_id"] == bob.id)["leaving"] == "left"
