"""``GET /api/me/statistics`` and a table's ledger (``/ledger``, ``/ledger.csv``) over
HTTP, on three heads-up hands whose figures are worked out by hand, on each database;
who may read a ledger, and the refusals."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from tests.web.games_kit import Json, Player, act, detail, heads_up, new_player, to_act
from tests.web.kit import assert_refused


def _ok(client: TestClient, url: str, who: Player) -> Json:
    response = client.get(url, headers=who.auth)
    assert response.status_code == 200, response.text
    body: Json = response.json()
    return body


def _next_hand(client: TestClient, game: int, players: list[Player]) -> None:
    for p in players:
        response = client.post(f"/api/games/{game}/continue", json={}, headers=p.auth)
        assert response.status_code == 200, response.text
    assert to_act(client, game, players) is not None


def _move(client: TestClient, game: int, who: Player, kind: str, amount: int | None = None) -> None:
    response = act(client, game, who, kind, amount)
    assert response.status_code == 200, response.text


def three_hands(client: TestClient) -> tuple[int, Player, Player, int, int]:
    """(game, first, second, small blind, big blind). Heads-up the button posts the
    small blind and acts first pre-flop; ``first`` holds the button in hand 1.

    1. first raises to three big blinds, second folds: first +BB, second -BB.
    2. second (now the button) limps, first checks its option; on the flop first
       bets one big blind and second folds: first +BB, second -BB.
    3. first (the button again) folds: second wins a walk, +SB; first -SB."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    players = [alice, bob]
    first = to_act(client, game, players)
    assert first is not None
    second = bob if first is alice else alice
    blinds = detail(client, game, first)["hand"]
    small, big = blinds["small_blind"], blinds["big_blind"]
    _move(client, game, first, "raise", 3 * big)
    _move(client, game, second, "fold")
    _next_hand(client, game, players)
    assert to_act(client, game, players) == second
    _move(client, game, second, "call")
    _move(client, game, first, "check")
    _move(client, game, first, "bet", big)
    _move(client, game, second, "fold")
    _next_hand(client, game, players)
    assert to_act(client, game, players) == first
    _move(client, game, first, "fold")
    return game, first, second, small, big


def test_statistics_of_three_hands_worked_out_by_hand(client: TestClient) -> None:
    game, first, second, small, big = three_hands(client)
    mine = _ok(client, "/api/me/statistics", first)
    overall = mine["overall"]
    # first decided pre-flop in all three hands: raised (hand 1), checked the big
    # blind (hand 2, not voluntary), folded the button (hand 3).
    assert overall["hands"] == 3
    assert overall["vpip"] == {"count": 1, "chances": 3, "percent": 33.3}
    assert overall["pfr"] == {"count": 1, "chances": 3, "percent": 33.3}
    assert overall["three_bet"] == {"count": 0, "chances": 0, "percent": None}
    # one flop seen (hand 2), no showdown
    assert overall["wtsd"] == {"count": 0, "chances": 1, "percent": 0.0}
    assert overall["wsd"]["chances"] == 0
    assert overall["net_chips"] == big + big - small
    assert overall["net_cents"] == overall["net_chips"]  # a money table: a chip a cent
    assert [(p["net"], p["total"]) for p in mine["graph"]] == [
        (big, big),
        (big, 2 * big),
        (-small, 2 * big - small),
    ]
    assert [g["game_id"] for g in mine["games"]] == [game]
    assert mine["games"][0]["pays_money"] is True

    theirs = _ok(client, "/api/me/statistics", second)["overall"]
    # second: folded to a raise (hand 1: a chance to three-bet, not taken), limped
    # (hand 2), and won a walk (hand 3: no decision, out of VPIP and PFR).
    assert theirs["vpip"] == {"count": 1, "chances": 2, "percent": 50.0}
    assert theirs["pfr"] == {"count": 0, "chances": 2, "percent": 0.0}
    assert theirs["three_bet"] == {"count": 0, "chances": 1, "percent": 0.0}
    assert theirs["net_chips"] == -big - big + small

    # one game's figures are the same here; another game's are empty
    one = _ok(client, f"/api/me/statistics?game={game}", first)
    assert one["game_id"] == game and one["overall"] == overall
    stranger = new_player(client, "carol")
    none = _ok(client, f"/api/me/statistics?game={game}", stranger)
    assert none["overall"]["hands"] == 0 and none["graph"] == []


def test_statistics_refusals(client: TestClient) -> None:
    alice = new_player(client, "alice")
    assert_refused(
        client.get("/api/me/statistics?game=999999", headers=alice.auth), 404, "not_found"
    )
    assert client.get("/api/me/statistics?game=0", headers=alice.auth).status_code == 422
    assert client.get("/api/me/statistics?game=x", headers=alice.auth).status_code == 422
    assert client.get("/api/me/statistics").status_code == 401


def test_the_ledger_of_a_cash_table_and_who_pays_whom(client: TestClient) -> None:
    game, first, second, small, big = three_hands(client)
    ledger = _ok(client, f"/api/games/{game}/ledger", second)
    assert ledger["format"] == "cash" and ledger["pays_money"] is True
    up = big + big - small  # first's result over the three hands
    lines = {line["name"]: line for line in ledger["players"]}
    for who, net in ((first, up), (second, -up)):
        line = lines[who.name]
        assert line["buy_ins"] == 1000 and line["rebuys"] == 0 and line["cash_outs"] == 0
        assert line["on_table"] == 1000 + net and line["net"] == net
    assert ledger["payments"] == [
        {
            "payer_id": second.id,
            "payer": second.name,
            "payee_id": first.id,
            "payee": first.name,
            "amount": up,
        }
    ]
    assert ledger["unsettled"] == 0

    # The CSV says the same, in dollars.
    response = client.get(f"/api/games/{game}/ledger.csv", headers=first.auth)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(response.text)))
    assert rows[0][:3] == ["player", "place", "buy_ins"]
    players = {r[0]: r for r in rows[1:3]}
    assert players[first.name][-1] == f"{up // 100}.{up % 100:02d}"
    assert players[second.name][2] == "10.00"
    assert rows[3] == [] and rows[4] == ["payer", "payee", "amount"]
    assert rows[5] == [second.name, first.name, f"{up // 100}.{up % 100:02d}"]


def test_who_may_read_a_ledger(client: TestClient, admin: tuple[int, str]) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    carol = new_player(client, "carol")
    for url in (f"/api/games/{game}/ledger", f"/api/games/{game}/ledger.csv"):
        message = assert_refused(client.get(url, headers=carol.auth), 403, "forbidden")
        assert "players of game" in message
        boss = client.get(url, headers={"Authorization": f"Bearer {admin[1]}"})
        assert boss.status_code == 200, boss.text
        assert client.get(url).status_code == 401
    assert_refused(client.get("/api/games/999999/ledger", headers=alice.auth), 404, "not_found")
    assert client.get("/api/games/0/ledger.csv", headers=alice.auth).status_code == 422
