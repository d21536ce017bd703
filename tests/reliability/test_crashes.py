"""SIGKILL, fifty times: bots play three tables on a real ``cardroom serve`` (over
HTTP, with 5-second turn clocks and 5-second reviews, one player who never acts so
the clock does), and the server process is killed at seeded random moments and
started again. After every kill, with the server down, ``cardroom audit`` finds every
cent; after every restart, before the bots go on:

- every table is served exactly as it was stored (each player's view, field for
  field: the hand, its cards, stacks, bets, whose turn, the clock's due time), or,
  where the clock has acted since, the same hand with the same cards;
- every deadline that was pending keeps its due time: a turn clock resumes with the
  time it had left at the kill, less the time the room was down (the clock does not
  stop while the server is down; what fell due meanwhile fires at once);
- the event log only ever grows (what was stored is never rewritten).

At the end: no deadline fired twice (one row per due moment, one clock action per
fired turn deadline), none fired early, none is left overdue, and the audit is clean.
A hand never needs resolving by a rule: each command commits whole or not at all, so
every hand resumes from its stored state (docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from cardroom.cli import main
from cardroom.service import game_details, money
from cardroom.service.admin import CONSOLE
from cardroom.store.models import Deadline, DeadlineKind, GameEvent
from cardroom.web.game_answers import game_out
from tests.reliability.bots import Bot, BotStats, Seat, hold
from tests.reliability.clients import Json, create_game, join, sign_up
from tests.reliability.figures import keep
from tests.reliability.servers import Room, Server, Zygote

pytestmark = pytest.mark.slow

KILLS = 50
SEED = 20261130
CLOCK = {"turn_clock_seconds": 5, "between_hands_seconds": 5, "cash_timeouts_to_cash_out": None}
CLOCK_ACTED = "The clock acted for the player to act."


@dataclass
class Look:
    """The room as stored, read while the server is down."""

    at: datetime
    views: dict[tuple[int, int], Json]  # (game, player) -> GET /api/games/{game} for them
    deadlines: dict[int, tuple[int, DeadlineKind, datetime, datetime | None]]
    digests: dict[int, list[str]]  # game -> a digest per event, in seq order


@dataclass
class Figures:
    kills: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    down_seconds: list[float] = field(default_factory=list)
    served_as_stored: int = 0
    moved_on_by_the_clock: int = 0
    pending_deadlines_checked: int = 0
    audits: int = 0
    phase_seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    @contextlib.contextmanager
    def timed(self, phase: str) -> Iterator[None]:
        began = time.monotonic()
        try:
            yield
        finally:
            self.phase_seconds[phase] += time.monotonic() - began


def look(room: Room, seats: list[Seat]) -> Look:
    """``seats``: whose views to read (none: only the rows)."""
    ctx = room.ctx
    views = {
        (s.game, s.player.id): game_out(
            game_details.game_detail(ctx, s.game, s.player.id)
        ).model_dump(mode="json")
        for s in seats
    }
    digests: dict[int, list[str]] = {}
    with ctx.transaction() as session:
        deadlines = {
            row.id: (row.game_id, row.kind, row.due_at, row.fired_at)
            for row in session.scalars(select(Deadline))
        }
        for row in session.scalars(select(GameEvent).order_by(GameEvent.game_id, GameEvent.seq)):
            text = json.dumps(
                [row.seq, row.kind, row.payload, row.hand_id, row.version], sort_keys=True
            )
            digests.setdefault(row.game_id, []).append(hashlib.sha1(text.encode()).hexdigest())
    return Look(ctx.now(), views, deadlines, digests)


def audit_is_clean(room: Room) -> None:
    """``cardroom audit``, as an operator runs it: exit status 0, "no difference"."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(["audit", "--database-url", room.url])
    assert status == 0, out.getvalue()


def same_hand(stored: Json, served: Json) -> None:
    """The clock acted since: the hand is the one stored, or a later one."""
    old, new = stored["hand"], served["hand"]
    if old is None or new is None or new["number"] != old["number"]:
        assert new is None or old is None or new["number"] > old["number"]
        return
    assert new["my_cards"] == old["my_cards"]
    assert new["board"][: len(old["board"])] == old["board"]


def check_restart(
    server: Server,
    before: Look,
    seats: list[Seat],
    cards: dict[tuple[int, int, int], list[str]],
    figures: Figures,
) -> None:
    """With the bots held: the server serves what was stored, and the clock's rows
    kept their times (only the clock can have changed anything since the kill: the
    dead server's last commit landed before the look, ``Server.kill``, and no bot
    sends anything while held, ``bots.hold``)."""
    room = server.room
    with httpx.Client(base_url=server.base, timeout=10.0) as client:
        for s in seats:
            served = client.get(f"/api/games/{s.game}", headers=s.player.auth)
            assert served.status_code == 200, served.text
            now = served.json()
            stored = before.views[(s.game, s.player.id)]
            if now["version"] == stored["version"]:
                assert now == stored, f"game {s.game} is not served as it was stored"
                figures.served_as_stored += 1
            else:
                assert now["version"] > stored["version"]
                same_hand(stored, now)
                figures.moved_on_by_the_clock += 1
            for view in (stored, now):
                if view["hand"] is not None and view["hand"]["my_cards"]:
                    key = (s.game, view["hand"]["number"], s.player.id)
                    assert (
                        cards.setdefault(key, view["hand"]["my_cards"]) == view["hand"]["my_cards"]
                    ), f"the cards of hand {key} changed"
    after = look(room, [])
    for deadline_id, (game, kind, due_at, fired_at) in before.deadlines.items():
        if fired_at is not None:
            assert after.deadlines[deadline_id] == (game, kind, due_at, fired_at)
            continue
        figures.pending_deadlines_checked += 1
        assert deadline_id in after.deadlines, f"a pending {kind} deadline vanished"
        _, _, due_now, fired_now = after.deadlines[deadline_id]
        assert due_now == due_at, f"a restart moved a {kind} deadline"
        assert fired_now is None or fired_now >= due_at, "a deadline fired early"
    for game, digests in before.digests.items():
        assert after.digests[game][: len(digests)] == digests, "the event log was rewritten"


def check_clock_history(room: Room, ready: list[tuple[datetime, datetime]]) -> dict[str, Any]:
    """Each deadline fired once, none early, none late beyond the clock's sleep once
    a server was up; returns the figures."""
    with room.ctx.transaction() as session:
        rows = session.scalars(select(Deadline)).all()
        clock_acted = dict(
            session.execute(
                select(GameEvent.game_id, func.count())
                .where(GameEvent.kind == "ClockActed")
                .group_by(GameEvent.game_id)
            ).all()
        )
    fired = [r for r in rows if r.fired_at is not None]
    moments = Counter((r.game_id, r.kind, r.due_at) for r in fired)
    assert max(moments.values(), default=1) == 1, "a deadline fired twice"
    turns = Counter(
        r.game_id for r in fired if r.kind is DeadlineKind.TURN and r.outcome == CLOCK_ACTED
    )
    assert dict(turns) == clock_acted, "clock actions and fired turn deadlines differ"
    late: list[float] = []
    for row in fired:
        assert row.fired_at is not None and row.fired_at >= row.due_at, "fired early"
        # Late from the moment a server was up to fire it.
        start = row.due_at
        for down, up in ready:
            if down <= row.due_at <= up:
                start = up
        late.append((row.fired_at - start).total_seconds())
    now = room.ctx.now()
    overdue = [r for r in rows if r.fired_at is None and r.due_at < now - timedelta(seconds=3)]
    assert not overdue, f"deadlines left overdue: {overdue}"
    return {
        "deadlines fired": len(fired),
        "by kind": dict(Counter(r.kind.value for r in fired)),
        "clock actions": sum(clock_acted.values()),
        "latest firing after a server was up (s)": round(max(late, default=0.0), 3),
        "median lateness (s)": round(sorted(late)[len(late) // 2], 3) if late else 0.0,
    }


def set_up_tables(server: Server, room: Room) -> list[Seat]:
    """Three tables: three bots at a cash table; a bot and a player who never acts
    heads-up (the clock acts and deals for him); two bots at a per-hand table who
    press Continue only now and then (the review deadline deals)."""
    with httpx.Client(base_url=server.base, timeout=10.0) as client:
        names = ["ann", "ben", "cat", "dan", "idle", "eve", "fay"]
        players = {n: sign_up(client, n) for n in names}
        for player in players.values():  # per-hand tables take each buy-in from it
            money.grant(room.ctx, CONSOLE, player.name, 10_000_000, "crash test bankroll")
        cash = {"buy_in": 1000, "rules": CLOCK}
        one = create_game(client, players["ann"], seats=3, **cash)
        two = create_game(client, players["dan"], seats=2, **cash)
        per_hand = {"preset": "standard", "format": "per_hand", "buy_in": 1000, "rules": CLOCK}
        three = create_game(client, players["eve"], seats=2, **per_hand)
        for game, name in ((one, "ben"), (one, "cat"), (two, "idle"), (three, "fay")):
            join(client, game, players[name])
    return [
        Seat(one, players["ann"], "beginner"),
        Seat(one, players["ben"], "regular"),
        Seat(one, players["cat"], "shark"),
        Seat(two, players["dan"], "regular"),
        Seat(two, players["idle"], None, presses_continue=False),
        Seat(three, players["eve"], "beginner", presses_continue=False, cash_table=False),
        Seat(three, players["fay"], "shark", presses_continue=False, cash_table=False),
    ]


def hands_dealt(room: Room) -> int:
    with room.ctx.transaction() as session:
        return int(session.scalar(select(func.count()).where(GameEvent.kind == "HandDealt")) or 0)


def test_sigkill_fifty_times_loses_nothing(fresh_room: Room, zygote: Zygote) -> None:
    room = fresh_room
    rng = random.Random(f"{SEED}:{room.backend}")
    server = Server(zygote, room, "crashing")
    server.start()
    seats = set_up_tables(server, room)
    go, stop, stats = threading.Event(), threading.Event(), BotStats()
    bots = [
        Bot(server.base, s, go, stop, stats, seed=f"{SEED}:{room.backend}:{s.player.name}")
        for s in seats
    ]
    figures = Figures()
    cards: dict[tuple[int, int, int], list[str]] = {}
    windows: list[tuple[datetime, datetime]] = []
    began = time.monotonic()
    go.set()
    for bot in bots:
        bot.start()
    try:
        for _ in range(KILLS):
            with figures.timed("play"):
                time.sleep(rng.uniform(0.05, 0.8))  # a random moment of play
            server.kill()  # returns once the database has done all it was sent
            killed_at = datetime.now(UTC)
            hold(go, bots)  # and no bot's request is still on its way
            figures.kills += 1
            with figures.timed("look"):
                before = look(room, seats)
            with figures.timed("audit"):
                audit_is_clean(room)
            figures.audits += 1
            with figures.timed("restart"):
                figures.restart_seconds.append(server.start())
            ready_at = datetime.now(UTC)
            windows.append((killed_at, ready_at))
            figures.down_seconds.append((ready_at - killed_at).total_seconds())
            with figures.timed("check"):
                check_restart(server, before, seats, cards, figures)
            go.set()
            for bot in bots:
                assert bot.error is None, f"{bot.name}: {bot.error!r}"
        time.sleep(4)  # the last server runs on: what fell due must fire
        stop.set()
        for bot in bots:
            bot.join(timeout=15)
            assert bot.error is None, f"{bot.name}: {bot.error!r}"
        clock = check_clock_history(room, windows)
    finally:
        stop.set()
        server.stop()
    audit_is_clean(room)
    report = money.audit(room.ctx)
    assert report.balanced
    printed = server.log_text()
    assert "Traceback" not in printed, printed[printed.index("Traceback") - 2000 :][:6000]
    keep(
        f"crashes-{room.backend}",
        {
            "backend": room.backend,
            "kills survived": figures.kills,
            "server starts": server.starts,
            "audits clean": figures.audits + 1,
            "hands dealt": hands_dealt(room),
            "views served exactly as stored after a restart": figures.served_as_stored,
            "views moved on by the clock before the check": figures.moved_on_by_the_clock,
            "pending deadlines whose due time survived a kill": figures.pending_deadlines_checked,
            "seconds down per kill (median)": round(sorted(figures.down_seconds)[KILLS // 2], 3),
            "seconds down per kill (max)": round(max(figures.down_seconds), 3),
            "restart seconds (max)": round(max(figures.restart_seconds), 3),
            "restart seconds (median)": round(sorted(figures.restart_seconds)[KILLS // 2], 3),
            "bots": dict(stats.counts),
            "clock": clock,
            "money in play (cents)": report.money_in_play_cents,
            "seconds": round(time.monotonic() - began, 1),
            "seconds by phase": {k: round(v, 1) for k, v in figures.phase_seconds.items()},
        },
    )
