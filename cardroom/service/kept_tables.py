"""The tables this process keeps decoded between their commands.

Each process is the authority for the tables routed to it (``--route-by table``), so
its committer (``cardroom.web.committer``) keeps each table it saved, decoded, for
the table's next command: that command locks the game's row as always but reads
neither its state nor decodes it. The row's version says whether the kept table is
still the stored one: a command from anywhere else (an HTTP request on a worker
thread, the clock, the operator's console, another process after a re-route) moves
the version on without this process's copy, and the next command here then reads
the table from the database as before. Nothing answered is lost when the process
dies: the kept tables are copies of what was committed, never the only copy.

One thread only (the committer's): no lock. A table is kept only once its
transaction has committed (``keep``, after the commit); a command refused or a
batch rolled back drops what it may have changed in memory (``drop``).

The views of a change made from a kept table are sealed before the table's next
command changes it (``cardroom.service.change_views``).
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom.store.models import Game
from cardroom.table import Table, table_from_dict, table_to_dict

# Tests only (tests/conftest.py sets it for the suite and the servers it starts):
# every kept table taken is compared with the stored state, decoded afresh.
CHECK_KEPT_TABLES = "CARDROOM_CHECK_KEPT_TABLES"

# About 1 KB to 30 KB a table, decoded; the oldest goes first past this many.
KEPT_TABLES_MAX = 5_000


class KeptTables:
    def __init__(self, limit: int = KEPT_TABLES_MAX) -> None:
        self._tables: OrderedDict[int, tuple[int, Table]] = OrderedDict()
        self._limit = limit
        self.hits = 0
        self.misses = 0

    def at(self, game_id: int, version: int) -> Table | None:
        """The table kept for ``game_id`` if it is at ``version`` (the stored row's),
        taken out: the command now changes it, and ``keep`` puts it back once
        committed."""
        kept = self._tables.pop(game_id, None)
        if kept is not None and kept[0] == version:
            self.hits += 1
            return kept[1]
        self.misses += 1
        return None

    def keep(self, game_id: int, version: int, table: Table) -> None:
        """``table``, committed at ``version``, for the game's next command."""
        self._tables[game_id] = (version, table)
        self._tables.move_to_end(game_id)
        while len(self._tables) > self._limit:
            self._tables.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._tables.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._tables)


def check_kept_tables() -> bool:
    return os.environ.get(CHECK_KEPT_TABLES) == "1"


def check_kept(session: Session, game_id: int, table: Table) -> None:
    """Fail if the kept ``table`` differs from the game's stored state decoded afresh:
    in what it stores, or in what its hand works out from that (who is still in,
    who has chips, the legal actions)."""
    state = session.scalar(select(Game.state).where(Game.id == game_id))
    assert state is not None, f"game {game_id} has no state"
    fresh = table_from_dict(state)
    kept_state = json.loads(json.dumps(table_to_dict(table)))
    fresh_state = json.loads(json.dumps(table_to_dict(fresh)))
    assert kept_state == fresh_state, f"game {game_id}: the kept table is not the stored one"
    if table.hand is not None and fresh.hand is not None:
        derived = ("_live", "_with_chips")
        for name in derived:
            assert getattr(table.hand, name) == getattr(fresh.hand, name), (game_id, name)
        if not table.hand.is_over and table.hand.to_act >= 0:
            legal = table.hand.legal_actions(), fresh.hand.legal_actions()
            assert legal[0] == legal[1], (game_id, "legal")
