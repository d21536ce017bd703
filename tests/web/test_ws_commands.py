"""The two commands of play over a table's socket (``act`` and ``continue``): the
HTTP routes' answers and refusals, to the status, code and sentence; the change
broadcast to the table; nothing changed by a refusal; the blocking work on a worker
thread."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from cardroom.service.context import ServiceContext
from cardroom.service.game import pipeline
from cardroom.web.live import Live
from tests.conftest import Unchanged
from tests.web.games_kit import (
    Json,
    Player,
    Watcher,
    detail,
    last_seq,
    new_player,
    receive,
    silent,
    watching,
)
from tests.web.test_ws_protocol import assert_failed_with_1011, assert_logged


def command(w: Watcher, message: Json) -> Json:
    """Send a command over the socket; its answer (the table's own messages that come
    meanwhile are kept in ``w.messages``)."""
    w.ws.send_json(message)
    while True:
        got = w.next()
        if got["type"] in ("result", "refused", "error"):
            return got


def caught_up(w: Watcher, seq: int) -> None:
    """Read until the socket has had a snapshot at ``seq`` (maybe already)."""
    while not any(m["type"] == "snapshot" and m["seq"] >= seq for m in w.messages):
        w.next()


def refusal(answer: Json) -> tuple[int, Json]:
    assert answer["type"] == "refused", answer
    assert set(answer) == {"type", "ref", "status", "error"}, answer
    return answer["status"], answer["error"]


def http_refusal(response: Any) -> tuple[int, Json]:
    assert response.status_code >= 400, response.text
    return response.status_code, response.json()["error"]


def act_message(version: int, kind: str = "call", ref: str = "r1", **extra: Any) -> Json:
    return {"type": "act", "kind": kind, "version": version, "ref": ref, **extra}


def post_act(client: TestClient, game: int, who: Player, body: Json) -> Any:
    return client.post(f"/api/games/{game}/actions", json=body, headers=who.auth)


def test_an_act_over_the_socket_answers_as_http_and_reaches_the_table(
    client: TestClient, ctx: ServiceContext, table: tuple[int, Player, Player]
) -> None:
    game, alice, bob = table
    version = detail(client, game, alice)["version"]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        answer = command(a, act_message(version, idempotency_key="call-1", ref="my ref"))
        assert answer["type"] == "result" and answer["ref"] == "my ref", answer
        assert set(answer) == {"type", "ref", "result"}
        result = answer["result"]
        assert result["version"] == version + 1 == detail(client, game, bob)["version"]
        assert result["replayed"] is False and result["game_id"] == game
        assert [e["type"] for e in result["events"]] == ["PlayerActed"]
        assert result["events"][0]["data"]["action"] == "call"
        # The other player's socket gets the change: its events, then a snapshot.
        events, snapshot = b.until_snapshot()
        assert [e["seq"] for e in events] == [e["seq"] for e in result["events"]]
        assert snapshot["version"] == version + 1 and snapshot["seq"] == last_seq(ctx, game)
        # Exactly the HTTP route's answer: the same key over HTTP replays it.
        body = {"kind": "call", "version": version, "idempotency_key": "call-1"}
        again = post_act(client, game, alice, body)
        assert again.status_code == 200, again.text
        assert again.json() == {**result, "replayed": True}
        assert silent(b.ws), "a replay changes nothing and tells nobody"


def test_continue_over_the_socket_deals_the_next_hand_once_both_pressed(
    client: TestClient, ctx: ServiceContext, table: tuple[int, Player, Player]
) -> None:
    game, alice, bob = table
    version = detail(client, game, alice)["version"]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        folded = command(a, act_message(version, kind="fold"))
        assert folded["type"] == "result", folded
        assert "PotAwarded" in [e["type"] for e in folded["result"]["events"]]
        first = command(a, {"type": "continue", "ref": "c1"})
        assert first["type"] == "result" and first["ref"] == "c1", first
        assert "HandDealt" not in [e["type"] for e in first["result"]["events"]]
        assert detail(client, game, alice)["hand"]["number"] == 1
        at = detail(client, game, bob)["version"]
        second = command(b, {"type": "continue", "version": at, "ref": "c2"})
        assert second["type"] == "result" and second["ref"] == "c2", second
        assert second["result"]["version"] > at
        assert "HandDealt" in [e["type"] for e in second["result"]["events"]]
        for w in (a, b):
            caught_up(w, last_seq(ctx, game))
            snapshot = next(m for m in reversed(w.messages) if m["type"] == "snapshot")
            assert snapshot["game"]["hand"]["number"] == 2
            assert snapshot["game"]["hand"]["running"]


def test_refusals_are_the_http_routes_and_change_nothing(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, bob = table
    version = detail(client, game, alice)["version"]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        refuse_everything(client, game, alice, bob, a, b, version, unchanged)
        assert detail(client, game, alice)["version"] == version
        assert command(a, act_message(version, ref="x" * 64))["type"] == "result"


def refuse_everything(
    client: TestClient,
    game: int,
    alice: Player,
    bob: Player,
    a: Watcher,
    b: Watcher,
    version: int,
    unchanged: Unchanged,
) -> None:
    with unchanged():
        # Out of turn: bob may not act.
        answer = command(b, act_message(version, ref="b1"))
        assert answer["ref"] == "b1"
        assert refusal(answer) == http_refusal(
            post_act(client, game, bob, {"kind": "call", "version": version})
        )
        assert refusal(answer)[0] == 409 and refusal(answer)[1]["code"] == "conflict"
        # A stale version.
        answer = command(a, act_message(version - 1, ref="a1"))
        assert refusal(answer) == http_refusal(
            post_act(client, game, alice, {"kind": "call", "version": version - 1})
        )
        assert refusal(answer)[0] == 409
        assert f"you saw version {version - 1}, it is at {version}" in answer["error"]["message"]
        # A continue while the hand runs.
        answer = command(a, {"type": "continue", "version": version, "ref": "a2"})
        response = client.post(
            f"/api/games/{game}/continue", json={"version": version}, headers=alice.auth
        )
        assert refusal(answer) == http_refusal(response)
        # A message of the wrong shape: the route's 422 and sentence.
        for body in (
            {"kind": "shove", "version": version},
            {"kind": "raise", "amount": 40.5, "version": version},
            {"kind": "call", "version": version, "chips": 5},
            {"kind": "call"},
            {"kind": "call", "version": version, "idempotency_key": ""},
        ):
            answer = command(a, {"type": "act", "ref": "bad", **body})
            assert answer["ref"] == "bad"
            status, error = refusal(answer)
            assert (status, error) == http_refusal(post_act(client, game, alice, body)), body
            assert status == 422 and error["code"] == "invalid_input"
        answer = command(a, {"type": "continue", "version": "2", "ref": "bad"})
        assert refusal(answer) == http_refusal(
            client.post(f"/api/games/{game}/continue", json={"version": "2"}, headers=alice.auth)
        )
        # The ref: required, 1 to 64 characters; not echoed when it is not one.
        for ref, sentence in (
            (None, "'ref' is required."),
            ("", "'ref' must not be empty."),
            ("x" * 65, "'ref' can have at most 64 characters."),
            (7, "'ref' must be text."),
        ):
            message = act_message(version)
            if ref is None:
                del message["ref"]
            else:
                message["ref"] = ref
            answer = command(a, message)
            assert answer["ref"] is None
            assert refusal(answer) == (422, {"code": "invalid_input", "message": sentence})


def test_refusals_leave_the_version_and_the_socket_as_they_were(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, bob = table
    version = detail(client, game, alice)["version"]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        with unchanged():
            assert command(b, act_message(version))["type"] == "refused"
            assert command(a, act_message(version - 1))["type"] == "refused"
            assert command(a, act_message(version, kind="shove"))["type"] == "refused"
        assert detail(client, game, alice)["version"] == version
        assert silent(a.ws) and silent(b.ws), "a refusal tells the table nothing"
        a.ws.send_json({"type": "ping"})
        assert receive(a.ws) == {"type": "pong"}, "the socket stays usable"
        assert command(a, act_message(version))["type"] == "result"


def test_an_idempotency_key_replayed_over_the_socket_changes_nothing_twice(
    client: TestClient, table: tuple[int, Player, Player]
) -> None:
    game, alice, bob = table
    version = detail(client, game, alice)["version"]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        first = command(a, act_message(version, ref="one", idempotency_key="k-1"))
        assert first["type"] == "result" and first["result"]["replayed"] is False
        for w in (a, b):
            caught_up(w, first["result"]["events"][-1]["seq"])
        again = command(a, act_message(version, ref="two", idempotency_key="k-1"))
        assert again["type"] == "result" and again["ref"] == "two"
        assert again["result"] == {**first["result"], "replayed": True}
        assert detail(client, game, bob)["version"] == version + 1, "one effect"
        assert silent(a.ws) and silent(b.ws), "a replay tells nobody"
        # The same key for another command is the route's 409.
        other = command(a, act_message(version + 1, kind="fold", idempotency_key="k-1"))
        body = {"kind": "fold", "version": version + 1, "idempotency_key": "k-1"}
        assert refusal(other) == http_refusal(post_act(client, game, alice, body))
        assert refusal(other)[0] == 409


def test_a_spectator_gets_the_refusal_http_gives(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, _ = table
    carol = new_player(client, "carol")
    version = detail(client, game, carol)["version"]
    with watching(client, game, carol) as c, unchanged():
        answer = command(c, act_message(version))
        status, error = refusal(answer)
        assert (status, error) == http_refusal(
            post_act(client, game, carol, {"kind": "call", "version": version})
        )
        assert status == 409 and error["code"] == "conflict"
        answer = command(c, {"type": "continue", "ref": "c"})
        response = client.post(f"/api/games/{game}/continue", json={}, headers=carol.auth)
        assert refusal(answer) == http_refusal(response)
    assert detail(client, game, alice)["version"] == version


@pytest.mark.parametrize("how", ["sign-out", "suspend"])
def test_a_session_that_ended_is_refused_as_http_refuses_it_and_the_socket_closes(
    client: TestClient,
    table: tuple[int, Player, Player],
    admin: tuple[int, str],
    unchanged: Unchanged,
    how: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The socket's own check comes once a minute; a command proves the session as
    the route does, at once. (The end of a session is announced and closes its
    sockets at once, tests/web/test_session_ends_local.py; here it is not, as when
    the console suspends a player on SQLite.)"""
    monkeypatch.setattr(Live, "end_sessions", lambda *args: None)
    game, alice, _ = table
    version = detail(client, game, alice)["version"]
    with watching(client, game, alice) as a:
        if how == "sign-out":
            ended = client.post("/api/accounts/sign-out", headers=alice.auth)
            assert ended.status_code == 204
        else:
            ended = client.post(
                f"/api/admin/users/{alice.id}/suspend",
                json={"reason": "cheating"},
                headers={"Authorization": f"Bearer {admin[1]}"},
            )
            assert ended.status_code == 200, ended.text
        with unchanged():
            answer = command(a, act_message(version))
            # (HTTP proves the session before it reads the body: a 401 all the same.)
            expected = http_refusal(post_act(client, game, alice, {"kind": "call"}))
        assert refusal(answer) == expected
        assert expected[0] == (401 if how == "sign-out" else 403)
        while (closing := receive(a.ws))["type"] in ("events", "snapshot"):
            pass  # the suspension's own change may still be on its way
        assert closing == {"type": "error", "message": expected[1]["message"]}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(a.ws)
        assert closed.value.code == (4401 if how == "sign-out" else 4403)


def test_the_command_runs_on_a_worker_thread(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, table: tuple[int, Player, Player]
) -> None:
    game, alice, _ = table
    version = detail(client, game, alice)["version"]
    on_loop: list[bool] = []
    real = pipeline.run_in

    def watched(*args: Any, **kwargs: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "run_in", watched)
    with watching(client, game, alice) as a:
        assert command(a, act_message(version))["type"] == "result"
    assert on_loop == [False]


def test_an_unexpected_error_in_a_command_closes_the_socket_with_1011(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    table: tuple[int, Player, Player],
) -> None:
    game, alice, _ = table

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise ZeroDivisionError("a bug with a secret in it")

    monkeypatch.setattr(pipeline, "run_in", broken)
    with watching(client, game, alice) as a:
        a.ws.send_json(act_message(detail(client, game, alice)["version"]))
        assert "secret" not in assert_failed_with_1011(a.ws)
    assert_logged(caplog, ZeroDivisionError)


def test_a_database_gone_away_is_refused_as_http_refuses_it_and_the_socket_stays(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, table: tuple[int, Player, Player]
) -> None:
    game, alice, _ = table
    version = detail(client, game, alice)["version"]
    real = pipeline.run_in

    def gone(*_args: Any, **_kwargs: Any) -> Any:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    with watching(client, game, alice) as a:
        monkeypatch.setattr(pipeline, "run_in", gone)
        status, error = refusal(command(a, act_message(version, ref="down")))
        monkeypatch.setattr(pipeline, "run", gone)  # the route's road too
        http = http_refusal(post_act(client, game, alice, {"kind": "call", "version": version}))
        assert (status, error) == http
        assert status == 503
        # Nothing was committed, and the same socket carries the retry.
        monkeypatch.setattr(pipeline, "run_in", real)
        answer = command(a, act_message(version, ref="again"))
        assert answer["type"] == "result" and answer["ref"] == "again", answer
        assert answer["result"]["version"] == version + 1


def test_commands_from_one_socket_run_one_at_a_time_in_order(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, table: tuple[int, Player, Player]
) -> None:
    """Sent back to back without waiting: never two at once, answered in order, the
    second refused as stale because the first ran before it."""
    game, alice, _ = table
    version = detail(client, game, alice)["version"]
    running: list[int] = []
    most = 0
    real = pipeline.run_in

    def slow(*args: Any, **kwargs: Any) -> Any:
        nonlocal most
        running.append(1)
        most = max(most, len(running))
        time.sleep(0.2)
        try:
            return real(*args, **kwargs)
        finally:
            running.pop()

    monkeypatch.setattr(pipeline, "run_in", slow)
    with watching(client, game, alice) as a:
        a.ws.send_json(act_message(version, ref="first"))
        a.ws.send_json(act_message(version, ref="second"))
        answers: list[Json] = []
        while len(answers) < 2:
            got = a.next()
            if got["type"] in ("result", "refused"):
                answers.append(got)
    assert most == 1
    assert [x["ref"] for x in answers] == ["first", "second"]
    assert answers[0]["type"] == "result"
    assert refusal(answers[1])[0] == 409
