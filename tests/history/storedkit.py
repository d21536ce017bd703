"""Whole games played through the real service with random legal play, for the tests
of stored hand histories: cash, per-hand and tournament tables of every preset, the
clock acting for slow players, an admin folding an inactive one, all-ins and side
pots, the fake clock moving between actions so every action has its own time.

Playing the room through the service takes a while (tens of seconds), so it is played
once per database per test run: ``room_on(engine)`` plays it the first time, keeps
every table's rows, and on later calls puts those rows back in an emptied database.
The modules that use it take a module-scoped ``room`` fixture (``stored_room``) and
leave the ``db`` fixture alone (it would empty the tables)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import JSON, Engine, func, insert, null, select, text

from cardroom.config import PasswordHashing, Settings
from cardroom.hand import Hand
from cardroom.service import accounts, deadlines, game_details, lobby, money, play, table_admin
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import ServiceError
from cardroom.service.game_options import GameOptions
from cardroom.service.game_records import LegalActionsView
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Game, GameStatus, HandRecord, Role
from cardroom.store.schema import metadata
from cardroom.table import Table as TableState
from cardroom.table import table_from_dict
from tests.conftest import FakeClock, wipe
from tests.service.gamekit import PASSWORD, source


@dataclass(frozen=True)
class Table:
    preset: str
    players: tuple[str, ...]
    format: str | None = None
    buy_in: int = 10_00
    blinds: tuple[int, int] | None = None
    hands: int = 10
    all_ins: float = 0.03  # how often a player moves all-in when they may
    timeouts: bool = True  # let the clock act now and then
    admin_folds: bool = False  # an admin folds a player who is not to act, now and then


# The room the tests play: every preset, with showdowns ordered (mucks) and
# simultaneous, money and points, two to six players.
ROOM = (
    Table("house", ("ann", "bob", "cyd", "dee"), hands=8, all_ins=0.12, admin_folds=True),
    Table("standard", ("ann", "eve", "fay"), hands=10),
    Table(
        "arena",
        ("bob", "eve", "gus", "hal", "ivy"),
        buy_in=1500,
        blinds=(10, 20),
        hands=8,
        all_ins=0.08,
    ),
    Table("legacy", ("cyd", "fay"), hands=5, timeouts=False),
)


@dataclass
class Room:
    users: dict[str, int] = field(default_factory=dict)
    admin: int = 0
    games: list[int] = field(default_factory=list)
    hands: list[int] = field(default_factory=list)  # finished hands, by id
    running: list[int] = field(default_factory=list)  # hands still being played


def choose(
    legal: LegalActionsView, rng: random.Random, all_ins: float = 0.03
) -> tuple[str, int | None]:
    """Mostly calls and checks, some folds, small bets and raises, a rare all-in: many
    hands, some to a showdown, some with side pots."""
    kinds = legal.kinds
    roll = rng.random()
    if "all_in" in kinds and roll < all_ins:
        return "all_in", None
    if "fold" in kinds and roll < all_ins + 0.22:
        return "fold", None
    for kind in ("bet", "raise"):
        if kind in kinds and roll < all_ins + 0.37:
            return kind, rng.randint(
                legal.min_to, max(legal.min_to, min(legal.max_to, legal.min_to * 2))
            )
    if "check" in kinds:
        return "check", None
    if "call" in kinds:
        return "call", None
    return ("all_in", None) if "all_in" in kinds else ("fold", None)


@dataclass(frozen=True)
class _Now:
    status: GameStatus
    table: TableState
    version: int


def _now(ctx: ServiceContext, game: int) -> _Now:
    """The stored table as it is, read directly (faster than ``game_detail``)."""
    with ctx.transaction() as session:
        row = session.get(Game, game)
        assert row is not None
        return _Now(row.status, table_from_dict(row.state), row.version)


def _legal(hand: Hand) -> LegalActionsView:
    la = hand.legal_actions()
    return LegalActionsView(
        kinds=tuple(k.value for k in la.kinds()),
        to_call=la.to_call,
        call_amount=la.call_amount,
        min_to=la.min_to,
        max_to=la.max_to,
        all_in_to=la.all_in_to,
    )


def play_table(
    ctx: ServiceContext, clock: FakeClock, room: Room, table: Table, rng: random.Random
) -> int:
    ids = [room.users[name] for name in table.players]
    deck = source(rng.randrange(10**6))
    small, big = table.blinds or (None, None)
    options = GameOptions(
        preset=table.preset,
        format=table.format,
        buy_in=table.buy_in,
        small_blind=small,
        big_blind=big,
    )
    game = lobby.create_game(ctx, ids[0], options).game_id
    for user in ids[1:]:
        lobby.join(ctx, game, user)
    if _now(ctx, game).status is GameStatus.WAITING:
        lobby.start(ctx, game, ids[0], source=deck)
    room.games.append(game)
    clock_seconds = game_details.game_detail(ctx, game).summary.turn_clock_seconds
    hands = 1
    for _ in range(2000):
        now = _now(ctx, game)
        state, hand = now.table, now.table.hand
        if now.status is GameStatus.PAUSED:
            # a cash table short of players: the busted ones buy chips again
            busted = [s.player for s in state.seats.values() if s.stack == 0]
            for user in busted:
                with contextlib.suppress(ServiceError):
                    play.rebuy(ctx, game, user, source=deck)
            if not busted or _now(ctx, game).status is not GameStatus.RUNNING:
                break
            continue
        if now.status is not GameStatus.RUNNING:
            break
        if hand is None or not state.hand_running:
            if hands >= table.hands:
                break
            hands += 1
            clock.advance(timedelta(seconds=rng.randint(1, 20)))
            play.skip_waiting_and_deal(ctx, game, ids[0], source=deck)
            continue
        seat = hand.seat_to_act
        assert seat is not None
        player = state.seats[seat].player
        roll = rng.random()
        if table.timeouts and clock_seconds is not None and roll < 0.04:
            clock.advance(timedelta(seconds=clock_seconds + 1))
            deadlines.fire_due(ctx, clock(), source=deck)
            continue
        if table.admin_folds and roll < 0.10:
            others = [
                hand.seats[i]
                for i in range(len(hand.seats))
                if not hand.folded[i] and hand.stacks[i] > 0 and hand.seats[i] != seat
            ]
            if others:
                clock.advance(timedelta(seconds=rng.randint(1, 30)))
                victim = state.seats[rng.choice(others)].player
                with contextlib.suppress(ServiceError):
                    table_admin.fold_inactive(ctx, room.admin, game, victim, "away")
                continue
        clock.advance(timedelta(seconds=rng.randint(1, 25), microseconds=rng.randint(0, 999)))
        kind, amount = choose(_legal(hand), rng, table.all_ins)
        play.act(ctx, game, player, kind, amount, expected_version=now.version, source=deck)
    return game


def play_room(
    ctx: ServiceContext,
    clock: FakeClock,
    seed: int = 1,
    tables: tuple[Table, ...] = ROOM,
) -> Room:
    """Sign everyone up (with money enough), play each table, and list the hands."""
    rng = random.Random(seed)
    room = Room()
    room.admin = accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN).id
    names = sorted({name for table in tables for name in table.players})
    for name in names:
        room.users[name] = accounts.sign_up(ctx, name, PASSWORD).id
        money.grant(ctx, CONSOLE, name, 500_00, "play money for the tests")
    for table in tables:
        play_table(ctx, clock, room, table, rng)
    # leave a hand being played at the first table that can deal one
    for game, table in zip(room.games, tables, strict=True):
        now = _now(ctx, game)
        if now.status is GameStatus.RUNNING and not now.table.hand_running:
            host = room.users[table.players[0]]
            play.skip_waiting_and_deal(ctx, game, host, source=source(seed))
            break
    with ctx.transaction() as session:
        for row in session.scalars(select(HandRecord).order_by(HandRecord.id)):
            (room.hands if row.ended_at is not None else room.running).append(row.id)
    return room


# ---------------------------------------------------------------------- played once

Rows = dict[str, list[dict[str, Any]]]
_PLAYED: dict[str, tuple[Room, Rows]] = {}


def context_on(engine: Engine, clock: FakeClock | None = None) -> ServiceContext:
    settings = Settings(
        database_url=engine.url.render_as_string(hide_password=False),
        password_hashing=PasswordHashing.cheap(),
    )
    return ServiceContext(
        settings=settings, sessions=make_sessionmaker(engine), clock=clock or FakeClock()
    )


def _rows(engine: Engine) -> Rows:
    with engine.connect() as connection:
        return {
            table.name: [dict(row._mapping) for row in connection.execute(select(table))]
            for table in metadata.sorted_tables
        }


def _restore(engine: Engine, rows: Rows) -> None:
    wipe(engine)
    with engine.begin() as connection:
        for table in metadata.sorted_tables:
            # a JSON column's None is SQL NULL, not the JSON null an insert would write
            json_columns = [c.name for c in table.c if isinstance(c.type, JSON)]
            data = [
                {k: null() if v is None and k in json_columns else v for k, v in row.items()}
                for row in rows[table.name]
            ]
            if table.name == "ledger_accounts":  # the house survives a wipe
                connection.execute(table.delete())
            if data:
                connection.execute(insert(table), data)
            if engine.dialect.name == "postgresql" and "id" in table.c and data:
                top = connection.execute(select(func.max(table.c.id))).scalar_one()
                connection.execute(
                    text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :v)"),
                    {"t": table.name, "v": top},
                )


def room_on(engine: Engine) -> tuple[ServiceContext, Room]:
    """The played room on this database (played now if this run has not yet)."""
    key = engine.url.render_as_string(hide_password=False)
    clock = FakeClock()
    ctx = context_on(engine, clock)
    if key not in _PLAYED:
        wipe(engine)
        room = play_room(ctx, clock)
        _PLAYED[key] = (room, _rows(engine))
    else:
        _restore(engine, _PLAYED[key][1])
    return ctx, _PLAYED[key][0]


@pytest.fixture(scope="module")
def stored_room(migrated_engine: Engine) -> Iterator[tuple[ServiceContext, Room]]:
    """The room, on each database in turn, for the tests of one module."""
    yield room_on(migrated_engine)
