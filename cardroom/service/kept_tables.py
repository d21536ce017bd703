"""The tables this process keeps decoded between their commands.

Each process is the authority for the tables routed to it (``--route-by table``), so
its committer (``cardroom.web.committer``) keeps each table it saved, decoded, for
the table's next command, with the game's row and its pending deadlines as
committed: that command locks the game's row and reads its version only
(``game_rows.lock_version``), neither the row's columns nor its state, and writes
its deadlines' changes without reading them (``schedule.store_deadlines``). The
row's version says whether what is kept is still what is stored: a command from
anywhere else (an HTTP request on a worker thread, the clock, the operator's
console, another process after a re-route) moves the version on without this
process's copy, and the next command here then reads the row, the table and the
deadlines from the database as before. Nothing answered is lost when the process
dies: the kept tables are copies of what was committed, never the only copy.

What changes without the version is not trusted from here: the chat's switch
(``games.chat_on``, not kept: ``game_rows``) and the clock's firing, in any
process, which marks a deadline fired and may write a reminder's next point
(``schedule.store_deadlines`` says how the kept deadlines allow for it).

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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom.service.game_records import Pending, quick_init
from cardroom.service.game_rows import KEPT_COLUMNS
from cardroom.store.models import Deadline, Game
from cardroom.table import Table, table_from_dict, table_to_dict

# Tests only (tests/conftest.py sets it for the suite and the servers it starts):
# every kept table taken is compared with the stored state, decoded afresh. Read when
# a ``KeptTables`` is made (``checked``).
CHECK_KEPT_TABLES = "CARDROOM_CHECK_KEPT_TABLES"

# About 1 KB to 30 KB a table, decoded; the oldest goes first past this many.
KEPT_TABLES_MAX = 5_000


# Made for every command on the committer (``keep``): its dict filled straight.
@quick_init
@dataclass(frozen=True)
class KeptGame:
    """A game as its last command here committed it: the table, the row's columns
    (``game_rows.KEPT_COLUMNS``, never changed: each command builds its ``Game``
    from them, ``game_rows.game_of``) and its pending deadlines (None: not known,
    read; never changed either: ``store_deadlines`` returns new ones)."""

    version: int
    table: Table
    row: Mapping[str, Any]
    deadlines: Pending | None


class KeptTables:
    def __init__(self, limit: int = KEPT_TABLES_MAX) -> None:
        self._tables: OrderedDict[int, KeptGame] = OrderedDict()
        self._limit = limit
        # The suite's check (``CHECK_KEPT_TABLES``), read once: the environment's
        # lookup costs about 3 us, every command on a kept table.
        self.checked = check_kept_tables()
        self.hits = 0
        self.misses = 0

    def at(self, game_id: int, version: int) -> KeptGame | None:
        """What is kept for ``game_id`` if it is at ``version`` (the stored row's),
        taken out: the command now changes the table, and ``keep`` puts it back once
        committed."""
        kept = self._tables.pop(game_id, None)
        if kept is not None and kept.version == version:
            self.hits += 1
            return kept
        self.misses += 1
        return None

    def keep(
        self,
        game_id: int,
        version: int,
        table: Table,
        row: Mapping[str, Any],
        deadlines: Pending | None,
    ) -> None:
        """``table``, the row and the pending deadlines, committed at ``version``,
        for the game's next command."""
        self._tables[game_id] = KeptGame(version, table, row, deadlines)
        self._tables.move_to_end(game_id)
        while len(self._tables) > self._limit:
            self._tables.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._tables.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._tables)


def check_kept_tables() -> bool:
    return os.environ.get(CHECK_KEPT_TABLES) == "1"


def check_kept(session: Session, game_id: int, kept: KeptGame) -> None:
    """Fail if what is kept differs from what is stored, read afresh: the table
    decoded (in what it stores, or in what its hand works out from that: who is still
    in, who has chips, the legal actions), the row's kept columns, and the pending
    deadlines (each stored one kept as it is; a kept one not pending only if the
    clock fired it at that time since, which ``store_deadlines`` allows for)."""
    table = kept.table
    games = cast(SqlTable, Game.__table__)
    row = session.execute(select(games).where(games.c.id == game_id)).one()._mapping
    state = row["state"]
    assert state is not None, f"game {game_id} has no state"
    stored_row = {key: row[key] for key in KEPT_COLUMNS}
    assert stored_row == dict(kept.row), f"game {game_id}: the kept row is not the stored one"
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
    if kept.deadlines is not None:
        _check_deadlines(session, game_id, kept.deadlines)


def _check_deadlines(session: Session, game_id: int, kept: Pending) -> None:
    deadlines = cast(SqlTable, Deadline.__table__)
    rows = session.execute(
        select(
            deadlines.c.kind, deadlines.c.due_at, deadlines.c.payload, deadlines.c.fired_at
        ).where(deadlines.c.game_id == game_id)
    ).all()
    pending = {kind: (due_at, payload) for kind, due_at, payload, fired in rows if fired is None}
    fired = {(kind, due_at) for kind, due_at, _, fired_at in rows if fired_at is not None}
    for kind, (due_at, payload) in pending.items():
        want = kept.get(kind)
        assert want is not None, f"game {game_id}: a pending {kind} deadline is not kept"
        assert (want.due_at, want.payload) == (due_at, payload), (
            f"game {game_id}: the kept {kind} deadline is not the stored one"
        )
    for kind, want in kept.items():
        if kind not in pending:
            assert (kind, want.due_at) in fired, (
                f"game {game_id}: a kept {kind} deadline is neither pending nor fired"
            )
