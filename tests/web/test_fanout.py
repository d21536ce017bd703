"""The PostgreSQL fan-out sends every notification of one command in one statement,
and every listener gets them all, in order."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import psycopg
from sqlalchemy import Engine, event, make_url

from cardroom.service.context import ServiceContext
from cardroom.web.fanout import (
    GAMES_CHANNEL,
    LOBBY_CHANNEL,
    USERS_CHANNEL,
    LocalFanout,
    PostgresFanout,
    fanout_for,
)


class _Live:
    def __init__(self) -> None:
        self.pushed: list[tuple[int, Any]] = []

    def push_user_soon(self, *args: Any) -> None:
        self.pushed.append(args)

    def push_user(self, *args: Any) -> None:  # pragma: no cover - only named
        raise AssertionError


@contextlib.contextmanager
def _listening(
    ctx: ServiceContext, db: Engine, *channels: str
) -> Iterator[tuple[PostgresFanout, psycopg.Connection[Any], list[str]]]:
    """A fan-out on ``db``, a session listening on ``channels``, and every statement
    the engine sends meanwhile."""
    conninfo = make_url(db.url).set(drivername="postgresql").render_as_string(False)
    statements: list[str] = []

    def seen(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    with psycopg.connect(conninfo, autocommit=True) as listener:
        for channel in channels:
            listener.execute(f"LISTEN {channel}")
        event.listen(ctx.engine, "before_cursor_execute", seen)
        try:
            yield PostgresFanout(conninfo), listener, statements
        finally:
            event.remove(ctx.engine, "before_cursor_execute", seen)


def test_one_statement_for_a_game_and_its_notices(ctx: ServiceContext, db: Engine) -> None:
    url = db.url.render_as_string(hide_password=False)
    if db.dialect.name != "postgresql":
        # NOTIFY is PostgreSQL's: SQLite's one process tells only itself.
        assert isinstance(fanout_for(url), LocalFanout)
        return
    assert isinstance(fanout_for(url), PostgresFanout)
    conninfo = make_url(db.url).set(drivername="postgresql").render_as_string(False)
    statements: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as listener:
        listener.execute(f"LISTEN {GAMES_CHANNEL}")
        listener.execute(f"LISTEN {USERS_CHANNEL}")
        fanout = PostgresFanout(conninfo)

        def seen(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
            statements.append(statement)

        event.listen(ctx.engine, "before_cursor_execute", seen)
        try:
            live = _Live()
            messages = [(7, {"type": "notification", "n": 1}), (8, {"type": "notification"})]
            fanout.publish(ctx, live, (3, 41, 9), messages)  # type: ignore[arg-type]
        finally:
            event.remove(ctx.engine, "before_cursor_execute", seen)
        got = [(n.channel, n.payload) for n in listener.notifies(timeout=5, stop_after=3)]
    assert [s for s in statements if "pg_notify" in s] == [statements[-1]]
    assert got[0] == (GAMES_CHANNEL, "3:41:9")
    assert [json.loads(p) for _, p in got[1:]] == [
        {"user_id": 7, "message": {"type": "notification", "n": 1}},
        {"user_id": 8, "message": {"type": "notification"}},
    ]
    assert live.pushed == []


def test_one_process_pushes_its_own_messages() -> None:
    live = _Live()
    LocalFanout().publish(None, live, (1, 2, 3), [(5, {"a": 1})])  # type: ignore[arg-type]
    assert live.pushed == [(5, {"a": 1})]


def test_a_lobby_change_rides_in_the_same_statement(ctx: ServiceContext, db: Engine) -> None:
    """A command that changed the lobby's listing adds its game to ``cardroom_lobby``
    in the one ``pg_notify`` statement of the command; an ordinary one adds nothing."""
    if db.dialect.name != "postgresql":
        return  # one process: Live tells its own lobby pages (tests/web/test_live_lobby.py)
    with _listening(ctx, db, GAMES_CHANNEL, LOBBY_CHANNEL) as (fanout, listener, statements):
        live = _Live()
        fanout.publish(ctx, live, (3, 41, 9), [], lobby=False)  # type: ignore[arg-type]
        fanout.publish(ctx, live, (4, 7, 2), [], lobby=True)  # type: ignore[arg-type]
        got = [(n.channel, n.payload) for n in listener.notifies(timeout=5, stop_after=3)]
    assert len([s for s in statements if "pg_notify" in s]) == 2  # one per command
    assert got == [(GAMES_CHANNEL, "3:41:9"), (GAMES_CHANNEL, "4:7:2"), (LOBBY_CHANNEL, "4")]


def test_a_batch_gathered_goes_out_in_one_statement(ctx: ServiceContext, db: Engine) -> None:
    """The committer answers a batch inside ``gathered``: every command's
    notifications wait for its end and go out in one statement and one commit, in the
    order published; nothing is sent before the end, and outside it each goes at once."""
    if db.dialect.name != "postgresql":
        with LocalFanout().gathered():  # one process: nothing to gather
            return
    with _listening(ctx, db, GAMES_CHANNEL, USERS_CHANNEL) as (fanout, listener, statements):
        live = _Live()
        with fanout.gathered():
            fanout.publish(ctx, live, (3, 41, 9), [(7, {"n": 1})])  # type: ignore[arg-type]
            with fanout.gathered():  # inner: sent with the outer
                fanout.publish(ctx, live, (4, 7, 2))  # type: ignore[arg-type]
            assert not [s for s in statements if "pg_notify" in s]
        gathered = [s for s in statements if "pg_notify" in s]
        fanout.publish(ctx, live, (5, 1, 1))  # type: ignore[arg-type]
        got = [(n.channel, n.payload) for n in listener.notifies(timeout=5, stop_after=4)]
    assert len(gathered) == 1 and gathered[0].count("pg_notify") == 3
    assert len([s for s in statements if "pg_notify" in s]) == 2
    assert got == [
        (GAMES_CHANNEL, "3:41:9"),
        (USERS_CHANNEL, json.dumps({"user_id": 7, "message": {"n": 1}})),
        (GAMES_CHANNEL, "4:7:2"),
        (GAMES_CHANNEL, "5:1:1"),
    ]


def test_a_batch_that_cannot_be_told_is_logged_not_raised(
    ctx: ServiceContext, db: Engine, caplog: Any
) -> None:
    """Its changes are committed and answered: a failed NOTIFY must not fail them."""
    if db.dialect.name != "postgresql":
        return  # one process: nothing is sent
    conninfo = make_url(db.url).set(drivername="postgresql").render_as_string(False)
    fanout = PostgresFanout(conninfo)

    def refuse(*_: Any) -> None:
        raise RuntimeError("the database is gone")

    event.listen(ctx.engine, "before_cursor_execute", refuse)
    try:
        with fanout.gathered():
            fanout.publish(ctx, _Live(), (3, 41, 9))  # type: ignore[arg-type]
    finally:
        event.remove(ctx.engine, "before_cursor_execute", refuse)
    assert "could not tell the other processes of a batch" in caplog.text
