"""Sessions this process proved a moment ago, so that a player's next request does
not look its token up again.

Every request starts by proving its session: a read of the session and its user.
At the busy rates of the load test that read was a tenth of the server's CPU
(docs/benchmarks.md, "One command's cost"), and a player acting a few times in a
minute proves the same session each time. An entry is trusted for
``RECENT_SESSION_SECONDS`` and never past the session's own expiry.

What ends a session or changes its user in this process forgets the user's entries
at once (``forget_user``, after the commit). Another process (a second server on
PostgreSQL, the ``cardroom admin`` command) cannot reach this memory: there a
sign-out, a password change, a suspension or a new role takes effect here within
``RECENT_SESSION_SECONDS``, as a table socket already rechecks its session only
every minute (docs/accounts.md). Reads that began before a forget never store what
they saw (the generation check), so a forget cannot be undone by a slow reader.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from cardroom.service.users import UserInfo

RECENT_SESSION_SECONDS = 10.0
RECENT_SESSIONS_MAX = 20_000  # about 5 MB at most; the least recently used go first


@dataclass(frozen=True)
class _Proven:
    user: UserInfo
    session_expires_at: datetime
    proven_at: float  # monotonic seconds


class RecentSessions:
    """Token hash -> the user it proved, for a few seconds. Safe across threads."""

    def __init__(
        self,
        *,
        seconds: float = RECENT_SESSION_SECONDS,
        capacity: int = RECENT_SESSIONS_MAX,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._seconds = seconds
        self._capacity = capacity
        self._monotonic = monotonic
        self._entries: OrderedDict[str, _Proven] = OrderedDict()
        self._lock = threading.Lock()
        self._generation = 0  # moves on at every forget

    @property
    def generation(self) -> int:
        """Take this before reading a session from the database; hand it to ``put``."""
        return self._generation

    def get(self, token_hash: str, now: datetime) -> UserInfo | None:
        with self._lock:
            proven = self._entries.get(token_hash)
            if proven is None:
                return None
            fresh = self._monotonic() - proven.proven_at < self._seconds
            if not fresh or proven.session_expires_at <= now:
                del self._entries[token_hash]
                return None
            self._entries.move_to_end(token_hash)
            return proven.user

    def put(
        self, token_hash: str, user: UserInfo, session_expires_at: datetime, generation: int
    ) -> None:
        """Remember a session read in a transaction begun at ``generation``: unless
        something was forgotten since (what it read may be older than that)."""
        with self._lock:
            if generation != self._generation:
                return
            self._entries[token_hash] = _Proven(user, session_expires_at, self._monotonic())
            self._entries.move_to_end(token_hash)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)

    def forget_user(self, user_id: int) -> None:
        with self._lock:
            self._generation += 1
            for key in [k for k, v in self._entries.items() if v.user.id == user_id]:
                del self._entries[key]

    def __len__(self) -> int:
        return len(self._entries)
