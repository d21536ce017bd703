"""Paying players back: leaving and cashing out, the end of a hand, eliminations and
prizes. These change the table they are given and return what happened.

The table is a ``Settling``: the part of ``cardroom.table.table.Table`` that settling
reads and changes, so that this module needs nothing of the one that calls it."""

from __future__ import annotations

from typing import Protocol

from cardroom.hand import Hand
from cardroom.rules import Format
from cardroom.table import per_hand
from cardroom.table.cash import CashOutRecord
from cardroom.table.config import TableConfig
from cardroom.table.events import (
    BuyInRefunded,
    CashedOut,
    HandFinished,
    PlayerBusted,
    PlayerEliminated,
    PlayerId,
    PlayerLeft,
    PrizePaid,
    TableEvent,
    TournamentFinished,
)
from cardroom.table.seating import Leaving, Seat
from cardroom.table.status import TableStatus
from cardroom.table.tournament import places_for_busts, prizes

# The formats a hand's end compares with, read once (see ``cardroom.table.table``).
_CASH, _PER_HAND, _TOURNAMENT = Format.CASH, Format.PER_HAND, Format.TOURNAMENT


class Settling(Protocol):
    """What settling needs of a table (``Table`` is one)."""

    config: TableConfig
    status: TableStatus
    seats: dict[int, Seat]
    hands_dealt: int
    hand: Hand | None
    hand_players: dict[int, PlayerId]
    settled: set[int]
    cash_outs: dict[PlayerId, CashOutRecord]
    entrants: int
    prize_pool: int
    finishes: list[tuple[PlayerId, int]]
    turn_started_at: float | None
    hand_ended_at: float | None
    continued: set[PlayerId]

    @property
    def format(self) -> Format: ...

    def seat_of(self, player: PlayerId) -> Seat: ...


def release_after_fold(table: Settling, seat: Seat, now: float, why: Leaving) -> list[TableEvent]:
    """Cash out a player who folded in the running hand: nothing of theirs is in a
    pot any more, and the chips they kept are final."""
    hand = table.hand
    assert hand is not None
    table.settled.add(seat.number)
    seat.stack = hand.stacks[hand.seats.index(seat.number)]
    if table.format is Format.PER_HAND:
        chips, seat.stack = seat.stack, 0
        return [per_hand.settlement(seat.player, chips), *remove(table, seat, now, why.value)]
    return remove(table, seat, now, why.value)


def remove(table: Settling, seat: Seat, now: float, reason: str) -> list[TableEvent]:
    """Take the player off the table, paying back what they hold."""
    cfg = table.config
    events: list[TableEvent] = []
    del table.seats[seat.number]
    table.continued.discard(seat.player)
    if table.status is TableStatus.WAITING:
        if cfg.pays_money and table.format is not Format.PER_HAND:
            events.append(BuyInRefunded(seat.player, seat.stack))
            if table.format is Format.TOURNAMENT:
                table.prize_pool -= seat.stack
    elif table.format is Format.CASH:
        if cfg.pays_money:
            events.append(CashedOut(seat.player, seat.stack))
        table.cash_outs[seat.player] = CashOutRecord(seat.stack, now)
    events.append(PlayerLeft(seat.player, seat.number, reason))
    return events


def finish_hand(table: Settling, now: float) -> list[TableEvent]:
    hand = table.hand
    assert hand is not None
    final = hand.final_stacks_by_seat()
    events: list[TableEvent] = []
    in_hand = [table.seats[n] for n in sorted(table.hand_players) if n not in table.settled]
    for seat in in_hand:
        if table.format is _PER_HAND:
            events.append(per_hand.settlement(seat.player, final[seat.number]))
            seat.stack = 0
        else:
            seat.stack = final[seat.number]
    events.append(
        HandFinished(table.hands_dealt, tuple((s.player, final[s.number]) for s in in_hand))
    )
    table.turn_started_at = None
    table.hand_ended_at = now
    for seat in in_hand:
        if seat.leaving is not None:
            events.extend(remove(table, seat, now, seat.leaving.value))
    if table.format is _CASH:
        for seat in in_hand:
            if seat.number in table.seats and seat.stack == 0:
                events.append(PlayerBusted(seat.player))
                if not table.config.rules.cash_rebuy:
                    events.extend(remove(table, seat, now, "busted"))
    if table.format is _TOURNAMENT:
        events.extend(_eliminate(table, hand))
    # Whether a cash table is now short of players is the caller's next step
    # (``Table._check_short``): settling is the hand's end, not the table's state.
    return events


def _eliminate(table: Settling, hand: Hand) -> list[TableEvent]:
    busted = [
        (table.hand_players[seat], start)
        for seat, start, stack in zip(hand.seats, hand.starting_stacks, hand.stacks, strict=True)
        if stack == 0
    ]
    if not busted:
        return []
    left = sum(1 for s in table.seats.values() if s.stack > 0)
    events: list[TableEvent] = []
    for player, place in places_for_busts(busted, left):
        seat = table.seat_of(player)
        del table.seats[seat.number]
        table.finishes.append((player, place))
        events.append(PlayerEliminated(player, place))
        events.append(PlayerLeft(player, seat.number, "eliminated"))
    if left == 1:
        events.extend(_finish_tournament(table))
    return events


def _finish_tournament(table: Settling) -> list[TableEvent]:
    winner = next(s.player for s in table.seats.values() if s.stack > 0)
    table.finishes.append((winner, 1))
    table.status = TableStatus.FINISHED
    places = sorted(table.finishes, key=lambda f: f[1])  # stable: ties keep seat order
    events: list[TableEvent] = []
    if table.config.pays_money:
        for player, place, amount in prizes(
            table.prize_pool, table.config.payouts, table.entrants, places
        ):
            table.prize_pool -= amount
            events.append(PrizePaid(player, place, amount))
    events.append(TournamentFinished(winner, tuple(places)))
    return events
