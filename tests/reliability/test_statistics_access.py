"""Who may read statistics and ledgers, against a real ``cardroom serve``:

- every statistics route and every table's ledger route, read from the app's route
  table, is listed here with who may read it, so a new one cannot slip in unlisted
  (a player's own money ledger, ``/api/me/ledger``, is the account's statement);
- ``/api/me/statistics`` needs a session and answers only about the viewer (there
  is no way to name another player);
- a table's ledger (JSON and CSV) is for its players, even one who left, and admins:
  anyone else signed in gets 403, nobody signed in 401, no game 404; a suspended
  player keeps nothing, as on every route;
- no refusal changes the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import snapshot
from tests.reliability.clients import create_game, join, sign_in, sign_up
from tests.reliability.servers import Room, Server, Zygote, room
from tests.reliability.test_accounts import refused, routes, the_app

pytestmark = pytest.mark.slow

# Every route of this part and who may read it.
ROUTES = {
    ("GET", "/api/me/statistics"): "any signed-in player: their own figures",
    ("GET", "/api/games/{game_id}/ledger"): "the table's players and admins",
    ("GET", "/api/games/{game_id}/ledger.csv"): "the table's players and admins",
}


@pytest.fixture
def served(tmp_path: Path, zygote: Zygote) -> Iterator[tuple[Room, Server]]:
    with room("sqlite", tmp_path) as made:
        server = Server(zygote, made, "statistics-access")
        server.start()
        try:
            yield made, server
        finally:
            server.stop()
        assert "Traceback" not in server.log_text(), server.log_text()[-5000:]


def test_every_statistics_and_ledger_route_is_listed() -> None:
    ours = {
        (m, p)
        for m, p, _ in routes(the_app())
        if p.startswith("/api/")
        and ("statistics" in p or (p.startswith("/api/games/") and "/ledger" in p))
    }
    assert ours == set(ROUTES)


def test_who_may_read_statistics_and_ledgers(served: tuple[Room, Server]) -> None:
    made, server = served
    made.admin("boss")
    with httpx.Client(base_url=server.base, timeout=30.0) as client:
        boss = sign_in(client, "boss")
        alice, bob, carol = (
            sign_up(client, "alice"),
            sign_up(client, "bob"),
            sign_up(client, "carol"),
        )
        dave = sign_up(client, "dave")
        game = create_game(client, alice, seats=4, buy_in=1000)
        join(client, game, bob)
        join(client, game, dave)
        left = client.post(f"/api/games/{game}/leave", json={}, headers=dave.auth)
        assert left.status_code == 200, left.text  # before the start: refunded, still listed
        before = snapshot(made.ctx.engine)
        for path in ("/api/games/{game_id}/ledger", "/api/games/{game_id}/ledger.csv"):
            url = path.replace("{game_id}", str(game))
            for who in (alice, bob, dave, boss):
                answer = client.get(url, headers=who.auth)
                assert answer.status_code == 200, (who.name, url, answer.text)
            refused(client.get(url, headers=carol.auth), 403, "forbidden")
            refused(client.get(url), 401, "not_signed_in")
            missing = path.replace("{game_id}", "999999")
            refused(client.get(missing, headers=alice.auth), 404, "not_found")
            refused(client.get(missing, headers=carol.auth), 404, "not_found")
        refused(client.get("/api/me/statistics"), 401, "not_signed_in")
        # Only the viewer's own figures: a stray parameter names nobody else.
        for who in (alice, carol):
            mine = client.get(f"/api/me/statistics?user_id={bob.id}", headers=who.auth)
            assert mine.status_code == 200 and mine.json()["overall"]["hands"] == 0
        assert snapshot(made.ctx.engine) == before
        # A suspended player is refused everywhere, the ledger of their own table too.
        suspended = client.post(
            f"/api/admin/users/{bob.id}/suspend", json={"reason": "r"}, headers=boss.auth
        )
        assert suspended.status_code == 200, suspended.text
        for url in (f"/api/games/{game}/ledger", "/api/me/statistics"):
            assert client.get(url, headers=bob.auth).status_code in (401, 403)
