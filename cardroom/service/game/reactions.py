"""What follows from a saved change, in the command's own transaction: the game's
deadlines (the turn clock, the review, the 72-hour cancel, blind levels, a practice
bot's turn) and the notices the new events call for (an outbox: the rows are written
now, delivered later). The unit of work only loads and saves; the pipeline calls
this after every save, so ``GameTx`` knows none of its listeners.
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

log = logging.getLogger(__name__)


def after_save(tx: GameTx, saved: Sequence[StoredEvent] | None) -> None:
    """React to ``tx.save()``'s answer: None (nothing changed) calls for nothing."""
    if saved is None:
        return
    session, game, table = tx.session, tx.game, tx.table
    bot = bot_to_act(session, game, table)
    wanted = wanted_deadlines(game, table, tx.t, bot_to_act=bot)
    store_deadlines(session, game, wanted, tx.now)
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
    try:
        tx.notices += record.notices_in(
            tx.session,
            tx.game,
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
