"""A played table and every message its viewers get, for the broadcast tests.

``play_table`` plays the same hands every time (a fresh SQLite file, a clock that
moves one second a command, a seeded deck): a three-seat table with two players
(alice, who hosts, and bob), watched by carol (signed in, not seated: she sees what
sitting down costs her) and by an anonymous spectator. Each viewer's socket gets a
``snapshot`` on connecting, then ``events`` and a ``snapshot`` after every command,
and the one who sent the command gets its ``result``. How those messages are made
is the caller's (``Messages``): ``ModelMessages`` is the way the server made them
before they were written without models (the pydantic models, one viewer at a
time), kept as the reference.

This module uses only what the code had before the change it tests, so that the
reference it fixed (``broadcast_golden.json``) can be made again from an older
checkout: ``python broadcast_kit.py OUT.json`` with that checkout's interpreter and
this file copied outside any checkout (the file keeps each message's SHA-256).
"""

from __future__ import annotations

import itertools
import json
import secrets
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from hashlib import sha256
from pathlib import Path
from typing import Protocol
from unittest import mock

from cardroom.config import PasswordHashing, Settings
from cardroom.deck import SeededRandomSource
from cardroom.service import accounts, game_details, game_options, game_views, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import PlayResult, StoredEvent
from cardroom.service.game_views import GameChange
from cardroom.store.db import make_engine, make_sessionmaker
from cardroom.store.migrate import upgrade
from cardroom.web.game_answers import command_out, event_out, snapshot_message
from cardroom.web.schemas_games import WsEvents, WsResult

VIEWERS = ("alice", "bob", "carol", "spectator")
# What the players do, hand by hand, in turn; a move the table does not allow becomes
# a check, or else a call. The first hand reaches a showdown over every street, the
# second is an all-in run-out (the equity by street), the third is folded.
PLAN = (
    ("raise", "call", "bet", "raise", "call", "check", "check", "bet", "call"),
    ("all_in", "call"),
    ("fold",),
)
START = datetime(2026, 1, 15, 20, 0, tzinfo=UTC)


class Messages(Protocol):
    """How the server makes what it sends: ``viewer`` is a user's id, or None for a
    spectator who is not signed in."""

    def on_connect(self, ctx: ServiceContext, game: int, viewer: int | None) -> str: ...

    def after_change(
        self,
        ctx: ServiceContext,
        result: PlayResult,
        change: GameChange,
        actor: int,
        sent: dict[str, int],
        viewers: dict[str, int | None],
    ) -> list[tuple[str, str]]:
        """(whom, text) for every message the change sends, in order; moves each
        viewer's ``sent`` on to the snapshot's ``seq``."""
        ...


class ModelMessages:
    """The reference: the pydantic models, one viewer at a time."""

    def on_connect(self, ctx: ServiceContext, game: int, viewer: int | None) -> str:
        return snapshot_message(game_details.game_detail(ctx, game, viewer)).model_dump_json()

    def after_change(
        self,
        ctx: ServiceContext,
        result: PlayResult,
        change: GameChange,
        actor: int,
        sent: dict[str, int],
        viewers: dict[str, int | None],
    ) -> list[tuple[str, str]]:
        events = game_views.result_events(ctx, result, actor, change.hand_seats)
        out = [("actor", WsResult(ref="r1", result=command_out(result, events)).model_dump_json())]
        for name, viewer in viewers.items():
            update = game_views.update_from(change, viewer, sent[name], ctx.now())
            if update.events:
                version = update.events[-1].version
                message = WsEvents(version=version, events=[event_out(e) for e in update.events])
                out.append((name, message.model_dump_json()))
            out.append((name, snapshot_message(update.detail).model_dump_json()))
            sent[name] = update.detail.last_seq
        return out


@dataclass
class Clock:
    moment: datetime = START

    def __call__(self) -> datetime:
        return self.moment


@dataclass
class Table:
    ctx: ServiceContext
    clock: Clock
    game: int
    viewers: dict[str, int | None]
    names: dict[int, str]
    source: SeededRandomSource = field(default_factory=lambda: SeededRandomSource(11))


@dataclass
class Played:
    """Every message in the order sent: (command number, whom, text); command 0 is
    connecting."""

    messages: list[tuple[int, str, str]]
    commands: int
    stored: list[StoredEvent]  # every event, as the log keeps it (every card)
    viewers: dict[str, int | None]
    actors: dict[int, int]  # command number -> who sent it


def _table(folder: Path) -> Iterator[Table]:
    settings = Settings(
        database_url=f"sqlite:///{folder / 'broadcast.db'}",
        password_hashing=PasswordHashing.cheap(),
    )
    engine = make_engine(settings)
    try:
        upgrade(engine)
        clock = Clock()
        ctx = ServiceContext(settings=settings, sessions=make_sessionmaker(engine), clock=clock)
        ids = {n: accounts.sign_up(ctx, n, "correct horse battery").id for n in VIEWERS[:3]}
        options = game_options.GameOptions(preset="standard", seats=3, buy_in=1000)
        game = lobby.create_game(ctx, ids["alice"], options).game_id
        table = Table(ctx, clock, game, {**ids, "spectator": None}, {i: n for n, i in ids.items()})
        lobby.join(ctx, game, ids["bob"], source=table.source)
        yield table
    finally:
        engine.dispose()


def _next_command(table: Table, hand: int, step: int) -> tuple[int, PlayResult]:
    """The next command of the plan: a move in a running hand, else a Continue."""
    ctx, game = table.ctx, table.game
    seen = game_details.game_detail(ctx, game)
    if seen.hand is None and seen.summary.host_id in table.names:
        host = seen.summary.host_id
        if seen.summary.status.value == "waiting":
            return host, lobby.start(ctx, game, host, source=table.source)
    if seen.hand is None or not seen.hand.running:
        waiting = [s.user_id for s in seen.seats if not s.continued]
        player = waiting[0]
        return player, play.press_continue(ctx, game, player, source=table.source)
    player = next(s.user_id for s in seen.seats if s.seat == seen.hand.seat_to_act)
    mine = game_details.game_detail(ctx, game, player)
    assert mine.hand is not None and mine.hand.legal is not None
    legal = mine.hand.legal
    wanted = PLAN[hand][step] if step < len(PLAN[hand]) else "check"
    kind = next(k for k in (wanted, "check", "call") if k in legal.kinds)
    amount = legal.min_to if kind in ("bet", "raise") else None
    version = mine.summary.version
    result = play.act(
        ctx, game, player, kind, amount, expected_version=version, source=table.source
    )
    return player, result


def _fixed_salts() -> Callable[[int], bytes]:
    """The deck's commitment salts (``secrets.token_bytes`` in play), the same every
    run: the commitment's root is in the messages."""
    drawn = itertools.count()

    def token_bytes(size: int) -> bytes:
        # One digest a 32-byte salt, in the order drawn, however many salts a call
        # asks for (the deal asks for its 52 at once).
        pieces = (sha256(str(next(drawn)).encode()).digest() for _ in range(-(-size // 32)))
        return b"".join(pieces)[:size]

    return token_bytes


def play_table(messages: Messages) -> Played:
    """Plays ``PLAN`` and collects what ``messages`` makes of it."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        mock.patch.object(secrets, "token_bytes", _fixed_salts()),
    ):
        for table in _table(Path(scratch)):
            return _play(table, messages)
    raise AssertionError("unreachable")


def _play(table: Table, messages: Messages) -> Played:
    ctx = table.ctx
    out: list[tuple[int, str, str]] = []
    sent: dict[str, int] = {}
    for name, viewer in table.viewers.items():
        text = messages.on_connect(ctx, table.game, viewer)
        out.append((0, name, text))
        sent[name] = json.loads(text)["seq"]
    seen = game_details.game_detail(ctx, table.game)
    hand = 0 if seen.hand is not None and seen.hand.running else -1
    step, command = 0, 0
    stored: list[StoredEvent] = []
    actors: dict[int, int] = {}
    while hand < len(PLAN):
        assert command < 100, "the plan does not end"
        table.clock.moment += timedelta(seconds=1)
        actor, result = _next_command(table, max(hand, 0), step)
        command += 1
        stored.extend(result.events)
        actors[command] = actor
        if any(e.kind == "HandDealt" for e in result.events):
            hand, step = hand + 1, 0
            if hand == len(PLAN):
                break
        elif any(e.kind == "PlayerActed" for e in result.events):
            step += 1
        change = game_views.change_of(result, table.names)
        assert change is not None
        for whom, text in messages.after_change(ctx, result, change, actor, sent, table.viewers):
            out.append((command, whom, text))
    return Played(out, command, stored, table.viewers, actors)


def digests(played: Played) -> list[list[object]]:
    """[command, whom, sha256 of the text]: the messages, small enough to keep."""
    return [[c, whom, sha256(text.encode()).hexdigest()] for c, whom, text in played.messages]


if __name__ == "__main__":
    played = play_table(ModelMessages())
    Path(sys.argv[1]).write_text(json.dumps(digests(played), indent=0) + "\n")
    print(len(played.messages), "messages over", played.commands, "commands")
