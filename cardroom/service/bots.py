"""Practice bots at the room's tables: a host adds them, the clock lets them act.

**Practice tables** are ``arena`` games: they play for points, so no money moves at
them, and a bot can neither win nor lose anyone's balance (the audit stays clean
with nothing to prove). docs/bots.md gives the reasons.

**A bot is a user** (``bot_accounts`` names its level) with no password that could
sign in and a ledger account that stays at zero. It sits down through ``sit_down``,
the same call a person's ``join`` makes, and so takes a seat, a ``game_players``
row and a waiting slot like anyone. Bot accounts are reused: a host's request takes
the first bot of the level that is not at this table and has a waiting slot free,
and makes a new one (``bot-<level>-<n>``) only when none has.

**A bot acts through the clock.** When its turn comes, the game's ``turn`` deadline
is set ``BOT_THINK_SECONDS`` after the turn began (``cardroom.service.schedule``),
a row like any other deadline: it survives a restart and fires once however many
processes run the clock. Firing it (``act_for_bot``, from
``cardroom.service.deadlines``) builds the bot's input with
``cardroom.bots.view_for(hand, seat)`` (its own cards and the public state, never
anyone else's hole cards), asks the bot's policy, and applies the action with
``cardroom.service.play.apply_action``, the same table command a person's request
runs. Bots press Continue as soon as a hand is over (``bot_seats.bots_continue``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.bots import LEVELS, decide, view_for
from cardroom.deck import RandomSource, SystemRandomSource
from cardroom.service.admin import Actor
from cardroom.service.bot_seats import PRACTICE_PRESET, bot_level
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_errors import NotAllowedNow, SeatUnavailable
from cardroom.service.game_records import PlayResult
from cardroom.service.game_tx import GameTx
from cardroom.service.lobby import host_or_admin, sit_down
from cardroom.service.money import open_balance
from cardroom.service.play import apply_action
from cardroom.service.users import name_key
from cardroom.store.bot_models import BotAccount
from cardroom.store.models import WAITING_GAMES_PER_PLAYER, GamePlayer, Role, User

# Never a valid argon2 hash: nobody can sign in as a bot, whatever the password.
BOT_PASSWORD_HASH = "!bot: no password signs in"
BOT_NAME_PREFIX = "bot-"
_NAME_TRIES = 50


def add_bots(
    ctx: ServiceContext,
    game_id: int,
    actor: Actor,
    level: str,
    count: int = 1,
    *,
    expected_version: int | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """The host (or an admin) seats ``count`` bots of ``level`` at a practice table,
    each in the first free seat, in one transaction: all of them or none. A table
    that fills up starts by itself, like one that people fill."""
    if level not in LEVELS:
        raise InvalidInput(f"A bot's level is one of {', '.join(LEVELS)}.")
    if type(count) is not int or not 1 <= count <= 9:
        raise InvalidInput("Add 1 to 9 bots at a time.")
    now = ctx.now()
    request = {"op": "add_bots", "level": level, "count": count}
    with ctx.transaction() as session:
        tx = GameTx.open(session, game_id, now)
        user = host_or_admin(session, tx.game, actor)
        owner = tx.actor_id = None if user is None else user.id
        tx.check_request(owner, expected_version, None, request)
        if tx.game.preset != PRACTICE_PRESET:
            raise NotAllowedNow(
                "Bots play only at practice tables: create a game with the arena preset."
            )
        table = tx.table
        free = table.config.seat_count - len(table.seats)
        if count > free:
            raise SeatUnavailable(
                f"This table has {free} free seat{'s' if free != 1 else ''}, not {count}."
            )
        for _ in range(count):
            bot = _free_bot(session, level, set(table.players()), now)
            sit_down(tx, bot, None, source)
        return tx.finish_request(owner, None, request)


def _free_bot(session: Session, level: str, seated: set[int], now: datetime) -> int:
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


def act_for_bot(tx: GameTx, source: RandomSource | None) -> str:
    """The bot to act decides from its seat's view and acts, through the same table
    command as a person's action (the clock calls this when the bot's turn deadline
    fires). Refused, changing nothing, if the player to act is not a bot or the
    table is paused."""
    table = tx.table
    hand = table.hand
    if hand is None or hand.is_over or hand.seat_to_act is None:
        return "No hand is being played."
    seat = hand.seat_to_act
    player = table.hand_players[seat]
    level = bot_level(tx.session, player)
    if level is None:
        raise NotAllowedNow("The player to act is not a bot.")
    if table.held:
        raise NotAllowedNow("The table is paused.")
    view = view_for(hand, seat)  # its own cards and the public state: nothing hidden
    decision = decide(view, level, source if source is not None else SystemRandomSource())
    apply_action(tx, player, decision.action, source)
    action = decision.action
    amount = "" if action.amount is None else f" to {action.amount}"
    return f"The {level} bot in seat {seat} chose {action.kind.value}{amount}."
