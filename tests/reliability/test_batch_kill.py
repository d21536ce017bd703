"""A server killed between a batch's commit and its answers (web/committer.py).

Eight heads-up tables play on a real ``cardroom serve``, over the players' sockets (and
again over HTTP): each round, the player to act at every table sends a check or a call
(or Continue between hands) with an idempotency key, all at once (over HTTP, each on a
connection of its own), so the committer takes several into one transaction. The
server was started with ``CARDROOM_DIE_AFTER_COMMIT``: it SIGKILLs itself right after
its n-th commit, before it answers anyone in that batch.

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
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
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
# Commits: the guests' joins (a command each, through the committer), then a few rounds
# of play.
DIE_AFTER = TABLES + 6
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


# How a round's commands go out and their answers come back: each returns, per command
# sent, its answer (``CommandOut``), or None where the server died before answering.
Send = Callable[[Server, list[Sent]], list[Json | None]]


def over_sockets(server: Server, sent: list[Sent]) -> list[Json | None]:
    with sockets(server, {s.game: [s.player] for s in sent}) as ws:
        for item in sent:
            with contextlib.suppress(ConnectionClosed):  # died meanwhile: never sent
                ws[item.player.id].send(json.dumps(item.message))
        answers: list[Json | None] = []
        for item in sent:
            try:
                got = answer_to(ws[item.player.id], item.key)
            except ConnectionClosed:
                answers.append(None)
                continue
            assert got["type"] == "result", got
            answers.append(got["result"])
        return answers


def over_http(server: Server, sent: list[Sent]) -> list[Json | None]:
    def post(item: Sent) -> Json | None:
        body = {k: v for k, v in item.message.items() if k not in ("type", "ref")}
        path = "actions" if item.message["type"] == "act" else "continue"
        # A connection of its own, so the commands queue on the committer together.
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            try:
                got = client.post(
                    f"/api/games/{item.game}/{path}", json=body, headers=item.player.auth
                )
            except httpx.TransportError:
                return None
        assert got.status_code == 200, got.text
        answer: Json = got.json()
        return answer

    with ThreadPoolExecutor(len(sent) or 1) as pool:
        return list(pool.map(post, sent))


@pytest.mark.parametrize("send", [over_sockets, over_http], ids=["socket", "http"])
def test_answered_commands_are_stored_and_unanswered_ones_apply_once(
    zygote: Zygote, fresh_room: Room, send: Send
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
        for _ in range(100):
            commands = round_of(client, seats)
            sent.extend(commands)
            answers = send(dying, commands)
            for item, answer in zip(commands, answers, strict=True):
                item.answered_version = None if answer is None else int(answer["version"])
            if None in answers:
                break
    assert any(s.answered_version is None for s in sent), (
        "the server never died: no batch reached the commit it dies after"
    )
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
        for item in unanswered:  # one at a time: the retry, as a client makes it
            [result] = send(dying, [item])
            assert result is not None
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
