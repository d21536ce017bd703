"""Issue 17, item 1: a legal fold the table accepts but a player could not make (an
admin's fold of a big blind who could check, the host's fold of an inactive player)
must read back through every history route and export, for every viewer.

Before the fix the stored record replayed such a fold as the player's own, which the
rules refuse when checking is free: every route below answered 500."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from cardroom.service.context import ServiceContext
from cardroom.store.models import GameEvent
from cardroom.store.models import HandRecord as HandRow
from tests.conftest import FakeClock
from tests.web.games_kit import Player, act, create_game, detail, new_player, to_act
from tests.web.kit import assert_refused, bearer

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


def _one_hand(client: TestClient, alice: Player, bob: Player) -> tuple[int, int]:
    """A game of one finished hand (the small blind folds): (game id, hand id)."""
    game = create_game(client, alice, rules={"turn_clock_seconds": None})
    assert client.post(f"/api/games/{game}/join", json={}, headers=bob.auth).status_code == 200
    small = to_act(client, game, [alice, bob])
    assert small is not None and act(client, game, small, "fold").status_code == 200
    hands = client.get(f"/api/me/hands?game_id={game}", headers=alice.auth).json()["hands"]
    return game, int(hands[0]["id"])


def test_a_hand_whose_record_cannot_be_read_is_refused_alone(
    app: FastAPI, client: TestClient, ctx: ServiceContext
) -> None:
    """(d) A damaged hand (here: one of its actions' rows lost) answers a clear 500 of
    its own on every route that opens it; the lists still list every other hand and
    mark it; a game's file leaves it out and says so."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    broken_game, broken = _one_hand(client, alice, bob)
    good_game, good = _one_hand(client, alice, bob)
    with ctx.transaction() as session:
        lost = session.scalars(
            select(GameEvent).where(GameEvent.hand_id == broken, GameEvent.kind == "PlayerActed")
        ).first()
        assert lost is not None
        session.delete(lost)
    with TestClient(app, raise_server_exceptions=False) as plain:
        for route in HISTORY_ROUTES[:5]:
            url = route.format(hand=broken, game=broken_game)
            response = plain.get(url, headers=alice.auth)
            message = assert_refused(response, 500, "record_unreadable")
            assert message.startswith("This hand's record cannot be read"), message
            assert plain.get(route.format(hand=good, game=good_game), headers=alice.auth).is_success
        history = plain.get("/api/me/history", headers=alice.auth)
        assert history.status_code == 200, history.text
        listed = {h["id"]: h for g in history.json()["games"] for h in g["hands"]}
        assert listed[broken]["unreadable"] and not listed[good]["unreadable"]
        assert len(listed[good]["cards"]) == 2 and listed[broken]["cards"] == []
        hands = plain.get("/api/me/hands", headers=alice.auth)
        assert hands.status_code == 200, hands.text
        assert [h["unreadable"] for h in hands.json()["hands"]] == [False, True]


def test_a_game_file_leaves_out_a_hand_that_no_longer_replays(
    app: FastAPI, client: TestClient, ctx: ServiceContext
) -> None:
    """(d) A hand whose stored actions the rules refuse (the small blind's fold turned
    into a check) is refused on its own routes, and a game's file holds the other
    hands and names it in a header."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game, first = _one_hand(client, alice, bob)
    for who in (alice, bob):
        pressed = client.post(f"/api/games/{game}/continue", json={}, headers=who.auth)
        assert pressed.status_code == 200, pressed.text
    small = to_act(client, game, [alice, bob])
    assert small is not None and act(client, game, small, "fold").status_code == 200
    with ctx.transaction() as session:
        row = session.get(HandRow, first)
        assert row is not None and row.final_state is not None
        state = dict(row.final_state)
        state["events"] = [
            {**e, "action": "check"} if e["type"] == "PlayerActed" else e for e in state["events"]
        ]
        row.final_state = state
    with TestClient(app, raise_server_exceptions=False) as plain:
        for route in HISTORY_ROUTES[:4]:
            response = plain.get(route.format(hand=first, game=game), headers=alice.auth)
            assert_refused(response, 500, "record_unreadable")
        for fmt, header in (("phh", "variant"), ("pokerstars", "PokerStars Hand #")):
            whole = plain.get(f"/api/games/{game}/export?format={fmt}", headers=alice.auth)
            assert whole.status_code == 200, whole.text
            assert whole.headers["X-Cardroom-Unreadable-Hands"] == str(first)
            assert whole.text.count(header) == 1
