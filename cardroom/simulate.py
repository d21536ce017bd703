"""Random play: many complete hands with random legal actions, for soak tests and speed.

Each hand gets random stacks (some shorter than the big blind) and a random deck, and
every decision is drawn from the legal-action query: fold, check or call, a minimum
bet or raise, a random amount between the minimum and the maximum, or all in. All-ins
for different amounts are frequent, so side pots are common.

Everything here is pure given its random source: the same seed plays the same hands
card for card and action for action on every machine. The only impurity is the clock
that times the run, and it is injected. The driver's own cost counts in the speed
figure, so it reads the ``LegalActions`` fields directly and builds few objects.
"""

from __future__ import annotations

import hashlib
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, NamedTuple

from cardroom.actions import Action, ActionKind
from cardroom.deck import RandomSource
from cardroom.events import BlindPosted, HandEnded, HandMucked, HandShown, PotAwarded
from cardroom.hand import Hand, HandSetup
from cardroom.rules import Rules, preset

__all__ = [
    "DEFAULT_POLICY",
    "FastRandomSource",
    "HandOutcome",
    "Policy",
    "SimulationError",
    "SimulationReport",
    "action_limit",
    "play_random_hand",
    "random_deck",
    "random_setup",
    "simulate",
]

SMALL_BLIND = 50
BIG_BLIND = 100
MAX_STACK_BIG_BLINDS = 150  # stacks are drawn uniformly from 1 chip to this many BBs


_BLOCK = struct.Struct("<512Q")


def action_limit(setup: HandSetup) -> int:
    """More actions than any hand of this setup can take. A round's bet goes up only
    by a full raise (at least a big blind, and nobody has more than the largest stack)
    or by an all-in (once per player); between two increases each player acts at most
    once; there are four rounds."""
    n = len(setup.seats)
    return 4 * (n + 1) * (max(setup.stacks) // setup.big_blind + n + 2)


class SimulationError(RuntimeError):
    """The engine did something random play must never see (a hand that does not end,
    chips that appear or vanish)."""


class FastRandomSource:
    """A deterministic ``RandomSource`` a few times cheaper per draw than
    ``cardroom.deck.SeededRandomSource``.

    Bits come from SHAKE-128(seed || block number) in blocks of 512 little-endian
    64-bit words, so a seed gives the same stream on every machine. A draw below
    ``n <= 2**64`` uses Lemire's multiply-and-shift with rejection: a word ``w`` gives
    ``(w * n) >> 64`` unless the low 64 bits of the product fall below
    ``2**64 mod n``, in which case it is rejected and another word drawn; every value
    in ``[0, n)`` is then exactly equally likely (no modulo bias). A larger ``n`` takes
    just enough bits from several words and rejects values ``>= n``.
    """

    __slots__ = ("_block", "_seed", "_words")

    def __init__(self, seed: int | str | bytes) -> None:
        if isinstance(seed, int):
            seed = str(seed)
        if isinstance(seed, str):
            seed = seed.encode()
        self._seed = b"cardroom.simulate:" + seed
        self._block = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        stream = hashlib.shake_128(self._seed + self._block.to_bytes(8, "big"))
        words = list(_BLOCK.unpack(stream.digest(_BLOCK.size)))
        words.reverse()  # words are popped from the end: use them in stream order
        self._words = words
        self._block += 1

    def _word(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def randbelow(self, n: int) -> int:
        """A uniformly distributed integer in ``[0, n)``."""
        if not 0 < n <= 1 << 64:
            return self._randbelow_wide(n)
        while True:
            try:
                m = self._words.pop() * n
            except IndexError:
                self._refill()
                continue
            low = m & 0xFFFF_FFFF_FFFF_FFFF
            if low >= n or low >= ((1 << 64) - n) % n:
                return m >> 64

    def _randbelow_wide(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        bits = n.bit_length()
        count = (bits + 63) // 64
        while True:
            value = 0
            for _ in range(count):
                value = (value << 64) | self._word()
            value >>= 64 * count - bits
            if value < n:
                return value


def random_deck(source: RandomSource, count: int) -> list[int]:
    """The first ``count`` cards of a uniformly shuffled deck: Fisher-Yates stopped
    after ``count`` swaps, which is all a hand of n players deals (2n + 8 cards)."""
    deck = list(range(52))
    draw = source.randbelow
    for i in range(count):
        j = i + draw(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    del deck[count:]
    return deck


def random_setup(
    source: RandomSource,
    players: int,
    small_blind: int = SMALL_BLIND,
    big_blind: int = BIG_BLIND,
    max_stack: int = MAX_STACK_BIG_BLINDS * BIG_BLIND,
) -> HandSetup:
    """Seats 1..players in dealing order (the last seat on the button) with stacks
    drawn uniformly from 1 chip to ``max_stack``."""
    draw = source.randbelow
    stacks = [1 + draw(max_stack) for _ in range(players)]
    return HandSetup.simple(stacks, small_blind, big_blind)


# Shared action values (immutable, so one of each serves every decision).
_FOLD = Action.fold()
_CHECK = Action.check()
_CALL = Action.call()
_ALL_IN = Action.all_in()
_BET = ActionKind.BET
_RAISE = ActionKind.RAISE


class Policy:
    """How random play chooses, in percent. Facing a bet: fold, call, raise the
    minimum, raise a random amount, or go all in. With a free check: check, bet (or
    raise, for the big blind's option) the minimum, a random amount, or go all in.
    Random amounts are uniform between the minimum and the maximum. When raising is
    not open, a raise or all-in becomes a call (or a check)."""

    __slots__ = ("cuts", "facing_a_bet", "free_check")

    FACING_A_BET_CHOICES = ("fold", "call", "min", "random", "all_in")
    FREE_CHECK_CHOICES = ("check", "min", "random", "all_in")

    def __init__(
        self, facing_a_bet: tuple[int, int, int, int, int], free_check: tuple[int, int, int, int]
    ) -> None:
        if (
            sum(facing_a_bet) != 100
            or sum(free_check) != 100
            or min(*facing_a_bet, *free_check) < 0
        ):
            raise ValueError("A policy's chances are whole percentages adding up to 100.")
        self.facing_a_bet = facing_a_bet
        self.free_check = free_check
        f = list(accumulate(facing_a_bet))
        c = list(accumulate(free_check))
        # upper bounds of a draw in [0, 100): fold, call, min raise, random raise;
        # check, min bet, random bet
        self.cuts = (f[0], f[1], f[2], f[3], c[0], c[1], c[2])

    def decide(self, u: int, free_check: bool) -> str:
        """The choice for a draw ``u`` in [0, 100), by name (to drive other engines
        with the same policy)."""
        if not 0 <= u < 100:
            raise ValueError("The draw must be in [0, 100).")
        weights: tuple[int, ...] = self.free_check if free_check else self.facing_a_bet
        names: tuple[str, ...] = (
            self.FREE_CHECK_CHOICES if free_check else self.FACING_A_BET_CHOICES
        )
        for name, below in zip(names, accumulate(weights), strict=True):
            if u < below:
                return name
        raise AssertionError("unreachable: the chances add up to 100")

    def describe(self) -> str:
        facing = zip(self.FACING_A_BET_CHOICES, self.facing_a_bet, strict=True)
        free = zip(self.FREE_CHECK_CHOICES, self.free_check, strict=True)
        return (
            "facing a bet "
            + ", ".join(f"{n} {w}%" for n, w in facing)
            + "; with a free check "
            + ", ".join(f"{n} {w}%" for n, w in free)
        )


# All-ins for different amounts are frequent, so side pots are common.
DEFAULT_POLICY = Policy(facing_a_bet=(40, 37, 11, 7, 5), free_check=(60, 22, 13, 5))


class HandOutcome(NamedTuple):
    """What one randomly played hand showed."""

    actions: int
    showdown: bool  # two or more players were still in at the end
    all_in: bool  # some player put their last chip in (a blind included)
    pots: int  # pots awarded (2 or more: a side pot)
    chips_conserved: bool  # final stacks add up to the starting stacks


def play_random_hand(
    hand: Hand, source: RandomSource, policy: Policy = DEFAULT_POLICY
) -> HandOutcome:
    """Play a started hand to its end with random legal actions."""
    (
        fold_below,
        call_below,
        min_raise_below,
        random_raise_below,
        check_below,
        min_bet_below,
        random_bet_below,
    ) = policy.cuts
    draw = source.randbelow
    act = hand.act
    legal_actions = hand.legal_actions
    setup = hand.setup
    start_total = sum(setup.stacks)
    limit = action_limit(setup)
    all_in = False
    for event in hand.events:  # the blinds and antes come first
        if type(event) is not BlindPosted:
            break
        if event.all_in:
            all_in = True
            break
    actions = 0
    while not hand.is_over:
        actions += 1
        if actions > limit:
            raise SimulationError(f"A hand went past {limit} actions without ending.")
        la = legal_actions()
        u = draw(100)
        may_raise = la.can_bet or la.can_raise
        if la.can_check:
            if u < check_below or not may_raise:
                act(_CHECK)
                continue
            if u < min_bet_below:
                to = la.min_to
            elif u < random_bet_below:
                to = la.min_to + draw(la.max_to - la.min_to + 1)
            else:
                act(_ALL_IN)
                all_in = True
                continue
        else:
            if u < fold_below:
                act(_FOLD)
                continue
            if u < call_below or not may_raise:
                act(_CALL)
                if la.call_amount == la.stack:
                    all_in = True
                continue
            if u < min_raise_below:
                to = la.min_to
            elif u < random_raise_below:
                to = la.min_to + draw(la.max_to - la.min_to + 1)
            else:
                act(_ALL_IN)
                all_in = True
                continue
        act(Action(_BET if la.can_bet else _RAISE, to))
        if to == la.all_in_to:
            all_in = True
    showdown = False
    pots = 0
    for event in reversed(hand.events):
        kind = type(event)
        if kind is PotAwarded:
            pots += 1
        elif kind is HandShown or kind is HandMucked:
            showdown = True
        elif kind is not HandEnded:
            break
    return HandOutcome(actions, showdown, all_in, pots, sum(hand.stacks) == start_total)


@dataclass(frozen=True, slots=True)
class SimulationReport:
    hands: int
    seconds: float
    hands_per_s: float
    showdown_rate: float
    all_in_rate: float
    side_pot_rate: float
    chips_conserved: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "seconds": self.seconds,
            "hands_per_s": self.hands_per_s,
            "showdown_rate": self.showdown_rate,
            "all_in_rate": self.all_in_rate,
            "side_pot_rate": self.side_pot_rate,
            "chips_conserved": self.chips_conserved,
        }


def simulate(
    hands: int,
    players: int,
    seed: int | str | bytes = 0,
    rules: Rules | str = "house",
    *,
    source: RandomSource | None = None,
    policy: Policy = DEFAULT_POLICY,
    progress: Callable[[int], None] | None = None,
    progress_every: int = 250,
    clock: Callable[[], float] = time.perf_counter,
) -> SimulationReport:
    """Play ``hands`` complete hands of ``players`` players with random legal actions.

    The hands are drawn from ``source`` (by default a ``FastRandomSource`` of
    ``seed``) and played with ``policy``. ``progress``, if given, is called with the
    number of hands played every ``progress_every`` hands and at the end. ``clock``
    times the run.
    """
    if hands < 1:
        raise ValueError("Play at least one hand.")
    if not 2 <= players <= 10:
        raise ValueError("A hand needs 2 to 10 players.")
    r = preset(rules) if isinstance(rules, str) else rules
    src: RandomSource = FastRandomSource(seed) if source is None else source
    cards = 2 * players + 8
    start = Hand.start
    showdowns = all_ins = side_pots = 0
    conserved = True
    began = clock()
    for played in range(1, hands + 1):
        setup = random_setup(src, players)
        hand = start(r, setup, random_deck(src, cards))
        outcome = play_random_hand(hand, src, policy)
        showdowns += outcome.showdown
        all_ins += outcome.all_in
        side_pots += outcome.pots >= 2
        conserved = conserved and outcome.chips_conserved
        if progress is not None and played % progress_every == 0:
            progress(played)
    seconds = clock() - began
    if progress is not None and hands % progress_every:
        progress(hands)
    return SimulationReport(
        hands=hands,
        seconds=seconds,
        hands_per_s=hands / seconds if seconds > 0 else float("inf"),
        showdown_rate=showdowns / hands,
        all_in_rate=all_ins / hands,
        side_pot_rate=side_pots / hands,
        chips_conserved=conserved,
    )
