"""Real ``cardroom serve`` processes for the reliability tests, and the database they
share with the test.

A ``Room`` is a scratch database (SQLite file or PostgreSQL database, as in
tests/conftest.py), migrated, with an in-process ``ServiceContext`` on it for the
test's own look at the rows. A ``Server`` is one ``cardroom serve`` process on it,
forked by the ``Zygote`` (tests/reliability/zygote.py) so that starting one costs
milliseconds; ``kill()`` sends SIGKILL, ``stop()`` SIGINT. Either returns once the
process has ended and so has all it had sent the database (``settle``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import text

from cardroom.config import PasswordHashing, Settings
from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.store import migrate
from cardroom.store.db import make_engine, make_sessionmaker
from cardroom.store.models import Role
from tests.conftest import scratch_database
from tests.web.test_web_serve import free_port

ZYGOTE = Path(__file__).with_name("zygote.py")
PASSWORD = "correct horse"
# Every test player signs up and writes from 127.0.0.1: no limits per address.
CHEAP = {
    "CARDROOM_PASSWORD_HASHING": "cheap",
    "CARDROOM_SIGN_UPS_PER_ADDRESS": "0",
    "CARDROOM_WRITES_PER_ADDRESS_PER_SECOND": "0",
    "CARDROOM_WRITES_PER_SECOND": "0",  # bots act as fast as they can
    # Every table the committer kept decoded is compared with the stored one when
    # taken (cardroom.service.kept_tables).
    "CARDROOM_CHECK_KEPT_TABLES": "1",
}


class Zygote:
    """The forking parent of every server of a test session."""

    def __init__(self, folder: Path) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
        env["OPENBLAS_NUM_THREADS"] = "1"  # no thread pool in the parent of forks
        self._errors = (folder / "zygote.err").open("wb")
        self.process = subprocess.Popen(
            [sys.executable, str(ZYGOTE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._errors,
            env=env,
            text=True,
            bufsize=1,
        )
        self._lock = threading.Lock()

    def request(self, **message: Any) -> dict[str, Any]:
        with self._lock:
            stdin, stdout = self.process.stdin, self.process.stdout
            assert stdin is not None and stdout is not None
            stdin.write(json.dumps(message) + "\n")
            stdin.flush()
            line = stdout.readline()
        assert line, f"the zygote died: exit {self.process.poll()}"
        answer: dict[str, Any] = json.loads(line)
        assert "error" not in answer, answer
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self._errors.close()


# The sessions on PostgreSQL of a process that is still there (or ended a moment ago).
_SESSIONS = text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name")


@dataclass
class Room:
    """A migrated scratch database, and the test's own context on it (no throttle,
    the system clock, cheap argon2)."""

    backend: str
    url: str
    folder: Path
    ctx: ServiceContext

    def admin(self, name: str = "boss") -> int:
        """An admin made at the console, as `cardroom admin create-user` does."""
        return accounts.create_user(self.ctx, CONSOLE, name, PASSWORD, role=Role.ADMIN).id

    def sessions_of(self, application_name: str) -> int:
        """How many PostgreSQL sessions carry ``application_name`` now (0 on SQLite)."""
        if self.backend != "postgresql":
            return 0
        with self.ctx.transaction() as session:
            return int(session.scalar(_SESSIONS, {"name": application_name}) or 0)


def settle(the_room: Room, application_name: str, timeout: float = 30.0) -> None:
    """Wait until no database session of an ended process is left. On PostgreSQL the
    session outlives its process for a moment: what the process sent before it died
    (a COMMIT among it) is still carried out, and only then does the session read the
    end of the connection and go. A look at the rows before that may miss a commit
    still to land (a player's Continue deleting the review's deadline, say), which
    no later process made. A dead SQLite writer has no such session: what it wrote
    is all there is."""
    began = time.monotonic()
    while the_room.sessions_of(application_name):
        assert time.monotonic() - began < timeout, f"{application_name}'s sessions linger"
        time.sleep(0.01)


@contextmanager
def room(backend: str, folder: Path) -> Iterator[Room]:
    with scratch_database(backend, folder) as url:
        settings = Settings(database_url=url, password_hashing=PasswordHashing.cheap())
        engine = make_engine(settings)
        try:
            migrate.upgrade(engine)
            yield Room(backend, url, folder, ServiceContext(settings, make_sessionmaker(engine)))
        finally:
            engine.dispose()


class Server:
    """One ``cardroom serve`` process on a room; the same port across restarts."""

    def __init__(
        self,
        zygote: Zygote,
        the_room: Room,
        name: str = "server",
        *,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
    ) -> None:
        self.zygote = zygote
        self.room = the_room
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.env = dict(CHEAP if env is None else env)
        self.args = args
        self.log = the_room.folder / f"{name}.log"
        self.pid: int | None = None
        # What the running process's database sessions are called (``PGAPPNAME``).
        self.application_name = ""
        self.starts = 0
        self.kills = 0

    def start(self, timeout: float = 60.0) -> float:
        """Start and wait until ``/healthz`` answers; returns the seconds it took."""
        assert self.pid is None, "already running"
        began = time.monotonic()
        argv = ["serve", "--port", str(self.port), "--database-url", self.room.url, *self.args]
        # Each process's sessions by a name of their own (libpq reads it from the
        # environment), so that ``settle`` can tell when a dead one's are gone.
        self.application_name = f"{self.name[:20]}-{os.getpid()}-{self.port}-{self.starts}"
        env = {**self.env, "PGAPPNAME": self.application_name}
        self.pid = int(
            self.zygote.request(
                op="start", argv=argv, env=env, log=str(self.log), cwd=str(self.room.folder)
            )["pid"]
        )
        self.starts += 1
        with httpx.Client(timeout=2.0) as client:
            while True:
                assert self._alive(), f"{self.name} exited:\n{self.log_text()[-3000:]}"
                try:
                    if client.get(f"{self.base}/healthz").status_code == 200:
                        return time.monotonic() - began
                except httpx.TransportError:
                    pass
                assert time.monotonic() - began < timeout, f"{self.name} did not start"
                time.sleep(0.02)

    def _alive(self) -> bool:
        assert self.pid is not None
        try:
            state = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return False
        return state != "Z"

    def kill(self) -> int:
        """SIGKILL: no shutdown, no cleanup, connections cut mid-transaction. Returns
        once the database has done all the process sent it (``settle``): a look at
        the rows then sees everything the dead process will ever have changed."""
        assert self.pid is not None
        os.kill(self.pid, signal.SIGKILL)
        status = self._reap()
        self.kills += 1
        return status

    def ended(self, timeout: float = 20.0) -> int:
        """Reap a server that ended by itself (a test's fault injection)."""
        assert self.pid is not None
        deadline = time.monotonic() + timeout
        while self._alive():
            assert time.monotonic() < deadline, f"{self.name} is still running"
            time.sleep(0.02)
        return self._reap()

    def stop(self) -> int:
        """SIGINT, as ^C: uvicorn shuts down cleanly."""
        if self.pid is None:
            return 0
        os.kill(self.pid, signal.SIGINT)
        deadline = time.monotonic() + 20
        while self._alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        if self._alive():
            os.kill(self.pid, signal.SIGKILL)
        return self._reap()

    def _reap(self) -> int:
        """Wait for the ended process, then for its database sessions (``settle``):
        until then, something it sent may still be committed."""
        assert self.pid is not None
        status = int(self.zygote.request(op="wait", pid=self.pid)["status"])
        self.pid = None
        settle(self.room, self.application_name)
        return status

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@contextmanager
def serving(
    zygote: Zygote, the_room: Room, name: str = "server", **options: Any
) -> Iterator[Server]:
    server = Server(zygote, the_room, name, **options)
    server.start()
    try:
        yield server
    finally:
        server.stop()
