"""Migration 0008 on a database with games and hands in it: each game's row gets the id
of its hand with the highest number (NULL for a game without any), and the downgrade
keeps the games and their hands."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, inspect, text

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

# hand id -> (game id, number), stored so that neither the highest id nor the last
# row of a game is its latest hand, and the two games' hands interleave.
HANDS = {10: (1, 3), 11: (1, 1), 12: (2, 1), 13: (1, 2), 14: (2, 2), 15: (4, 1)}
GAMES = (1, 2, 3, 4)  # game 3 has no hand


def _insert_game(engine: Engine, game: int, status: str) -> None:
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO games (id, host_id, preset, format, config, status, "
                "version, created_at, last_activity_at, state) VALUES (:g, 1, 'house', "
                "'cash', '{}', :s, 3, :t, :t, '{}')"
            ),
            {"g": game, "s": status, "t": NOW},
        )


def _seed(engine: Engine) -> None:
    """A user, four games and their hands, at revision 0007."""
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, role, suspended, "
                "created_at) VALUES (1, 'ann', 'ann', 'x', 'player', false, :t)"
            ),
            {"t": NOW},
        )
    for game in GAMES:
        _insert_game(engine, game, "running")
    with engine.begin() as c:
        for hand, (game, number) in HANDS.items():
            c.execute(
                text(
                    "INSERT INTO hands (id, game_id, number, deck, setup, started_at) "
                    "VALUES (:h, :g, :n, '[]', '{}', :t)"
                ),
                {"h": hand, "g": game, "n": number, "t": NOW},
            )


def _hand_ids(engine: Engine) -> dict[int, int | None]:
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, hand_id FROM games ORDER BY id")).all()
    return {game: hand for game, hand in rows}


def test_0008_fills_hand_id_and_downgrades_with_data(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine, "0007")
        _seed(engine)
        migrate.upgrade(engine, "0008")
        assert _hand_ids(engine) == {1: 10, 2: 14, 3: None, 4: 15}
        _insert_game(engine, 5, "waiting")  # a row written without it has none
        assert _hand_ids(engine)[5] is None

        migrate.downgrade(engine, "0007")
        assert "hand_id" not in {c["name"] for c in inspect(engine).get_columns("games")}
        with engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM games")).scalar_one() == 5
            assert c.execute(text("SELECT count(*) FROM hands")).scalar_one() == 6
        migrate.upgrade(engine)
        assert _hand_ids(engine) == {1: 10, 2: 14, 3: None, 4: 15, 5: None}
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()
