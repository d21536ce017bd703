"""Refusals at the table: each is a 4xx with a sentence, and changes nothing. Stale
versions, repeated idempotency keys, actions out of turn or out of range, and bodies
that are malformed, unknown or absurd."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from tests.conftest import Unchanged
from tests.web.games_kit import Player, act, detail, new_player
from tests.web.kit import assert_refused


def test_a_stale_version_is_a_409_and_changes_nothing(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, _ = table
    version = detail(client, game, alice)["version"]
    with unchanged():
        response = client.post(
            f"/api/games/{game}/actions",
            json={"kind": "call", "version": version - 1},
            headers=alice.auth,
        )
        message = assert_refused(response, 409, "conflict")
    assert f"you saw version {version - 1}, it is at {version}" in message


def test_a_repeated_idempotency_key_gets_the_same_answer_and_one_effect(
    client: TestClient, table: tuple[int, Player, Player], ctx: ServiceContext
) -> None:
    game, alice, bob = table
    version = detail(client, game, alice)["version"]
    body = {"kind": "call", "version": version, "idempotency_key": "call-7"}
    first = client.post(f"/api/games/{game}/actions", json=body, headers=alice.auth)
    again = client.post(f"/api/games/{game}/actions", json=body, headers=alice.auth)
    assert first.status_code == again.status_code == 200
    assert again.json()["replayed"] is True and first.json()["replayed"] is False
    assert {**again.json(), "replayed": False} == first.json()
    assert detail(client, game, bob)["version"] == version + 1  # one effect
    # The same key for another request is refused.
    other = {**body, "kind": "fold"}
    response = client.post(f"/api/games/{game}/actions", json=other, headers=alice.auth)
    assert_refused(response, 409, "conflict")


def test_actions_out_of_turn_or_out_of_range_are_refused(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, bob = table
    legal = detail(client, game, alice)["hand"]["legal"]
    assert detail(client, game, bob)["hand"]["legal"] is None, "not bob's turn: no actions"
    with unchanged():
        assert_refused(act(client, game, bob, "call"), 409, "conflict")
        assert_refused(act(client, game, bob, "fold"), 409, "conflict")
        assert_refused(act(client, game, alice, "raise", legal["max_to"] + 1), 409, "conflict")
        assert_refused(act(client, game, alice, "raise", legal["min_to"] - 1), 409, "conflict")
        assert_refused(act(client, game, alice, "check"), 409, "conflict")
    carol = new_player(client, "carol")  # a spectator has no seat to act from
    with unchanged():
        assert_refused(act(client, game, carol, "call"), 409, "conflict")


BAD_BODIES: list[tuple[Any, int, str]] = [
    ({"kind": "raise", "amount": 40.0, "version": 2}, 422, "amount"),  # fractional
    ({"kind": "raise", "amount": 40.5, "version": 2}, 422, "amount"),
    ({"kind": "raise", "amount": "40", "version": 2}, 422, "amount"),  # a string
    ({"kind": "raise", "amount": 10**30, "version": 2}, 422, "amount"),  # huge
    ({"kind": "raise", "amount": 2**53, "version": 2}, 422, "amount"),
    ({"kind": "raise", "amount": 0, "version": 2}, 422, "amount"),
    ({"kind": "raise", "amount": -40, "version": 2}, 422, "amount"),
    ({"kind": "raise", "amount": True, "version": 2}, 422, "amount"),
    ({"kind": "shove", "version": 2}, 422, "kind"),  # unknown kind
    ({"kind": "call", "version": 2, "chips": 5}, 422, "chips"),  # unknown field
    ({"kind": "call"}, 422, "version"),  # the version is required
    ({"kind": "call", "version": "2"}, 422, "version"),
    ({"kind": "call", "version": 2, "idempotency_key": ""}, 422, "idempotency_key"),
    ({"kind": "call", "version": 2, "idempotency_key": "k" * 101}, 422, "idempotency_key"),
    ({"kind": "call", "version": 2, "idempotency_key": "a\nb"}, 422, "idempotency_key"),
    ({"kind": "call", "version": 2, "amount": 40}, 422, "amount"),  # a call takes none
    ({"kind": "raise", "version": 2}, 422, "raise"),  # a raise needs one
    ([], 422, "object"),
    ("call", 422, "object"),
]


def test_malformed_action_bodies_are_refused(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, _ = table
    with unchanged():
        for body, status, named in BAD_BODIES:
            response = client.post(f"/api/games/{game}/actions", json=body, headers=alice.auth)
            message = assert_refused(response, status, "invalid_input")
            assert named in message, (body, message)


def test_unreadable_bodies_and_unknown_games(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, _ = table
    json_headers = {**alice.auth, "Content-Type": "application/json"}
    with unchanged():
        response = client.post(
            f"/api/games/{game}/actions", content=b'{"kind": "call",', headers=json_headers
        )
        assert_refused(response, 422, "invalid_input")
        response = client.post(
            f"/api/games/{game}/actions", content=b"kind=call", headers=alice.auth
        )
        assert response.status_code == 415
        big = b'{"kind": "call", "version": 2, "idempotency_key": "' + b"x" * 70_000 + b'"}'
        response = client.post(f"/api/games/{game}/actions", content=big, headers=json_headers)
        assert response.status_code == 413
        for path in ("/api/games/999999", "/api/games/999999/events"):
            assert_refused(client.get(path, headers=alice.auth), 404, "not_found")
        assert_refused(client.post("/api/games/999999/join", headers=alice.auth), 404, "not_found")
        assert_refused(client.get("/api/games/0", headers=alice.auth), 422, "invalid_input")
        assert_refused(client.get(f"/api/games/{2**40}", headers=alice.auth), 422, "invalid_input")
        response = client.get(f"/api/games/{game}/events?after=-1", headers=alice.auth)
        assert_refused(response, 422, "invalid_input")
        assert_refused(client.get(f"/api/games/{game}"), 401, "not_signed_in")


def test_creating_a_game_with_bad_options(client: TestClient, unchanged: Unchanged) -> None:
    alice = new_player(client, "alice")
    for body, named in [
        ({"preset": "casino"}, "preset"),
        ({"seats": 11}, "seats"),
        ({"buy_in": 0}, "buy_in"),
        ({"buy_in": 20_000}, "balance"),  # more than her $100.00
        ({"rules": {"turn_clock_seconds": 3}}, "turn_clock_seconds"),
        ({"rules": {"chip_unit": "point"}}, "chip_unit"),
        ({"small_blind": 10}, "blinds"),
        ({"payouts": [50.5]}, "payouts"),
    ]:
        with unchanged():
            response = client.post("/api/games", json=body, headers=alice.auth)
            assert response.status_code in (409, 422), response.text
            assert named in response.json()["error"]["message"], (body, response.text)


def test_a_game_with_its_own_rules(client: TestClient) -> None:
    alice = new_player(client, "alice")
    body = {
        "preset": "standard",
        "seats": 6,
        "buy_in": 2000,
        "rules": {"turn_clock_seconds": 600, "between_hands_seconds": 30, "raise_cap": None},
    }
    response = client.post("/api/games", json=body, headers=alice.auth)
    assert response.status_code == 201, response.text
    summary = detail(client, response.json()["game_id"], alice)["summary"]
    assert summary["turn_clock_seconds"] == 600 and summary["between_hands_seconds"] == 30
    assert summary["preset"] == "standard" and summary["seat_count"] == 6
    assert summary["big_blind"] == 40  # a fiftieth of the buy-in


def test_a_cookie_write_needs_the_csrf_header(
    client: TestClient, table: tuple[int, Player, Player], unchanged: Unchanged
) -> None:
    game, alice, _ = table
    client.post("/api/accounts/sign-in", json={"name": "alice", "password": "correct horse"})
    version = detail(client, game, alice)["version"]
    with unchanged():
        response = client.post(
            f"/api/games/{game}/actions", json={"kind": "call", "version": version}
        )
        assert_refused(response, 403, "csrf_token_invalid")
