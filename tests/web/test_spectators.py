"""Spectators through the API (issue 22), on both databases: who may watch (a listed
table unless its host turned watching off; a private one through its link), what a
spectator sees (what a player out of the hand sees: no hole card), and how many
watch, counted per user over the table's sockets, live, and over two server
processes on one PostgreSQL database (chat included)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import ClientConnection, connect

from cardroom.cli import main
from cardroom.web.watchers import Spectators
from tests.conftest import BACKENDS, scratch_database
from tests.web.games_kit import (
    Player,
    Watcher,
    create_game,
    detail,
    heads_up,
    new_player,
    receive,
    watching,
)
from tests.web.kit import assert_refused, bearer
from tests.web.test_processes import auth, player, serving

Json = dict[str, Any]


def refused_socket(client: TestClient, game: int, who: Player) -> Json:
    with client.websocket_connect(f"/ws/games/{game}?token={who.token}") as ws:
        message = receive(ws)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert closed.value.code == 4403
    return message


def count_heard(watcher: Watcher) -> int:
    """The next watchers' count on a table socket (snapshots and events pass)."""
    for _ in range(30):
        message = watcher.next()
        if message["type"] == "watchers":
            return int(message["count"])
    raise AssertionError("no watchers message came")


def test_a_spectator_sees_what_a_player_out_of_the_hand_sees(client: TestClient) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = heads_up(client, alice, bob)
    seen = detail(client, game, carol)
    hand = seen["hand"]
    assert hand["my_cards"] == [] and seen["viewer_seat"] is None
    assert all(p["cards"] is None and p["has_cards"] for p in hand["players"])
    assert len(detail(client, game, alice)["hand"]["my_cards"]) == 2


def test_a_host_may_turn_watching_off(client: TestClient, admin: tuple[int, str]) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, spectators=False)
    assert detail(client, game, carol)["summary"]["status"] == "waiting"  # to take a seat
    joined = client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
    assert joined.status_code == 200, joined.text  # full: it starts
    for path in ("", "/events", "/standings", "/chat"):
        message = assert_refused(
            client.get(f"/api/games/{game}{path}", headers=carol.auth), 403, "forbidden"
        )
        assert "does not allow spectators" in message
    assert "does not allow spectators" in refused_socket(client, game, carol)["message"]
    for who in (alice, bob):  # its players still see it
        assert detail(client, game, who)["summary"]["id"] == game
    boss = client.get(f"/api/games/{game}", headers=bearer(admin[1]))
    assert boss.status_code == 200  # and admins
    # the default lets anyone watch
    listed = heads_up(client, new_player(client, "dave"), new_player(client, "erin"))
    assert detail(client, listed, carol)["viewer_seat"] is None


def test_a_watcher_of_a_waiting_table_loses_it_when_it_starts_without_spectators(
    client: TestClient,
) -> None:
    """A socket opened while the table waited (open to all, to take a seat) must not
    go on watching once the host's "no spectators" holds: the sentence, then 4403.
    Its players' sockets carry on, and a table with watching on keeps its watcher."""
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, spectators=False)
    path = f"/ws/games/{game}?chat=1"
    with (
        client.websocket_connect(f"{path}&token={carol.token}") as looking,
        client.websocket_connect(f"{path}&token={alice.token}") as hosting,
    ):
        fan, host = Watcher(looking, carol), Watcher(hosting, alice)
        assert fan.next()["type"] == "snapshot"  # waiting: there is a seat to take
        joined = client.post(f"/api/games/{game}/join", json={}, headers=bob.auth)
        assert joined.status_code == 200, joined.text  # full: it starts and deals
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(30):
                message = fan.next()
                assert message["type"] in ("snapshot", "watchers", "error"), message
                if message["type"] == "snapshot":
                    assert message["game"]["summary"]["status"] == "waiting", message
        assert closed.value.code == 4403
        assert fan.messages[-1] == {
            "type": "error",
            "message": f"The host of game {game} does not allow spectators: only its "
            "players can open the table.",
        }
        heard = [host.next() for _ in range(40) if not _running(host.messages)]
        assert _running(heard), heard  # the players' sockets live on
        counts = [m["count"] for m in host.messages if m["type"] == "watchers"]
        if counts[-1] != 0:  # carol's leaving, told to the host's page
            assert count_heard(host) == 0
        assert client.get(f"/api/games/{game}/chat", headers=alice.auth).json()["watchers"] == 0
    # the default: a watcher who came early keeps watching once it starts
    dave, erin = new_player(client, "dave"), new_player(client, "erin")
    listed = create_game(client, dave)
    with watching(client, listed, carol) as early:
        assert client.post(f"/api/games/{listed}/join", json={}, headers=erin.auth).is_success
        seq = detail(client, listed, dave)["last_seq"]
        assert early.settle(seq)["game"]["summary"]["status"] == "running"


def _running(messages: list[Json]) -> bool:
    return any(
        m["type"] == "snapshot" and m["game"]["summary"]["status"] == "running" for m in messages
    )


def test_the_names_of_who_sat_there_for_whoever_may_open_the_table(
    client: TestClient, admin: tuple[int, str]
) -> None:
    """``GET /api/games/{id}/players``: everyone who has sat at the table, a player who
    cashed out included, for a spectator too; refused where the table is (private,
    watching off once started), names only."""
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = heads_up(client, alice, bob)
    folded = client.get(f"/api/games/{game}", headers=alice.auth).json()["version"]
    acted = client.post(
        f"/api/games/{game}/actions", json={"kind": "fold", "version": folded}, headers=alice.auth
    )
    assert acted.status_code == 200, acted.text
    assert client.post(f"/api/games/{game}/cash-out", json={}, headers=bob.auth).is_success
    expected = {
        "game_id": game,
        "players": [
            {"user_id": alice.id, "name": "alice"},
            {"user_id": bob.id, "name": "bob"},
        ],
    }
    for who in (carol, alice, bob):
        answer = client.get(f"/api/games/{game}/players", headers=who.auth)
        assert answer.status_code == 200 and answer.json() == expected, answer.text
    assert_refused(client.get(f"/api/games/{game}/players"), 401, "not_signed_in")
    assert_refused(client.get("/api/games/999999/players", headers=carol.auth), 404, "not_found")
    private = create_game(client, alice, private=True)
    closed = heads_up(client, alice, bob, spectators=False)
    for shut in (private, closed):
        refused = client.get(f"/api/games/{shut}/players", headers=carol.auth)
        assert_refused(refused, 403, "forbidden")
    boss = client.get(f"/api/games/{closed}/players", headers=bearer(admin[1]))
    assert [p["name"] for p in boss.json()["players"]] == ["alice", "bob"]


def test_a_private_table_is_watched_only_through_its_link(client: TestClient) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, private=True)
    token = client.get(f"/api/games/{game}/invite", headers=alice.auth).json()["token"]
    assert client.post(f"/api/invites/{token}", json={}, headers=bob.auth).status_code == 200
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    assert detail(client, game, alice)["summary"]["status"] == "running"
    assert_refused(client.get(f"/api/games/{game}", headers=carol.auth), 403, "forbidden")
    assert client.post(f"/api/invites/{token}", json={}, headers=carol.auth).status_code == 200
    assert detail(client, game, carol)["viewer_seat"] is None


def test_the_table_counts_its_watchers_live(client: TestClient) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = heads_up(client, alice, bob)
    path = f"/ws/games/{game}?chat=1"
    with client.websocket_connect(f"{path}&token={alice.token}") as ws:
        seated = Watcher(ws, alice)
        assert count_heard(seated) == 0  # a player is no spectator
        with client.websocket_connect(f"{path}&token={carol.token}") as first:
            assert count_heard(seated) == 1
            with client.websocket_connect(f"/ws/games/{game}?token={carol.token}") as second:
                assert second.receive_json()["type"] == "snapshot"  # no count asked for
                # the same spectator twice is one watcher: no new count
                chat = client.post(
                    f"/api/games/{game}/chat", json={"text": "hi"}, headers=alice.auth
                )
                assert chat.status_code == 201
                while (message := seated.next())["type"] != "chat":
                    assert message["type"] != "watchers", message
                assert (
                    client.get(f"/api/games/{game}/chat", headers=bob.auth).json()["watchers"] == 1
                )
            assert first.receive_json()["type"] == "snapshot"
        assert count_heard(seated) == 0


def test_two_processes_count_each_others_spectators() -> None:
    """The counting itself, as two processes hear each other's lists."""
    one, two = Spectators(), Spectators()
    assert one.opened(7, 100) and not one.opened(7, 100)  # a second socket of the same user
    assert two.opened(7, 200) and two.opened(7, 100)
    for heard in (one, two):
        heard.hear(7, one.report(7))
        heard.hear(7, two.report(7))
    assert one.count(7) == two.count(7) == 2  # user 100 in both processes counts once
    assert not one.closed(7, 100)  # one socket of two
    assert one.closed(7, 100)
    assert two.hear(7, one.report(7)) is None  # 100 still watches through process two
    assert two.closed(7, 100) and two.hear(7, two.report(7)) == 1
    assert two.hear(7, {"type": "watching", "process": 3, "users": "x"}) is None  # junk


def json_until(ws: ClientConnection, kind: str, seconds: float = 10.0) -> Json:
    deadline = time.monotonic() + seconds
    while True:
        message: Json = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == kind:
            return message


@pytest.mark.slow
@pytest.mark.skipif("postgresql" not in BACKENDS, reason="CARDROOM_TEST_POSTGRES=0")
def test_chat_and_watchers_reach_the_sockets_of_another_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ExitStack() as stack:
        url = stack.enter_context(scratch_database("postgresql", tmp_path))
        assert main(["db", "upgrade", "--database-url", url]) == 0
        capsys.readouterr()
        one = stack.enter_context(serving(url, tmp_path, "one"))
        two = stack.enter_context(serving(url, tmp_path, "two"))
        alice, bob, carol = (player(one, n) for n in ("alice", "bob", "carol"))
        game = httpx.post(f"{one}/api/games", json={"seats": 2}, headers=auth(alice)).json()
        game_id = game["game_id"]
        httpx.post(f"{one}/api/games/{game_id}/join", json={}, headers=auth(bob))
        ws_one, ws_two = one.replace("http", "ws"), two.replace("http", "ws")
        seated = stack.enter_context(
            connect(f"{ws_one}/ws/games/{game_id}?chat=1&token={alice['token']}")
        )
        assert json_until(seated, "watchers")["count"] == 0
        watching = stack.enter_context(
            connect(f"{ws_two}/ws/games/{game_id}?chat=1&token={carol['token']}")
        )
        assert json_until(seated, "watchers")["count"] == 1  # counted in server two
        said = httpx.post(
            f"{one}/api/games/{game_id}/chat", json={"text": "across"}, headers=auth(alice)
        )
        assert said.status_code == 201, said.text
        assert json_until(watching, "chat")["message"]["text"] == "across"
        watching.close()
        assert json_until(seated, "watchers")["count"] == 0
