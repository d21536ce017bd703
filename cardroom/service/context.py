"""What every use case needs from the shell: settings, a way to open a transaction,
the clock, the decks' random source and the password hasher. Built once at start-up
and passed in, so tests can swap the clock and the database."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime

from argon2 import PasswordHasher
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from cardroom.config import Settings
from cardroom.deck import RandomSource, SystemRandomSource
from cardroom.notify.push_address import Resolver, system_resolver
from cardroom.service.passwords import make_hasher
from cardroom.service.recent_sessions import RecentSessions
from cardroom.service.throttle import DatabaseThrottle, LoginThrottle, NoThrottle
from cardroom.store.db import make_engine, make_sessionmaker

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class ServiceContext:
    settings: Settings
    sessions: sessionmaker[Session]
    clock: Clock = system_clock
    login_throttle: LoginThrottle = field(default_factory=NoThrottle)
    # Sessions proven a moment ago in this process (the HTTP routes' sign-in check).
    recent_sessions: RecentSessions = field(default_factory=RecentSessions, compare=False)
    # The decks' random source: the operating system's CSPRNG; tests may seed one.
    random: RandomSource = field(default_factory=SystemRandomSource, compare=False)
    # How push endpoints' names become addresses (tests give their own: no network).
    resolver: Resolver = system_resolver
    hasher: PasswordHasher = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hasher", make_hasher(self.settings.password_hashing))

    @classmethod
    def start(cls, settings: Settings, *, clock: Clock = system_clock) -> ServiceContext:
        """Make the engine (the one place a running room does) and the context, with
        the sign-in throttle that keeps its counts in the database."""
        sessions = make_sessionmaker(make_engine(settings))
        return cls(
            settings=settings,
            sessions=sessions,
            clock=clock,
            login_throttle=DatabaseThrottle(sessions),
        )

    @property
    def engine(self) -> Engine:
        bind = self.sessions.kw["bind"]
        assert isinstance(bind, Engine)
        return bind

    def close(self) -> None:
        self.engine.dispose()

    def transaction(self) -> AbstractContextManager[Session]:
        """One use case's transaction: committed if the block ends normally, rolled
        back if it raises (a refusal included). The session maker's own context, not
        a generator around it: every use case opens one."""
        return self.sessions.begin()

    def now(self) -> datetime:
        moment = self.clock()
        if moment.tzinfo is None:
            raise ValueError("the clock must give timezone-aware times")
        return moment


def worker_name() -> str:
    """Who claims a deadline: host, process and thread, for the record."""
    return f"{socket.gethostname()}:{os.getpid()}:{threading.get_ident()}"[:100]
