"""One hand of No-Limit Texas Hold'em as a pure state machine.

The hand is given its players, blinds, antes, rules and a deck; it deals, asks the
player to act, checks every action against ``legal_actions()`` and ends with every
pot awarded. It reads no clock, draws no random numbers and does no I/O. Each step is
appended to ``events``; ``to_dict``/``from_dict`` give plain data for storage.

Players are held in dealing order: index 0 sits first to the button's left and, when
the button's seat is occupied, the last index is the button. (This is also the PHH
player order.) The outside world names players by table seat: the public queries
(``allowed_actions``, ``refusal``, ``pots``, ``player``, ``players``) and ``act`` take
and give table seats; the lists ``stacks``, ``bets``, ``contributed``, ``folded`` are
the engine's own, in dealing order. ``docs/engine.md`` shows the public API.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

import orjson

from cardroom.actions import (
    Action,
    ActionKind,
    ActionNotAllowed,
    AllowedActions,
    AmountOutOfRange,
    BettingNotReopened,
    HandIsOver,
    IllegalAction,
    LegalActions,
    NotYourTurn,
    RaiseCapReached,
)
from cardroom.cards import card_text, check_distinct
from cardroom.dealing import Cards, SetupError, arrange_deck, dealing_order, rigged_deck
from cardroom.evaluator import evaluate7, hand_name
from cardroom.events import (
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardBurned,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardDealt,
    PlayerActed,
    PotAwarded,
    event_from_dict,
)
from cardroom.pots import TablePot, pots_now, side_pots, split
from cardroom.rules import MinRaise, Rules, Showdown

# 7,462 distinct ranks: name each once
_hand_name = functools.cache(hand_name)

# Events made by the tuple's own constructor, every field given in order: a named
# tuple's generated ``__new__`` is a Python call that only passes its arguments on,
# and a hand logs two dozen events or more.
_new = tuple.__new__


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    COMPLETE = 4


# How ``json_dict``'s parts are written: as the database's JSON columns write a value
# (``cardroom.store.json_text``), dates and dataclasses refused, not written as text.
JSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def kept_json(value: Any) -> bytes:
    """``orjson.dumps(value)`` (``JSON_OPTIONS``) in a bytes object of its own size,
    for a text kept as long as its table: what orjson returns holds on to its
    writing buffer, 4 KB or more for a text of any length (traced), which for a
    table's kept texts was a third of its memory."""
    return memoryview(orjson.dumps(value, option=JSON_OPTIONS)).tobytes()


STREET_NAMES = ("preflop", "flop", "turn", "river", "complete")
_NEXT_STREET = (Street.FLOP, Street.TURN, Street.RIVER, Street.COMPLETE)

# The enum members the hand's steps compare with, read once: in Python 3.11 a
# member read off its class (``Street.RIVER``) goes through the enum metaclass's
# attribute hook, about a thousand instructions (callgrind), where a module name is
# a dict lookup. The members themselves, so ``is`` and ``==`` hold as before.
_PREFLOP, _FLOP, _RIVER, _COMPLETE = Street.PREFLOP, Street.FLOP, Street.RIVER, Street.COMPLETE
_ALL_IN, _FOLD, _CHECK = ActionKind.ALL_IN, ActionKind.FOLD, ActionKind.CHECK
_CALL, _BET, _RAISE = ActionKind.CALL, ActionKind.BET, ActionKind.RAISE
_BIG_BLIND_RAISES = MinRaise.BIG_BLIND
_SIMULTANEOUS = Showdown.SIMULTANEOUS


__all__ = [
    "STREET_NAMES",
    "Hand",
    "HandSetup",
    "PlayerState",
    "SetupError",
    "Street",
    "arrange_deck",
    "rigged_deck",
]


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Who is dealt in and what they post. ``seats`` and ``stacks`` are in any seat
    order; the hand sorts them into dealing order from ``button_seat``, which may be
    an empty seat (dead button). ``small_blind_seat`` is None when no small blind is
    posted (a dead small blind). ``ante`` is posted by everyone, or only by the big
    blind when ``big_blind_ante`` is set."""

    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data, the form a hand's state and its history record keep."""
        return {
            "seats": list(self.seats),
            "stacks": list(self.stacks),
            "button_seat": self.button_seat,
            "small_blind_seat": self.small_blind_seat,
            "big_blind_seat": self.big_blind_seat,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "big_blind_ante": self.big_blind_ante,
        }

    @classmethod
    def simple(
        cls,
        stacks: Sequence[int],
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        big_blind_ante: bool = False,
    ) -> HandSetup:
        """Seats 1..n in dealing order with the button on the last: seat 1 posts the
        small blind and seat 2 the big blind; heads-up, seat 2 is the button and posts
        the small blind and seat 1 the big blind (the PHH convention)."""
        n = len(stacks)
        seats = tuple(range(1, n + 1))
        if n == 2:
            return cls(seats, tuple(stacks), 2, 2, 1, small_blind, big_blind, ante, big_blind_ante)
        return cls(seats, tuple(stacks), n, 1, 2, small_blind, big_blind, ante, big_blind_ante)

    @classmethod
    def from_button(
        cls,
        stacks: Mapping[int, int],
        button: int,
        small_blind: int,
        big_blind: int,
        *,
        ante: int = 0,
        big_blind_ante: bool = False,
    ) -> HandSetup:
        """A hand dealt to the table seats in ``stacks`` (seat -> chips) with the
        button on ``button``, a seat dealt in: the small blind is the next player
        clockwise and the big blind the one after; heads-up the button posts the
        small blind. The same positions as a table's first hand."""
        # imported here: the table package imports this module
        from cardroom.table.button import first_positions

        seats = tuple(sorted(stacks))
        if button not in stacks:
            raise SetupError(
                f"The button must be on a seat dealt in, not seat {button}; for a dead "
                "button name the blinds' seats in HandSetup itself."
            )
        if len(seats) < 2 or seats[0] < 1:
            raise SetupError("A hand needs 2 to 10 players on seats numbered from 1.")
        positions = first_positions(button, seats, seats[-1])
        return cls(
            seats,
            tuple(stacks[s] for s in seats),
            button,
            positions.small_blind,
            positions.big_blind,
            small_blind,
            big_blind,
            ante,
            big_blind_ante,
        )

    def rigged_deck(self, hole: Mapping[int, Cards], board: Cards = ()) -> list[int]:
        """A deck that deals ``hole[seat]`` to those table seats and ``board`` as the
        flop, turn and river; see ``cardroom.dealing.rigged_deck``."""
        return rigged_deck(self.seats, self.button_seat, hole, board)

    def __post_init__(self) -> None:
        # checked once when the table builds the setup, not on every deal
        n = len(self.seats)
        if not 2 <= n <= 10:
            raise SetupError("A hand needs 2 to 10 players.")
        if len(self.stacks) != n:
            raise SetupError("Give one stack for each seat.")
        if len(set(self.seats)) != n:
            raise SetupError("Two players cannot share a seat.")
        if any(s <= 0 for s in self.stacks):
            raise SetupError("Every player dealt in needs chips.")
        if self.big_blind <= 0 or self.small_blind < 0 or self.ante < 0:
            raise SetupError("Blinds and antes must be whole chips, the big blind at least 1.")
        if self.small_blind > self.big_blind:
            raise SetupError("The small blind cannot be larger than the big blind.")
        if self.big_blind_seat not in self.seats:
            raise SetupError("The big blind must be posted by a player in the hand.")
        if self.small_blind_seat is not None and self.small_blind_seat not in self.seats:
            raise SetupError("The small blind must be posted by a player in the hand.")
        if self.small_blind_seat == self.big_blind_seat:
            raise SetupError("One player cannot post both blinds.")


class PlayerState(NamedTuple):
    """One player in the hand, by table seat."""

    seat: int
    stack: int  # chips behind
    bet: int  # chips in front of the player this round
    contributed: int  # every chip the player has put in this hand, bet included
    folded: bool
    all_in: bool  # in the hand with no chips behind


class Hand:
    """The state of one hand. Create it with ``Hand.start``."""

    # Plain attributes rather than a dataclass: the simulator runs thousands of hands a
    # second and every attribute access counts. The state in slots: as plain instance
    # attributes its 35 names overflowed the 30 an instance's shared key table holds,
    # so every read and write went through a dict of its own (traced: a twentieth of
    # an action's instructions). The caches below the state keep their class-level
    # defaults, in the instance's ``__dict__``, so a hand made by ``__new__`` and
    # filled in by hand (as the codec tests do) still reads them as None.
    __slots__ = (
        "__dict__",
        "_legal",
        "_live",
        "_with_chips",
        "acted",
        "acted_bet",
        "acted_seq",
        "bets",
        "big_blind_index",
        "board",
        "contributed",
        "current_bet",
        "dead",
        "deck",
        "deck_pos",
        "events",
        "folded",
        "full_raise_seq",
        "hole",
        "last_full_raise",
        "raises",
        "ran_out",
        "river_aggressor",
        "rules",
        "seats",
        "setup",
        "small_blind_index",
        "stacks",
        "starting_stacks",
        "street",
        "to_act",
    )
    rules: Rules
    setup: HandSetup
    seats: list[int]
    starting_stacks: list[int]
    stacks: list[int]
    bets: list[int]
    contributed: list[int]
    dead: list[int]  # the part of contributed that is dead money (a big-blind ante)
    folded: list[bool]
    hole: list[list[int]]
    board: list[int]
    deck: list[int]
    deck_pos: int
    street: Street
    to_act: int  # index of the player to act, -1 when nobody is
    small_blind_index: int  # -1 for a dead small blind
    big_blind_index: int
    current_bet: int
    last_full_raise: int
    raises: int
    full_raise_seq: int
    acted: list[bool]
    acted_bet: list[int]
    acted_seq: list[int]
    river_aggressor: int
    ran_out: bool
    events: list[Event]
    # derived, kept up to date because every query needs them
    _live: int  # players who have not folded
    _with_chips: int  # players who have not folded and still have chips behind
    _legal: LegalActions | None  # the answer for the player to act, once asked
    # ``to_dict``'s parts that never change once made, kept for its next call (every
    # command writes the table, its hand included): the setup as plain data, and the
    # plain form of each event of ``_plain_events_of`` (the ``events`` list; the log
    # only grows, so a call converts only the events logged since the last).
    _plain_setup: dict[str, Any] | None = None
    _plain_events: list[dict[str, Any]] | None = None
    _plain_events_of: list[Event] | None = None
    # ``json_dict``'s texts, kept likewise: the rules, setup and deck (the objects
    # they were written from, and the texts), and the events of ``_plain_events_of``
    # written so far (how many, and the list's text).
    _json_fixed: (
        tuple[Rules, HandSetup, list[int], orjson.Fragment, orjson.Fragment, orjson.Fragment] | None
    ) = None
    _json_events: tuple[list[Event], int, bytes] | None = None

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(cls, rules: Rules, setup: HandSetup, deck: Sequence[int]) -> Hand:
        """Post antes and blinds, deal the hole cards and find the first to act."""
        if len(deck) < 2 * len(setup.seats) + 8:
            raise SetupError("The deck is too short for this many players.")
        if len(set(deck)) != len(deck):
            check_distinct(deck)  # names the repeated card
        if min(deck) < 0 or max(deck) > 51:  # every card 0 to 51, without a step a card
            raise SetupError("A deck holds cards 0 to 51 only.")
        hand = cls.__new__(cls)
        hand.rules = rules
        hand.setup = setup
        # dealing order: seats after the button's seat, clockwise, the button last
        seats, button = setup.seats, setup.button_seat
        if seats[-1] == button and all(a < b for a, b in itertools.pairwise(seats)):
            hand.seats = list(seats)  # already in dealing order
            hand.starting_stacks = list(setup.stacks)
        else:
            hand.seats = dealing_order(seats, button)
            stack_of = dict(zip(seats, setup.stacks, strict=True))
            hand.starting_stacks = [stack_of[s] for s in hand.seats]
        n = len(seats)
        hand.stacks = list(hand.starting_stacks)
        hand.bets = [0] * n
        hand.contributed = [0] * n
        hand.dead = [0] * n
        hand.folded = [False] * n
        hand.board = []
        hand.deck = list(deck)
        hand.deck_pos = 0
        hand.street = _PREFLOP
        hand.to_act = -1
        hand.small_blind_index = (
            -1 if setup.small_blind_seat is None else hand.seats.index(setup.small_blind_seat)
        )
        hand.big_blind_index = hand.seats.index(setup.big_blind_seat)
        hand.current_bet = 0
        hand.last_full_raise = setup.big_blind
        hand.raises = 0
        hand.full_raise_seq = 0
        hand.acted = [False] * n
        hand.acted_bet = [0] * n
        hand.acted_seq = [0] * n
        hand.river_aggressor = -1
        hand.ran_out = False
        hand.events = []
        hand._legal = None
        hand._post_forced_bets()
        hand._count_players()
        hand._deal_hole_cards()
        hand._begin_betting(hand.big_blind_index + 1)
        return hand

    def _post(self, i: int, blind: str, amount: int) -> None:
        """Post a forced bet. Blinds are bets; antes are not. Everyone's ante is a
        contribution like any other, but a big-blind ante is dead money: it goes to
        the main pot and is not a contribution that anyone must match."""
        amount = min(amount, self.stacks[i])
        if amount <= 0:
            return
        self.stacks[i] -= amount
        self.contributed[i] += amount
        if blind != "ante":
            self.bets[i] += amount
        elif self.setup.big_blind_ante:
            self.dead[i] += amount
        self.events.append(_new(BlindPosted, (self.seats[i], blind, amount, self.stacks[i] == 0)))

    def _post_forced_bets(self) -> None:
        s = self.setup
        bb = self.big_blind_index
        # Antes go in before the blinds; a big-blind ante comes after the big blind
        # itself, so a short big blind covers the live blind first (TDA practice).
        if s.ante and not s.big_blind_ante:
            for i in range(len(self.seats)):
                self._post(i, "ante", s.ante)
        if self.small_blind_index >= 0:
            self._post(self.small_blind_index, "small_blind", s.small_blind)
        self._post(bb, "big_blind", s.big_blind)
        if s.ante and s.big_blind_ante:
            self._post(bb, "ante", s.ante)
        self.current_bet = max(self.bets)

    def _count_players(self) -> None:
        self._live = self.folded.count(False)
        folded = self.folded
        self._with_chips = len([i for i, s in enumerate(self.stacks) if s and not folded[i]])
        self._legal = None

    def _deal_hole_cards(self) -> None:
        # one card at a time from the button's left, two rounds: player i gets the
        # deck's cards i and i + n
        seats, deck = self.seats, self.deck
        n = len(seats)
        self.hole = [[deck[i], deck[i + n]] for i in range(n)]
        self.events.extend([_new(HoleCardDealt, (seats[k % n], deck[k])) for k in range(2 * n)])
        self.deck_pos = 2 * n

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.street == _COMPLETE

    @property
    def seat_to_act(self) -> int | None:
        return None if self.to_act < 0 else self.seats[self.to_act]

    @property
    def pot(self) -> int:
        """Every chip put in this hand, bets in front of players included."""
        return sum(self.contributed)

    def index_of(self, seat: int) -> int:
        try:
            return self.seats.index(seat)
        except ValueError:
            raise NotYourTurn(f"Seat {seat} is not in this hand.") from None

    def _bet_to_match(self) -> int:
        """The bet a live player with chips must match. Pre-flop under BGC 6a a call
        is at least a full big blind, even against a short all-in big blind, unless
        everyone else is all in (nobody else still in has chips)."""
        match = self.current_bet
        bb = self.setup.big_blind
        if (
            match < bb
            and self.street == 0
            and self.rules.full_big_blind_call
            and self._with_chips > 1
        ):
            return bb
        return match

    def _someone_could_call_more(self, i: int, match: int) -> bool:
        """Could anyone else still in put in more than ``match``? If not, a bet or raise
        could never be called: the player may only call or fold (as PokerKit rules)."""
        folded, stacks, bets = self.folded, self.stacks, self.bets
        for k in range(len(stacks)):
            if k != i and not folded[k] and stacks[k] and bets[k] + stacks[k] > match:
                return True
        return False

    def _increment(self) -> int:
        """The smallest full raise (or bet) size."""
        bb = self.setup.big_blind
        if self.rules.min_raise is _BIG_BLIND_RAISES:
            return bb
        return max(self.last_full_raise, bb)

    def legal_actions(self) -> LegalActions:
        """What the player to act may do, with the bounds of a bet or raise."""
        if self._legal is not None:
            return self._legal
        i = self.to_act
        if i < 0:
            raise HandIsOver("Nobody is to act: the hand is over.")
        stack = self.stacks[i]
        bet = self.bets[i]
        rules = self.rules
        bb = self.setup.big_blind
        # The player to act is live with chips, so "anyone else with chips?" is
        # simply more than one such player.
        others = self._with_chips > 1
        match = self._bet_to_match()
        to_call = match - bet if match > bet else 0
        total = bet + stack
        can_bet = can_raise = False
        min_to = max_to = 0
        if total > match and others and self._someone_could_call_more(i, match):
            if rules.min_raise is _BIG_BLIND_RAISES:
                increment = bb
            else:
                increment = self.last_full_raise if self.last_full_raise > bb else bb
            if not self.acted[i] or self.full_raise_seq > self.acted_seq[i]:
                reopened = True
            elif rules.short_all_ins_add_up:
                reopened = match - self.acted_bet[i] >= increment
            else:
                reopened = False
            if reopened:
                cap = rules.raise_cap
                if match == 0:
                    can_bet = True
                    min_to = increment if increment < total else total
                    max_to = total
                elif cap is None or self.raises < cap or self._live <= 2:
                    can_raise = True
                    full = match + increment
                    min_to = full if full < total else total
                    max_to = total
                elif total < match + increment:  # a short all-in is not a raise, even capped
                    can_raise = True
                    min_to = max_to = total
        # tuple.__new__ skips the Python-level __new__ a named tuple generates: a
        # third of this function's cost
        legal = tuple.__new__(
            LegalActions,
            (
                self.seats[i],  # seat
                stack,
                bet,
                to_call,
                to_call > 0,  # can_fold
                to_call == 0,  # can_check
                to_call > 0,  # can_call
                to_call if to_call < stack else stack,  # call_amount
                can_bet,
                can_raise,
                min_to,
                max_to,
                can_bet or can_raise or 0 < stack <= to_call,  # can_all_in
                total,  # all_in_to
            ),
        )
        self._legal = legal
        return legal

    def allowed_actions(self) -> AllowedActions:
        """What the player to act may do and for how much, by table seat; raises
        ``HandIsOver`` once nobody is to act. ``action in hand.allowed_actions()``
        says whether ``act`` would accept ``action``."""
        return AllowedActions.of(self.legal_actions())

    def refusal(self, action: Action, seat: int | None = None) -> IllegalAction | None:
        """The ``IllegalAction`` that ``act(action, seat)`` would raise, or None when it
        would be accepted. Changes nothing."""
        try:
            self.act(action, seat, _dry_run=True)
        except IllegalAction as refused:
            return refused
        return None

    def accepts(self, action: Action, seat: int | None = None) -> bool:
        """Would ``act(action, seat)`` be accepted? Changes nothing."""
        return self.refusal(action, seat) is None

    def pots(self) -> list[TablePot]:
        """The main pot, then each side pot, as they stand: this round's bets count,
        the part of the top bet that nobody has matched (it goes back if nobody does)
        does not. Eligible are the table seats still in that have matched the pot's
        level so far. Once the hand is over, the pots that were awarded."""
        return [
            TablePot(pot.amount, tuple(self.seats[i] for i in pot.eligible))
            for pot in pots_now(self.contributed, self.bets, self.folded, self.dead)
        ]

    def player(self, seat: int) -> PlayerState:
        """The player on table seat ``seat`` (``NotYourTurn`` if not in this hand)."""
        i = self.index_of(seat)
        stack = self.stacks[i]
        folded = self.folded[i]
        return PlayerState(
            seat, stack, self.bets[i], self.contributed[i], folded, stack == 0 and not folded
        )

    def players(self) -> dict[int, PlayerState]:
        """Every player in the hand, keyed by table seat in seat order."""
        return {seat: self.player(seat) for seat in sorted(self.seats)}

    # ------------------------------------------------------------------ actions

    def act(
        self,
        action: Action,
        seat: int | None = None,
        *,
        timed_out: bool = False,
        _dry_run: bool = False,
    ) -> None:
        """Apply the action of the player to act (``seat``, if given, must be theirs).
        A refused action raises an ``IllegalAction`` and changes nothing. (``_dry_run``
        is ``refusal``'s: every check, nothing applied. One body for both, so they
        cannot disagree, and no extra call on the simulator's path.)"""
        i = self.to_act
        if i < 0:
            raise HandIsOver("The hand is over: no more actions.")
        if seat is not None and seat != self.seats[i]:
            raise NotYourTurn(f"It is seat {self.seats[i]}'s turn, not seat {seat}'s.")
        legal = self.legal_actions()
        kind = action.kind
        if type(kind) is not ActionKind:
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise ActionNotAllowed(f"{kind!r} is not a poker action.") from None
        if kind is _ALL_IN:
            if not legal.can_all_in:
                raise self._not_allowed(i, legal, kind)
            kind = _CALL if legal.stack <= legal.to_call else _BET if legal.can_bet else _RAISE
            to = legal.all_in_to
        elif kind is _FOLD:
            if not legal.can_fold:
                raise ActionNotAllowed("You can check for free, so folding is not allowed.")
            if not _dry_run:
                self._fold(i, timed_out)
            return
        elif kind is _CHECK:
            if not legal.can_check:
                raise ActionNotAllowed(f"You cannot check: {legal.to_call} to call.")
            if not _dry_run:
                self._put(i, "check", 0, timed_out)
            return
        elif kind is _CALL:
            if not legal.can_call:
                raise ActionNotAllowed("There is nothing to call: check instead.")
            to = legal.bet + legal.call_amount
        else:
            allowed = legal.can_bet if kind is _BET else legal.can_raise
            if not allowed:
                raise self._not_allowed(i, legal, kind)
            amount = action.amount
            if amount is None:
                raise AmountOutOfRange(f"Say how much to {kind} to.")
            if type(amount) is not int:  # a fraction of a chip, or text, is no amount
                raise AmountOutOfRange(f"Say how much to {kind} to in whole chips, not {amount!r}.")
            if not legal.min_to <= amount <= legal.max_to:
                raise AmountOutOfRange(
                    f"You can {kind} to between {legal.min_to} and {legal.max_to}, not {amount}."
                )
            to = amount
        if not _dry_run:
            self._bet_to(i, kind, to, legal, timed_out)

    def _not_allowed(self, i: int, legal: LegalActions, kind: ActionKind) -> IllegalAction:
        """Why a bet, raise or all-in is refused, in a sentence naming the rule."""
        what = "go all in" if kind is ActionKind.ALL_IN else str(kind)
        if legal.to_call and legal.stack <= legal.to_call:
            return ActionNotAllowed(f"You cannot {what}: you have only enough to call.")
        if kind is ActionKind.BET and legal.can_raise:
            return ActionNotAllowed("You cannot bet: there is a bet to you, so raise instead.")
        if kind is ActionKind.RAISE and legal.can_bet:
            return ActionNotAllowed("You cannot raise: there is no bet yet, so bet instead.")
        match = legal.bet + legal.to_call
        if self._with_chips < 2 or not self._someone_could_call_more(i, match):
            return ActionNotAllowed(
                f"You cannot {what}: nobody else still in could call more than {match}, "
                "so you may only call or fold."
            )
        raised_since = match - self.acted_bet[i]
        add_up = self.rules.short_all_ins_add_up
        if (
            self.acted[i]
            and self.full_raise_seq <= self.acted_seq[i]
            and not (add_up and raised_since >= self._increment())
        ):
            if add_up:
                return BettingNotReopened(
                    f"You cannot {what}: the all-ins since you acted raised by {raised_since}, "
                    f"less than a full raise of {self._increment()}, so the betting is not "
                    "reopened for you (call or fold)."
                )
            return BettingNotReopened(
                f"You cannot {what}: an all-in short of a full raise does not reopen the "
                "betting for a player who has already acted (call or fold)."
            )
        cap = self.rules.raise_cap
        if cap is not None and self.raises >= cap:
            return RaiseCapReached(
                f"You cannot {what}: the {cap} raises this round allows have been made "
                "(call or fold)."
            )
        return ActionNotAllowed(f"You cannot {what} now: the betting is not open to you.")

    def time_out(self) -> None:
        """The clock acts: check if that is free, otherwise fold."""
        legal = self.legal_actions()
        self.act(Action.check() if legal.can_check else Action.fold(), timed_out=True)

    def _mark_folded(self, i: int) -> None:
        self.folded[i] = True
        self._live -= 1
        if self.stacks[i] > 0:
            self._with_chips -= 1

    def _fold(self, i: int, timed_out: bool) -> None:
        self._mark_folded(i)
        self.acted[i] = True
        self.events.append(
            _new(PlayerActed, (self.seats[i], "fold", 0, self.bets[i], False, timed_out))
        )
        self._advance(i)

    def _put(self, i: int, action: str, amount: int, timed_out: bool) -> None:
        self.stacks[i] -= amount
        if amount and self.stacks[i] == 0:
            self._with_chips -= 1
        self.bets[i] += amount
        self.contributed[i] += amount
        if self.bets[i] > self.current_bet:  # a full-BB call under BGC 6a lifts the bet
            self.current_bet = self.bets[i]
        self.acted[i] = True
        self.acted_bet[i] = self.current_bet  # the bet this player has now answered
        self.acted_seq[i] = self.full_raise_seq
        self.events.append(
            _new(
                PlayerActed,
                (self.seats[i], action, amount, self.bets[i], self.stacks[i] == 0, timed_out),
            )
        )
        self._advance(i)

    def _bet_to(
        self, i: int, kind: ActionKind, to: int, legal: LegalActions, timed_out: bool
    ) -> None:
        if kind is _CALL:
            self._put(i, "call", to - legal.bet, timed_out)
            return
        match = legal.bet + legal.to_call
        size = to - match
        if size >= self._increment():  # a full bet or raise
            if match > 0:
                self.raises += 1  # the opening bet after the flop is not a raise
            self.last_full_raise = size
            self.full_raise_seq += 1
        if self.street == _RIVER:
            self.river_aggressor = i
        self.current_bet = max(self.current_bet, to)
        self._put(i, str(kind), to - legal.bet, timed_out)

    def fold_out_of_turn(self, seat: int) -> None:
        """An admin folds an inactive player at once; chips already in stay in the pot."""
        i = self.index_of(seat)
        if self.is_over:
            raise HandIsOver("The hand is over.")
        if self.folded[i]:
            raise ActionNotAllowed(f"Seat {seat} has already folded.")
        if i == self.to_act:
            self._fold(i, False)
            return
        self._mark_folded(i)
        self._legal = None
        self.events.append(_new(PlayerActed, (seat, "fold", 0, self.bets[i], False, False)))
        if self._live == 1:
            self.to_act = -1
            self._end_round()
        else:  # the player to act may no longer have anyone to bet against
            self._begin_betting(self.to_act)

    # ---------------------------------------------------------------- progress

    def _needs_action(self, j: int) -> bool:
        if self.folded[j] or self.stacks[j] == 0:
            return False
        if self.bets[j] < self._bet_to_match():
            return True
        return not self.acted[j] and self._with_chips > 1

    def _begin_betting(self, first: int) -> None:
        self._legal = None
        n = len(self.seats)
        for k in range(n):
            j = (first + k) % n
            if self._needs_action(j):
                self.to_act = j
                return
        self.to_act = -1
        self._end_round()

    def _advance(self, i: int) -> None:
        """Pass the turn to the next player clockwise who still has to act, or end
        the round."""
        self._legal = None
        if self._live == 1:
            self.to_act = -1
            self._end_round()
            return
        folded, stacks, bets, acted = self.folded, self.stacks, self.bets, self.acted
        n = len(stacks)
        # every candidate is live with chips, so for each of them "anyone else with
        # chips?" is the same test, and so is the bet to match
        others = self._with_chips > 1
        match = self._bet_to_match()
        j = i
        for _ in range(n):
            j = j + 1 if j + 1 < n else 0
            if folded[j] or stacks[j] == 0:
                continue
            if bets[j] < match or (others and not acted[j]):
                self.to_act = j
                return
        self.to_act = -1
        self._end_round()

    def _return_uncalled(self) -> None:
        bets = self.bets
        top = max(bets)
        if top == 0 or bets.count(top) > 1:
            return
        i = bets.index(top)
        bets[i] = 0
        second = max(bets)
        bets[i] = top
        excess = top - second
        bets[i] -= excess
        if self.stacks[i] == 0 and not self.folded[i]:
            self._with_chips += 1
        self.stacks[i] += excess
        self.contributed[i] -= excess
        self.events.append(_new(BetReturned, (self.seats[i], excess)))

    def _end_round(self) -> None:
        self._return_uncalled()
        n = len(self.seats)
        self.bets = [0] * n
        if self._live == 1:
            self._award_uncontested(self.folded.index(False))
            return
        if self.street == _RIVER:
            self._showdown()
            return
        if self._with_chips < 2:
            # nobody can bet against anyone: deal the board out
            self.ran_out = True
            while self.street < _RIVER:
                self._deal_street()
            self._showdown()
            return
        self._deal_street()
        self.current_bet = 0
        self.last_full_raise = self.setup.big_blind
        self.raises = 0
        self.acted = [False] * n
        self.acted_bet = [0] * n
        self._begin_betting(0)

    def _deal_street(self) -> None:
        street = self.street = _NEXT_STREET[self.street]
        pos = self.deck_pos
        count = 3 if street == _FLOP else 1
        cards = tuple(self.deck[pos + 1 : pos + 1 + count])
        self.deck_pos = pos + 1 + count
        self.events.append(_new(CardBurned, (self.deck[pos],)))
        self.board.extend(cards)
        self.events.append(_new(BoardDealt, (STREET_NAMES[street], cards)))

    def _award_uncontested(self, winner: int) -> None:
        amount = sum(self.contributed)
        self.stacks[winner] += amount
        self.events.append(_new(PotAwarded, (0, amount, (self.seats[winner],), (amount,), "")))
        self._finish()

    def _showdown(self) -> None:
        n = len(self.seats)
        board = self.board
        live = [i for i in range(n) if not self.folded[i]]
        ranks = {i: evaluate7(*self.hole[i], *board) for i in live}
        live_money = [c - d for c, d in zip(self.contributed, self.dead, strict=True)]
        pots = side_pots(live_money, self.folded, sum(self.dead))
        first = self.river_aggressor if self.river_aggressor in ranks else live[0]
        start = live.index(first)
        order = live[start:] + live[:start]
        reveal_all = self.rules.showdown is _SIMULTANEOUS or self.ran_out
        shown: list[int] = []
        for i in order:
            if reveal_all or not shown or self._could_win(i, ranks, pots, shown):
                shown.append(i)
                cards = tuple(self.hole[i])
                self.events.append(
                    _new(HandShown, (self.seats[i], cards, ranks[i], _hand_name(ranks[i])))
                )
            else:
                self.events.append(_new(HandMucked, (self.seats[i],)))
        contenders = set(shown)
        for number, pot in enumerate(pots):
            eligible = [i for i in pot.eligible if i in contenders]
            if len(pot.eligible) == 1:
                eligible = list(pot.eligible)
            best = max(ranks[i] for i in eligible)
            winners = sorted(i for i in eligible if ranks[i] == best)
            shares = split(pot.amount, winners)
            for i, share in zip(winners, shares, strict=True):
                self.stacks[i] += share
            name = _hand_name(best) if len(pot.eligible) > 1 else ""
            self.events.append(
                _new(
                    PotAwarded,
                    (
                        number,
                        pot.amount,
                        tuple(self.seats[i] for i in winners),
                        tuple(shares),
                        name,
                    ),
                )
            )
        self._finish()

    @staticmethod
    def _could_win(i: int, ranks: dict[int, int], pots: Sequence[Any], shown: list[int]) -> bool:
        """Ordered showdown: show only a hand that can still win or tie some pot."""
        for pot in pots:
            if i not in pot.eligible:
                continue
            rivals = [ranks[k] for k in shown if k in pot.eligible]
            if not rivals or ranks[i] >= max(rivals):
                return True
        return False

    def _finish(self) -> None:
        self.street = _COMPLETE
        self.to_act = -1
        # The pots paid an all-in winner chips again: count anew, as a hand read back
        # from its state does, so the finished hand in memory is the stored one.
        self._count_players()
        self.events.append(_new(HandEnded, (tuple(self.stacks),)))

    # ---------------------------------------------------------------- results

    def final_stacks_by_seat(self) -> dict[int, int]:
        return dict(zip(self.seats, self.stacks, strict=True))

    def hole_cards_text(self, seat: int) -> str:
        return "".join(card_text(c) for c in self.hole[self.index_of(seat)])

    # ---------------------------------------------------------------- plain data

    def to_dict(self) -> dict[str, Any]:
        """The hand as plain data, a snapshot: what the hand does next does not reach
        it. It shares with this hand's other snapshots the parts that never change
        (the rules, the setup, each event's dict): read it or encode it, never change
        it."""
        setup = self.plain_setup()
        # The lists copied (``[:]``), the numbers as they are, in the order the
        # stored state has always had them.
        return {
            "seats": self.seats[:],
            "starting_stacks": self.starting_stacks[:],
            "stacks": self.stacks[:],
            "bets": self.bets[:],
            "contributed": self.contributed[:],
            "dead": self.dead[:],
            "folded": self.folded[:],
            "hole": [cards[:] for cards in self.hole],
            "board": self.board[:],
            "deck": self.deck[:],
            "deck_pos": self.deck_pos,
            "to_act": self.to_act,
            "small_blind_index": self.small_blind_index,
            "big_blind_index": self.big_blind_index,
            "current_bet": self.current_bet,
            "last_full_raise": self.last_full_raise,
            "raises": self.raises,
            "full_raise_seq": self.full_raise_seq,
            "acted": self.acted[:],
            "acted_bet": self.acted_bet[:],
            "acted_seq": self.acted_seq[:],
            "river_aggressor": self.river_aggressor,
            "ran_out": self.ran_out,
            "street": int(self.street),
            "rules": self.rules.to_dict(),
            "setup": setup,
            "events": self._events_plain(),
        }

    def plain_setup(self) -> dict[str, Any]:
        """``to_dict``'s ``setup``, made once and shared by every snapshot (the deal
        stores it on the hand's row without the rest of the snapshot): read it or
        encode it, never change it."""
        setup = self._plain_setup
        if setup is None:
            setup = self._plain_setup = self.setup.to_dict()
        return setup

    def _events_plain(self) -> list[dict[str, Any]]:
        """The log as plain data, a new list: the events logged since the last call
        converted, the others' dicts as made then."""
        return self._events_made()[:]

    def _events_made(self) -> list[dict[str, Any]]:
        """``_events_plain``'s list itself (never to be changed or kept)."""
        events = self.events
        plain = self._plain_events
        if plain is None or self._plain_events_of is not events or len(plain) > len(events):
            plain = self._plain_events = []
            self._plain_events_of = events
        done = len(plain)
        if done < len(events):
            plain.extend([event.to_dict() for event in events[done:]])
        return plain

    def json_dict(self) -> dict[str, Any]:
        """``to_dict``'s data to be written as JSON at once, by orjson, before the hand
        moves on (``cardroom.table.codec.table_json``): the same keys and values, the
        hand's own lists rather than copies, and what does not change from one save to
        the next written once, as JSON text orjson copies as it is (``Fragment``): the
        rules, the setup, the deck and each event. A table's state is written at every
        command, and those parts are about two thirds of its text. orjson's
        ``JSONEncodeError`` if a part holds what it does not write (the caller then
        writes ``to_dict`` as before)."""
        fixed = self._json_fixed
        if (
            fixed is None
            or fixed[0] is not self.rules
            or fixed[1] is not self.setup
            or fixed[2] is not self.deck
        ):
            fixed = self._json_fixed = (
                self.rules,
                self.setup,
                self.deck,
                orjson.Fragment(kept_json(self.rules.to_dict())),
                orjson.Fragment(kept_json(self.plain_setup())),
                orjson.Fragment(kept_json(self.deck)),
            )
        return {
            "seats": self.seats,
            "starting_stacks": self.starting_stacks,
            "stacks": self.stacks,
            "bets": self.bets,
            "contributed": self.contributed,
            "dead": self.dead,
            "folded": self.folded,
            "hole": self.hole,
            "board": self.board,
            "deck": fixed[5],
            "deck_pos": self.deck_pos,
            "to_act": self.to_act,
            "small_blind_index": self.small_blind_index,
            "big_blind_index": self.big_blind_index,
            "current_bet": self.current_bet,
            "last_full_raise": self.last_full_raise,
            "raises": self.raises,
            "full_raise_seq": self.full_raise_seq,
            "acted": self.acted,
            "acted_bet": self.acted_bet,
            "acted_seq": self.acted_seq,
            "river_aggressor": self.river_aggressor,
            "ran_out": self.ran_out,
            "street": int(self.street),
            "rules": fixed[3],
            "setup": fixed[4],
            "events": orjson.Fragment(self._events_json()),
        }

    def _events_json(self) -> bytes:
        """The log as JSON text: the events logged since the last call written and
        joined to the text of those before (a JSON list is its items' texts, comma
        separated, in brackets)."""
        plain = self._events_made()
        events = self.events
        made = self._json_events
        if made is not None and made[0] is events and made[1] <= len(plain):
            done, text = made[1], made[2]
            if done == len(plain):
                return text
            if done == 0:
                text = kept_json(plain)
            else:  # the joined text is a new bytes object of its own size
                added = orjson.dumps(plain[done:], option=JSON_OPTIONS)
                text = text[:-1] + b"," + added[1:]
        else:
            text = kept_json(plain)
        self._json_events = (events, len(plain), text)
        return text

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        hand = cls.__new__(cls)
        hand.rules = Rules.from_dict(data["rules"])
        setup = dict(data["setup"])
        setup["seats"] = tuple(setup["seats"])
        setup["stacks"] = tuple(setup["stacks"])
        hand.setup = HandSetup(**setup)
        # The lists copied: the hand changes its own, never the caller's data. (The
        # state's lists hold numbers, the hole cards' a list of them per player.)
        hand.seats = data["seats"][:]
        hand.starting_stacks = data["starting_stacks"][:]
        hand.stacks = data["stacks"][:]
        hand.bets = data["bets"][:]
        hand.contributed = data["contributed"][:]
        hand.dead = data["dead"][:]
        hand.folded = data["folded"][:]
        hand.hole = [cards[:] for cards in data["hole"]]
        hand.board = data["board"][:]
        hand.deck = data["deck"][:]
        hand.deck_pos = data["deck_pos"]
        hand.to_act = data["to_act"]
        hand.small_blind_index = data["small_blind_index"]
        hand.big_blind_index = data["big_blind_index"]
        hand.current_bet = data["current_bet"]
        hand.last_full_raise = data["last_full_raise"]
        hand.raises = data["raises"]
        hand.full_raise_seq = data["full_raise_seq"]
        hand.acted = data["acted"][:]
        hand.acted_bet = data["acted_bet"][:]
        hand.acted_seq = data["acted_seq"][:]
        hand.river_aggressor = data["river_aggressor"]
        hand.ran_out = data["ran_out"]
        hand.street = Street(data["street"])
        hand.events = [event_from_dict(e) for e in data["events"]]
        hand._count_players()
        return hand
