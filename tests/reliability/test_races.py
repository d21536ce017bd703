"""Races against a real ``cardroom serve``, on SQLite and PostgreSQL: requests sent
from many threads at the same moment (each on its own connection, released together
by a barrier). Whatever the order the server takes them in, exactly one has an
effect and the others get a clear 409 with a sentence, and the ledger stays exact:

- the same action many times (without an idempotency key: one 200, the rest stale; with
  one key: one effect, and the rest get the same answer marked ``replayed``);
- different actions at once by the player to act, and an action by the player who is
  not;
- the last seat of a table joined by several players at once, and one player joining
  one table many times at once (one seat per player per table);
- a cash-out sent many times during a hand while the other player acts: one pending
  cash-out, paid once, with exactly the stack, when the hand ends.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.sync.client import connect

from cardroom.service import money
from cardroom.store.models import (
    GameEvent,
    LedgerAccount,
    LedgerEntry,
    LedgerTransfer,
    TransferKind,
)
from tests.reliability.clients import Json, Player, create_game, join, sign_up
from tests.reliability.figures import keep
from tests.reliability.servers import Room, Server, Zygote
from tests.reliability.test_crashes import audit_is_clean

pytestmark = pytest.mark.slow

THREADS = 12
ROUNDS = 4
Call = Callable[[httpx.Client], httpx.Response]


class Racer:
    """Sends requests at the same moment, each on its own open connection, and counts
    what came back."""

    def __init__(self, base: str) -> None:
        self.clients = [httpx.Client(base_url=base, timeout=60.0) for _ in range(THREADS)]
        for client in self.clients:
            client.get("/healthz")  # connected before any race
        self.sent = 0
        self.outcomes: Counter[str] = Counter()

    def close(self) -> None:
        for client in self.clients:
            client.close()

    def race(self, calls: list[Call]) -> list[httpx.Response]:
        assert len(calls) <= len(self.clients)
        barrier = threading.Barrier(len(calls))
        answers: list[httpx.Response | BaseException | None] = [None] * len(calls)

        def run(i: int) -> None:
            try:
                barrier.wait(timeout=30)
                answers[i] = calls[i](self.clients[i])
            except BaseException as failed:
                answers[i] = failed

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        out = []
        for answer in answers:
            assert isinstance(answer, httpx.Response), answer
            out.append(answer)
            self.outcomes[str(answer.status_code)] += 1
        self.sent += len(calls)
        return out


def post(path: str, who: Player, body: Json | None = None) -> Call:
    return lambda client: client.post(path, json=body or {}, headers=who.auth)


def one_effect(answers: list[httpx.Response]) -> httpx.Response:
    """Exactly one 200; every other answer a 409 in the room's error shape."""
    ok = [a for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code != 200]
    assert len(ok) == 1, [(a.status_code, a.text) for a in answers]
    for answer in refused:
        assert answer.status_code == 409, answer.text
        error = answer.json()["error"]
        assert error["code"] == "conflict" and error["message"].endswith("."), error
    return ok[0]


def table(client: httpx.Client, game: int, who: Player) -> Json:
    seen = client.get(f"/api/games/{game}", headers=who.auth)
    assert seen.status_code == 200, seen.text
    body: Json = seen.json()
    return body


def player_to_act(client: httpx.Client, game: int, players: list[Player]) -> Player | None:
    for who in players:
        hand = table(client, game, who)["hand"]
        if hand is None or not hand["running"]:
            return None
        if hand["legal"] is not None:
            return who
    return None


def events_of(room: Room, game: int, after: int) -> list[GameEvent]:
    with room.ctx.transaction() as session:
        return list(
            session.scalars(
                select(GameEvent)
                .where(GameEvent.game_id == game, GameEvent.seq > after)
                .order_by(GameEvent.seq)
            )
        )


def deal_next(client: httpx.Client, game: int, host: Player, players: list[Player]) -> None:
    """The next hand, at once; a player left with no chips buys in again first."""
    for who in players:
        seat = next(s for s in table(client, game, who)["seats"] if s["user_id"] == who.id)
        if seat["stack"] == 0:
            again = client.post(f"/api/games/{game}/rebuy", json={}, headers=who.auth)
            assert again.status_code == 200, again.text
    dealt = client.post(f"/api/games/{game}/skip-waiting", json={}, headers=host.auth)
    assert dealt.status_code == 200, dealt.text


def transfers(room: Room, game: int, user: int, kind: str) -> list[int]:
    """The amounts of ``kind`` transfers between ``user`` and ``game``, signed as the
    user's account saw them."""
    with room.ctx.transaction() as session:
        account = session.scalar(select(LedgerAccount.id).where(LedgerAccount.user_id == user))
        rows = session.execute(
            select(LedgerEntry.amount_cents)
            .join(LedgerTransfer, LedgerTransfer.id == LedgerEntry.transfer_id)
            .where(
                LedgerEntry.account_id == account,
                LedgerTransfer.game_id == game,
                LedgerTransfer.kind == TransferKind(kind),
            )
        ).all()
    return [int(r[0]) for r in rows]


def test_races_have_one_effect(fresh_room: Room, zygote: Zygote) -> None:
    room = fresh_room
    server = Server(zygote, room, "races")
    server.start()
    racer = Racer(server.base)
    figures: dict[str, dict[str, Any]] = {}
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            for name, scenario in (
                ("the same action", same_action),
                ("different actions at once", different_actions),
                ("the last seat", last_seat),
                ("one player, one table, many joins", many_joins),
                ("cash-out during a hand", cash_out),
            ):
                began = time.monotonic()
                figures[name] = scenario(room, client, racer)
                figures[name]["seconds"] = round(time.monotonic() - began, 1)
    finally:
        racer.close()
        server.stop()
    audit_is_clean(room)
    assert money.audit(room.ctx).balanced
    assert "Traceback" not in server.log_text()
    keep(
        f"races-{room.backend}",
        {
            "backend": room.backend,
            "requests raced": racer.sent,
            "answers": dict(racer.outcomes),
            "threads per race": THREADS,
            **figures,
        },
    )


def same_action(room: Room, client: httpx.Client, racer: Racer) -> dict[str, Any]:
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    game = create_game(client, alice, seats=2, buy_in=1000)
    join(client, game, bob)
    races = 0
    for round_ in range(ROUNDS + 2):
        who = player_to_act(client, game, [alice, bob])
        if who is None:
            deal_next(client, game, alice, [alice, bob])
            who = player_to_act(client, game, [alice, bob])
        assert who is not None
        seen = table(client, game, who)
        legal = seen["hand"]["legal"]["actions"]
        body: Json = {"kind": "check" if "check" in legal else "call", "version": seen["version"]}
        keyed = round_ % 2 == 1
        if keyed:
            body["idempotency_key"] = f"same-{round_}"
        answers = racer.race([post(f"/api/games/{game}/actions", who, body)] * THREADS)
        races += 1
        if keyed:
            # One effect; every answer is that effect's, the later ones replayed.
            assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
            first = [a.json() for a in answers if not a.json()["replayed"]]
            assert len(first) == 1
            for answer in answers:
                assert {**answer.json(), "replayed": False} == first[0]
            done = first[0]
        else:
            done = one_effect(answers).json()
        acted = [e for e in events_of(room, game, seen["last_seq"]) if e.kind == "PlayerActed"]
        assert len(acted) == 1, "one action, once"
        assert done["version"] == seen["version"] + 1
    return {"races": races, "requests": races * THREADS}


def different_actions(room: Room, client: httpx.Client, racer: Racer) -> dict[str, Any]:
    carol, dave = sign_up(client, "carol"), sign_up(client, "dave")
    game = create_game(client, carol, seats=2, buy_in=1000)
    join(client, game, dave)
    races = 0
    for _ in range(ROUNDS):
        who = player_to_act(client, game, [carol, dave])
        if who is None:
            deal_next(client, game, carol, [carol, dave])
            who = player_to_act(client, game, [carol, dave])
        assert who is not None
        other = dave if who == carol else carol
        seen = table(client, game, who)
        legal = seen["hand"]["legal"]
        version = seen["version"]
        bodies: list[tuple[Player, Json]] = [(who, {"kind": "fold", "version": version})]
        bodies.append(
            (who, {"kind": "check" if "check" in legal["actions"] else "call", "version": version})
        )
        if "raise" in legal["actions"] or "bet" in legal["actions"]:
            kind = "raise" if "raise" in legal["actions"] else "bet"
            bodies.append((who, {"kind": kind, "amount": legal["min_to"], "version": version}))
        bodies.append((other, {"kind": "fold", "version": version}))  # not their turn
        calls = [post(f"/api/games/{game}/actions", p, b) for p, b in bodies]
        calls = (calls * THREADS)[:THREADS]
        one_effect(racer.race(calls))
        races += 1
        acted = [e for e in events_of(room, game, seen["last_seq"]) if e.kind == "PlayerActed"]
        assert len(acted) == 1 and acted[0].payload["seat"] == seen["viewer_seat"]
    return {"races": races, "requests": races * THREADS}


def cancel_empty(client: httpx.Client, game: int, host: Player) -> None:
    """The host cancels the game everyone left: an empty waiting game still takes one
    of its host's three waiting-game slots (issue 17), and each round makes one."""
    cancelled = client.post(
        f"/api/games/{game}/cancel", json={"reason": "next round"}, headers=host.auth
    )
    assert cancelled.status_code == 200, cancelled.text


def last_seat(room: Room, client: httpx.Client, racer: Racer) -> dict[str, Any]:
    crowd = [sign_up(client, f"crowd{k}") for k in range(THREADS + 2)]
    races = 0
    for round_ in range(ROUNDS):
        host, guest, *rest = crowd[round_ % 3 :] + crowd[: round_ % 3]
        game = create_game(client, host, seats=3, buy_in=1000)
        join(client, game, guest)
        hopefuls = rest[:THREADS]
        before = {p.id: money.balance(room.ctx, p.id) for p in hopefuls}
        winner_answer = one_effect(
            racer.race([post(f"/api/games/{game}/join", p) for p in hopefuls])
        )
        races += 1
        seated = {s["user_id"] for s in table(client, game, host)["seats"]}
        winners = [p for p in hopefuls if p.id in seated]
        assert len(winners) == 1 and winner_answer.json()["game_id"] == game
        for p in hopefuls:
            paid = transfers(room, game, p.id, "buy_in")
            if p in winners:
                assert paid == [-1000] and money.balance(room.ctx, p.id) == before[p.id] - 1000
            else:
                assert paid == [] and money.balance(room.ctx, p.id) == before[p.id]
        # The seats free again, for the next round's players.
        for who in (host, guest, winners[0]):
            left = client.post(f"/api/games/{game}/leave", json={}, headers=who.auth)
            assert left.status_code == 200, left.text
    return {"races": races, "requests": races * THREADS}


def many_joins(room: Room, client: httpx.Client, racer: Racer) -> dict[str, Any]:
    host, eager = sign_up(client, "host9"), sign_up(client, "eager")
    races = 0
    for _ in range(ROUNDS):
        game = create_game(client, host, seats=9, buy_in=1000)
        before = money.balance(room.ctx, eager.id)
        one_effect(racer.race([post(f"/api/games/{game}/join", eager)] * THREADS))
        races += 1
        seats = [s for s in table(client, game, host)["seats"] if s["user_id"] == eager.id]
        assert len(seats) == 1
        assert transfers(room, game, eager.id, "buy_in") == [-1000]
        assert money.balance(room.ctx, eager.id) == before - 1000
        for who in (eager, host):
            assert client.post(f"/api/games/{game}/leave", json={}, headers=who.auth).is_success
        cancel_empty(client, game, host)
    return {"races": races, "requests": races * THREADS}


def cash_out(room: Room, client: httpx.Client, racer: Racer) -> dict[str, Any]:
    erin, frank = sign_up(client, "erin"), sign_up(client, "frank")
    races = 0
    for round_ in range(ROUNDS):
        game = create_game(client, erin, seats=2, buy_in=1000)
        join(client, game, frank)
        leaver, stayer = (erin, frank) if round_ % 2 == 0 else (frank, erin)
        start = money.balance(room.ctx, leaver.id)
        seen = table(client, game, stayer)
        stayer_acts = seen["hand"]["legal"] is not None
        calls = [post(f"/api/games/{game}/cash-out", leaver)] * (THREADS - 1)
        if stayer_acts:  # the other player acts in the same moment
            calls.append(
                post(
                    f"/api/games/{game}/actions",
                    stayer,
                    {"kind": "call", "version": seen["version"]},
                )
            )
        answers = racer.race(calls)
        races += 1
        outs = answers[: THREADS - 1]
        assert sum(a.status_code == 200 for a in outs) == 1, [a.text for a in outs]
        for answer in outs:
            assert answer.status_code in (200, 409), answer.text
        # Play the hand out: whoever is to act folds or checks until it ends.
        for _ in range(20):
            who = player_to_act(client, game, [erin, frank])
            if who is None:
                break
            now = table(client, game, who)
            kind = "check" if "check" in now["hand"]["legal"]["actions"] else "fold"
            acted = client.post(
                f"/api/games/{game}/actions",
                json={"kind": kind, "version": now["version"]},
                headers=who.auth,
            )
            assert acted.status_code in (200, 409), acted.text
        log = events_of(room, game, 0)
        cashed = [e for e in log if e.kind == "CashedOut" and e.payload["player"] == leaver.id]
        assert len(cashed) == 1, [e.kind for e in log]
        paid_out = transfers(room, game, leaver.id, "cash_out")
        assert paid_out == ([cashed[0].payload["amount"]] if cashed[0].payload["amount"] else [])
        assert money.balance(room.ctx, leaver.id) == start + sum(paid_out)
        seats = {s["user_id"] for s in table(client, game, stayer)["seats"]}
        assert leaver.id not in seats
        client.post(f"/api/games/{game}/leave", json={}, headers=stayer.auth)
    return {"races": races, "requests": races * THREADS}


def test_a_table_is_read_at_one_moment(fresh_room: Room, zygote: Zygote) -> None:
    """Readers racing writers: every table served (over HTTP and over the socket) is
    the table at one version, with ``last_seq`` the last event of exactly that version.
    A table newer than its ``last_seq`` (or older) would make a client that follows the
    events from there skip some, or see some twice."""
    room = fresh_room
    server = Server(zygote, room, "snapshots")
    server.start()
    stop = threading.Event()
    seen: list[tuple[int, int]] = []  # (version, last_seq) of every table served
    lock = threading.Lock()
    try:
        with httpx.Client(base_url=server.base, timeout=30.0) as client:
            alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
            game = create_game(client, alice, seats=2, buy_in=1000)
            join(client, game, bob)

            def read() -> None:
                with httpx.Client(base_url=server.base, timeout=30.0) as own:
                    while not stop.is_set():
                        table = own.get(f"/api/games/{game}", headers=bob.auth).json()
                        with lock:
                            seen.append((table["version"], table["last_seq"]))

            def watch() -> None:
                url = f"{server.ws_base}/ws/games/{game}?token={alice.token}"
                with connect(url) as ws:
                    while not stop.is_set():
                        try:
                            message = json.loads(ws.recv(timeout=0.2))
                        except TimeoutError:
                            continue
                        if message["type"] == "snapshot":
                            with lock:
                                seen.append((message["version"], message["seq"]))

            readers = [threading.Thread(target=read) for _ in range(4)]
            readers.append(threading.Thread(target=watch))
            for reader in readers:
                reader.start()
            began = time.monotonic()
            while time.monotonic() - began < 8:
                who = player_to_act(client, game, [alice, bob])
                if who is None:
                    deal_next(client, game, alice, [alice, bob])
                    continue
                now = table(client, game, who)
                legal = now["hand"]["legal"]["actions"]
                body = {"kind": "check" if "check" in legal else "call", "version": now["version"]}
                client.post(f"/api/games/{game}/actions", json=body, headers=who.auth)
            stop.set()
            for reader in readers:
                reader.join(timeout=30)
    finally:
        stop.set()
        server.stop()
    last_of: dict[int, int] = {}
    for event in events_of(room, game, 0):
        last_of[event.version] = max(last_of.get(event.version, 0), event.seq)
    torn = []
    for version, seq in seen:
        expected = max(s for v, s in last_of.items() if v <= version)
        if seq != expected:
            torn.append((version, seq, expected))
    assert not torn, f"{len(torn)} of {len(seen)} tables were torn: {torn[:5]}"
    assert len(seen) > 50
    keep(
        f"one-moment-{room.backend}",
        {"tables read while the game changed": len(seen), "versions": len(last_of)},
    )
