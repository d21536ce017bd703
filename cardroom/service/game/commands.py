"""Every game command as data: who sends it, what an idempotency key stands for, and
what it does to the table. ``pipeline.run`` takes a ``Command`` down the one road
(open, authorise, replay or check the version, apply, follow-ups, save, reactions,
answer). Adding a command is one constructor here and one route line.

``apply`` gets the unit of work and the random source the pipeline resolved (the
caller's, or the context's); it returns an outcome sentence (the clock's record of
what a deadline did) or None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from cardroom.actions import Action, ActionKind
from cardroom.bots import LEVELS
from cardroom.deck import RandomSource
from cardroom.service import invites
from cardroom.service.admin import Actor, check_reason
from cardroom.service.bot_seats import PRACTICE_PRESET, bots_continue, free_bot
from cardroom.service.errors import InvalidInput
from cardroom.service.game.who import HostOrAdmin, Player, Who
from cardroom.service.game_errors import (
    AlreadySeated,
    NotAllowedNow,
    SeatUnavailable,
    TooManyWaitingGames,
)
from cardroom.service.game_records import quick_init
from cardroom.service.game_tx import GameTx
from cardroom.service.waiting_games import hosted_without_a_seat
from cardroom.store.models import WAITING_GAMES_PER_PLAYER, GamePlayer
from cardroom.table import Table, TableStatus

Apply = Callable[[GameTx, RandomSource], str | None]
_AMOUNT_KINDS = (ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True)
class Audit:
    """The admin log's record of a host's or admin's command: the action's name, the
    reason given, the player it was done to, and the table before and after."""

    action: str
    reason: str
    state: Callable[[GameTx], dict[str, Any]]
    player: int | None = None


# Made for every command a player sends: its dict filled straight (``quick_init``).
@quick_init
@dataclass(frozen=True)
class Command:
    who: Who
    request: dict[str, Any]  # what an idempotency key stands for; ``op`` names it
    apply: Apply
    audit: Audit | None = None
    # Deal the next hand if one is due once ``apply`` is done (False where ``apply``
    # deals, or must not: the clock's deadlines do exactly what they say).
    deal_after: bool = True
    # Refuse a game that is over ("This game is over."), after a replay is answered.
    open_games_only: bool = False
    # Runs right after the game's lock, before anything else: False, and the command
    # does nothing (the clock's claim on a deadline that another process fired).
    guard: Callable[[GameTx], bool] | None = None
    # The clock's: a refusal is the command's outcome, not an error. The work is
    # undone (a savepoint), the rest commits, and ``settle`` records the outcome.
    settle: Callable[[GameTx, str], None] | None = None


# ------------------------------------------------------------------ the player's


def parse_action(kind: object, amount: object) -> Action:
    """An action from the wire: ``kind`` one of fold, check, call, bet, raise, all_in;
    ``amount`` (the total bet in the round) for a bet or a raise only."""
    try:
        action_kind = ActionKind(kind) if isinstance(kind, str) else None
    except ValueError:
        action_kind = None
    if action_kind is None:
        names = ", ".join(k.value for k in ActionKind)
        raise InvalidInput(f"An action is one of {names}.")
    if action_kind in _AMOUNT_KINDS:
        if type(amount) is not int:
            raise InvalidInput(f"Say how much to {action_kind.value} to, in whole chips.")
        return Action(action_kind, amount)
    if amount is not None:
        raise InvalidInput("Only a bet or a raise takes an amount.")
    return Action(action_kind)


def _at_the_table(user_id: int, op: str, apply: Apply) -> Command:
    """A seated player's command on a game still being played."""
    return Command(Player(user_id), {"op": op}, apply, open_games_only=True)


def act(user_id: int, kind: object, amount: object = None) -> Command:
    action = parse_action(kind, amount)

    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.act(user_id, action, tx.t))

    request = {"op": "act", "kind": action.kind.value, "amount": action.amount}
    return Command(Player(user_id), request, apply, open_games_only=True)


def press_continue(user_id: int) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.press_continue(user_id, tx.t))

    return _at_the_table(user_id, "continue", apply)


def rebuy(user_id: int) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        balance = tx.balance(user_id)
        tx.run(lambda: tx.table.rebuy(user_id, tx.t, balance=balance))

    return _at_the_table(user_id, "rebuy", apply)


def sit_out(user_id: int) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.sit_out(user_id, tx.t))

    return _at_the_table(user_id, "sit_out", apply)


def sit_in(user_id: int) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.sit_in(user_id, tx.t))

    return _at_the_table(user_id, "sit_in", apply)


def join(user_id: int, seat: int | None = None) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        invites.check_may_see(tx.session, tx.game, user_id)  # a private table's link
        sit_down(tx, user_id, seat, source)

    return Command(
        Player(user_id, active=True), {"op": "join", "seat": seat}, apply, deal_after=False
    )


def leave(user_id: int) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.leave(user_id, tx.t))

    return Command(Player(user_id), {"op": "leave"}, apply)


# ------------------------------------------------------------------ the host's


def start(actor: Actor) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        start_table(tx, source)

    return Command(HostOrAdmin(actor), {"op": "start"}, apply, deal_after=False)


def skip_waiting_and_deal(actor: Actor) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.deal(source)

    return Command(HostOrAdmin(actor), {"op": "skip_waiting_and_deal"}, apply, deal_after=False)


def _game_state(tx: GameTx) -> dict[str, Any]:
    return {"game_id": tx.game.id, "status": tx.game.status.value, "version": tx.game.version}


def cancel(actor: Actor, reason: str) -> Command:
    why = check_reason(reason)

    def apply(tx: GameTx, source: RandomSource) -> None:
        cancel_table(tx, why)

    audit = Audit("cancel_game", why, _game_state)
    return Command(HostOrAdmin(actor), {"op": "cancel"}, apply, audit=audit, deal_after=False)


def add_bots(actor: Actor, level: str, count: int) -> Command:
    if level not in LEVELS:
        raise InvalidInput(f"A bot's level is one of {', '.join(LEVELS)}.")
    if type(count) is not int or not 1 <= count <= 9:
        raise InvalidInput("Add 1 to 9 bots at a time.")

    def apply(tx: GameTx, source: RandomSource) -> None:
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
            bot = free_bot(tx.session, level, set(table.players()), tx.now)
            sit_down(tx, bot, None, source)

    request = {"op": "add_bots", "level": level, "count": count}
    return Command(HostOrAdmin(actor), request, apply, deal_after=False)


# --------------------------------------------------- the host's and admin's, logged


def table_state(player: int | None) -> Callable[[GameTx], dict[str, Any]]:
    """What the log keeps of the table: enough to settle a dispute."""

    def state(tx: GameTx) -> dict[str, Any]:
        table = tx.table
        out: dict[str, Any] = {
            "game_id": tx.game.id,
            "version": tx.game.version,
            "status": tx.game.status.value,
            "hand": table.hands_dealt,
            "held": table.held,
        }
        if player is not None:
            seat = next((s for s in table.seats.values() if s.player == player), None)
            out["player"] = player
            out["seat"] = None if seat is None else seat.number
            out["stack"] = None if seat is None else seat.stack
            hand = table.hand
            if seat is not None and hand is not None and table.in_hand(seat):
                i = hand.seats.index(seat.number)
                out["in_hand"] = True
                out["folded"] = hand.folded[i]
                out["chips_in_pot"] = hand.contributed[i]
            else:
                out["in_hand"] = False
        return out

    return state


def _logged(who: Who, action: str, reason: str, apply: Apply, player: int | None = None) -> Command:
    audit = Audit(action, check_reason(reason), table_state(player), player)
    return Command(who, {"op": action}, apply, audit=audit)


def fold_inactive(actor: Actor, player_id: int, reason: str) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.fold_inactive(player_id, tx.t))

    who = HostOrAdmin(
        actor,
        host_only_if=lambda table: table.config.rules.inactive_fold_after_seconds is not None,
        what="fold a player",
    )
    return _logged(who, "fold_inactive", reason, apply, player_id)


def pause(actor: Actor, reason: str) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.pause(tx.t))

    return _logged(HostOrAdmin(actor), "pause", reason, apply)


def resume(actor: Actor, reason: str) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.resume(tx.t))

    return _logged(HostOrAdmin(actor), "resume", reason, apply)


def remove_idle(actor: Actor, player_id: int, reason: str) -> Command:
    def apply(tx: GameTx, source: RandomSource) -> None:
        tx.run(lambda: tx.table.remove_idle(player_id, tx.t))

    who = HostOrAdmin(
        actor,
        host_only_if=lambda table: table.config.rules.idle_seats_removable,
        what="remove a player",
    )
    return _logged(who, "remove_idle", reason, apply, player_id)


# ------------------------------------------------------- what several commands do


def _pre_check_sit(tx: GameTx, user_id: int) -> None:
    """Refusals with a clearer sentence than the database's own backstops."""
    if user_id in tx.table.players():
        raise AlreadySeated("You already have a seat at this table.")
    if tx.table.status is TableStatus.WAITING:
        waiting = tx.session.scalars(
            select(GamePlayer.game_id).where(
                GamePlayer.user_id == user_id,
                GamePlayer.waiting_slot.is_not(None),
                GamePlayer.game_id != tx.game.id,
            )
        ).all()
        # games the player hosts without a seat take slots too (issue 17: empty games)
        hosted = hosted_without_a_seat(tx.session, user_id, besides=tx.game.id)
        if len(waiting) + hosted >= WAITING_GAMES_PER_PLAYER:
            raise TooManyWaitingGames(
                f"You already have {WAITING_GAMES_PER_PLAYER} games waiting to start: "
                "leave one or wait for one to start."
            )


def deal_if_due(tx: GameTx, source: RandomSource) -> None:
    """The follow-up of every command that may end a hand: practice bots press
    Continue at once, then the next hand is dealt if it is due."""
    bots_continue(tx)
    tx.deal_if_due(source)


def sit_down(tx: GameTx, user_id: int, seat: int | None, source: RandomSource) -> None:
    """Seat the player (paying the buy-in where it is paid at the seat); a waiting game
    that is now full starts by itself and deals its first hand."""
    if seat is not None and type(seat) is not int:
        raise InvalidInput("A seat is a number.")
    _pre_check_sit(tx, user_id)
    table = tx.table
    balance = tx.balance(user_id) if table.config.pays_money else None
    tx.run(lambda: table.sit(user_id, tx.t, balance=balance, seat=seat))
    if table.status is TableStatus.WAITING and len(table.seats) == table.config.seat_count:
        start_table(tx, source)
    deal_if_due(tx, source)


def start_table(tx: GameTx, source: RandomSource) -> None:
    table = tx.table
    tx.run(lambda: table.start(tx.t, source))
    deal_if_due(tx, source)


def cancel_table(tx: GameTx, reason: str) -> None:
    table = tx.table
    tx.run(lambda: table.cancel(tx.t))
    tx.note("GameCancelled", {"reason": reason})


def apply_action(tx: GameTx, user_id: int, action: Action, source: RandomSource) -> None:
    """``user_id`` acts in the running hand and the next hand is dealt if one is due
    (what a practice bot's turn does)."""
    table: Table = tx.table
    tx.run(lambda: table.act(user_id, action, tx.t))
    deal_if_due(tx, source)
