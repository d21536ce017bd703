"""Issue 17, item 1, against a real ``cardroom serve``: an admin's fold of a big blind
who could check reads back through every history route, and a hand whose record is
damaged answers its own clear error on a kept-alive connection that stays open.

Before the fix the first hand answered 500 on each route; and every 500 (an exception
that reached uvicorn) closed the connection after the answer, so a client's next
request on it failed."""

from __future__ import annotations

import socket

import httpx
import pytest
from sqlalchemy import select

from cardroom.store.models import GameEvent
from tests.reliability.clients import Player, create_game, join, sign_in, sign_up
from tests.reliability.figures import keep
from tests.reliability.servers import Room, Zygote, serving

pytestmark = pytest.mark.slow

ROUTES = (
    "/api/hands/{hand}",
    "/api/hands/{hand}/export?format=phh",
    "/api/hands/{hand}/export?format=pokerstars",
    "/api/hands/{hand}/proof",
    "/api/games/{game}/export?format=phh",
    "/api/games/{game}/export?format=pokerstars",
    "/api/me/history",
    "/api/me/hands",
)


def _to_act(client: httpx.Client, game: int, players: list[Player]) -> Player:
    seen = client.get(f"/api/games/{game}", headers=players[0].auth).json()
    seat = seen["hand"]["seat_to_act"]
    user = next(s["user_id"] for s in seen["seats"] if s["seat"] == seat)
    return next(p for p in players if p.id == user)


def _act(client: httpx.Client, game: int, who: Player, kind: str) -> None:
    version = client.get(f"/api/games/{game}", headers=who.auth).json()["version"]
    done = client.post(
        f"/api/games/{game}/actions", json={"kind": kind, "version": version}, headers=who.auth
    )
    assert done.status_code == 200, done.text


def _raw_gets(port: int, paths: list[str], token: str) -> list[int]:
    """GET each path in turn on ONE kept-alive connection; the statuses answered
    (fewer than asked if the server closed the connection)."""
    statuses = []
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        reader = conn.makefile("rb")
        for path in paths:
            request = (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n"
            )
            try:
                conn.sendall(request.encode())
                status_line = reader.readline()
            except OSError:
                break
            if not status_line:
                break
            statuses.append(int(status_line.split()[1]))
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            reader.read(length)
    return statuses


def test_folded_hands_read_back_and_a_damaged_one_keeps_the_connection(
    zygote: Zygote, fresh_room: Room
) -> None:
    fresh_room.admin()
    with serving(zygote, fresh_room) as server, httpx.Client(base_url=server.base) as client:
        alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
        boss = sign_in(client, "boss")
        game = create_game(client, alice, buy_in=1000, seats=2, rules={"turn_clock_seconds": None})
        join(client, game, bob)
        _act(client, game, _to_act(client, game, [alice, bob]), "call")
        big = _to_act(client, game, [alice, bob])
        seat = client.get(f"/api/games/{game}", headers=big.auth).json()["viewer_seat"]
        folded = client.post(
            f"/api/admin/games/{game}/fold",
            json={"seat": seat, "reason": "away"},
            headers=boss.auth,
        )
        assert folded.status_code == 200, folded.text
        hand = client.get("/api/me/hands", headers=alice.auth).json()["hands"][0]["id"]
        paths = [r.format(hand=hand, game=game) for r in ROUTES]
        statuses = _raw_gets(server.port, paths, alice.token)
        assert statuses == [200] * len(paths), statuses

        with fresh_room.ctx.transaction() as session:
            lost = session.scalars(
                select(GameEvent).where(GameEvent.hand_id == hand, GameEvent.kind == "PlayerActed")
            ).first()
            assert lost is not None
            session.delete(lost)
        refused = client.get(f"/api/hands/{hand}", headers=alice.auth)
        assert refused.status_code == 500
        assert refused.json()["error"]["code"] == "record_unreadable"
        # every route of the damaged hand, then the lists, on one connection
        statuses = _raw_gets(server.port, paths, alice.token)
        assert statuses == [500] * 6 + [200, 200], statuses
    keep(
        f"hand_records_{fresh_room.backend}",
        {"routes": len(paths), "kept_alive_requests": 2 * len(paths)},
    )
