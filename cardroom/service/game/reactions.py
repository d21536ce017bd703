"""What follows from a saved change, in the command's own transaction: the game's
deadlines (the turn clock, the review, the 72-hour cancel, blind levels, a practice
bot's turn), the notices the new events call for (an outbox: the rows are written
now, delivered later) and whether the lobby's listing of the game changed (open lobby
pages are then told to look again). The unit of work only loads and saves; the
pipeline calls this after every save, so ``GameTx`` knows none of its listeners.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sqlalchemy.exc import SQLAlchemyError

from cardroom.service.bot_seats import bot_to_act
from cardroom.service.game_records import StoredEvent
from cardroom.service.game_tx import GameTx
from cardroom.service.notices import record
from cardroom.service.schedule import store_deadlines, wanted_deadlines
from cardroom.store.models import GameStatus

log = logging.getLogger(__name__)


def after_save(tx: GameTx, saved: Sequence[StoredEvent] | None) -> None:
    """React to ``tx.save()``'s answer: None (nothing changed) calls for nothing."""
    if saved is None:
        return
    _note_lobby_change(tx)
    session, table = tx.session, tx.table
    # The row as saved, for what reads the game's columns (plain attributes).
    row = tx.saved_row
    assert row is not None
    bot = bot_to_act(session, tx.game, table)
    wanted = wanted_deadlines(row, table, tx.t, bot_to_act=bot)
    # What the transaction knows of the pending rows goes in (a kept table's: none
    # read), and what they are now comes back, to be kept with the table.
    tx.pending = store_deadlines(session, row, wanted, tx.now, known=tx.pending)
    tx.next_due = min((w.due_at for w in wanted.values()), default=None)
    session.flush()
    if saved:
        _record_notices(tx, saved)


def _record_notices(tx: GameTx, events: Sequence[StoredEvent]) -> None:
    """The notices ``events`` call for, recorded in this transaction (no second one
    after the commit, the table not decoded again). A notice is a courtesy: a mistake
    in deciding one is logged and the command goes on. A failed statement is not
    caught: on PostgreSQL it has aborted the transaction, so the command could not
    commit anyway (``notices_in`` says why none should fail; a savepoint to survive
    one would cost every command a round trip)."""
    row = tx.saved_row
    assert row is not None
    try:
        tx.notices += record.notices_in(
            tx.session,
            row,
            tx.table,
            events,
            now=tx.now,
            actor_id=tx.actor_id,
            hand_id=tx.game.hand_id,  # the row of ``table.hands_dealt``'s hand, if any
            just_stored=True,
        )
    except SQLAlchemyError:
        raise
    except Exception:
        log.exception("could not record the notices of game %s", tx.game.id)


def listing(tx: GameTx) -> tuple[GameStatus, int, int, int]:
    """What a lobby row shows of the game that a command may change: its status, the
    seats taken, the blinds. The rest (the rules, the buy-in, the host) is fixed at
    creation; the version and the last activity change with every bet and are not
    worth telling every lobby about. Read from the table in memory: no statement."""
    table = tx.table
    return (tx.game.status, len(table.seats), table.small_blind, table.big_blind)


def _note_lobby_change(tx: GameTx) -> None:
    """Mark the command as changing the lobby when the listing differs from the one
    the game was opened with (``tx.listed``, None for a game created in this
    transaction); an ordinary bet changes none of it. A private table is never
    listed, so its changes tell no lobby (not even that something happened)."""
    now = listing(tx)
    if now != tx.listed and not tx.game.private:
        tx.lobby_changed = True
        tx.listed = now
