"""The live lobby, at the API and socket level: a lobby page's ``/ws/me?lobby=1`` is
told ``lobby_changed`` when a listed game is created, joined, left, started or
finished, never for an ordinary bet, and several changes close together make one
message; ``GET /api/games`` says what a seat costs the viewer; ``GET /api/me`` counts
the unread notices."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardroom.service.context import ServiceContext
from cardroom.web import live as live_module
from cardroom.web.live import LOBBY_PUSH_SECONDS, Live
from tests.web.games_kit import Player, act, check_down, create_game, listening, new_player, receive

QUIET = LOBBY_PUSH_SECONDS + 0.4  # long enough for a lobby message to have come


def lobby_messages(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Every message until the socket stays quiet, keeping only ``lobby_changed``."""
    got = []
    while True:
        try:
            message = receive(ws, QUIET)
        except TimeoutError:
            return got
        if message["type"] == "lobby_changed":
            got.append(message)


def told(ws: WebSocketTestSession) -> None:
    """The socket is told ``lobby_changed`` (once) within about a second."""
    assert lobby_messages(ws) == [{"type": "lobby_changed"}]


def test_a_lobby_page_hears_tables_open_fill_start_and_finish(client: TestClient) -> None:
    alice, bob, carol, dave = (new_player(client, n) for n in ("alice", "bob", "carol", "dave"))
    with (
        client.websocket_connect(f"/ws/me?lobby=1&token={carol.token}") as lobby,
        client.websocket_connect(f"/ws/me?token={dave.token}") as elsewhere,
    ):
        game = create_game(client, alice, seats=3)
        told(lobby)
        assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
        told(lobby)
        assert client.post(f"/api/games/{game}/leave", json={}, headers=bob.auth).status_code == 200
        told(lobby)
        assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
        told(lobby)
        assert (
            client.post(f"/api/games/{game}/start", json={}, headers=alice.auth).status_code == 200
        )
        told(lobby)
        # A hand of ordinary bets, to its showdown, changes nothing the lobby lists.
        check_down(client, game, [alice, bob])
        assert lobby_messages(lobby) == []
        # Bob cashes out: a seat less, the lobby hears it.
        assert (
            client.post(f"/api/games/{game}/cash-out", json={}, headers=bob.auth).status_code == 200
        )
        told(lobby)
        # Another page's /ws/me (not the lobby) was never told.
        assert lobby_messages(elsewhere) == []


def test_a_tournament_that_finishes_leaves_the_lobby_live(client: TestClient) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, format="tournament", seats=2)
    with client.websocket_connect(f"/ws/me?lobby=1&token={carol.token}") as lobby:
        assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
        told(lobby)  # full, so started
        for _ in range(200):  # all in until somebody has every chip
            status = client.get(f"/api/games/{game}", headers=alice.auth).json()["summary"]
            if status["status"] == "finished":
                break
            player = _to_act(client, game, [alice, bob])
            if player is None:
                client.post(f"/api/games/{game}/continue", json={}, headers=alice.auth)
                client.post(f"/api/games/{game}/continue", json={}, headers=bob.auth)
                continue
            legal = client.get(f"/api/games/{game}", headers=player.auth).json()["hand"]["legal"]
            kind = next(k for k in ("all_in", "call", "check") if k in legal["actions"])
            assert act(client, game, player, kind).status_code == 200
        assert status["status"] == "finished"
        got = lobby_messages(lobby)
        assert got and all(m == {"type": "lobby_changed"} for m in got)
    listed = client.get("/api/games", headers=carol.auth).json()["games"]
    assert game not in [g["id"] for g in listed]


def _to_act(client: TestClient, game: int, players: list[Player]) -> Player | None:
    seen = client.get(f"/api/games/{game}", headers=players[0].auth).json()
    hand = seen["hand"]
    if hand is None or not hand["running"]:
        return None
    user = next(s["user_id"] for s in seen["seats"] if s["seat"] == hand["seat_to_act"])
    return next(p for p in players if p.id == user)


def test_changes_close_together_make_one_message(ctx: ServiceContext) -> None:
    class Page:
        def __init__(self) -> None:
            self.got: list[Any] = []

        def push(self, message: Any) -> None:
            self.got.append(dict(message))

    async def scenario() -> tuple[list[Any], list[Any]]:
        live = Live(lambda: ctx, clock=False)
        live._loop = asyncio.get_running_loop()
        page, other = Page(), Page()
        live.watch_lobby(page)
        for _ in range(5):
            live.lobby_changed()
        await asyncio.sleep(LOBBY_PUSH_SECONDS + 0.2)
        assert page.got == [dict(live_module.LOBBY_CHANGED)]  # one, for five
        live.unwatch_user(1, page)  # the page closed: no more
        live.lobby_changed()
        await asyncio.sleep(LOBBY_PUSH_SECONDS + 0.2)
        return page.got, other.got

    seen, other = asyncio.run(scenario())
    assert seen == [dict(live_module.LOBBY_CHANGED)]
    assert other == []


def test_the_lobby_says_what_a_seat_costs_the_viewer(client: TestClient) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, seats=3)
    points = create_game(client, alice, preset="arena", small_blind=10, big_blind=20)

    def costs(who: Player) -> dict[int, int | None]:
        listed = client.get("/api/games", headers=who.auth).json()["games"]
        return {g["id"]: g["viewer_cost"] for g in listed}

    assert costs(bob)[game] == 1000
    assert costs(alice)[game] is None  # she sits there
    assert costs(bob)[points] == 0  # points: no money
    # Bob joins the running table, wins the blinds, cashes out with $10.05: back
    # within two hours, a seat costs him the larger of that and the buy-in.
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    assert client.post(f"/api/games/{game}/start", json={}, headers=alice.auth).status_code == 200
    folder = _to_act(client, game, [alice, bob])
    assert folder is not None
    assert act(client, game, folder, "fold").status_code == 200
    winner = bob if folder is alice else alice
    assert client.post(f"/api/games/{game}/join", json={}, headers=carol.auth).status_code == 200
    assert (
        client.post(f"/api/games/{game}/cash-out", json={}, headers=winner.auth).status_code == 200
    )
    got = costs(winner)[game]
    asked = client.get(f"/api/games/{game}", headers=winner.auth).json()["viewer_cost"]
    assert got == asked and got is not None and got > 1000
    assert costs(carol)[game] is None


def test_the_unread_count_is_its_own_read(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    assert client.get("/api/me/notifications/unread", headers=alice.auth).json()["unread"] == 0
    game = create_game(client, alice)
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    page = client.get("/api/me/notifications", headers=alice.auth).json()
    unread = client.get("/api/me/notifications/unread", headers=alice.auth).json()["unread"]
    assert unread == page["unread"] > 0
    first = page["notices"][0]["id"]
    with client.websocket_connect(f"/ws/me?token={alice.token}") as other_page:
        listening(other_page)
        marked = client.post(f"/api/me/notifications/{first}/read", headers=alice.auth)
        assert marked.status_code == 200
        # Her other pages are told, to ask their count again.
        while receive(other_page)["type"] != "notices_read":
            pass
    after = client.get("/api/me/notifications/unread", headers=alice.auth).json()["unread"]
    assert after == unread - 1
