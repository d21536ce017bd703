"""How many people watch a table: the users with a table socket open and no seat at
it, counted over every server process.

Each process knows its own spectators (``here``: a game's spectating users, with how
many sockets each has open) and tells the others whenever that changes, in a table
message over the fan-out: ``{"type": "watching", "process": ..., "users": [...]}``.
Every process (the sender included) keeps the last list each process sent
(``heard``), and a game's count is the number of distinct users in them. A process
that begins watching a game asks the others to tell it theirs (``watching_ask``), so
a newcomer counts the spectators who were there before it.

A process that dies without a word leaves its last list standing until it is
restarted and its sockets come back (a stopping server tells its lists empty): the
count is a courtesy, never a permission.
"""

from __future__ import annotations

import collections
import os
import uuid
from collections.abc import Mapping
from typing import Any

WATCHING = "watching"
WATCHING_ASK = "watching_ask"
WATCHERS = "watchers"  # what the table's sockets are sent: {"type": "watchers", "count": n}
MAX_LISTED = 500  # a list longer than this is cut (the payload must fit in a NOTIFY)


class Spectators:
    def __init__(self) -> None:
        self.process = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.here: dict[int, collections.Counter[int]] = {}
        self.heard: dict[int, dict[str, frozenset[int]]] = {}

    def opened(self, game_id: int, user_id: int) -> bool:
        """A spectator's socket opened here; whether the game's list changed."""
        users = self.here.setdefault(game_id, collections.Counter())
        users[user_id] += 1
        return users[user_id] == 1

    def closed(self, game_id: int, user_id: int) -> bool:
        """A spectator's socket closed here (or its user sat down); whether the game's
        list changed."""
        users = self.here.get(game_id)
        if users is None or users[user_id] <= 0:
            return False
        users[user_id] -= 1
        if users[user_id] > 0:
            return False
        del users[user_id]
        if not users:
            del self.here[game_id]
        return True

    def report(self, game_id: int) -> dict[str, Any]:
        """This process's list for the game, as a table message."""
        users = sorted(self.here.get(game_id, ()))[:MAX_LISTED]
        return {"type": WATCHING, "process": self.process, "users": users}

    def ask(self) -> dict[str, Any]:
        return {"type": WATCHING_ASK, "process": self.process}

    def hear(self, game_id: int, message: Mapping[str, Any]) -> int | None:
        """A process's list for the game: the game's new count, if it changed."""
        process, users = message.get("process"), message.get("users")
        if not isinstance(process, str) or not isinstance(users, list):
            return None
        listed = frozenset(u for u in users if type(u) is int)
        before = self.count(game_id)
        lists = self.heard.setdefault(game_id, {})
        if listed:
            lists[process] = listed
        else:
            lists.pop(process, None)
            if not lists:
                del self.heard[game_id]
        after = self.count(game_id)
        return None if after == before else after

    def count(self, game_id: int) -> int:
        lists = self.heard.get(game_id, {})
        everyone: set[int] = set()
        for users in lists.values():
            everyone |= users
        return len(everyone)

    def games_here(self) -> tuple[int, ...]:
        return tuple(self.here)


def watchers_message(game_id: int, count: int) -> dict[str, Any]:
    return {"type": WATCHERS, "game_id": game_id, "count": count}
