"""Migration 0009 on a database with games in it: each stored game gets an invite
token of its own (random, not its id) and stays public; the downgrade keeps the
games, and the upgrade after it gives them tokens again."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, inspect, text

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GAMES = (1, 2, 3)


def _seed(engine: Engine) -> None:
    """A user and three games, at revision 0008."""
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, role, suspended, "
                "created_at) VALUES (1, 'ann', 'ann', 'x', 'player', false, :t)"
            ),
            {"t": NOW},
        )
        for game in GAMES:
            c.execute(
                text(
                    "INSERT INTO games (id, host_id, preset, format, config, status, "
                    "version, created_at, last_activity_at, state) VALUES (:g, 1, 'house', "
                    "'cash', '{}', 'waiting', 1, :t, :t, '{}')"
                ),
                {"g": game, "t": NOW},
            )


def _invites(engine: Engine) -> dict[int, tuple[str | None, bool]]:
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, invite_token, private FROM games ORDER BY id")).all()
    return {game: (token, bool(private)) for game, token, private in rows}


def test_0009_gives_every_game_a_token_and_downgrades_with_data(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    try:
        migrate.upgrade(engine, "0008")
        _seed(engine)
        migrate.upgrade(engine, "0009")
        found = _invites(engine)
        tokens = [token for token, _ in found.values()]
        assert set(found) == set(GAMES)
        assert all(token is not None and len(token) >= 22 for token in tokens)
        assert len(set(tokens)) == len(GAMES)  # one each, none shared
        assert not any(token == str(game) for game, (token, _) in found.items())
        assert not any(private for _, private in found.values())  # they stay public
        assert "game_invitees" in inspect(engine).get_table_names()

        migrate.downgrade(engine, "0008")
        columns = {c["name"] for c in inspect(engine).get_columns("games")}
        assert not {"invite_token", "private"} & columns
        assert "game_invitees" not in inspect(engine).get_table_names()
        with engine.connect() as c:
            assert c.execute(text("SELECT count(*) FROM games")).scalar_one() == len(GAMES)
        migrate.upgrade(engine)
        assert all(token is not None for token, _ in _invites(engine).values())
        assert migrate.schema_differences(engine) == []
    finally:
        engine.dispose()
