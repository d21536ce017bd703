"""A player's command over HTTP goes to the process's committer, as the sockets' do
(``cardroom.web.commands.commit_and_answer``): the requests that queue while a batch
runs are committed in one transaction, each keeps its own answer and refusal, and the
session is proved in the batch, so a session that is over is refused there, and
before a malformed body's 422 (the validation handler proves it first)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from tests.web.committer_kit import Gate, check_or_call, together_after
from tests.web.games_kit import Player, detail, heads_up, new_player, to_act
from tests.web.kit import assert_refused, bearer

Body = dict[str, Any]


@pytest.fixture
def tables(client: TestClient) -> Iterator[list[tuple[int, list[Player]]]]:
    """Four heads-up tables, each with its first hand dealt."""
    out = []
    for n in range(4):
        host, guest = new_player(client, f"host{n}"), new_player(client, f"guest{n}")
        out.append((heads_up(client, host, guest), [host, guest]))
    yield out


def test_requests_that_queue_while_a_batch_runs_commit_in_one_transaction(
    client: TestClient, gate: Gate, tables: list[tuple[int, list[Player]]]
) -> None:
    before = {game: detail(client, game, players[0])["version"] for game, players in tables}
    sends = [check_or_call(client, game, players) for game, players in tables]
    first, rest = together_after(client, gate, sends[0], sends[1:])
    assert gate.batches == [1, 3]
    for (game, players), response in zip(tables, [first, *rest], strict=True):
        assert response.status_code == 200, response.text
        answered = response.json()
        assert answered["version"] == before[game] + 1
        assert answered["events"][0]["type"] == "PlayerActed"
        # Committed: what anyone reads now is what the answer said.
        assert detail(client, game, players[1])["version"] == answered["version"]


def test_a_refusal_in_a_batch_is_its_own_and_the_others_commit(
    client: TestClient, gate: Gate, tables: list[tuple[int, list[Player]]]
) -> None:
    (game, players), (other, other_players) = tables[0], tables[1]
    waiting = next(p for p in players if p != to_act(client, game, players))
    seen = detail(client, game, waiting)

    def out_of_turn() -> Any:
        body = {"kind": "check", "version": seen["version"]}
        return client.post(f"/api/games/{game}/actions", json=body, headers=waiting.auth)

    first, [refused, acted] = together_after(
        client,
        gate,
        check_or_call(client, tables[2][0], tables[2][1]),
        [out_of_turn, check_or_call(client, other, other_players)],
    )
    assert gate.batches == [1, 2]
    assert first.status_code == 200 and acted.status_code == 200, (first.text, acted.text)
    assert_refused(refused, 409, "conflict")
    assert detail(client, game, waiting)["version"] == seen["version"]  # nothing changed
    assert detail(client, other, other_players[0])["version"] == acted.json()["version"]


def test_a_session_that_is_over_is_refused_in_the_batch_and_before_a_malformed_body(
    client: TestClient, ctx: ServiceContext, tables: list[tuple[int, list[Player]]]
) -> None:
    game, players = tables[0]
    player = to_act(client, game, players)
    assert player is not None
    version = detail(client, game, player)["version"]
    # A live session with a malformed body: 422, with the field named.
    malformed = {"kind": "check", "version": "soon"}
    got = client.post(f"/api/games/{game}/actions", json=malformed, headers=player.auth)
    assert "'version'" in assert_refused(got, 422, "invalid_input")

    signed_out = new_player(client, "leaver")
    assert client.post("/api/accounts/sign-out", headers=signed_out.auth).status_code == 204
    for body in ({"kind": "check", "version": version}, malformed):
        got = client.post(f"/api/games/{game}/actions", json=body, headers=signed_out.auth)
        assert_refused(got, 401, "not_signed_in")

    accounts.suspend(ctx, CONSOLE, player.name, "a test of the batch's proof")
    for body in ({"kind": "check", "version": version}, malformed):
        got = client.post(f"/api/games/{game}/actions", json=body, headers=player.auth)
        assert_refused(got, 403, "account_suspended")
    other = next(p for p in players if p != player)
    assert detail(client, game, other)["version"] == version  # nothing was applied


def test_the_hosts_and_the_admins_table_commands_queue_with_the_players(
    client: TestClient, gate: Gate, admin: tuple[int, str], tables: list[tuple[int, list[Player]]]
) -> None:
    """A pause at the host's door and one at the admin's go in the batch after the
    held one, beside a player's action."""
    (first, first_players), (second, second_players) = tables[0], tables[1]
    host = first_players[0]
    _, boss = admin

    def pause_as_host() -> Any:
        body = {"reason": "a break"}
        return client.post(f"/api/games/{first}/pause", json=body, headers=host.auth)

    def pause_as_admin() -> Any:
        body = {"reason": "a check"}
        return client.post(f"/api/admin/games/{second}/pause", json=body, headers=bearer(boss))

    held, answers = together_after(
        client,
        gate,
        check_or_call(client, tables[2][0], tables[2][1]),
        [pause_as_host, pause_as_admin, check_or_call(client, tables[3][0], tables[3][1])],
    )
    assert gate.batches == [1, 3]
    assert [r.status_code for r in (held, *answers)] == [200] * 4, [r.text for r in answers]
    for game, players in ((first, first_players), (second, second_players)):
        assert detail(client, game, players[1])["summary"]["status"] == "paused"


def test_a_batch_tells_the_other_processes_in_one_statement(
    client: TestClient, gate: Gate, tables: list[tuple[int, list[Player]]], ctx: ServiceContext
) -> None:
    """On PostgreSQL the committer answers a batch inside the fan-out's ``gathered``:
    the three commands' notifications go out in one ``pg_notify`` statement, after
    the batch's commit (one each cost a statement and a commit)."""
    from sqlalchemy import event

    notifies: list[str] = []

    def seen(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        if "pg_notify" in statement:
            notifies.append(statement)

    sends = [check_or_call(client, game, players) for game, players in tables]
    event.listen(ctx.engine, "before_cursor_execute", seen)
    try:
        first, rest = together_after(client, gate, sends[0], sends[1:])
        # The answers are out before the batch's notifications: they go at its end.
        for _ in range(500):
            if len(notifies) >= 2 or ctx.engine.dialect.name != "postgresql":
                break
            threading.Event().wait(0.01)
    finally:
        event.remove(ctx.engine, "before_cursor_execute", seen)
    assert gate.batches == [1, 3]
    assert all(r.status_code == 200 for r in [first, *rest])
    if ctx.engine.dialect.name != "postgresql":
        assert notifies == []  # one process: nobody else to tell
        return
    games = [statement.count("pg_notify") for statement in notifies]
    # The held command's batch, then the three together (each a game and, at the
    # least, a turn notice for the player to act next).
    assert len(games) == 2 and games[1] >= 3 * games[0] - 1, notifies
