"""Hidden cards, through the real server: bots play hundreds of hands at four tables
(three-handed and heads-up cash tables, and a legacy cash table and a per-hand table
whose ordered showdowns let losers muck), each bot following its table's WebSocket,
on two server processes when the room is on PostgreSQL. Every HTTP answer and every
WebSocket message that each player and two spectators (a player with no seat, and an
admin, each with the table page's socket too, ``?chat=1``, which adds the chat and
the watchers' count, and reading the table's chat) receive is recorded. Afterwards
the full log says which cards each of them may see, and when:

- no hole card of another player reaches anyone before its owner shows it, and one
  folded or mucked never does; no burnt card ever does;
- the PHH and PokerStars exports of every finished hand (``cardroom.history.privacy``)
  obey the same rule for each player and for an observer.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardroom.service import money
from cardroom.service.admin import CONSOLE
from cardroom.store.models import GameEvent
from tests.conftest import BACKENDS
from tests.reliability.bots import BotStats, Seat, SocketBot
from tests.reliability.clients import Player, create_game, join, sign_in, sign_up
from tests.reliability.figures import keep
from tests.reliability.hidden import EVER, Truth, assert_absent, cards_in, export_sections
from tests.reliability.servers import Room, Server, Zygote, room

pytestmark = pytest.mark.slow

HANDS = 200
SECONDS = 240  # give up waiting for HANDS after this long
SEED = 5


@dataclass
class Log:
    """Everything each viewer received: (viewer id, game, body)."""

    items: list[tuple[int, int, Any]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, viewer: Player, game: int, body: Any, kind: str) -> None:
        with self.lock:
            self.items.append((viewer.id, game, body))
            self.kinds[kind] += 1


class Listener(threading.Thread):
    """A WebSocket of one viewer, recording every message until told to stop."""

    def __init__(self, url: str, viewer: Player, game: int | None, log: Log) -> None:
        super().__init__(daemon=True)
        self.url, self.viewer, self.game, self.log = url, viewer, game, log
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.kinds: Counter[str] = Counter()  # the messages' types

    def run(self) -> None:
        try:
            with connect(self.url, max_size=2**24) as ws:
                self.ready.set()
                while not self.stop.is_set():
                    try:
                        text = ws.recv(timeout=0.2)
                    except TimeoutError:
                        continue
                    message = json.loads(text)
                    game = self.game if self.game is not None else message.get("game_id")
                    kind = "socket /ws/games" if self.game is not None else "socket /ws/me"
                    assert message.get("type") != "error", message
                    self.kinds[str(message.get("type"))] += 1
                    if game is not None:
                        self.log.add(self.viewer, int(game), message, kind)
        except ConnectionClosed:
            pass
        except BaseException as failed:
            self.error = failed
        finally:
            self.ready.set()


class Spectator(threading.Thread):
    """Someone with no seat who keeps loading the tables and their events."""

    def __init__(self, base: str, viewer: Player, games: list[int], log: Log) -> None:
        super().__init__(daemon=True)
        self.base, self.viewer, self.games, self.log = base, viewer, games, log
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        after = dict.fromkeys(self.games, 0)
        try:
            with httpx.Client(base_url=self.base, timeout=10.0) as client:
                while not self.stop.is_set():
                    for game in self.games:
                        table = client.get(f"/api/games/{game}", headers=self.viewer.auth)
                        assert table.status_code == 200, table.text
                        self.log.add(self.viewer, game, table.json(), "http table")
                        page = client.get(
                            f"/api/games/{game}/events",
                            params={"after": after[game]},
                            headers=self.viewer.auth,
                        )
                        assert page.status_code == 200, page.text
                        body = page.json()
                        self.log.add(self.viewer, game, body, "http events")
                        if body["events"]:
                            after[game] = body["events"][-1]["seq"]
                        chat = client.get(f"/api/games/{game}/chat", headers=self.viewer.auth)
                        assert chat.status_code == 200, chat.text
                        self.log.add(self.viewer, game, chat.json(), "http chat")
                    time.sleep(0.3)
        except BaseException as failed:
            self.error = failed


def hands_dealt(the_room: Room) -> int:
    with the_room.ctx.transaction() as session:
        count = session.scalar(
            select(func.count()).select_from(GameEvent).where(GameEvent.kind == "HandDealt")
        )
        return int(count or 0)


@contextmanager
def the_room(tmp_path: Path) -> Iterator[Room]:
    # One backend is enough for what leaves the server (the same code serves both);
    # PostgreSQL, what a room runs on, when it is there.
    with room(BACKENDS[-1], tmp_path) as made:
        yield made


def test_no_hidden_card_reaches_anyone(tmp_path: Path, zygote: Zygote) -> None:
    with the_room(tmp_path) as made:
        run_and_scan(made, zygote)


def run_and_scan(made: Room, zygote: Zygote) -> None:
    made.admin("boss")
    # Two server processes on PostgreSQL, as a room runs behind a proxy: each table is
    # played through one, watched through the other too (LISTEN/NOTIFY between them).
    servers = [
        Server(zygote, made, f"cards-{k}") for k in range(2 if made.backend == "postgresql" else 1)
    ]
    for server in servers:
        server.start()
    server = servers[0]
    log = Log()
    stats = BotStats()
    stop = threading.Event()
    began = time.monotonic()
    with ExitStack() as stack:
        for running in servers:
            stack.callback(running.stop)
        with httpx.Client(base_url=server.base, timeout=10.0) as client:
            names = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ida"]
            players = {n: sign_up(client, n) for n in names}
            for name in names:  # the per-hand table takes each buy-in from the balance
                money.grant(made.ctx, CONSOLE, name, 10_000_000, "hidden-card test bankroll")
            watcher = sign_up(client, "watcher")
            boss = sign_in(client, "boss")
            clock = {"turn_clock_seconds": 5, "between_hands_seconds": 5}
            cash = {"buy_in": 1000, "rules": clock}
            per_hand = {"preset": "standard", "format": "per_hand", "buy_in": 1000, "rules": clock}
            at = {
                create_game(client, players["ann"], seats=3, **cash): ["ann", "ben", "cat"],
                create_game(client, players["dan"], seats=2, **cash): ["dan", "eve"],
                create_game(client, players["fay"], seats=2, preset="legacy", **cash): [
                    "fay",
                    "gus",
                ],
                create_game(client, players["hal"], seats=2, **per_hand): ["hal", "ida"],
            }
            games = list(at)
            per_hand_game = games[-1]
        listeners: list[Listener] = []
        for viewer in [*players.values(), watcher, boss]:
            url = f"{server.ws_base}/ws/me?token={viewer.token}"
            listeners.append(Listener(url, viewer, None, log))
        table_pages: list[Listener] = []  # the spectators' sockets as the table page opens them
        for k, game in enumerate(games):
            for viewer in (watcher, boss):
                other = servers[(k + 1) % len(servers)]
                url = f"{other.ws_base}/ws/games/{game}?token={viewer.token}"
                listeners.append(Listener(url, viewer, game, log))
                page = Listener(f"{url}&chat=1", viewer, game, log)
                listeners.append(page)
                table_pages.append(page)
        levels = ["beginner", "regular", "shark"]

        def record(player: Player, game: int, body: Any) -> None:
            log.add(player, game, body, "player")

        bots = [
            SocketBot(
                servers[g % len(servers)].base,
                servers[g % len(servers)].ws_base,
                Seat(
                    game,
                    players[name],
                    levels[(k + game) % 3],
                    presses_continue=False,
                    cash_table=game != per_hand_game,
                    deals=k == 0,
                ),
                stop,
                stats,
                seed=f"{SEED}:{name}",
                record=record,
            )
            for g, game in enumerate(games)
            for k, name in enumerate(at[game])
        ]
        for thread in [*listeners, *bots]:
            thread.start()
            stack.callback(stop.set)
        for listener in listeners:
            stack.callback(listener.stop.set)
        for ready in [*(x.ready for x in listeners), *(b.ready for b in bots)]:
            assert ready.wait(10)
        spectators = [Spectator(server.base, who, games, log) for who in (watcher, boss)]
        with httpx.Client(base_url=server.base) as client:
            for game in games:
                for name in at[game][1:]:
                    record(players[name], game, join(client, game, players[name]))
        for spectator in spectators:
            spectator.start()
        while hands_dealt(made) < HANDS and time.monotonic() - began < SECONDS:
            time.sleep(0.5)
            for name, error in [
                *((x.name, x.error) for x in bots),
                *((x.name, x.error) for x in spectators),
                *((x.name, x.error) for x in listeners),
            ]:
                assert error is None, f"{name}: {error!r}"
        stop.set()
        for spectator in spectators:
            spectator.stop.set()
        for thread in [*bots, *spectators]:
            thread.join(timeout=15)
        time.sleep(0.5)  # the sockets get the last changes
        for listener in listeners:
            listener.stop.set()
            listener.join(timeout=5)
            assert listener.error is None, repr(listener.error)
        for page in table_pages:  # the watchers' count reached them, and no card with it
            assert page.kinds["watchers"] >= 1 and page.kinds["snapshot"] >= 1, page.kinds
        # The clocks still run: hands left half-played may end while this looks.
        served = scan_served_histories(
            made, servers[-1], Truth.of(made.ctx, games), at, players, [watcher, boss]
        )
    dealt = hands_dealt(made)
    assert dealt >= HANDS, f"only {dealt} hands in {SECONDS} s"
    truth = Truth.of(made.ctx, games)  # the servers are stopped: the whole story

    checked = 0
    with log.lock:
        items = list(log.items)
    for viewer_id, game, body in items:
        checked += truth.check(game, body, viewer_id)
    exports = sum(truth.check_exports(made.ctx, g, [players[n].id for n in at[g]]) for g in games)
    # The scanner can fail: another player's unshown card planted in a table is caught.
    never_shown = [s for s in truth.by_game[games[0]] if s.seat is not None and s.shown_at > 1e18]
    assert never_shown, "some hands were folded before a showdown"
    events_seen = Counter(e.kind for g in games for e in truth.events[g])
    assert events_seen["HandShown"] and events_seen["HandMucked"], "showdowns, and mucks"
    planted = {"summary": {}, "last_seq": 10**9, "hand": None, "x": never_shown[0].card}
    with pytest.raises(AssertionError):
        truth.check(games[0], planted, None)

    secrets = [s for g in games for s in truth.by_game[g]]
    events = Counter(e.kind for g in games for e in truth.events[g])
    keep(
        "hidden-cards",
        {
            "backend": made.backend,
            "hands dealt": dealt,
            "messages and answers scanned": len(items),
            "by source": dict(log.kinds),
            "tables and events checked in them": checked,
            "hand-history exports checked (PHH and PokerStars, cardroom.history.privacy)": exports,
            "hand histories served over HTTP and checked": served,
            "hole cards dealt": sum(1 for s in secrets if s.seat is not None),
            "hole cards never shown (folded, mucked or won uncontested)": len(
                [s for s in secrets if s.seat is not None and s.shown_at > 1e18]
            ),
            "burnt cards": sum(1 for s in secrets if s.seat is None),
            "hands shown": events["HandShown"],
            "hands mucked": events["HandMucked"],
            "bots": dict(stats.counts),
            "seconds": round(time.monotonic() - began, 1),
        },
    )


def scan_served_histories(
    made: Room,
    server: Server,
    truth: Truth,
    at: dict[int, list[str]],
    players: dict[str, Player],
    spectators: list[Player],
) -> dict[str, int]:
    """What the server itself hands out about finished hands: each player's export of
    each whole game (both formats: every hand they were dealt), and, for a sample of
    hands (every one with a muck, and the last few of each table), the replay, the
    exports and the deck proof as each player of the hand and each spectator gets
    them."""
    counts: Counter[str] = Counter()
    with httpx.Client(base_url=server.base, timeout=120.0) as client:
        for game, names in at.items():
            for name in names:
                who = players[name]
                for fmt in ("phh", "pokerstars"):
                    got = client.get(
                        f"/api/games/{game}/export", params={"format": fmt}, headers=who.auth
                    )
                    assert got.status_code == 200, got.text
                    for hand_id, section in export_sections(got.text, fmt):
                        if hand_id not in truth.finished:
                            continue  # ended since the log was read
                        leaked = truth.hidden(game, hand_id, who.id, EVER) & cards_in(section, fmt)
                        assert not leaked, (who.name, hand_id, leaked, section)
                        counts["hands in game exports"] += 1
            mucked = {e.hand_id for e in truth.events[game] if e.kind == "HandMucked"}
            finished = [e.hand_id for e in truth.events[game] if e.hand_id in truth.finished]
            for hand_id in sorted(mucked | set(finished[-4:])):
                dealt = [p for p in players.values() if (hand_id, p.id) in truth.seats]
                for who in [*dealt, *spectators]:
                    hidden = truth.hidden(game, hand_id, who.id, EVER)
                    replay = client.get(f"/api/hands/{hand_id}", headers=who.auth)
                    assert replay.status_code == 200, replay.text
                    assert_absent(hidden, replay.json(), who.id)
                    counts["replays"] += 1
                    for fmt in ("phh", "pokerstars"):
                        got = client.get(
                            f"/api/hands/{hand_id}/export", params={"format": fmt}, headers=who.auth
                        )
                        assert got.status_code == 200, got.text
                        assert not hidden & cards_in(got.text, fmt), (who.name, hand_id, got.text)
                        counts["hand exports"] += 1
                    proof = client.get(f"/api/hands/{hand_id}/proof", headers=who.auth)
                    assert proof.status_code in (200, 404), proof.text
                    if proof.status_code == 200:
                        assert_absent(hidden, proof.json(), who.id)
                        counts["deck proofs"] += 1
    return dict(counts)
