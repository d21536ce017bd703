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

from cardroom.bots import decide, view_for
from cardroom.deck import RandomSource, SystemRandomSource
from cardroom.service.admin import Actor
from cardroom.service.bot_seats import bot_level
from cardroom.service.context import ServiceContext
from cardroom.service.game import commands, pipeline
from cardroom.service.game.commands import apply_action
from cardroom.service.game_errors import NotAllowedNow
from cardroom.service.game_records import PlayResult
from cardroom.service.game_tx import GameTx


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
    command = commands.add_bots(actor, level, count)
    return pipeline.run(ctx, game_id, command, version=expected_version, source=source)


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
    drawn = source if source is not None else SystemRandomSource()
    decision = decide(view, level, drawn)
    apply_action(tx, player, decision.action, drawn)
    action = decision.action
    amount = "" if action.amount is None else f" to {action.amount}"
    return f"The {level} bot in seat {seat} chose {action.kind.value}{amount}."
