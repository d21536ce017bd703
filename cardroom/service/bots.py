"""Practice bots at the room's tables: a host adds them, the clock lets them act.

**Practice tables** are ``arena`` games: they play for points, so no money moves at
them, and a bot can neither win nor lose anyone's balance (the audit stays clean
with nothing to prove). docs/bots.md gives the reasons.

**A bot is a user** (``bot_accounts`` names its level) with no password that could
sign in and a ledger account that stays at zero (``bot_seats.free_bot`` finds or
makes one). It sits down through ``commands.sit_down``,
the same call a person's ``join`` makes, and so takes a seat, a ``game_players``
row and a waiting slot like anyone. Bot accounts are reused: a host's request takes
the first bot of the level that is not at this table and has a waiting slot free,
and makes a new one (``bot-<level>-<n>``) only when none has.

**A bot acts through the clock.** When its turn comes, the game's ``turn`` deadline
is set ``BOT_THINK_SECONDS`` after the turn began (``cardroom.service.schedule``),
a row like any other deadline: it survives a restart and fires once however many
processes run the clock. Firing it (``clock_commands.bot_turn``, in
``cardroom.service.game``) builds the bot's input with
``cardroom.bots.view_for(hand, seat)`` (its own cards and the public state, never
anyone else's hole cards), asks the bot's policy, and applies the action with
``commands.apply_action``, the same table command a person's request runs. Bots
press Continue as soon as a hand is over (``bot_seats.bots_continue``).
"""

from __future__ import annotations

from cardroom.deck import RandomSource
from cardroom.service.admin import Actor
from cardroom.service.context import ServiceContext
from cardroom.service.game import commands, pipeline
from cardroom.service.game_records import PlayResult


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
