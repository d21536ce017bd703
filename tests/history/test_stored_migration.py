"""Migration 0004 on a database with hands in it: older hands' players are filled in
from their ``HandDealt`` records, and the downgrade keeps the hands."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, text

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def _seed(engine: Engine) -> None:
    """Two users, a game, one hand and its ``HandDealt`` record, at revision 0003."""
    with engine.begin() as c:
        for uid, name in ((1, "ann"), (2, "bob")):
            c.execute(
                text(
                    "INSERT INTO users (id, name, name_key, password_hash, role, suspended, "
                    "created_at) VALUES (:id, :n, :n, 'x', 'player', false, :t)"
                ),
                {"id": uid, "n": name, "t": NOW},
            )
        c.execute(
            text(
                "INSERT INTO games (id, host_id, preset, format, config, status, version, "
                "created_at, last_activity_at, state) VALUES (1, 1, 'house', 'cash', '{}', "
                "'running', 3, :t, :t, '{}')"
            ),
            {"t": NOW},
        )
        c.execute(
            text(
                "INSERT INTO hands (id, game_id, number, deck, setup, started_at) "
                "VALUES (7, 1, 1, '[]', '{}', :t)"
            ),
            {"t": NOW},
        )
        c.execute(
            text(
                "INSERT INTO game_events (game_id, seq, kind, payload, hand_id, version, "
                "created_at) VALUES (1, 1, 'HandDealt', :p, 7, 2, :t)"
            ),
            {"p": '{"number": 1, "players": [[2, 1, 1000], [5, 2, 900]]}', "t": NOW},
        )


def test_0004_fills_hand_players_and_downgrades_with_data(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine, "0003")
        _seed(engine)
        migrate.upgrade(engine, "0004")
        with engine.connect() as c:
            rows = c.execute(
                text("SELECT hand_id, user_id, game_id, seat FROM hand_players ORDER BY seat")
            ).all()
            root = c.execute(text("SELECT deck_root, deck_salts FROM hands")).one()
        assert [tuple(r) for r in rows] == [(7, 1, 1, 2), (7, 2, 1, 5)]
        assert tuple(root) == (None, None)  # dealt before commitments: nothing to prove
        migrate.downgrade(engine, "0003")
        with engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM hands")).scalar_one() == 1
            assert c.execute(text("SELECT count(*) FROM game_events")).scalar_one() == 1
        migrate.upgrade(engine)
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()
