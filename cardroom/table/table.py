"""A table: a game of many hands in one format, between and around each hand.

``Table`` holds the seats, where the button and blinds were, the blind level, the hand
being played and what each format remembers. Its commands take the time (``now``, in
seconds) and, where a decision needs them, the deck, a random source or balances; they
change the table and return what happened as ``TableEvent`` records. A refused
command raises a ``TableError`` (or the engine's ``IllegalAction``) and changes
nothing. The table never moves money: money records in the result tell the server
which balances to debit and credit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from cardroom.actions import Action
from cardroom.cards import check_distinct
from cardroom.deck import RandomSource
from cardroom.hand import Hand, HandSetup, Street
from cardroom.rules import Format
from cardroom.table import per_hand, settlement
from cardroom.table.blinds import BlindClock, blinds_at_level
from cardroom.table.button import (
    Positions,
    admit_waiting,
    first_positions,
    next_positions,
    next_seat,
)
from cardroom.table.cash import CashOutRecord, buy_in_cost, check_balance, check_rebuy
from cardroom.table.config import TableConfig
from cardroom.table.durations import spoken
from cardroom.table.errors import NotAllowedNow, NotSeated, RebuyNotAllowed, TableError
from cardroom.table.events import (
    BlindsRaised,
    BoughtIn,
    CashOutCancelled,
    CashOutPending,
    ClockActed,
    GameStarted,
    HandDealt,
    PlayerContinued,
    PlayerId,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    Rebought,
    SeatsDrawn,
    TableEvent,
    TablePaused,
    TableResumed,
)
from cardroom.table.seating import (
    Leaving,
    Seat,
    choose_seat,
    draw_seats,
    ready_and_waiting,
)
from cardroom.table.status import TableStatus

_COMPLETE = Street.COMPLETE
# The enum members a command's steps compare with, read once: in Python 3.11 a
# member read off its class (``Format.CASH``) goes through the enum metaclass's
# attribute hook, about a thousand instructions (callgrind), where a module name is
# a dict lookup.
_CASH, _PER_HAND, _TOURNAMENT = Format.CASH, Format.PER_HAND, Format.TOURNAMENT
_WAITING, _PLAYING = TableStatus.WAITING, TableStatus.PLAYING
_OVER = (TableStatus.FINISHED, TableStatus.CANCELLED)
_TIMED_OUT = Leaving.TIMED_OUT


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Who the next hand would be dealt to, where the button and blinds would go and at
    what blinds."""

    seats: tuple[int, ...]  # ascending
    positions: Positions
    level: int
    small_blind: int
    big_blind: int


@dataclass
class Table:
    config: TableConfig
    status: TableStatus = TableStatus.WAITING
    seats: dict[int, Seat] = field(default_factory=dict)
    first_button: int | None = None  # drawn at the start
    positions: Positions | None = None  # of the last hand dealt
    hands_dealt: int = 0
    level: int = 0
    small_blind: int = 0
    big_blind: int = 0
    clock: BlindClock = field(default_factory=BlindClock)
    short_of_players: bool = False  # paused: fewer than two can play
    held: bool = False  # paused by the host or an admin
    hand: Hand | None = None  # the hand being played, or the last one
    hand_players: dict[int, PlayerId] = field(default_factory=dict)  # seat -> player
    settled: set[int] = field(default_factory=set)  # seats of the hand paid out early
    cash_outs: dict[PlayerId, CashOutRecord] = field(default_factory=dict)
    entrants: int = 0  # tournament
    prize_pool: int = 0  # money held for a tournament, not yet paid
    finishes: list[tuple[PlayerId, int]] = field(default_factory=list)  # (player, place)
    turn_started_at: float | None = None
    hand_ended_at: float | None = None
    continued: set[PlayerId] = field(default_factory=set)

    @classmethod
    def create(cls, config: TableConfig) -> Table:
        return cls(config, small_blind=config.small_blind, big_blind=config.big_blind)

    # ------------------------------------------------------------------ queries

    @property
    def format(self) -> Format:
        return self.config.format

    @property
    def hand_running(self) -> bool:
        # The hand's street read here rather than through ``Hand.is_over``: asked
        # about ten times a command (the turn clock, the deal's due time, each seat's
        # ``in_hand``), a second property call each time. (``in_hand``,
        # ``turn_deadline`` and ``deal_due`` read it inline, for the same reason.)
        hand = self.hand
        return hand is not None and hand.street is not _COMPLETE

    def seat_of(self, player: PlayerId) -> Seat:
        for seat in self.seats.values():
            if seat.player == player:
                return seat
        raise NotSeated("You have no seat at this table.")

    def players(self) -> list[PlayerId]:
        return [self.seats[n].player for n in sorted(self.seats)]

    def in_hand(self, seat: Seat) -> bool:
        """Is this player in the running hand (folded or not)?"""
        hand = self.hand
        return (
            hand is not None
            and hand.street is not _COMPLETE
            and self.hand_players.get(seat.number) == seat.player
            and seat.number not in self.settled
        )

    def has_chips_in_pot(self, seat: Seat) -> bool:
        """Is something of theirs in a pot: in the running hand and not folded?"""
        if not self.in_hand(seat):
            return False
        assert self.hand is not None
        return not self.hand.folded[self.hand.seats.index(seat.number)]

    def buy_in_cost(self, player: PlayerId, now: float) -> int:
        """What sitting down costs this player now (the query beside ``sit``)."""
        if self.format is not Format.CASH or self.status is TableStatus.WAITING:
            return self.config.buy_in
        return buy_in_cost(
            self.config.buy_in,
            self.cash_outs.get(player),
            now,
            self.config.rules.rejoin_window_seconds,
        )

    def plan(self, now: float, balances: Mapping[PlayerId, int] | None = None) -> HandPlan | None:
        """The next hand if it were dealt now; None when fewer than two can play."""
        cfg = self.config
        ready, waiting = ready_and_waiting(self.seats, self.format, balances, cfg.buy_in)
        rule = cfg.button_rule
        dealt = admit_waiting(rule, self.positions, ready, waiting, cfg.seat_count)
        if len(dealt) < 2:
            return None
        if self.positions is None:
            start = self.first_button if self.first_button is not None else min(dealt)
            button = start if start in dealt else next_seat(start, dealt, cfg.seat_count)
            positions = first_positions(button, dealt, cfg.seat_count)
        else:
            positions = next_positions(rule, self.positions, dealt, cfg.seat_count)
        level = max(self.level, cfg.schedule.level_at(self.hands_dealt, self.clock.seconds(now)))
        small, big = blinds_at_level(
            cfg.small_blind, cfg.big_blind, cfg.schedule.rate_percent, level
        )
        return HandPlan(tuple(sorted(dealt)), positions, level, small, big)

    def chips_in_play(self) -> int:
        """Every chip at the table: in front of players and in the running hand."""
        in_hand = {n for n, s in self.seats.items() if self.in_hand(s)}
        total = sum(s.stack for n, s in self.seats.items() if n not in in_hand)
        if self.hand_running:
            assert self.hand is not None
            total += self.hand.pot
            total += sum(
                stack
                for seat, stack in zip(self.hand.seats, self.hand.stacks, strict=True)
                if seat not in self.settled
            )
        return total

    def money_held(self) -> int:
        """Money the table holds for players: balances plus this never changes."""
        if self.format is _TOURNAMENT:
            return self.prize_pool
        return self.chips_in_play() if self.config.pays_money else 0

    def turn_deadline(self) -> float | None:
        clock = self.config.rules.turn_clock_seconds
        hand = self.hand
        if (
            hand is None
            or hand.street is _COMPLETE
            or clock is None
            or self.turn_started_at is None
        ):
            return None
        return self.turn_started_at + clock

    def deal_due(self) -> float | None:
        """When the next hand is due if not everyone presses Continue first."""
        hand = self.hand
        if (hand is not None and hand.street is not _COMPLETE) or self.hand_ended_at is None:
            return None
        return self.hand_ended_at + self.config.rules.between_hands_seconds

    def everyone_continued(self) -> bool:
        expected = {p for s, p in self.hand_players.items() if self._occupied_by(s, p)}
        return expected <= self.continued

    # ------------------------------------------------------- seating commands

    def sit(
        self,
        player: PlayerId,
        now: float,
        *,
        balance: int | None = None,
        seat: int | None = None,
    ) -> list[TableEvent]:
        """Sit down (``seat`` or the first free one), paying the buy-in at cash tables
        and tournaments; a per-hand table only needs the buy-in in the balance."""
        cfg = self.config
        if self.status in (TableStatus.FINISHED, TableStatus.CANCELLED):
            raise NotAllowedNow("This game is over.")
        if self.format is Format.TOURNAMENT and self.status is TableStatus.PLAYING:
            raise NotAllowedNow("This tournament has started: it takes no more players.")
        busy = [n for n in self.hand_players if n not in self.seats] if self.hand_running else []
        number = choose_seat(self.seats, player, seat, cfg.seat_count, busy)
        cost = self.buy_in_cost(player, now)
        if cfg.pays_money:
            if balance is None:
                raise TableError("Sitting down at a money table needs the player's balance.")
            check_balance(balance, cost, "A seat at this table")
        playing = self.status is TableStatus.PLAYING
        waits = self.format is Format.CASH and playing and self.hands_dealt > 0
        stack = 0 if self.format is Format.PER_HAND else cost
        self.seats[number] = Seat(number, player, stack, waiting=waits)
        events: list[TableEvent] = [
            PlayerSeated(player, number, stack, waits and self._enough_ready())
        ]
        if cfg.pays_money and self.format is not Format.PER_HAND:
            events.append(BoughtIn(player, cost))
            if self.format is Format.TOURNAMENT:
                self.prize_pool += cost
        return events + self._check_short(now)

    def leave(self, player: PlayerId, now: float) -> list[TableEvent]:
        """Leave the table: before the start with a refund; in a cash or per-hand game
        cashed out at once, or as soon as nothing of yours is in a pot."""
        seat = self.seat_of(player)
        if self.status is TableStatus.PLAYING and self.format is Format.TOURNAMENT:
            raise NotAllowedNow(
                "You cannot leave a running tournament: your chips stay in play and the "
                "clock acts for you while you are away."
            )
        if self.has_chips_in_pot(seat):
            if seat.leaving is Leaving.LEFT:
                raise NotAllowedNow("You are already leaving once this hand ends.")
            seat.leaving = Leaving.LEFT
            return [CashOutPending(player, Leaving.LEFT.value)]
        if self.in_hand(seat):  # folded: the rest of the stack is theirs already
            return settlement.release_after_fold(self, seat, now, Leaving.LEFT) + self._check_short(
                now
            )
        return settlement.remove(self, seat, now, Leaving.LEFT.value) + self._check_short(now)

    def remove_idle(self, player: PlayerId, now: float) -> list[TableEvent]:
        """The host or an admin removes an idle player between hands (or while they are
        not in the hand): cashed out like leaving. Not in a running tournament."""
        seat = self.seat_of(player)
        if self.status is TableStatus.PLAYING and self.format is Format.TOURNAMENT:
            raise NotAllowedNow("Players cannot be removed from a running tournament.")
        if self.in_hand(seat):
            raise NotAllowedNow("A player can be removed once the hand they are in ends.")
        return settlement.remove(self, seat, now, "removed") + self._check_short(now)

    def cancel(self, now: float) -> list[TableEvent]:
        """Cancel a game that has not started (72 hours without activity): every
        buy-in is refunded."""
        if self.status is not TableStatus.WAITING:
            raise NotAllowedNow("Only a game that has not started can be cancelled.")
        events: list[TableEvent] = []
        for number in sorted(self.seats):
            events.extend(settlement.remove(self, self.seats[number], now, "cancelled"))
        self.status = TableStatus.CANCELLED
        return events

    def sit_out(self, player: PlayerId, now: float) -> list[TableEvent]:
        seat = self.seat_of(player)
        self._no_sitting_out_in_tournaments()
        if seat.sitting_out:
            raise NotAllowedNow("You are already sitting out.")
        seat.sitting_out = True
        return [PlayerSatOut(player), *self._check_short(now)]

    def sit_in(self, player: PlayerId, now: float) -> list[TableEvent]:
        seat = self.seat_of(player)
        self._no_sitting_out_in_tournaments()
        if not seat.sitting_out:
            raise NotAllowedNow("You are not sitting out.")
        seat.sitting_out = False
        return [PlayerSatIn(player, seat.waiting and self._enough_ready()), *self._check_short(now)]

    def rebuy(
        self, player: PlayerId, now: float, *, balance: int | None = None
    ) -> list[TableEvent]:
        """Buy in again at zero chips, for exactly the buy-in (cash games)."""
        cfg = self.config
        seat = self.seat_of(player)
        if self.format is not Format.CASH:
            raise RebuyNotAllowed("This game has no rebuys.")
        if self.status is not TableStatus.PLAYING:
            raise RebuyNotAllowed("Rebuys start with the game.")
        check_rebuy(cfg.rules.cash_rebuy, seat.stack, self.in_hand(seat))
        if balance is None:
            raise TableError("A rebuy needs the player's balance.")
        check_balance(balance, cfg.buy_in, "A rebuy")
        seat.stack = cfg.buy_in
        return [Rebought(player, cfg.buy_in), *self._check_short(now)]

    def start(self, now: float, source: RandomSource | None = None) -> list[TableEvent]:
        """Start the game: tournament seats are drawn at random, and so is the first
        button where the rules say so (both from ``source``)."""
        if self.status is TableStatus.CANCELLED:
            raise NotAllowedNow("This game was cancelled.")
        if self.status is not TableStatus.WAITING:
            raise NotAllowedNow("The game has already started.")
        if len(self.seats) < 2:
            raise NotAllowedNow("A game needs at least two players to start.")
        needs_source = self.format is Format.TOURNAMENT or self.config.rules.random_first_button
        if needs_source and source is None:
            raise TableError("Starting this game draws at random: give a random source.")
        events: list[TableEvent] = []
        if self.format is Format.TOURNAMENT:
            assert source is not None
            self.seats = draw_seats(self.seats, self.config.seat_count, source)
            events.append(SeatsDrawn(tuple((s.player, s.number) for s in self.seats.values())))
            self.entrants = len(self.seats)
        numbers = sorted(self.seats)
        if self.config.rules.random_first_button:
            assert source is not None
            self.first_button = numbers[source.randbelow(len(numbers))]
        else:
            self.first_button = numbers[0]
        self.status = TableStatus.PLAYING
        self.clock.start(now)
        events.append(GameStarted(tuple(self.players())))
        return events + self._check_short(now)

    def pause(self, now: float) -> list[TableEvent]:
        """The host or an admin pauses the table: no hand is dealt until resumed."""
        if self.held:
            raise NotAllowedNow("The table is already paused.")
        self.held = True
        self._sync_clock(now)
        return [TablePaused("host")]

    def resume(self, now: float) -> list[TableEvent]:
        if not self.held:
            raise NotAllowedNow("The table is not paused.")
        self.held = False
        self._sync_clock(now)
        return [TableResumed("host")]

    def press_continue(self, player: PlayerId, now: float) -> list[TableEvent]:
        self.seat_of(player)
        if self.hand_running:
            raise NotAllowedNow("The hand is still being played.")
        self.continued.add(player)
        return [PlayerContinued(player)]

    # --------------------------------------------------------- hand commands

    def deal(
        self,
        now: float,
        deck: Sequence[int],
        *,
        balances: Mapping[PlayerId, int] | None = None,
    ) -> list[TableEvent]:
        """Deal the next hand from ``deck``. Per-hand tables need the balances of the
        seated players. With fewer than two able to play the table pauses instead."""
        if self.status is _WAITING:
            raise NotAllowedNow("The game has not started.")
        if self.status in _OVER:
            raise NotAllowedNow("This game is over.")
        if self.hand_running:
            raise NotAllowedNow("A hand is being played.")
        if self.held:
            raise NotAllowedNow("The table is paused by the host.")
        if self.format is _PER_HAND and balances is None:
            raise TableError("Dealing at a per-hand table needs the players' balances.")
        plan = self.plan(now, balances)
        if plan is None:
            return self._set_short(True, now)
        check_distinct(deck)  # one of each card: the engine trusts its caller
        hand = Hand.start(self.config.rules, self._setup(plan), deck)
        events = self._set_short(False, now)  # nothing changes before the hand is made
        if plan.level > self.level:
            events.append(BlindsRaised(plan.level, plan.small_blind, plan.big_blind))
        self.level, self.small_blind, self.big_blind = plan.level, plan.small_blind, plan.big_blind
        return events + self._start_hand(plan, hand, now)

    def act(self, player: PlayerId, action: Action, now: float) -> list[TableEvent]:
        """The player acts in the running hand (the engine checks it is legal)."""
        seat = self._seat_in_running_hand(player)
        assert self.hand is not None
        self.hand.act(action, seat=seat.number)
        seat.timeouts = 0
        events: list[TableEvent] = []
        if seat.leaving is _TIMED_OUT:  # back in time: acting resets the count
            seat.leaving = None
            events.append(CashOutCancelled(player))
        return events + self._after_action(now)

    def time_out(self, now: float) -> list[TableEvent]:
        """The turn clock ran out: check if free, otherwise fold. In cash games the
        timeouts in a row are counted and the player is cashed out at the limit."""
        hand = self._running_hand()
        rules = self.config.rules
        deadline = self.turn_deadline()
        if rules.turn_clock_seconds is None or deadline is None:
            raise NotAllowedNow("This table has no turn clock.")
        if now < deadline:
            raise NotAllowedNow(f"The clock has {deadline - now:.0f} seconds left.")
        number = hand.seat_to_act
        assert number is not None
        seat = self.seats[number]
        hand.time_out()
        seat.timeouts += 1
        events: list[TableEvent] = [ClockActed(seat.player, seat.timeouts)]
        limit = rules.cash_timeouts_to_cash_out
        if (
            self.format is not Format.TOURNAMENT
            and limit is not None
            and seat.timeouts >= limit
            and seat.leaving is None
        ):
            seat.leaving = Leaving.TIMED_OUT
            events.append(CashOutPending(seat.player, Leaving.TIMED_OUT.value))
        return events + self._after_action(now)

    def fold_inactive(self, player: PlayerId, now: float) -> list[TableEvent]:
        """The host or an admin folds an inactive player's hand; chips already in stay
        in the pot. Where the rules set a wait (``legacy``: 24 hours) only the player
        to act can be folded, once they have been waited on that long, and never before
        their own turn clock would act for them: a game's shorter wait must not let a
        host take a thinking player's hand away while the clock still gives them time."""
        seat = self._seat_in_running_hand(player)
        hand = self._running_hand()
        wait = self.config.rules.inactive_fold_after_seconds
        if wait is not None:
            if hand.seat_to_act != seat.number:
                raise NotAllowedNow("Only the player whose turn it is can be folded.")
            clock = self.config.rules.turn_clock_seconds
            wait = max(wait, clock or 0)
            started = now if self.turn_started_at is None else self.turn_started_at
            left = started + wait - now
            if left > 0:
                raise NotAllowedNow(
                    f"This player can be folded after {spoken(wait)} without acting:"
                    f" in {spoken(left)}."
                )
        hand.fold_out_of_turn(seat.number)
        return self._after_action(now)

    # ---------------------------------------------------------------- internals

    def _running_hand(self) -> Hand:
        if self.hand is None or self.hand.is_over:
            raise NotAllowedNow("No hand is being played.")
        return self.hand

    def _seat_in_running_hand(self, player: PlayerId) -> Seat:
        self._running_hand()
        seat = self.seat_of(player)
        if not self.in_hand(seat):
            raise NotAllowedNow("You are not in this hand.")
        return seat

    def _occupied_by(self, number: int, player: PlayerId) -> bool:
        seat = self.seats.get(number)
        return seat is not None and seat.player == player

    def _enough_ready(self) -> bool:
        """Are two players ready without those waiting for the big blind? If not, a
        waiting player is dealt in at once."""
        ready, _ = ready_and_waiting(self.seats, self.format)
        return len(ready) >= 2

    def _no_sitting_out_in_tournaments(self) -> None:
        if self.format is Format.TOURNAMENT:
            raise NotAllowedNow(
                "In a tournament you stay in every hand: the clock acts for you when you are away."
            )

    def _setup(self, plan: HandPlan) -> HandSetup:
        if self.format is _PER_HAND:
            stacks = tuple(self.config.buy_in for _ in plan.seats)
        else:
            stacks = tuple([self.seats[n].stack for n in plan.seats])
        pos = plan.positions
        return HandSetup(
            seats=plan.seats,
            stacks=stacks,
            button_seat=pos.button,
            small_blind_seat=pos.posted_small_blind(plan.seats),
            big_blind_seat=pos.big_blind,
            small_blind=plan.small_blind,
            big_blind=plan.big_blind,
        )

    def _start_hand(self, plan: HandPlan, hand: Hand, now: float) -> list[TableEvent]:
        dealt = [self.seats[n] for n in plan.seats]
        events: list[TableEvent] = []
        if self.format is _PER_HAND:
            events.extend(per_hand.hand_buy_ins((s.player for s in dealt), self.config.buy_in))
        setup, pos = hand.setup, plan.positions
        self.hand = hand
        for number, seat in self.seats.items():
            if number in plan.seats:
                seat.waiting = False
            elif self.format is _CASH:
                seat.waiting = True  # missed a hand: back in when the big blind comes
        self.hand_players = {s.number: s.player for s in dealt}
        self.settled = set()
        self.positions = pos
        self.hands_dealt += 1
        self.turn_started_at = now
        self.hand_ended_at = None
        self.continued = set()
        events.append(
            HandDealt(
                self.hands_dealt,
                pos.button,
                setup.small_blind_seat,
                pos.big_blind,
                (plan.small_blind, plan.big_blind),
                tuple((s.number, s.player, st) for s, st in zip(dealt, setup.stacks, strict=True)),
            )
        )
        if self.hand.is_over:  # everyone all in on the blinds: the board was run out
            events.extend(settlement.finish_hand(self, now) + self._check_short(now))
        return events

    def _after_action(self, now: float) -> list[TableEvent]:
        hand = self.hand
        assert hand is not None
        events: list[TableEvent] = []
        if not hand.is_over:
            for number in sorted(self.hand_players):
                seat = self.seats.get(number)
                if seat is None or seat.leaving is None or not self.in_hand(seat):
                    continue
                if hand.folded[hand.seats.index(number)]:
                    events.extend(settlement.release_after_fold(self, seat, now, seat.leaving))
            self.turn_started_at = now
            return events
        return settlement.finish_hand(self, now) + self._check_short(now)

    def _check_short(self, now: float) -> list[TableEvent]:
        """Cash games pause while fewer than two players can play and resume when two
        can. (Per-hand tables find out when dealing, from the balances.)"""
        if self.format is not _CASH or self.status is not _PLAYING:
            return []
        if self.hand_running:
            return []
        ready, waiting = ready_and_waiting(self.seats, self.format)
        return self._set_short(len(ready | waiting) < 2, now)

    def _set_short(self, short: bool, now: float) -> list[TableEvent]:
        if short == self.short_of_players:
            return []
        self.short_of_players = short
        self._sync_clock(now)
        return [TablePaused("players") if short else TableResumed("players")]

    def _sync_clock(self, now: float) -> None:
        if self.held or self.short_of_players:
            self.clock.stop(now)
        else:
            self.clock.run(now)
