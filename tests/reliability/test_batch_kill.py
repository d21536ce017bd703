"""A server killed between a batch's commit and its answers (web/committer.py).

Eight heads-up tables play on a real ``cardroom serve`` over the players' sockets:
each round, the player to act at every table sends a check or a call (or Continue
between hands) with an idempotency key, all at once, so the committer takes several
into one transaction. The server was started with ``CARDROOM_DIE_AFTER_COMMIT``: it
SIGKILLs itself right after its n-th commit, before it answers anyone in that batch.

Then, with the server started again:

- every command that was answered is stored: its idempotency key's row holds the
  answer's version;
- every command left without an answer is sent again with the same key: one that the
  dead batch had committed is answered ``replayed``, with the version it was stored
  at, and applied no second time; one that had not been committed is applied now;
- at least one command was committed and never answered (the kill was where this
  test means it), each table's version counts exactly the commands applied, and
  ``cardroom audit`` finds every cent.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardroom.cli import main
from cardroom.store.models import IdempotencyKey
from tests.reliability.clients import Json, Player, create_game, join, sign_up
from tests.reliability.servers import CHEAP, Room, Server, Zygote

pytestmark = pytest.mark.slow

TABLES = 8
DIE_AFTER = 6  # commits: a few rounds of play first
# The clock never acts during the test: every version step is one of its commands.
SLOW_CLOCK = {"turn_clock_seconds": 3600, "between_hands_seconds": 3600}


@dataclass
class Sent:
    game: int
    player: Player
    key: str
    message: Json
    version_seen: int
    answered_version: int | None = None


def choose(game: Json, player: Player) -> Json | None:
    """Check or call on your turn, Continue when the hand is over."""
    hand = game.get("hand")
    if hand and hand["running"] and hand["legal"] is not None:
        kinds = set(hand["legal"]["actions"])
        return {"type": "act", "kind": "check" if "check" in kinds else "call"}
    if hand and not hand["running"] and game["summary"]["status"] == "running":
        mine = next(s for s in game["seats"] if s["user_id"] == player.id)
        if not mine["continued"]:
            return {"type": "continue"}
    return None


def answer_to(ws: ClientConnection, ref: str) -> Json:
    while True:
        message: Json = json.loads(ws.recv(timeout=30))
        if message.get("ref") == ref and message["type"] in ("result", "refused"):
            return message


@contextlib.contextmanager
def sockets(
    server: Server, seats: dict[int, list[Player]]
) -> Iterator[dict[int, ClientConnection]]:
    with contextlib.ExitStack() as stack:
        opened: dict[int, ClientConnection] = {}
        for game, players in seats.items():
            for player in players:
                url = f"{server.ws_base}/ws/games/{game}?token={player.token}"
                opened[player.id] = stack.enter_context(connect(url, max_size=2**24))
        yield opened


def round_of(client: httpx.Client, seats: dict[int, list[Player]]) -> list[Sent]:
    """The command each table's player to act sends now."""
    out: list[Sent] = []
    for game, players in seats.items():
        for player in players:
            seen: Json = client.get(f"/api/games/{game}", headers=player.auth).json()
            body = choose(seen, player)
            if body is None:
                continue
            key = f"{game}:{seen['version']}:{player.id}"
            message = {**body, "version": seen["version"], "ref": key, "idempotency_key": key}
            out.append(Sent(game, player, key, message, int(seen["version"])))
            break
    return out


def stored_keys(the_room: Room) -> dict[str, int]:
    with the_room.ctx.transaction() as session:
        rows = session.scalars(select(IdempotencyKey)).all()
        return {row.key: int(row.response["version"]) for row in rows}


def test_answered_commands_are_stored_and_unanswered_ones_apply_once(
    zygote: Zygote, fresh_room: Room
) -> None:
    dying = Server(zygote, fresh_room, env={**CHEAP, "CARDROOM_DIE_AFTER_COMMIT": str(DIE_AFTER)})
    dying.start()
    seats: dict[int, list[Player]] = {}
    with httpx.Client(base_url=dying.base, timeout=10.0) as client:
        for table in range(TABLES):
            host = sign_up(client, f"host{table}")
            guest = sign_up(client, f"guest{table}")
            game = create_game(client, host, seats=2, buy_in=1000, rules=SLOW_CLOCK)
            join(client, game, guest)
            seats[game] = [host, guest]
        sent: list[Sent] = []
        died = False
        with sockets(dying, seats) as ws:
            for _ in range(100):
                commands = round_of(client, seats)
                for item in commands:
                    ws[item.player.id].send(json.dumps(item.message))
                sent.extend(commands)
                try:
                    for item in commands:
                        got = answer_to(ws[item.player.id], item.key)
                        assert got["type"] == "result", got
                        item.answered_version = int(got["result"]["version"])
                except ConnectionClosed:
                    died = True
                    break
    assert died, "the server never died: no batch reached the commit it dies after"
    dying.ended()  # it killed itself
    committed = stored_keys(fresh_room)
    answered = [s for s in sent if s.answered_version is not None]
    unanswered = [s for s in sent if s.answered_version is None]
    assert answered and unanswered
    for item in answered:  # durable before acknowledged
        assert committed.get(item.key) == item.answered_version, item.key
    committed_unanswered = [s for s in unanswered if s.key in committed]
    assert committed_unanswered, "the kill came before a commit, not between it and its answers"

    dying.env.pop("CARDROOM_DIE_AFTER_COMMIT")
    dying.start()
    try:
        with sockets(dying, {s.game: [s.player] for s in unanswered}) as ws:
            for item in unanswered:
                ws[item.player.id].send(json.dumps(item.message))
                got = answer_to(ws[item.player.id], item.key)
                assert got["type"] == "result", got
                result = got["result"]
                if item.key in committed:  # stored by the dead batch: answered again
                    assert result["replayed"] is True
                    assert result["version"] == committed[item.key]
                else:
                    assert result["replayed"] is False
                    assert result["version"] == item.version_seen + 1
        after = stored_keys(fresh_room)
        assert set(after) == {s.key for s in sent}
        with httpx.Client(base_url=dying.base, timeout=10.0) as client:
            for game, (host, _) in seats.items():
                seen = client.get(f"/api/games/{game}", headers=host.auth).json()
                applied = [s for s in sent if s.game == game]
                # Each command applied once moved the table one version on (from the
                # version both players had once seated; no clock fired meanwhile).
                first = min(s.version_seen for s in applied)
                assert seen["version"] == first + len(applied), game
    finally:
        dying.stop()
    audit = io.StringIO()
    with contextlib.redirect_stdout(audit):
        assert main(["audit", "--database-url", fresh_room.url]) == 0, audit.getvalue()
