"""The host's and the admins' table commands over HTTP: who may do what, the reason
required, the table's watchers told, and the admin doors closed to everyone else."""

from __future__ import annotations

from datetime import timedelta

from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from tests.conftest import FakeClock, Unchanged
from tests.web.games_kit import (
    create_game,
    detail,
    heads_up,
    last_seq,
    new_player,
    to_act,
    watching,
)
from tests.web.kit import assert_refused, bearer


def test_an_admin_folds_a_player_named_by_seat_or_id(
    client: TestClient, ctx: ServiceContext, admin: tuple[int, str], unchanged: Unchanged
) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    boss = bearer(admin[1])
    game = heads_up(client, alice, bob)
    away = to_act(client, game, [alice, bob])
    assert away is not None
    seat = detail(client, game, away)["viewer_seat"]
    with unchanged():
        for body in (
            {"reason": "away"},  # nobody named
            {"seat": seat, "player_id": away.id, "reason": "away"},  # both named
            {"seat": seat},  # no reason
            {"seat": seat, "reason": ""},
            {"seat": seat, "reason": "a\nb"},
        ):
            response = client.post(f"/api/admin/games/{game}/fold", json=body, headers=boss)
            assert_refused(response, 422, "invalid_input")
        for who in (alice, carol):  # the host is not an admin; a stranger even less
            response = client.post(
                f"/api/admin/games/{game}/fold",
                json={"seat": seat, "reason": "x"},
                headers=who.auth,
            )
            assert_refused(response, 403, "forbidden")
        response = client.post(
            f"/api/admin/games/{game}/fold", json={"seat": 7, "reason": "away"}, headers=boss
        )
        assert_refused(response, 409, "conflict")
    with watching(client, game, carol) as w:
        folded = client.post(
            f"/api/admin/games/{game}/fold", json={"seat": seat, "reason": "away"}, headers=boss
        )
        assert folded.status_code == 200, folded.text
        assert folded.json()["events"][0]["data"]["action"] == "fold"
        w.settle(last_seq(ctx, game))
        assert not w.messages[-1]["game"]["hand"]["running"]
    log = client.get("/api/admin/actions", headers=boss).json()["actions"]
    assert (log[0]["action"], log[0]["target_user_id"], log[0]["reason"]) == (
        "fold_inactive",
        away.id,
        "away",
    )


def test_the_host_pauses_and_resumes_and_others_may_not(
    client: TestClient, unchanged: Unchanged
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    with unchanged():
        response = client.post(f"/api/games/{game}/pause", json={"reason": "x"}, headers=bob.auth)
        assert_refused(response, 403, "forbidden")
        response = client.post(f"/api/games/{game}/pause", json={}, headers=alice.auth)
        assert_refused(response, 422, "invalid_input")
    paused = client.post(f"/api/games/{game}/pause", json={"reason": "tea"}, headers=alice.auth)
    assert paused.status_code == 200, paused.text
    assert detail(client, game, bob)["summary"]["status"] == "paused"
    stale = {"reason": "back", "version": paused.json()["version"] - 1}
    response = client.post(f"/api/games/{game}/resume", json=stale, headers=alice.auth)
    assert_refused(response, 409, "conflict")
    fresh = {"reason": "back", "version": paused.json()["version"]}
    resumed = client.post(f"/api/games/{game}/resume", json=fresh, headers=alice.auth)
    assert resumed.status_code == 200, resumed.text
    # Folding and removing are an admin's at house tables, even for the host.
    response = client.post(
        f"/api/games/{game}/fold", json={"player_id": bob.id, "reason": "slow"}, headers=alice.auth
    )
    assert_refused(response, 403, "forbidden")
    response = client.post(
        f"/api/games/{game}/remove-seat",
        json={"player_id": bob.id, "reason": "idle"},
        headers=alice.auth,
    )
    assert_refused(response, 403, "forbidden")


def test_cancelling_a_waiting_game_refunds_everyone(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_game(client, alice, seats=3)
    assert client.post(f"/api/games/{game}/join", headers=bob.auth).status_code == 200
    assert client.get("/api/me/balance", headers=bob.auth).json()["balance_cents"] == 9000
    response = client.post(f"/api/games/{game}/cancel", json={"reason": "x"}, headers=bob.auth)
    assert_refused(response, 403, "forbidden")
    cancelled = client.post(
        f"/api/admin/games/{game}/cancel", json={"reason": "no quorum"}, headers=bearer(admin[1])
    )
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    assert client.get("/api/me/balance", headers=bob.auth).json()["balance_cents"] == 10_000
    response = client.post(f"/api/games/{game}/join", headers=bob.auth)
    assert_refused(response, 409, "conflict")


def test_an_admin_removes_an_idle_seat_between_hands(
    client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob, carol = (new_player(client, n) for n in ("alice", "bob", "carol"))
    game = create_game(client, alice, seats=4)
    for who in (bob, carol):
        assert client.post(f"/api/games/{game}/join", headers=who.auth).status_code == 200
    removed = client.post(
        f"/api/admin/games/{game}/remove-seat",
        json={"player_id": carol.id, "reason": "never came"},
        headers=bearer(admin[1]),
    )
    assert removed.status_code == 200, removed.text
    seats = detail(client, game, alice)["seats"]
    assert carol.id not in [s["user_id"] for s in seats]


def test_start_is_the_hosts(client: TestClient) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_game(client, alice, seats=3)
    assert client.post(f"/api/games/{game}/join", headers=bob.auth).status_code == 200
    assert_refused(client.post(f"/api/games/{game}/start", headers=bob.auth), 403, "forbidden")
    started = client.post(f"/api/games/{game}/start", json={}, headers=alice.auth)
    assert started.status_code == 200, started.text
    assert "HandDealt" in [e["type"] for e in started.json()["events"]]


def test_the_host_cannot_fold_a_thinking_player_before_their_clock(
    client: TestClient, clock: FakeClock, unchanged: Unchanged
) -> None:
    """Issue 17, finding 2: with a 600 s clock and a 60 s wait the host folded a
    player at 62 s; now the fold waits for the clock and the refusal says how long."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    rules = {"turn_clock_seconds": 600, "inactive_fold_after_seconds": 60}
    game = heads_up(client, alice, bob, rules=rules)
    away = to_act(client, game, [alice, bob])
    assert away is not None
    seat = detail(client, game, away)["viewer_seat"]
    clock.advance(timedelta(seconds=62))
    with unchanged():
        response = client.post(
            f"/api/games/{game}/fold", json={"seat": seat, "reason": "slow"}, headers=alice.auth
        )
        assert "in 8 minutes 58 seconds" in assert_refused(response, 409, "conflict")
    clock.advance(timedelta(seconds=600 - 62))
    folded = client.post(
        f"/api/games/{game}/fold", json={"seat": seat, "reason": "slow"}, headers=alice.auth
    )
    assert folded.status_code == 200, folded.text
