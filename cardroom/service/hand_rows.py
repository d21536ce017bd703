"""A hand's rows, as a command deals or plays it: the ``hands`` row with the deck's
commitment (docs/fairness.md) and a ``hand_players`` row per player dealt in, and the
room's ``DeckCommitted`` record that goes out right after ``HandDealt``. The unit of
work (``cardroom.service.game_tx``) calls these; they touch only the rows named."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from typing import cast as type_cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session, load_only

from cardroom.hand import Hand
from cardroom.history import fairness
from cardroom.store.models import Game, HandPlayer, HandRecord
from cardroom.store.prepared import Prepared
from cardroom.table import Table
from cardroom.table.events import HandDealt

# The room's record of a hand's deck commitment: ``{"number": n, "root": hex}``. It
# follows ``HandDealt`` and comes before the hand's first card; every viewer gets it.
DECK_COMMITTED = "DeckCommitted"


def new_hand_row(
    session: Session,
    game: Game,
    table: Table,
    hand: Hand,
    deck: Sequence[int] | None,
    dealt: HandDealt | None,
    now: datetime,
) -> RunningHand:
    """The hand's row, with a commitment to its deck: 52 fresh salts from the
    operating system's CSPRNG (never the game's random source, which tests seed)
    and the Merkle root over them (docs/fairness.md); and one ``hand_players``
    row per player dealt in. The game's row gets the hand's id (written back with
    its other changes by ``GameTx.save``). Through Core, like the game's row: an
    ORM row cost each deal a unit-of-work flush of its own, and nothing in the
    transaction reads it back as an object."""
    cards = list(deck if deck is not None else hand.deck)
    salts = fairness.new_salts(secrets.token_bytes)
    root = fairness.deck_root(cards, salts).hex()
    number = table.hands_dealt
    inserted = _INSERT_HAND.first(
        session,
        {
            "game_id": game.id,
            "number": number,
            "deck": cards,
            "setup": hand.plain_setup(),
            "started_at": now,
            "deck_root": root,
            "deck_salts": [salt.hex() for salt in salts],
        },
    )
    assert inserted is not None
    row = RunningHand(inserted[0], number, root)
    game.hand_id = row.id
    players = {} if dealt is None else {player: seat for seat, player, _ in dealt.players}
    if players:
        _INSERT_HAND_PLAYERS.write(
            session,
            [
                {"hand_id": row.id, "user_id": player, "game_id": game.id, "seat": seat}
                for player, seat in players.items()
            ],
        )
    return row


@dataclass(frozen=True)
class RunningHand:
    """The row of the hand a command plays on, as the command uses it: its id and
    number, nothing read (the id is on the game's row). Not an ORM object: building,
    attaching and flushing one cost every action more than the rest of its hand's
    bookkeeping; the one write a running hand gets, its end, is ``finish_hand``."""

    id: int
    number: int
    deck_root: str | None = None  # the commitment's root, for a hand just dealt


# A hand's row and its players', inserted, and its end, written, through Core.
_HANDS = type_cast(SqlTable, HandRecord.__table__)
_NEW_HAND = ("game_id", "number", "deck", "setup", "started_at", "deck_root", "deck_salts")
_INSERT_HAND = Prepared(
    insert(_HANDS)
    .values({name: bindparam(name, type_=_HANDS.c[name].type) for name in _NEW_HAND})
    .returning(_HANDS.c.id)
)
_HAND_PLAYERS = type_cast(SqlTable, HandPlayer.__table__)
_INSERT_HAND_PLAYERS = Prepared(
    insert(_HAND_PLAYERS).values(
        {name: bindparam(name) for name in ("hand_id", "user_id", "game_id", "seat")}
    )
)
_FINISH = Prepared(
    update(_HANDS)
    .where(_HANDS.c.id == bindparam("hand_id"))
    .values(
        ended_at=bindparam("ended_at", type_=_HANDS.c.ended_at.type),
        final_state=bindparam("final_state", type_=_HANDS.c.final_state.type),
    )
)


def finish_hand(
    session: Session, row: HandRecord | RunningHand, ended_at: datetime, final: dict[str, Any]
) -> None:
    """Write the hand's end on its row: on a ``HandRecord`` (read by ``hand_row`` for
    a game row that lacked the hand's id) through the unit of work, on a
    ``RunningHand`` by one UPDATE."""
    if isinstance(row, HandRecord):
        row.ended_at = ended_at
        row.final_state = final
        return
    _FINISH.write(session, {"hand_id": row.id, "ended_at": ended_at, "final_state": final})


def hand_row(
    session: Session, game: Game, table: Table, number: int
) -> tuple[HandRecord | RunningHand, bool]:
    """The row of hand ``number``, with only what a command uses: its id and
    number (``ended_at`` and ``final_state`` are set, not read: ``finish_hand``); the
    deck, setup and salts are JSON not worth decoding on every action. True with it:
    the game's row lacked the running hand's id, and has it now (to be written
    back)."""
    hand_id = game.hand_id
    if hand_id is not None and number == table.hands_dealt:
        # The latest hand: its id is on the game's row, so no read.
        return RunningHand(hand_id, number), False
    row = session.scalar(
        select(HandRecord)
        .where(HandRecord.game_id == game.id, HandRecord.number == number)
        .options(load_only(HandRecord.id, HandRecord.game_id, HandRecord.number))
    )
    assert row is not None, f"hand {number} of game {game.id} has no row"
    found = number == table.hands_dealt
    if found:
        game.hand_id = row.id  # a row that lacked it: the next command reads none
    return row, found
