"""Migration 0007 on a database with games and events in it: each game's row gets the
number of its last event (0 for a game without any), and the downgrade keeps the
games and their events."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, inspect, text

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

# game id -> the seqs of its events, stored out of order: the last row is not the last
# event, the highest number is.
EVENTS = {1: (1, 2, 3), 2: (4, 1, 5, 2, 3), 3: ()}


def _seed(engine: Engine) -> None:
    """A user, three games and their events, at revision 0006."""
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, role, suspended, "
                "created_at) VALUES (1, 'ann', 'ann', 'x', 'player', false, :t)"
            ),
            {"t": NOW},
        )
        for game, seqs in EVENTS.items():
            c.execute(
                text(
                    "INSERT INTO games (id, host_id, preset, format, config, status, "
                    "version, created_at, last_activity_at, state) VALUES (:g, 1, 'house', "
                    "'cash', '{}', 'running', 3, :t, :t, '{}')"
                ),
                {"g": game, "t": NOW},
            )
            for seq in seqs:
                c.execute(
                    text(
                        "INSERT INTO game_events (game_id, seq, kind, payload, version, "
                        "created_at) VALUES (:g, :s, 'PlayerActed', '{}', 2, :t)"
                    ),
                    {"g": game, "s": seq, "t": NOW},
                )


def _last_seqs(engine: Engine) -> dict[int, int]:
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, last_seq FROM games ORDER BY id")).all()
    return {game: last for game, last in rows}


def test_0007_fills_last_seq_and_downgrades_with_data(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine, "0006")
        _seed(engine)
        migrate.upgrade(engine, "0007")
        assert _last_seqs(engine) == {1: 3, 2: 5, 3: 0}
        with engine.begin() as c:  # a row written without it starts at 0
            c.execute(
                text(
                    "INSERT INTO games (id, host_id, preset, format, config, status, "
                    "version, created_at, last_activity_at, state) VALUES (4, 1, 'house', "
                    "'cash', '{}', 'waiting', 1, :t, :t, '{}')"
                ),
                {"t": NOW},
            )
        assert _last_seqs(engine)[4] == 0

        migrate.downgrade(engine, "0006")
        assert "last_seq" not in {c["name"] for c in inspect(engine).get_columns("games")}
        with engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM games")).scalar_one() == 4
            assert c.execute(text("SELECT count(*) FROM game_events")).scalar_one() == 8
        migrate.upgrade(engine)
        assert _last_seqs(engine) == {1: 3, 2: 5, 3: 0, 4: 0}
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()
