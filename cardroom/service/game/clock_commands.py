"""The clock's commands: what a due deadline does to its table (the turn clock acts
or a practice bot takes its turn, the review ends and a hand is dealt, a waiting game
is cancelled, a blind level is announced, the player to act on a long clock is
reminded), through the same table commands a player's request uses.

A deadline fires exactly once: ``Claim.take`` is the command's guard, run by the
pipeline right after the game's lock and before anything else, and it marks the row
fired only if nobody did (``UPDATE ... WHERE fired_at IS NULL AND due_at <= now``);
the claim and the work commit together. A deadline whose work the table refuses is
still marked fired, with the refusal as its outcome (``Claim.settle``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update

from cardroom.bots import decide, view_for
from cardroom.deck import RandomSource
from cardroom.service.bot_seats import bot_level
from cardroom.service.game.commands import Command, apply_action, cancel_table, deal_if_due
from cardroom.service.game.who import CLOCK
from cardroom.service.game_errors import NotAllowedNow
from cardroom.service.game_records import Wanted
from cardroom.service.game_tx import GameTx
from cardroom.service.notices import choices, record
from cardroom.service.schedule import (
    CANCEL_WAITING_AFTER,
    at,
    reminder_times,
    reminder_turn,
    same_turn,
    store_reminder,
)
from cardroom.store.models import REASON_MAX_LENGTH, Deadline, DeadlineKind
from cardroom.table import TableStatus


@dataclass
class Claim:
    """One deadline, claimed by ``worker`` at ``now``; after the command, what it was
    and what was done (kept as plain values: the row expires with the commit)."""

    deadline_id: int
    now: datetime
    worker: str
    row: Deadline | None = None
    kind: DeadlineKind | None = None
    due_at: datetime | None = None
    outcome: str = ""

    def take(self, tx: GameTx) -> bool:
        claimed = tx.session.execute(
            update(Deadline)
            .where(
                Deadline.id == self.deadline_id,
                Deadline.fired_at.is_(None),
                Deadline.due_at <= self.now,
            )
            .values(fired_at=self.now, claimed_by=self.worker)
            .execution_options(synchronize_session=False)
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            return False  # another process fired it, or a move took it away
        self.row = tx.session.get(Deadline, self.deadline_id, populate_existing=True)
        assert self.row is not None
        self.kind, self.due_at = self.row.kind, self.row.due_at
        tx.deadline_claimed(self.kind)  # fired without the version: see kept_tables
        return True

    def settle(self, tx: GameTx, outcome: str) -> None:
        assert self.row is not None
        self.row.outcome = self.outcome = outcome[:REASON_MAX_LENGTH]


def fire(claim: Claim) -> Command:
    """The due deadline ``claim`` names, done as its kind says."""

    def apply(tx: GameTx, source: RandomSource) -> str:
        assert claim.row is not None
        return _HANDLERS[claim.row.kind](tx, claim.row, source)

    return Command(
        CLOCK,
        {"op": "deadline"},
        apply,
        deal_after=False,  # a deadline does exactly what it says
        guard=claim.take,
        settle=claim.settle,
    )


def bot_turn(tx: GameTx, source: RandomSource) -> str:
    """The bot to act decides from its seat's view and acts, through the same table
    command as a person's action (the clock does this when the bot's turn deadline
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
    decision = decide(view, level, source)
    apply_action(tx, player, decision.action, source)
    action = decision.action
    amount = "" if action.amount is None else f" to {action.amount}"
    return f"The {level} bot in seat {seat} chose {action.kind.value}{amount}."


def _time_out(tx: GameTx, deadline: Deadline, source: RandomSource) -> str:
    table = tx.table
    if not table.hand_running:
        return "No hand is being played."
    if deadline.payload.get("bot") is not None:  # a practice bot's turn: it acts
        return bot_turn(tx, source)
    deadline_t = table.turn_deadline()
    # The clock acts at its time even when fired a moment late (or when the float
    # arithmetic of table time lands a hair before it).
    moment = tx.t if deadline_t is None else max(tx.t, deadline_t)
    tx.run(lambda: table.time_out(moment))
    deal_if_due(tx, source)
    return "The clock acted for the player to act."


def _deal_due(tx: GameTx, deadline: Deadline, source: RandomSource) -> str:
    table = tx.table
    if table.status is not TableStatus.PLAYING or table.hand_running or table.held:
        return "No hand is due."
    played = table.hands_dealt
    tx.deal(source)
    return "The next hand was dealt." if table.hands_dealt > played else "Nobody could be dealt in."


def _cancel_waiting(tx: GameTx, deadline: Deadline, source: RandomSource) -> str:
    if tx.table.status is not TableStatus.WAITING:
        return "The game is no longer waiting."
    if tx.now < tx.game.last_activity_at + CANCEL_WAITING_AFTER:
        return "The game has seen activity since."
    cancel_table(tx, "72 hours without activity")
    return "Cancelled after 72 hours without activity; every buy-in refunded."


def _blind_level(tx: GameTx, deadline: Deadline, source: RandomSource) -> str:
    payload = deadline.payload
    tx.note(
        "BlindLevelReached",
        {
            "level": payload["level"],
            "small_blind": payload["small_blind"],
            "big_blind": payload["big_blind"],
        },
    )
    return f"Blind level {payload['level']} from the next hand."


def _remind(tx: GameTx, deadline: Deadline, source: RandomSource) -> str:
    """Remind the player to act of the point the deadline names, if it is still one
    of theirs, and move the reminder on to their next point. The table is not
    changed (no version, no event: a reminder must not make the player's next
    command stale); the notice goes on the command's answer like any other."""
    table, game, payload = tx.table, tx.game, deadline.payload
    turn = reminder_turn(table)
    if turn is None or not same_turn(payload, turn):
        return "The turn is over."  # a move would have taken it away; said for safety
    assert table.hand is not None and table.turn_started_at is not None
    player = table.hand_players[table.hand.seat_to_act or 0]
    times = reminder_times(
        table.turn_started_at, float(turn["turn_due"]), choices.reminders_for(tx.session, player)
    )
    point = payload.get("point")
    told = ""
    if point is not None:
        if table.held:  # the player cannot act: this point passes, the next may not
            told = f"The table is paused: no reminder at {point} left."
        elif any(p == point for _, p in times):
            tx.notices += record.reminder_in(tx.session, game, table, str(point), now=tx.now)
            told = f"Reminded the player to act ({point} left)."
        else:
            told = f"The player no longer wants a reminder at {point} left."
    later = [(t, p) for t, p in times if at(game, t) > tx.now]
    if not later:
        return told or "No reminder left to send in this turn."
    moment, following = later[0]
    store_reminder(tx.session, game, Wanted(at(game, moment), {**turn, "point": following}), tx.now)
    return f"{told} Next reminder at {following} left.".strip()


_HANDLERS: dict[DeadlineKind, Callable[[GameTx, Deadline, RandomSource], str]] = {
    DeadlineKind.TURN: _time_out,
    DeadlineKind.CONTINUE: _deal_due,
    DeadlineKind.CANCEL_WAITING: _cancel_waiting,
    DeadlineKind.BLIND_LEVEL: _blind_level,
    DeadlineKind.REMINDER: _remind,
}
