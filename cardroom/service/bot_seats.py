"""Which players at a table are practice bots: the part of the bots that every
command on a table passes through (``GameTx``), kept apart from the use cases in
``cardroom.service.bots`` so that ``game_tx`` can import it.

Bots sit only at practice tables (the ``arena`` preset, for points), so at any other
table these functions return at once without a query. At a practice table a bot is
recognised by its ``bot_accounts`` row, read by primary key (the session's identity
map keeps it for the rest of the transaction).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.service.game_errors import NotAllowedNow
from cardroom.service.money import open_balance
from cardroom.service.users import name_key
from cardroom.store.bot_models import BotAccount
from cardroom.store.models import WAITING_GAMES_PER_PLAYER, Game, GamePlayer, Role, User
from cardroom.table import Table, TableStatus

if TYPE_CHECKING:
    from cardroom.service.game_tx import GameTx

# The preset of practice tables: points, not money (docs/bots.md says why).
PRACTICE_PRESET = "arena"
# Never a valid argon2 hash: nobody can sign in as a bot, whatever the password.
BOT_PASSWORD_HASH = "!bot: no password signs in"
BOT_NAME_PREFIX = "bot-"
_NAME_TRIES = 50


def bot_level(session: Session, user_id: int) -> str | None:
    """The level ``user_id`` plays at if it is a bot; None for a person."""
    row = session.get(BotAccount, user_id)
    return None if row is None else row.level


def bot_to_act(session: Session, game: Game, table: Table) -> str | None:
    """The level of the bot whose turn it is, or None (a person's turn, no hand, or
    not a practice table)."""
    if game.preset != PRACTICE_PRESET:
        return None
    hand = table.hand
    if hand is None or hand.is_over or hand.seat_to_act is None:
        return None
    player = table.hand_players.get(hand.seat_to_act)
    return None if player is None else bot_level(session, player)


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


def free_bot(session: Session, level: str, seated: set[int], now: datetime) -> int:
    """A bot account of ``level`` not at this table and with a waiting slot free, or
    a new one."""
    busy = (
        select(func.count())
        .select_from(GamePlayer)
        .where(GamePlayer.user_id == BotAccount.user_id, GamePlayer.waiting_slot.is_not(None))
        .scalar_subquery()
    )
    query = (
        select(BotAccount.user_id)
        .where(BotAccount.level == level, busy < WAITING_GAMES_PER_PLAYER)
        .order_by(BotAccount.user_id)
    )
    if seated:
        query = query.where(BotAccount.user_id.not_in(sorted(seated)))
    found = session.scalar(query.limit(1))
    if found is not None:
        return found
    return _new_bot(session, level, now)


def _new_bot(session: Session, level: str, now: datetime) -> int:
    made = session.scalar(
        select(func.count()).select_from(BotAccount).where(BotAccount.level == level)
    )
    number = int(made or 0) + 1
    for _ in range(_NAME_TRIES):
        name = f"{BOT_NAME_PREFIX}{level}-{number}"
        key = name_key(name)
        if session.scalar(select(User.id).where(User.name_key == key)) is None:
            break
        number += 1  # a person took the name: try the next
    else:  # pragma: no cover - fifty people named like bots
        raise NotAllowedNow("No name is free for a new bot; try again later.")
    user = User(
        name=name,
        name_key=key,
        password_hash=BOT_PASSWORD_HASH,
        role=Role.PLAYER,
        suspended=False,
        created_at=now,
    )
    session.add(user)
    session.flush()
    open_balance(session, user, starting_cents=0, now=now)  # points only: stays at zero
    session.add(BotAccount(user_id=user.id, level=level, created_at=now))
    session.flush()
    return user.id
