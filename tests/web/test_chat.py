"""Table chat through the API (issue 22), on both databases: who may read and write,
the 500-character and 5-in-10-seconds limits, the host's switch, an admin's deletion
and mutes (each in the admin log), the live messages on the table's socket, and that
no word of it reaches a hand history or an export."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from tests.conftest import FakeClock
from tests.web.games_kit import (
    Player,
    Watcher,
    check_down,
    create_game,
    heads_up,
    new_player,
    watching,
)
from tests.web.kit import assert_refused, bearer

Json = dict[str, Any]


def say(client: TestClient, game: int, who: Player, text: str) -> Any:
    return client.post(f"/api/games/{game}/chat", json={"text": text}, headers=who.auth)


def said(client: TestClient, game: int, who: Player, text: str) -> Json:
    response = say(client, game, who, text)
    assert response.status_code == 201, response.text
    body: Json = response.json()
    return body


def chat(client: TestClient, game: int, who: Player) -> Json:
    response = client.get(f"/api/games/{game}/chat", headers=who.auth)
    assert response.status_code == 200, response.text
    body: Json = response.json()
    return body


def texts(client: TestClient, game: int, who: Player) -> list[str]:
    return [m["text"] for m in chat(client, game, who)["messages"]]


def admin_log(client: TestClient, admin: tuple[int, str]) -> list[Json]:
    response = client.get("/api/admin/actions", headers=bearer(admin[1]))
    assert response.status_code == 200, response.text
    actions: list[Json] = response.json()["actions"]
    return actions


def until(watcher: Any, kind: str) -> Json:
    """The next message of ``kind`` on a table socket (snapshots and events pass)."""
    for _ in range(50):
        message: Json = watcher.next()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message came")


def test_players_chat_and_read_the_last_messages_in_order(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    first = said(client, game, alice, "  good luck  ")
    assert first["text"] == "good luck" and first["name"] == "alice"
    said(client, game, bob, "you too\nand have fun")
    seen = chat(client, game, bob)
    assert [m["text"] for m in seen["messages"]] == ["good luck", "you too\nand have fun"]
    assert seen["on"] is True and seen["may_send"] is True and seen["why_not"] is None


def test_a_message_is_plain_text_of_at_most_500_characters(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    said(client, game, alice, "x" * 500)
    message = assert_refused(say(client, game, alice, "x" * 501), 422, "invalid_input")
    assert "500" in message
    assert_refused(say(client, game, alice, "   "), 422, "invalid_input")
    assert_refused(say(client, game, alice, "a\u202eb"), 422, "invalid_input")  # bidi override
    markup = "<img src=x onerror=alert(1)>"
    assert said(client, game, alice, markup)["text"] == markup  # stored as said: text
    assert texts(client, game, bob) == ["x" * 500, markup]


def test_the_sixth_message_in_ten_seconds_is_refused_with_429(
    client: TestClient, clock: FakeClock
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    for n in range(5):
        said(client, game, alice, f"message {n}")
    response = say(client, game, alice, "one too many")
    message = assert_refused(response, 429, "too_many_attempts")
    assert "too fast" in message and "5 in 10 seconds" in message
    assert response.headers["Retry-After"] == "10"
    said(client, game, bob, "bob has his own count")
    clock.advance(timedelta(seconds=10))
    said(client, game, alice, "and after ten seconds alice may again")
    assert "one too many" not in texts(client, game, bob)


def test_a_spectator_reads_but_writes_only_where_the_host_allowed_it(
    client: TestClient,
) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    closed = heads_up(client, alice, bob)
    said(client, closed, alice, "hello")
    assert texts(client, closed, carol) == ["hello"]
    seen = chat(client, closed, carol)
    assert seen["may_send"] is False and "spectators" in seen["why_not"]
    message = assert_refused(say(client, closed, carol, "hi"), 403, "forbidden")
    assert "Only the players seated" in message
    opened = heads_up(client, alice, new_player(client, "dave"), spectators_chat=True)
    said(client, opened, carol, "a spectator says hi")
    assert chat(client, opened, carol)["spectators_may_chat"] is True


def test_the_host_turns_the_chat_off_and_on(client: TestClient, admin: tuple[int, str]) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    off = {"on": False}
    refused = client.post(f"/api/games/{game}/chat/switch", json=off, headers=bob.auth)
    assert "host" in assert_refused(refused, 403, "forbidden")
    response = client.post(f"/api/games/{game}/chat/switch", json=off, headers=alice.auth)
    assert response.status_code == 200 and response.json() == {"game_id": game, "on": False}
    message = assert_refused(say(client, game, bob, "hello?"), 409, "conflict")
    assert "turned the chat off" in message
    assert chat(client, game, bob)["on"] is False
    response = client.post(f"/api/games/{game}/chat/switch", json={"on": True}, headers=alice.auth)
    assert response.status_code == 200
    said(client, game, bob, "back on")
    kinds = [a["action"] for a in admin_log(client, admin)]
    assert kinds[:2] == ["chat_on", "chat_off"]


def test_an_admin_deletes_a_message_into_the_admin_log(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    rude = said(client, game, bob, "something rude")
    kept = said(client, game, alice, "something kind")
    path = f"/api/games/{game}/chat/{rude['id']}"
    # the host is no admin
    assert_refused(client.delete(path, headers=alice.auth), 403, "forbidden")
    forged = client.delete(f"{path}?reason=spam%0Aforged%20line", headers=bearer(admin[1]))
    assert_refused(forged, 422, "invalid_input")  # a newline would forge an admin log line
    response = client.delete(path, headers=bearer(admin[1]))
    assert response.status_code == 200, response.text
    assert texts(client, game, alice) == [kept["text"]]
    assert_refused(client.delete(path, headers=bearer(admin[1])), 404, "not_found")
    other = heads_up(client, new_player(client, "carol"), new_player(client, "dave"))
    wrong = f"/api/games/{other}/chat/{kept['id']}"  # a message of another table
    assert_refused(client.delete(wrong, headers=bearer(admin[1])), 404, "not_found")
    entry = admin_log(client, admin)[0]
    assert entry["action"] == "chat_delete" and entry["before"]["text"] == "something rude"


def test_an_admin_mutes_a_player_at_one_table_or_everywhere(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    other = heads_up(client, bob, new_player(client, "carol"))
    boss = bearer(admin[1])
    body = {"user_id": bob.id, "game_id": game, "reason": "spam"}
    refused = client.post("/api/admin/chat/mute", json=body, headers=alice.auth)
    assert_refused(refused, 403, "forbidden")
    assert client.post("/api/admin/chat/mute", json=body, headers=boss).status_code == 200
    assert "muted" in assert_refused(say(client, game, bob, "hi"), 403, "forbidden")
    said(client, other, bob, "still free here")
    everywhere = {"user_id": bob.id, "reason": "spam everywhere"}
    assert client.post("/api/admin/chat/mute", json=everywhere, headers=boss).status_code == 200
    assert_refused(say(client, other, bob, "hi"), 403, "forbidden")
    mutes = client.get(f"/api/admin/users/{bob.id}/chat-mutes", headers=boss).json()
    assert sorted(m["game_id"] or 0 for m in mutes) == [0, game]
    for lift in (body, everywhere):
        response = client.post("/api/admin/chat/unmute", json=lift, headers=boss)
        assert response.status_code == 200, response.text
    said(client, game, bob, "free again")
    actions = [a["action"] for a in admin_log(client, admin)[:4]]
    assert actions == ["chat_unmute", "chat_unmute", "chat_mute", "chat_mute"]


def test_chat_reaches_the_table_sockets_that_ask_for_it(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    with client.websocket_connect(f"/ws/games/{game}?chat=1&token={bob.token}") as ws:
        watcher = Watcher(ws, bob)
        assert watcher.next()["type"] == "snapshot"
        assert watcher.next() == {"type": "watchers", "game_id": game, "count": 0}
        message = said(client, game, alice, "<b>live</b>")
        heard = until(watcher, "chat")
        assert heard["message"]["text"] == "<b>live</b>" and heard["message"]["id"] == message["id"]
        response = client.delete(
            f"/api/games/{game}/chat/{message['id']}", headers=bearer(admin[1])
        )
        assert response.status_code == 200
        assert until(watcher, "chat_deleted")["id"] == message["id"]
        client.post(f"/api/games/{game}/chat/switch", json={"on": False}, headers=alice.auth)
        assert until(watcher, "chat_switched")["on"] is False


def test_a_socket_that_did_not_ask_gets_the_game_alone(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    with watching(client, game, bob) as watcher:
        said(client, game, alice, "not for scripts")
        check_down(client, game, [alice, bob])
        for _ in range(6):
            assert watcher.next()["type"] in ("events", "snapshot")


def test_chat_never_enters_a_hand_history_or_an_export(
    client: TestClient, ctx: ServiceContext
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    secret = "the chat word zanzibar"
    said(client, game, alice, secret)
    check_down(client, game, [alice, bob])
    said(client, game, bob, secret + " again")
    files = []
    for kind in ("phh", "pokerstars"):
        response = client.get(f"/api/games/{game}/export?format={kind}", headers=alice.auth)
        assert response.status_code == 200, response.text
        files.append(response.text)
    hands = client.get("/api/me/hands", headers=alice.auth).json()
    hand_id = hands["hands"][0]["id"]
    history = client.get(f"/api/hands/{hand_id}", headers=alice.auth)
    events = client.get(f"/api/games/{game}/events", headers=alice.auth)
    for text in (*files, history.text, events.text):
        assert "zanzibar" not in text
    assert any("alice" in text for text in files)  # the export itself is there


def test_chat_of_a_table_refused_to_whoever_may_not_open_it(client: TestClient) -> None:
    alice, carol = new_player(client, "alice"), new_player(client, "carol")
    hidden = create_game(client, alice, seats=3, private=True)
    assert_refused(client.get(f"/api/games/{hidden}/chat", headers=carol.auth), 403, "forbidden")
    assert_refused(say(client, hidden, carol, "hi"), 403, "forbidden")
    assert_refused(client.get("/api/games/999999/chat", headers=carol.auth), 404, "not_found")
    assert client.get(f"/api/games/{hidden}/chat").status_code == 401
