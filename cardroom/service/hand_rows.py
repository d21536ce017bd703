"""A hand's rows, as a command deals or plays it: the ``hands`` row with the deck's
commitment (docs/fairness.md) and a ``hand_players`` row per player dealt in, and the
room's ``DeckCommitted`` record that goes out right after ``HandDealt``. The unit of
work (``cardroom.service.game_tx``) calls these; they touch only the rows named."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, load_only, make_transient_to_detached
from sqlalchemy.orm.util import identity_key

from cardroom.hand import Hand
from cardroom.history import fairness
from cardroom.store.models import Game, HandPlayer, HandRecord
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
) -> HandRecord:
    """The hand's row, with a commitment to its deck: 52 fresh salts from the
    operating system's CSPRNG (never the game's random source, which tests seed)
    and the Merkle root over them (docs/fairness.md); and one ``hand_players``
    row per player dealt in. The game's row gets the hand's id (written back with
    its other changes by ``GameTx.save``)."""
    setup = hand.to_dict()["setup"]
    cards = list(deck if deck is not None else hand.deck)
    salts = fairness.new_salts(secrets.token_bytes)
    root, _tree = fairness.commit(cards, salts)
    row = HandRecord(
        game_id=game.id,
        number=table.hands_dealt,
        deck=cards,
        setup=setup,
        started_at=now,
        deck_root=root.hex(),
        deck_salts=[salt.hex() for salt in salts],
    )
    session.add(row)
    session.flush()
    game.hand_id = row.id
    players = {} if dealt is None else {player: seat for seat, player, _ in dealt.players}
    for player, seat in players.items():
        session.add(HandPlayer(hand_id=row.id, user_id=player, game_id=game.id, seat=seat))
    return row


def hand_row(session: Session, game: Game, table: Table, number: int) -> tuple[HandRecord, bool]:
    """The row of hand ``number``, with only what a command uses: its id and
    number (``ended_at`` and ``final_state`` are set, not read); the deck, setup
    and salts are JSON not worth decoding on every action. True with it: the game's
    row lacked the running hand's id, and has it now (to be written back)."""
    hand_id = game.hand_id
    if hand_id is not None and number == table.hands_dealt:
        # The latest hand: its id is on the game's row, so no read. A stand-in
        # attached as if loaded (the other columns unloaded) is enough, and what
        # the command sets on it goes out as an UPDATE like any loaded row's.
        known: HandRecord | None = session.identity_map.get(identity_key(HandRecord, hand_id))
        if known is not None:  # dealt in this session
            return known, False
        stand_in = HandRecord(id=hand_id, game_id=game.id, number=number)
        make_transient_to_detached(stand_in)
        session.add(stand_in)
        return stand_in, False
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
