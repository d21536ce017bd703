"""Issue 17, item 1: a legal fold the table accepts but a player could not make (an
admin's fold of a big blind who could check, the host's fold of an inactive player)
must read back through every history route and export, for every viewer.

Before the fix the stored record replayed such a fold as the player's own, which the
rules refuse when checking is free: every route below answered 500."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.conftest import FakeClock
from tests.web.games_kit import Player, act, create_game, detail, new_player, to_act
from tests.web.kit import bearer

HISTORY_ROUTES = (
    "/api/hands/{hand}",
    "/api/hands/{hand}/export?format=phh",
    "/api/hands/{hand}/export?format=pokerstars",
    "/api/hands/{hand}/proof",
    "/api/games/{game}/export?format=phh",
    "/api/games/{game}/export?format=pokerstars",
    "/api/me/history",
    "/api/me/hands",
)


def _big_blind_could_check(client: TestClient, game: int, players: list[Player]) -> Player:
    """Heads-up: the small blind (first to act before the flop) calls, and the big
    blind, to act, may check for free."""
    small = to_act(client, game, players)
    assert small is not None
    assert act(client, game, small, "call").status_code == 200
    big = to_act(client, game, players)
    assert big is not None and big != small
    assert "check" in detail(client, game, big)["hand"]["legal"]["actions"]
    return big


def _first_hand(client: TestClient, who: Player) -> int:
    hands = client.get("/api/me/hands", headers=who.auth)
    assert hands.status_code == 200, hands.text
    return int(hands.json()["hands"][-1]["id"])


def _every_route_reads(app: FastAPI, game: int, hand: int, viewers: list[dict[str, str]]) -> None:
    """Every route for every viewer, the last an admin who was not dealt in; all the
    failures at once, so that the test names each route that breaks."""
    failed = []
    with TestClient(app, raise_server_exceptions=False) as client:
        for number, headers in enumerate(viewers):
            for route in HISTORY_ROUTES:
                url = route.format(hand=hand, game=game)
                if not url.startswith("/api/me/") and number == len(viewers) - 1:
                    url += ("&" if "?" in url else "?") + "full=true"
                response = client.get(url, headers=headers)
                if response.status_code != 200:
                    failed.append((number, url, response.status_code))
        assert not failed, failed
        body = client.get(f"/api/hands/{hand}", headers=viewers[-1]).json()
        folds = [a for a in body["actions"] if a["kind"] == "fold"]
        assert len(folds) == 1


def test_an_admins_fold_of_a_big_blind_who_could_check_reads_back(
    app: FastAPI, client: TestClient, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = create_game(client, alice, rules={"turn_clock_seconds": None})
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    big = _big_blind_could_check(client, game, [alice, bob])
    seat = detail(client, game, big)["viewer_seat"]
    boss = bearer(admin[1])
    folded = client.post(
        f"/api/admin/games/{game}/fold", json={"seat": seat, "reason": "away"}, headers=boss
    )
    assert folded.status_code == 200, folded.text
    hand = _first_hand(client, alice)
    _every_route_reads(app, game, hand, [alice.auth, bob.auth, boss])


def test_a_hosts_fold_of_an_inactive_player_reads_back(
    app: FastAPI, client: TestClient, clock: FakeClock, admin: tuple[int, str]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    rules = {"turn_clock_seconds": None, "inactive_fold_after_seconds": 60}
    game = create_game(client, alice, rules=rules)
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    big = _big_blind_could_check(client, game, [alice, bob])
    assert big == bob  # alice, the host, holds the button: the small blind heads-up
    clock.advance(timedelta(seconds=61))
    seat = detail(client, game, big)["viewer_seat"]
    folded = client.post(
        f"/api/games/{game}/fold", json={"seat": seat, "reason": "away"}, headers=alice.auth
    )
    assert folded.status_code == 200, folded.text
    hand = _first_hand(client, alice)
    _every_route_reads(app, game, hand, [alice.auth, bob.auth, bearer(admin[1])])
