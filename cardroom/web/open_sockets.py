"""The sockets open in this process, by user and session: so one player cannot hold
more than ``MAX_SOCKETS_PER_USER`` of them, and so the sockets of a session that
ended (signed out, suspended, password changed) can be closed at once.

A socket registers once it is signed in and leaves when it ends. The limits are per
process: behind a proxy spreading sockets over N processes a player may hold N times
as many, still a bound on what one account costs each process.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

# A player needs a socket per open table and one for their own stream; twenty covers
# a player with many tabs, and bounds what one account can make a process keep
# (issue 17, finding 4: forty sockets of 16 MiB frames took 1.3 GB).
MAX_SOCKETS_PER_USER = 20
CLOSE_TOO_MANY = 4429  # the socket's version of HTTP's 429
TOO_MANY = (
    f"You have {MAX_SOCKETS_PER_USER} connections to the room open already; "
    "close a tab and try again."
)


class Closable(Protocol):
    """A socket the room may close: tell the client why, close with ``code``, send
    nothing more."""

    async def end(self, code: int, sentence: str) -> None: ...


def session_key(token: str) -> str:
    """What identifies a session here and in fan-out messages: a digest, so that a
    token never travels between processes or sits in memory twice."""
    return hashlib.sha256(token.encode()).hexdigest()


class OpenSockets:
    def __init__(self, per_user: int = MAX_SOCKETS_PER_USER) -> None:
        self.per_user = per_user
        self._by_user: dict[int, dict[Closable, str]] = {}  # user -> socket -> session

    def add(self, user_id: int, token: str, socket: Closable) -> bool:
        """Register ``socket``; False (and not registered) if the user has as many
        open as allowed."""
        mine = self._by_user.setdefault(user_id, {})
        if len(mine) >= self.per_user:
            if not mine:
                del self._by_user[user_id]
            return False
        mine[socket] = session_key(token)
        return True

    def remove(self, user_id: int, socket: Closable) -> None:
        mine = self._by_user.get(user_id)
        if mine is not None:
            mine.pop(socket, None)
            if not mine:
                del self._by_user[user_id]

    def count(self, user_id: int) -> int:
        return len(self._by_user.get(user_id, {}))

    def of(
        self, user_id: int, session: str | None = None, keep: str | None = None
    ) -> list[Closable]:
        """The user's sockets: those of one session (its ``session_key``), or all
        but those of ``keep``."""
        mine = self._by_user.get(user_id, {})
        return [
            s
            for s, key in mine.items()
            if (session is None or key == session) and (keep is None or key != keep)
        ]
