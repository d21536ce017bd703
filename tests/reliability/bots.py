"""Bot players driving a real server, one thread each.

``Bot`` polls the table over HTTP and carries on through server crashes: a request
that gets no answer is sent again, with the same idempotency key, until one comes
(the first answer's effect or a clear refusal). ``hold`` stops the ``Bot``s between
two requests, for a test to look at a table nobody but the clock changes.
``SocketBot`` follows its table's WebSocket instead and answers each snapshot, as
the browser's table does."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardroom.deck import SeededRandomSource
from tests.reliability.clients import (
    Json,
    Player,
    bot_choice,
    my_seat,
    my_turn,
    waiting_for_my_continue,
)

Recorder = Callable[[Player, int, Any], None]  # who, which game, what they got


@dataclass
class Seat:
    """A player at one game, and how they play: ``level`` of ``cardroom.bots``, or
    None for a player who never acts (the clock acts for them)."""

    game: int
    player: Player
    level: str | None
    presses_continue: bool = True
    cash_table: bool = True
    deals: bool = False  # the host, dealing the next hand at once ("skip waiting")


@dataclass
class BotStats:
    counts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.counts[what] += n


class Bot(threading.Thread):
    """Plays ``seat`` until ``stop`` is set; waits while ``go`` is clear."""

    def __init__(
        self,
        base: str,
        seat: Seat,
        go: threading.Event,
        stop: threading.Event,
        stats: BotStats,
        *,
        seed: str,
        record: Recorder | None = None,
        pause: float = 0.05,
        follow_events: bool = False,
    ) -> None:
        super().__init__(name=f"bot-{seat.player.name}", daemon=True)
        self.base, self.seat, self.go, self.stop, self.stats = base, seat, go, stop, stats
        self.source = SeededRandomSource(seed)
        self.record = record
        self.pause = pause
        self.follow_events = follow_events
        self.last_seq = 0
        self.answers: list[tuple[str, int, Json]] = []  # (command, status, body) of each
        self.error: BaseException | None = None
        # Held from a look at ``go`` until the requests it let through are answered
        # or failed (let go while a retry waits for ``go``): ``hold`` takes it.
        self.sending = threading.Lock()

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base, timeout=10.0) as client:
                while not self.stop.is_set():
                    if not self.go.wait(timeout=0.1):
                        continue
                    acted: bool | None = None
                    with self.sending:
                        if not self.go.is_set():  # held since the look above
                            continue
                        try:
                            acted = self.step(client)
                        except httpx.TransportError:
                            self.stats.add("transport errors")
                    if acted is None:
                        time.sleep(0.05)
                    elif not acted:
                        time.sleep(self.pause)
        except BaseException as failed:  # reported by the test
            self.error = failed

    # -- one look at the table and at most one command ----------------------------

    def get(self, client: httpx.Client, path: str) -> Json:
        response = client.get(path, headers=self.seat.player.auth)
        assert response.status_code == 200, (path, response.status_code, response.text)
        body: Json = response.json()
        if self.record is not None:
            self.record(self.seat.player, self.seat.game, body)
        return body

    def step(self, client: httpx.Client) -> bool:
        seat, me = self.seat, self.seat.player
        game = self.get(client, f"/api/games/{seat.game}")
        if self.follow_events and game["last_seq"] > self.last_seq:
            page = self.get(client, f"/api/games/{seat.game}/events?after={self.last_seq}")
            self.last_seq = (
                int(page["last_seq"]) if not page["events"] else page["events"][-1]["seq"]
            )
        if seat.level is None:
            return False
        if my_turn(game):
            body = bot_choice(game, seat.level, self.source)
            body["idempotency_key"] = f"{seat.game}:{game['version']}:{me.id}"
            self.command(client, "actions", body, "actions")
            return True
        mine = my_seat(game, me.id)
        status = game["summary"]["status"]
        if mine is None:
            if status in ("running", "paused", "waiting"):
                self.command(client, "join", self.keyed(game, "join"), "joins")
                return True
            return False
        if seat.presses_continue and waiting_for_my_continue(game, me.id):
            self.command(client, "continue", self.keyed(game, "continue"), "continues")
            return True
        hand = game["hand"]
        if seat.cash_table and mine["stack"] == 0 and not (hand and hand["running"]):
            self.command(client, "rebuy", self.keyed(game, "rebuy"), "rebuys")
            return True
        return False

    def keyed(self, game: Json, what: str) -> Json:
        version = game["version"]
        return {"version": version, "idempotency_key": f"{what}:{version}:{self.seat.player.id}"}

    def command(self, client: httpx.Client, what: str, body: Json, counted: str) -> None:
        """POST until an answer comes: the server may be down, or die mid-request."""
        path = f"/api/games/{self.seat.game}/{what}"
        retried = False
        while True:
            try:
                response = client.post(path, json=body, headers=self.seat.player.auth)
                break
            except httpx.TransportError:
                self.stats.add("requests without an answer")
                retried = True
                if self.stop.is_set() or not self.until_go():
                    return
        if self.record is not None:
            self.record(self.seat.player, self.seat.game, response.json())
        self.answers.append((what, response.status_code, response.json()))
        if response.status_code == 200:
            self.stats.add(counted)
            if response.json().get("replayed"):
                self.stats.add("answers replayed after a lost answer" if retried else "replayed")
        elif response.status_code == 409:
            self.stats.add(f"{counted} refused (409)")
        else:
            raise AssertionError((path, body, response.status_code, response.text))

    def until_go(self) -> bool:
        """Between two tries of a request (``sending`` held): wait a moment, and while
        the test holds the bots, with ``sending`` let go; False if stopped meanwhile."""
        while True:
            self.sending.release()
            try:
                time.sleep(0.05)
                while not self.go.wait(timeout=0.1):  # held while the test looks
                    if self.stop.is_set():
                        return False
            finally:
                self.sending.acquire()
            if self.go.is_set():  # not held again since: the retry may go
                return True


def hold(go: threading.Event, bots: Sequence[Bot]) -> None:
    """Clear ``go`` and wait until no bot is between a look at it and the end of the
    requests that look let through (against a killed server they fail at once): from
    then on no bot sends anything until ``go`` is set again. ``go`` alone is not
    enough: a bot that saw it set a moment before it was cleared would send anyway,
    late, to whichever server is up by then."""
    go.clear()
    for bot in bots:
        with bot.sending:
            pass


class SocketBot(threading.Thread):
    """Plays ``seat`` from its table's WebSocket: every change brings a fresh
    ``snapshot`` of the table as the player sees it, legal actions included on their
    turn, and the bot answers over HTTP. Records every message and every answer."""

    def __init__(
        self,
        base: str,
        ws_base: str,
        seat: Seat,
        stop: threading.Event,
        stats: BotStats,
        *,
        seed: str,
        record: Recorder,
        look_every: int = 10,
    ) -> None:
        super().__init__(name=f"socket-bot-{seat.player.name}", daemon=True)
        self.base, self.seat, self.stop, self.stats = base, seat, stop, stats
        self.url = f"{ws_base}/ws/games/{seat.game}?token={seat.player.token}"
        self.source = SeededRandomSource(seed)
        self.record = record
        self.look_every = look_every
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.helper = Bot(base, seat, threading.Event(), stop, stats, seed=seed, record=record)
        self.helper.source = self.source

    def run(self) -> None:
        try:
            with (
                connect(self.url, max_size=2**24) as ws,
                httpx.Client(base_url=self.base, timeout=10.0) as client,
            ):
                self.ready.set()
                self.helper.go.set()
                seen = 0
                while not self.stop.is_set():
                    try:
                        message = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        continue
                    self.record(self.seat.player, self.seat.game, message)
                    assert message["type"] != "error", message
                    if message["type"] != "snapshot":
                        continue
                    seen += 1
                    game = message["game"]
                    with self.helper.sending:  # its commands' retries let it go
                        if seen % self.look_every == 0:  # now and then, a look over HTTP
                            game = self.helper.get(client, f"/api/games/{self.seat.game}")
                        self.answer(client, game)
        except ConnectionClosed:
            pass
        except BaseException as failed:
            self.error = failed
        finally:
            self.ready.set()

    def answer(self, client: httpx.Client, game: Json) -> None:
        seat, me, helper = self.seat, self.seat.player, self.helper
        if seat.level is None:
            return
        if my_turn(game):
            body = bot_choice(game, seat.level, self.source)
            body["idempotency_key"] = f"{seat.game}:{game['version']}:{me.id}"
            helper.command(client, "actions", body, "actions")
            return
        mine = my_seat(game, me.id)
        if mine is None:
            return
        if seat.presses_continue and waiting_for_my_continue(game, me.id):
            helper.command(client, "continue", helper.keyed(game, "continue"), "continues")
            return
        hand = game["hand"]
        if seat.cash_table and mine["stack"] == 0 and not (hand and hand["running"]):
            helper.command(client, "rebuy", helper.keyed(game, "rebuy"), "rebuys")
            return
        over = hand is not None and not hand["running"]
        if seat.deals and over and game["summary"]["status"] == "running":
            helper.command(client, "skip-waiting", helper.keyed(game, "deal"), "deals")
