"""Who may use the table's chat, against a real ``cardroom serve``:

- every chat route, read from the app's route table, is listed here with who may use
  it, so a new one cannot slip in unlisted;
- reading: whoever may open the table (a private one: its players, whoever opened its
  link, admins; a table whose host turned watching off: its players and admins once
  it has started); writing: its seated players (spectators only where the host
  allowed it); the switch: the host and admins; deleting, muting: admins alone;
- nobody signed in gets 401, no game 404, and no refusal changes the database;
- markup and script sent as a message come back as the same text, never altered
  into HTML, and the server stores nothing it would run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import snapshot
from tests.reliability.clients import Player, create_game, join, sign_in, sign_up
from tests.reliability.servers import Room, Server, Zygote, room
from tests.reliability.test_accounts import refused, routes, the_app

pytestmark = pytest.mark.slow

ROUTES = {
    ("GET", "/api/games/{game_id}/chat"): "whoever may open the table",
    ("POST", "/api/games/{game_id}/chat"): "its seated players; spectators if allowed",
    ("POST", "/api/games/{game_id}/chat/switch"): "the table's host and admins",
    ("DELETE", "/api/games/{game_id}/chat/{message_id}"): "admins",
    ("POST", "/api/admin/chat/mute"): "admins",
    ("POST", "/api/admin/chat/unmute"): "admins",
    ("GET", "/api/admin/users/{user_id}/chat-mutes"): "admins",
    ("GET", "/api/admin/chat/mutes"): "admins",
}

SCRIPTS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(document.cookie)</script>",
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "&lt;b&gt; &amp; </textarea><iframe src=//evil>",
    "{{7*7}} ${7*7} <% 7*7 %>",
]


@pytest.fixture
def served(tmp_path: Path, zygote: Zygote) -> Iterator[tuple[Room, Server]]:
    with room("sqlite", tmp_path) as made:
        server = Server(zygote, made, "chat-access")
        server.start()
        try:
            yield made, server
        finally:
            server.stop()
        assert "Traceback" not in server.log_text(), server.log_text()[-5000:]


def test_every_chat_route_is_listed() -> None:
    ours = {(m, p) for m, p, _ in routes(the_app()) if "chat" in p}
    assert ours == set(ROUTES)


def say(client: httpx.Client, game: int, who: Player | None, text: str) -> httpx.Response:
    headers = {} if who is None else who.auth
    return client.post(f"/api/games/{game}/chat", json={"text": text}, headers=headers)


def test_who_may_read_write_and_run_the_chat(served: tuple[Room, Server]) -> None:
    made, server = served
    made.admin("boss")
    with httpx.Client(base_url=server.base, timeout=30.0) as client:
        boss = sign_in(client, "boss")
        alice, bob, carol = (sign_up(client, n) for n in ("alice", "bob", "carol"))
        public = create_game(client, alice, seats=2, buy_in=1000)
        join(client, public, bob)
        private = create_game(client, alice, seats=3, buy_in=1000, private=True)
        closed = create_game(client, alice, seats=2, buy_in=1000, spectators=False)
        join(client, closed, bob)  # full: started, so watching is off now
        assert say(client, public, alice, "hello").status_code == 201
        message = client.get(f"/api/games/{public}/chat", headers=bob.auth).json()["messages"][0]
        before = snapshot(made.ctx.engine)

        # reading
        for who in (alice, bob, carol, boss):
            assert client.get(f"/api/games/{public}/chat", headers=who.auth).status_code == 200
        for game in (private, closed):
            refused(client.get(f"/api/games/{game}/chat", headers=carol.auth), 403, "forbidden")
            assert client.get(f"/api/games/{game}/chat", headers=boss.auth).status_code == 200
        refused(client.get(f"/api/games/{public}/chat"), 401, "not_signed_in")
        refused(client.get("/api/games/999999/chat", headers=carol.auth), 404, "not_found")

        # writing
        refused(say(client, public, carol, "a spectator"), 403, "forbidden")
        refused(say(client, private, carol, "outsider"), 403, "forbidden")
        refused(say(client, closed, carol, "outsider"), 403, "forbidden")
        refused(say(client, public, None, "nobody"), 401, "not_signed_in")
        refused(say(client, 999_999, alice, "nowhere"), 404, "not_found")

        # the switch, deletions, mutes
        switch = f"/api/games/{public}/chat/switch"
        for who in (bob, carol):
            refused(client.post(switch, json={"on": False}, headers=who.auth), 403, "forbidden")
        refused(client.post(switch, json={"on": False}), 401, "not_signed_in")
        delete = f"/api/games/{public}/chat/{message['id']}"
        for who in (alice, bob, carol):
            refused(client.delete(delete, headers=who.auth), 403, "forbidden")
        refused(client.delete(delete), 401, "not_signed_in")
        mute = {"user_id": bob.id, "game_id": public, "reason": "r"}
        for path in ("/api/admin/chat/mute", "/api/admin/chat/unmute"):
            for who in (alice, carol):
                refused(client.post(path, json=mute, headers=who.auth), 403, "forbidden")
            refused(client.post(path, json=mute), 401, "not_signed_in")
        for who in (alice, carol):
            refused(client.get("/api/admin/chat/mutes", headers=who.auth), 403, "forbidden")
        refused(client.get("/api/admin/chat/mutes"), 401, "not_signed_in")
        assert snapshot(made.ctx.engine) == before

        # and what each may do
        assert client.post(switch, json={"on": False}, headers=alice.auth).status_code == 200
        assert client.post(switch, json={"on": True}, headers=boss.auth).status_code == 200
        assert client.delete(delete, headers=boss.auth).status_code == 200
        assert client.post("/api/admin/chat/mute", json=mute, headers=boss.auth).status_code == 200
        refused(say(client, public, bob, "muted"), 403, "forbidden")
        everywhere = {"user_id": carol.id, "reason": "r"}
        assert client.post("/api/admin/chat/mute", json=everywhere, headers=boss.auth).is_success
        room_wide = client.get("/api/admin/chat/mutes", headers=boss.auth)
        assert room_wide.json() == [{"user_id": carol.id, "game_id": None}]  # not bob's one


def test_markup_and_script_come_back_as_the_same_text(served: tuple[Room, Server]) -> None:
    _, server = served
    with httpx.Client(base_url=server.base, timeout=30.0) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        game = create_game(client, alice, seats=2, buy_in=1000)
        join(client, game, bob)
        for n, text in enumerate(SCRIPTS):
            speaker = alice if n % 2 == 0 else bob
            answer = say(client, game, speaker, text)
            assert answer.status_code == 201, answer.text
            assert answer.json()["text"] == text
            assert answer.headers["content-type"].startswith("application/json")
        # (two voices: three each, under the rate limit)
        read = client.get(f"/api/games/{game}/chat", headers=alice.auth)
        assert read.headers["content-type"].startswith("application/json")
        assert [m["text"] for m in read.json()["messages"]] == SCRIPTS
