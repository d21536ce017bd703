"""The notification tables: migration 0003 builds what the models describe, and the
database itself refuses a second notice for one occasion."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from cardroom.config import Settings
from cardroom.service import accounts
from cardroom.service.context import ServiceContext
from cardroom.store import migrate
from cardroom.store.db import make_engine
from cardroom.store.models import Game, GameFormat, GameStatus
from cardroom.store.notify_models import Notice, NoticeKind
from cardroom.store.schema import metadata

NOTIFY_TABLES = {"notification_settings", "push_subscriptions", "notices", "notice_deliveries"}


def test_the_models_know_the_notification_tables() -> None:
    assert set(metadata.tables) >= NOTIFY_TABLES


def _touches_notify_tables(difference: Any) -> bool:
    # Alembic reports ("add_table", Table), ("remove_index", Index), ("modify_type",
    # schema, table name, ...) and lists of those: find a table name anywhere in it.
    if isinstance(difference, list):
        return any(_touches_notify_tables(d) for d in difference)
    for part in difference:
        name = getattr(part, "name", None) if not isinstance(part, str) else part
        table = getattr(part, "table", None)
        if name in NOTIFY_TABLES or getattr(table, "name", None) in NOTIFY_TABLES:
            return True
    return False


def test_migrations_build_the_notification_tables_as_modelled(empty_database_url: str) -> None:
    # Only these tables' differences: tests/store compares the whole schema.
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine)
        assert set(inspect(engine).get_table_names()) >= NOTIFY_TABLES
        mine = [d for d in migrate.schema_differences(engine) if _touches_notify_tables(d)]
        assert mine == []
        migrate.downgrade(engine, "0002")
        assert not NOTIFY_TABLES & set(inspect(engine).get_table_names())
        migrate.upgrade(engine)
        mine = [d for d in migrate.schema_differences(engine) if _touches_notify_tables(d)]
        assert mine == []
    finally:
        engine.dispose()


def test_the_comparison_notices_drift_in_these_tables(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine)
        with engine.begin() as connection:
            connection.execute(text("DROP INDEX ix_notices_user_id_id"))
        mine = [d for d in migrate.schema_differences(engine) if _touches_notify_tables(d)]
        assert [(d[0], d[1].name) for d in mine] == [("add_index", "ix_notices_user_id_id")]
    finally:
        engine.dispose()


def test_one_notice_per_occasion(ctx: ServiceContext, db: Engine) -> None:
    alice = accounts.sign_up(ctx, "alice", "correct horse").id
    now = datetime(2026, 1, 15, tzinfo=UTC)

    def notice() -> Notice:
        return Notice(
            user_id=alice,
            kind=NoticeKind.YOUR_TURN,
            game_id=game_id,
            dedupe_key="turn:1:1:9",
            title="t",
            body="b",
            data={},
            created_at=now,
        )

    with ctx.transaction() as session:
        game = Game(
            host_id=alice,
            preset="house",
            format=GameFormat.CASH,
            config={},
            status=GameStatus.WAITING,
            version=1,
            created_at=now,
            last_activity_at=now,
            state={},
        )
        session.add(game)
        session.flush()
        game_id = game.id
        session.add(notice())
    with pytest.raises(IntegrityError), ctx.transaction() as session:
        session.add(notice())
