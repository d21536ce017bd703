"""A killed process's last statement may still commit after the kill, on PostgreSQL:
its session carries out what was sent before the process died (a COMMIT included)
and only then finds the connection closed. The crash tests look at the rows right
after each kill and take every later change for the clock's (tests/reliability/
test_crashes.py); ``Server.kill`` therefore returns only when the dead server's
sessions are gone (``servers.settle``).

Here a process sends an UPDATE that waits on a row lock this test holds, and is
killed while it waits: the row still reads as before the kill, and the UPDATE lands
once the lock is let go, after the process died. ``settle`` waits for exactly that.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from tests.conftest import BACKENDS
from tests.reliability.servers import Room, Server, Zygote, room, settle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif("postgresql" not in BACKENDS, reason="PostgreSQL only"),
]

# Sends one statement (autocommit: it commits when it is done) without waiting for
# its answer, says so, and waits to be killed.
WRITER = """
import sys, time
import psycopg
connection = psycopg.connect(sys.argv[1], autocommit=True)
connection.pgconn.send_query(b"UPDATE words SET said = 'after the kill' WHERE id = 1")
connection.pgconn.flush()
print("sent", flush=True)
time.sleep(600)
"""


@pytest.fixture
def postgres_room(tmp_path: Path) -> Iterator[Room]:
    with room("postgresql", tmp_path) as the_room:
        yield the_room


def said(the_room: Room) -> str:
    with the_room.ctx.transaction() as session:
        return str(session.scalar(text("SELECT said FROM words WHERE id = 1")))


def waiting_on_a_lock(the_room: Room, name: str) -> bool:
    with the_room.ctx.transaction() as session:
        return bool(
            session.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE application_name = :name AND wait_event_type = 'Lock'"
                ),
                {"name": name},
            )
        )


def test_a_killed_writers_statement_lands_before_settle_returns(postgres_room: Room) -> None:
    the_room = postgres_room
    with the_room.ctx.transaction() as session:
        session.execute(text("CREATE TABLE words (id integer PRIMARY KEY, said text)"))
        session.execute(text("INSERT INTO words VALUES (1, 'before the kill')"))
    name = f"writer-{os.getpid()}"
    libpq_url = make_url(the_room.url).set(drivername="postgresql")
    holder = the_room.ctx.sessions()
    holder.execute(text("SELECT said FROM words WHERE id = 1 FOR UPDATE"))  # the lock
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, libpq_url.render_as_string(hide_password=False)],
        env={**os.environ, "PGAPPNAME": name},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "sent\n"
        began = time.monotonic()
        while not waiting_on_a_lock(the_room, name):
            assert time.monotonic() - began < 30, "the writer's UPDATE never waited"
            time.sleep(0.01)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        assert said(the_room) == "before the kill"  # as a look right after the kill reads
        assert the_room.sessions_of(name) == 1  # the dead writer's session waits on
        letting_go = threading.Timer(0.3, holder.commit)
        letting_go.start()
        try:
            settle(the_room, name)
            assert said(the_room) == "after the kill", "settle returned before the commit landed"
            assert the_room.sessions_of(name) == 0
        finally:
            letting_go.join()
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
        if writer.stdout is not None:
            writer.stdout.close()
        holder.close()


def test_a_killed_servers_sessions_are_gone_when_kill_returns(
    postgres_room: Room, zygote: Zygote
) -> None:
    """The server's sessions carry the name ``settle`` waits on (it would otherwise
    wait on nothing and return at once)."""
    server = Server(zygote, postgres_room, "settling")
    server.start()
    try:
        name = server.application_name
        began = time.monotonic()
        while not postgres_room.sessions_of(name):  # the clock's first look opens one
            assert time.monotonic() - began < 30, "no session of the server carries its name"
            time.sleep(0.01)
        server.kill()
        assert postgres_room.sessions_of(name) == 0
    finally:
        server.stop()
