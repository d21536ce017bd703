"""Which players at a table are practice bots: the part of the bots that every
command on a table passes through (``GameTx``), kept apart from the use cases in
``cardroom.service.bots`` so that ``game_tx`` can import it.

Bots sit only at practice tables (the ``arena`` preset, for points), so at any other
table these functions return at once without a query. At a practice table a bot is
recognised by its ``bot_accounts`` row, read by primary key (the session's identity
map keeps it for the rest of the transaction).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from cardroom.store.bot_models import BotAccount
from cardroom.table import TableStatus

if TYPE_CHECKING:
    from cardroom.service.game_tx import GameTx

# The preset of practice tables: points, not money (docs/bots.md says why).
PRACTICE_PRESET = "arena"


def bot_level(session: Session, user_id: int) -> str | None:
    """The level ``user_id`` plays at if it is a bot; None for a person."""
    row = session.get(BotAccount, user_id)
    return None if row is None else row.level


def bot_to_act(tx: GameTx) -> str | None:
    """The level of the bot whose turn it is, or None (a person's turn, no hand, or
    not a practice table)."""
    if tx.game.preset != PRACTICE_PRESET:
        return None
    hand = tx.table.hand
    if hand is None or hand.is_over or hand.seat_to_act is None:
        return None
    player = tx.table.hand_players.get(hand.seat_to_act)
    return None if player is None else bot_level(tx.session, player)


def bots_continue(tx: GameTx) -> None:
    """At a practice table, the bots press Continue as soon as a hand is over (a
    person's review still holds the next hand until they press it or time runs out)."""
    if tx.game.preset != PRACTICE_PRESET:
        return
    table = tx.table
    if table.status is not TableStatus.PLAYING or table.hand is None or table.hand_running:
        return
    for number, player in sorted(table.hand_players.items()):
        seat = table.seats.get(number)
        if player in table.continued or seat is None or seat.player != player:
            continue
        if bot_level(tx.session, player) is not None:
            _press_continue(tx, player)


def _press_continue(tx: GameTx, player: int) -> None:
    table = tx.table
    tx.run(lambda: table.press_continue(player, tx.t))
