"""How a bot decides: hand strength against the pot odds, with position, ranges,
bluffs and sizes in proportion to the pot.

``decide(view, level, source)`` looks only at a ``SeatView`` (its own cards and the
public state) and returns a ``Decision``: a legal ``Action``, a short reason and the
equity it used. Every number it draws comes from ``source`` (a ``RandomSource``:
``randbelow``), including the seed of the NumPy generator that samples equities, so
the same view, level and source state always give the same decision.

Pre-flop, an unopened pot is raised (or, by a beginner, often limped) with a hand in
the opening range for the seat's position (the share of hands by ``PREFLOP_ORDER``
that the number of players still to act allows); against a raise the bot compares
its equity against the raiser's likely range with the pot odds, re-raises premium
hands and sometimes re-raises light.

After the flop it estimates its equity against the opponents still in, by sampling
(against random hands for a beginner; against ranges read from the betting for the
others), and its *strength* ``equity ** (1 / opponents)`` (its chance to beat one of
them). Checked to, it bets strong hands for value, semi-bluffs draws and bluffs now
and then against one or two opponents, more often in position. Facing a bet it
raises strong hands, calls when its equity beats the pot odds by the level's margin
(draws count a little extra on the flop and turn for the chips still to win), and
folds the rest. Sizes are fractions of the pot (half, two thirds, pot), raises the
same fraction of the pot after calling; a size close to the whole stack goes all in.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardroom.actions import Action, ActionKind
from cardroom.bots.levels import Level, level
from cardroom.bots.strength import ANY_HAND, Read, equity_against, preflop_percentile
from cardroom.bots.view import PREFLOP, RIVER, SeatView, view_for
from cardroom.deck import RandomSource
from cardroom.hand import Hand

__all__ = ["Bot", "Decision", "bot_action", "decide", "draw_outs", "read_of"]

# Opening range (share of starting hands) by the number of players still to act
# behind: the big blind raising limpers (none behind), the small blind (one) ...
# under the gun at a full table.
OPEN_RANGE = (0.15, 0.55, 0.42, 0.28, 0.22, 0.18, 0.15, 0.12, 0.12, 0.12)
# Re-raise for value with hands at least this good, after 1, 2, 3+ raises: 88+,
# AJs+, AKo (5.5 % of hands); TT+ (2.3 %); KK+ (0.9 %). And at least this often.
PREMIUM = (0.055, 0.023, 0.01)
PREMIUM_RAISE = 0.7
# Ranges read from the pre-flop betting: an open raise, a re-raise, a four-bet...
RAISE_RANGES = (0.22, 0.07, 0.035)
CALL_RANGES = (0.6, 0.3, 0.1)  # a limp; a call of one raise; of two or more
SHORT_SHOVE_BB = 15  # an all-in raise of at most this many big blinds is wide
SHORT_SHOVE_RANGE = 0.3
BET_KEEP = 0.5  # share of an opponent's range kept after each bet or raise post-flop
CALL_KEEP = 0.75  # ... after each call
MIN_KEEP = 0.12
# Calling a raise pre-flop needs this much equity above the pot odds (the hand is
# played on with less than its equity: position, later bets), plus some for each
# player still to act behind, who may raise again or hold a better hand.
PREFLOP_CALL_MARGIN = 0.05
PER_PLAYER_BEHIND = 0.03
DRAW_BONUS = 0.06  # equity a draw adds for the chips still to win (implied odds)
SHOVE_SHARE = 0.7  # a bet this large a share of the stack goes all in


class Decision(NamedTuple):
    action: Action
    reason: str
    equity: float | None  # the estimate the decision used, if any


class _Draws:
    """Uniform numbers and a NumPy generator, all from one ``RandomSource``."""

    __slots__ = ("_rng", "source")

    def __init__(self, source: RandomSource) -> None:
        self.source = source
        self._rng: np.random.Generator | None = None

    def chance(self, p: float) -> bool:
        """True with probability ``p``."""
        return self.source.randbelow(1 << 30) < p * (1 << 30)

    def pick(self, options: tuple[float, ...]) -> float:
        return options[self.source.randbelow(len(options))] if len(options) > 1 else options[0]

    @property
    def rng(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = np.random.Generator(np.random.PCG64(self.source.randbelow(1 << 63)))
        return self._rng


# ------------------------------------------------------------------ reading


def read_of(view: SeatView, seat: int) -> Read:
    """What the public betting says about ``seat``'s hand."""
    top = 1.0
    keep = 1.0
    raises = 0
    bb = view.big_blind
    for step in view.history:
        if step.street == PREFLOP:
            if step.action == "raise":
                if step.seat == seat:
                    if step.all_in and step.to <= SHORT_SHOVE_BB * bb:
                        top = min(top, SHORT_SHOVE_RANGE)
                    else:
                        top = min(top, RAISE_RANGES[min(raises, 2)])
                raises += 1
            elif step.action == "call" and step.seat == seat:
                top = min(top, CALL_RANGES[min(raises, 2)])
        elif step.seat == seat:
            if step.action in ("bet", "raise"):
                keep *= BET_KEEP
            elif step.action == "call":
                keep *= CALL_KEEP
    return Read(top, max(keep, MIN_KEEP))


def draw_outs(hole: tuple[int, ...], board: tuple[int, ...]) -> int:
    """Rough outs to a flush or straight the hole cards help make (flop and turn
    only): 9 for a flush draw, 8 for an open-ended straight draw, 4 for a gutshot."""
    if len(board) not in (3, 4):
        return 0
    cards = hole + board
    outs = 0
    for suit in range(4):
        if sum(1 for c in cards if c & 3 == suit) == 4 and any(c & 3 == suit for c in hole):
            outs += 9
    ranks = {c >> 2 for c in cards}
    mine = {c >> 2 for c in hole}

    def ace_low(rs: set[int]) -> set[int]:
        return {r + 1 for r in rs} | ({0} if 12 in rs else set())  # ace also below the 2

    have, own = ace_low(ranks), ace_low(mine)
    completing = 0
    for x in range(14):  # positions: 0 = ace low, 1 = two ... 13 = ace
        if x in have:
            continue
        with_x = have | {x}
        for low in range(max(0, x - 4), min(x, 9) + 1):
            window = set(range(low, low + 5))
            if window <= with_x and window & own:
                completing += 1
                break
    outs += 4 * min(completing, 2)
    return min(outs, 15)


# ------------------------------------------------------------------ helpers


def _players_behind(view: SeatView) -> int:
    """Players still able to act after this seat in the current round."""
    n = len(view.players)
    me = view.index
    if view.street == PREFLOP:
        bb_seat = next(
            (s.seat for s in view.history if s.action == "big_blind"), view.players[-1].seat
        )
        bb = next(i for i, p in enumerate(view.players) if p.seat == bb_seat)
        count, i = 0, me
        while i != bb:
            i = (i + 1) % n
            count += view.players[i].can_act
        return count
    return sum(1 for p in view.players[me + 1 :] if p.can_act)


def _pot_odds(view: SeatView) -> float:
    call = view.legal.call_amount
    return call / (view.pot + call) if call else 0.0


def _sized(view: SeatView, fraction: float) -> Action:
    """A bet of ``fraction`` of the pot, or a raise of that fraction of the pot after
    calling, within the legal range (all in when close to the stack)."""
    legal = view.legal
    match = legal.bet + legal.to_call
    return _to(view, match + fraction * (view.pot + legal.to_call))


def _to(view: SeatView, to: float) -> Action:
    legal = view.legal
    amount = round(to)
    if amount >= SHOVE_SHARE * legal.all_in_to:
        amount = legal.max_to
    amount = min(max(amount, legal.min_to), legal.max_to)
    return Action(ActionKind.BET if legal.can_bet else ActionKind.RAISE, amount)


def _passive(view: SeatView) -> Action:
    return Action.check() if view.legal.can_check else Action.call()


def _give_up(view: SeatView) -> Action:
    return Action.check() if view.legal.can_check else Action.fold()


# ------------------------------------------------------------------ deciding


def _equity(view: SeatView, lv: Level, draws: _Draws) -> float:
    reads = [read_of(view, p.seat) if lv.reads else ANY_HAND for p in view.opponents]
    return equity_against(view.hole, view.board, reads, draws.rng, lv.samples)


def _preflop(view: SeatView, lv: Level, draws: _Draws) -> Decision:
    legal = view.legal
    bb = view.big_blind
    may_raise = legal.can_bet or legal.can_raise
    pct = preflop_percentile(*view.hole)
    raises = sum(1 for s in view.history if s.action == "raise")
    behind = _players_behind(view)
    if raises == 0:
        limpers = sum(1 for s in view.history if s.action == "call")
        wide = min(1.0, OPEN_RANGE[min(behind, 9)] * lv.looseness)
        if pct <= wide:
            if may_raise and (pct <= PREMIUM[1] or not draws.chance(lv.limp)):
                size = draws.pick(lv.open_size) + limpers
                return Decision(_to(view, size * bb), "open raise", None)
            return Decision(_passive(view), "limp" if legal.to_call else "check", None)
        if may_raise and behind <= 2 and limpers == 0 and draws.chance(lv.bluff):
            return Decision(_to(view, draws.pick(lv.open_size) * bb), "steal", None)
        if legal.can_check:
            return Decision(Action.check(), "check the option", None)
        if lv.limp and pct <= min(1.0, 1.3 * wide):
            return Decision(Action.call(), "limp behind", None)
        return Decision(Action.fold(), "fold: outside the opening range", None)
    equity = _equity(view, lv, draws)
    odds = _pot_odds(view)
    premium = PREMIUM[min(raises, 3) - 1]
    match = legal.bet + legal.to_call
    if may_raise and pct <= premium and draws.chance(max(lv.aggression, PREMIUM_RAISE)):
        return Decision(_to(view, match * (3.0 if raises == 1 else 2.3)), "re-raise", equity)
    if legal.can_check:
        return Decision(Action.check(), "check", equity)
    if equity >= odds + lv.call_margin + PREFLOP_CALL_MARGIN + PER_PLAYER_BEHIND * behind:
        return Decision(Action.call(), "call: equity beats the pot odds", equity)
    if may_raise and raises == 1 and pct <= 0.4 and draws.chance(lv.three_bet_bluff):
        return Decision(_to(view, match * 3.0), "light re-raise", equity)
    return Decision(Action.fold(), "fold: not enough equity for the price", equity)


def _postflop(view: SeatView, lv: Level, draws: _Draws) -> Decision:
    legal = view.legal
    may_raise = legal.can_bet or legal.can_raise
    opponents = len(view.opponents)
    equity = _equity(view, lv, draws)
    strength = equity ** (1.0 / opponents)
    outs = draw_outs(view.hole, view.board) if view.street < RIVER else 0
    drawing = outs >= 8
    last = _players_behind(view) == 0

    def size(kind: str) -> float:
        if not lv.polarised:
            return draws.pick(lv.sizes)
        if draws.chance(0.25):  # mix it up
            return draws.pick(lv.sizes)
        if kind == "value" and strength < 0.85:
            return min(lv.sizes)
        if kind == "semi-bluff":
            return sorted(lv.sizes)[len(lv.sizes) // 2]
        return max(lv.sizes)  # the best hands and the bluffs

    if legal.to_call == 0:
        if may_raise and strength >= lv.value_bet and draws.chance(lv.aggression):
            return Decision(_sized(view, size("value")), "value bet", equity)
        if may_raise and drawing and draws.chance(lv.semi_bluff):
            return Decision(_sized(view, size("semi-bluff")), "semi-bluff", equity)
        bluffing = lv.bluff * (1.5 if last else 1.0) * (1.0 if opponents == 1 else 0.4)
        if may_raise and opponents <= 2 and strength < 0.45 and draws.chance(bluffing):
            return Decision(_sized(view, size("bluff")), "bluff", equity)
        return Decision(Action.check(), "check", equity)
    odds = _pot_odds(view)
    if may_raise and strength >= lv.value_raise and draws.chance(lv.aggression):
        return Decision(_sized(view, size("value")), "raise for value", equity)
    if equity >= odds + lv.call_margin:
        return Decision(Action.call(), "call: equity beats the pot odds", equity)
    if drawing:
        if may_raise and draws.chance(lv.semi_bluff / 2):
            return Decision(_sized(view, size("semi-bluff")), "semi-bluff raise", equity)
        if equity + DRAW_BONUS >= odds + lv.call_margin:
            return Decision(Action.call(), "call with a draw", equity)
    if may_raise and opponents == 1 and view.street == RIVER and draws.chance(lv.bluff / 4):
        return Decision(_sized(view, size("bluff")), "bluff raise", equity)
    return Decision(Action.fold(), "fold: not enough equity for the price", equity)


def decide(view: SeatView, lv: Level | str, source: RandomSource) -> Decision:
    """A legal action for the seat to act, from what it may see."""
    if isinstance(lv, str):
        lv = level(lv)
    legal = view.legal
    draws = _Draws(source)
    if not (legal.can_bet or legal.can_raise or legal.can_fold):
        return Decision(Action.check() if legal.can_check else Action.call(), "nothing else", None)
    if not view.opponents:  # cannot happen in a hand that asks: act safely anyway
        return Decision(_passive(view), "alone", None)
    if view.street == PREFLOP:
        return _preflop(view, lv, draws)
    return _postflop(view, lv, draws)


class Bot:
    """A bot of one level with its own source of randomness."""

    __slots__ = ("level", "source")

    def __init__(self, lv: Level | str, source: RandomSource) -> None:
        self.level = level(lv) if isinstance(lv, str) else lv
        self.source = source

    def decide(self, view: SeatView) -> Decision:
        return decide(view, self.level, self.source)

    def act(self, view: SeatView) -> Action:
        return decide(view, self.level, self.source).action

    def act_in(self, hand: Hand) -> Action:
        """The action for the seat to act in an engine hand (only its view is used)."""
        seat = hand.seat_to_act
        if seat is None:
            raise ValueError("Nobody is to act: the hand is over.")
        return self.act(view_for(hand, seat))


def bot_action(hand: Hand, seat: int, lv: Level | str, source: RandomSource) -> Action:
    """What a bot of level ``lv`` in ``seat`` (the seat to act) does now."""
    return decide(view_for(hand, seat), lv, source).action
