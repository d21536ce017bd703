"""Migration 0012 on both databases: on SQLite a "your turn" notice's insert marks the
player's older unread turn notices at that game read (with its own ``created_at``),
and nothing else (another kind, another game, another player, a read one); the
downgrade drops the trigger. PostgreSQL gets no trigger (its insert statement does the
update beside it, ``cardroom.service.notices.record``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, text

from cardroom.config import Settings
from cardroom.store import migrate
from cardroom.store.db import make_engine

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def _seed(engine: Engine) -> None:
    """Two players and two games; a turn of ann's at game 1 read already, then unread:
    ann's turns at both games and a start at game 1, bob's turn at game 1."""
    with engine.begin() as c:
        for user, name in ((1, "ann"), (2, "bob")):
            c.execute(
                text(
                    "INSERT INTO users (id, name, name_key, password_hash, role, suspended, "
                    "created_at) VALUES (:id, :n, :n, 'x', 'player', false, :t)"
                ),
                {"id": user, "n": name, "t": NOW},
            )
        for game in (1, 2):
            c.execute(
                text(
                    "INSERT INTO games (id, host_id, preset, format, config, status, "
                    "version, created_at, last_activity_at, state, invite_token) VALUES "
                    "(:id, 1, 'house', 'cash', '{}', 'running', 1, :t, :t, '{}', :tok)"
                ),
                {"id": game, "t": NOW, "tok": f"tok{game}"},
            )
        for notice in (
            (5, 1, "your_turn", 1, NOW),  # first: a turn inserted later supersedes
            (1, 1, "your_turn", 1, None),
            (2, 1, "game_started", 1, None),
            (3, 1, "your_turn", 2, None),
            (4, 2, "your_turn", 1, None),
        ):
            _notice(c, *notice)


def _notice(c: Any, id_: int, user: int, kind: str, game: int, read_at: Any) -> None:
    c.execute(
        text(
            "INSERT INTO notices (id, user_id, kind, game_id, dedupe_key, title, body, "
            "data, created_at, read_at) VALUES (:id, :u, :k, :g, :key, 't', 'b', '{}', "
            ":t, :r)"
        ),
        {
            "id": id_,
            "u": user,
            "k": kind,
            "g": game,
            "key": f"k{id_}",
            "t": NOW + timedelta(minutes=id_),
            "r": read_at,
        },
    )


def _unread(engine: Engine) -> set[int]:
    with engine.connect() as c:
        return set(c.scalars(text("SELECT id FROM notices WHERE read_at IS NULL")))


def test_0012_a_turn_notice_supersedes_on_sqlite_only(empty_database_url: str) -> None:
    engine = make_engine(Settings(database_url=empty_database_url))
    sqlite = engine.dialect.name == "sqlite"
    try:
        migrate.upgrade(engine, "0012")
        _seed(engine)
        assert _unread(engine) == {1, 2, 3, 4}
        with engine.begin() as c:
            _notice(c, 6, 1, "game_ended", 1, None)  # not a turn: supersedes nothing
        assert _unread(engine) == {1, 2, 3, 4, 6}
        with engine.begin() as c:
            _notice(c, 7, 1, "your_turn", 1, None)  # ann's new turn at game 1
        assert _unread(engine) == ({2, 3, 4, 6, 7} if sqlite else {1, 2, 3, 4, 6, 7})
        if sqlite:
            with engine.connect() as c:
                read = c.execute(text("SELECT read_at, created_at FROM notices WHERE id IN (1, 7)"))
                first, new = read.all()
            assert first[0] == new[1]  # read when the new notice was made
        migrate.downgrade(engine, "0011")
        with engine.begin() as c:
            _notice(c, 8, 1, "your_turn", 1, None)  # no trigger: nothing marked read
        assert 7 in _unread(engine) and 8 in _unread(engine)
    finally:
        engine.dispose()
