"""A command's events go in as one multi-row INSERT (``game_tx._write_events``), in
statements of at most ``_EVENTS_AT_ONCE`` rows: the rows stored are the ones the
plain one-row INSERT, sent for each event through the session, stores, on both
databases (ids, order, JSON, times, NULLs)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any, cast

import pytest
from sqlalchemy import Engine, Table, delete, insert, text

from cardroom.service import game_tx, lobby
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import GameEvent
from tests.service.gamekit import players

_EVENTS = cast(Table, GameEvent.__table__)
NOW = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)


def _rows(game_id: int, count: int) -> list[tuple[Any, ...]]:
    """``count`` events' rows as ``save`` makes them, with values of every kind."""
    east = timezone(timedelta(hours=5))
    return [
        (
            game_id,
            seq,
            f"Kind{seq % 3}",
            {"n": seq, "names": ["Zoë", None], "x": 1.5} if seq % 2 else {},
            None,
            seq // 4 + 1,
            NOW + timedelta(microseconds=seq // 5) if seq % 7 else NOW.astimezone(east),
        )
        for seq in range(1, count + 1)
    ]


def _stored(ctx: ServiceContext, game_id: int) -> list[tuple[Any, ...]]:
    """The rows as the driver returns them, before any column type reads them."""
    with make_sessionmaker(ctx.engine)() as session:
        found = session.execute(
            text(
                "SELECT id, game_id, seq, kind, payload, hand_id, version, created_at"
                " FROM game_events WHERE game_id = :g ORDER BY id"
            ),
            {"g": game_id},
        )
        return [tuple(row) for row in found]


@pytest.mark.parametrize("count", [1, 3, game_tx._EVENTS_AT_ONCE, 2 * game_tx._EVENTS_AT_ONCE + 5])
def test_the_events_are_stored_as_one_insert_per_event_stores_them(
    ctx: ServiceContext, db: Engine, count: int
) -> None:
    (host,) = players(ctx, "host")
    game_id = lobby.create_game(ctx, host, GameOptions()).game_id
    rows = _rows(game_id, count)
    sessions = make_sessionmaker(db)
    with sessions.begin() as session:
        session.execute(delete(_EVENTS).where(_EVENTS.c.game_id == game_id))
    with sessions.begin() as session:
        for row in rows:
            values = dict(zip(game_tx._EVENT_COLUMNS, row, strict=True))
            session.execute(insert(_EVENTS).values(values))
    one_by_one = _stored(ctx, game_id)
    with sessions.begin() as session:
        session.execute(delete(_EVENTS).where(_EVENTS.c.game_id == game_id))
    with sessions.begin() as session:
        # ``save``'s layout: each row's values, a row after another.
        game_tx._write_events(session, [value for row in rows for value in row])
    together = _stored(ctx, game_id)
    assert len(together) == count
    first = together[0][0] - one_by_one[0][0]  # ids go on from the deleted ones
    assert [(row[0] - first, *row[1:]) for row in together] == one_by_one
    assert [row[0] for row in together] == list(range(together[0][0], together[0][0] + count))
