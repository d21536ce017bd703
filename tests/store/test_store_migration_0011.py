"""Migration 0011 on a database with games in it, on both databases: the deadlines
stored keep their rows (same ids, kinds, times) through the rebuild of the kind's
CHECK constraint, the kind ``reminder`` is taken after it and refused before it, every
player keeps the default reminder points, and the downgrade drops the reminders and
keeps the rest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, inspect, text
from sqlalchemy.exc import IntegrityError

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _seed(engine: Engine) -> None:
    """A user with notification settings, a game and two deadlines, at 0010."""
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, role, suspended, "
                "created_at) VALUES (1, 'ann', 'ann', 'x', 'player', false, :t)"
            ),
            {"t": NOW},
        )
        c.execute(
            text(
                "INSERT INTO games (id, host_id, preset, format, config, status, "
                "version, created_at, last_activity_at, state, invite_token) VALUES (1, 1, "
                "'house', 'cash', '{}', 'running', 1, :t, :t, '{}', 'tok')"
            ),
            {"t": NOW},
        )
        c.execute(
            text(
                "INSERT INTO notification_settings (user_id, in_app, browser, web_push, "
                "email, updated_at) VALUES (1, true, false, false, false, :t)"
            ),
            {"t": NOW},
        )
        for row_id, kind, fired in ((7, "turn", None), (8, "continue", NOW)):
            c.execute(
                text(
                    "INSERT INTO deadlines (id, game_id, kind, due_at, payload, created_at, "
                    "fired_at) VALUES (:id, 1, :kind, :t, '{}', :t, :fired)"
                ),
                {"id": row_id, "kind": kind, "t": NOW, "fired": fired},
            )


def _deadlines(engine: Engine) -> list[tuple[int, str, bool]]:
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, kind, fired_at FROM deadlines ORDER BY id")).all()
    return [(row_id, kind, fired is not None) for row_id, kind, fired in rows]


def _add_reminder(engine: Engine, row_id: int) -> None:
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO deadlines (id, game_id, kind, due_at, payload, created_at) "
                "VALUES (:id, 1, 'reminder', :t, '{}', :t)"
            ),
            {"id": row_id, "t": NOW},
        )


def test_0011_adds_the_reminder_kind_and_keeps_every_deadline(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine, "0010")
        _seed(engine)
        with pytest.raises(IntegrityError):  # not a kind yet
            _add_reminder(engine, 9)
        migrate.upgrade(engine, "0011")
        assert _deadlines(engine) == [(7, "turn", False), (8, "continue", True)]
        _add_reminder(engine, 9)
        with pytest.raises(IntegrityError):  # still one pending row per game and kind
            _add_reminder(engine, 10)
        with engine.connect() as c:
            assert c.execute(text("SELECT reminders FROM notification_settings")).all() == [(None,)]
        indexes = {i["name"] for i in inspect(engine).get_indexes("deadlines")}
        assert {"ix_deadlines_fired_at_due_at", "ix_deadlines_game_id"} <= indexes
        assert migrate.schema_differences(engine) == []

        migrate.downgrade(engine, "0010")
        assert _deadlines(engine) == [(7, "turn", False), (8, "continue", True)]
        with pytest.raises(IntegrityError):
            _add_reminder(engine, 11)
        columns = {c["name"] for c in inspect(engine).get_columns("notification_settings")}
        assert "reminders" not in columns
        migrate.upgrade(engine)
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()
