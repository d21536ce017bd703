"""The bot policy: always legal, sensible in the spots that matter, deterministic,
winning against weak opponents, and measurably different by level."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.actions import Action, ActionKind
from cardroom.bots import LEVELS, Bot, Decision, bot_action, decide, level, view_for
from cardroom.bots.match import CallingStation, RandomPlayer, duplicate_match, play
from cardroom.bots.policy import PREMIUM, draw_outs
from cardroom.bots.strength import hand_class, preflop_percentile
from cardroom.bots.view import SeatView
from cardroom.cards import parse_cards
from cardroom.deck import SeededRandomSource, shuffled_deck
from cardroom.evaluator import Category, category_of, evaluate
from cardroom.hand import Hand, HandSetup, arrange_deck
from cardroom.rules import PRESETS, preset
from tests.handkit import act, deal

LEVEL_NAMES = tuple(LEVELS)

# ----------------------------------------------------------------- legality


@st.composite
def started_hands(draw: st.DrawFn) -> tuple[Hand, int]:
    """A hand of 2 to 10 players under any preset, with odd stacks (some below the
    big blind), antes, and a random number of random actions already taken."""
    players = draw(st.integers(2, 10))
    stacks = draw(st.lists(st.integers(1, 40_000), min_size=players, max_size=players))
    ante = draw(st.sampled_from([0, 0, 10, 100]))
    setup = HandSetup.simple(stacks, 50, 100, ante, draw(st.booleans()))
    rules = preset(draw(st.sampled_from(sorted(PRESETS))))
    seed = draw(st.integers(0, 2**32))
    hand = Hand.start(rules, setup, shuffled_deck(SeededRandomSource(seed)))
    randomly = RandomPlayer(SeededRandomSource(seed + 1))
    for _ in range(draw(st.integers(0, 25))):
        if hand.is_over:
            break
        seat = hand.seat_to_act
        assert seat is not None
        hand.act(randomly.act(view_for(hand, seat)), seat)
    return hand, seed


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(started_hands(), st.sampled_from(LEVEL_NAMES))
def test_every_decision_is_legal(spot: tuple[Hand, int], name: str) -> None:
    """From any reachable spot, a bot plays the hand out alone: the engine, which
    refuses any illegal action, accepts every one of its actions."""
    hand, seed = spot
    bot_ = Bot(name, SeededRandomSource(seed))
    start = sum(hand.setup.stacks)
    while not hand.is_over:
        seat = hand.seat_to_act
        assert seat is not None
        hand.act(bot_.act_in(hand), seat)
    assert sum(hand.stacks) == start


def test_thousands_of_decisions_at_full_tables_are_legal() -> None:
    source = SeededRandomSource("tables")
    bots = {
        seat: Bot(LEVEL_NAMES[seat % 3], SeededRandomSource(f"bot{seat}")) for seat in range(1, 10)
    }
    decisions = 0
    for number in range(120):
        players = 2 + number % 8
        stacks = [200 + source.randbelow(30_000) for _ in range(players)]
        hand = Hand.start(preset("house"), HandSetup.simple(stacks, 50, 100), shuffled_deck(source))
        while not hand.is_over:
            seat = hand.seat_to_act
            assert seat is not None
            hand.act(bots[seat].act_in(hand), seat)
            decisions += 1
        assert sum(hand.stacks) == sum(stacks)
    assert decisions > 1000


# ------------------------------------------------------------- decisions


def preflop_spots(level_name: str, wanted: str, count: int) -> Iterator[Decision]:
    """Six-handed, under the gun raises to 10 big blinds and the others fold round to
    the seat being tested (the button), which holds a hand from ``wanted``
    (trash: outside the best 60 %; premium: QQ+, AK)."""
    premium = {"AA", "KK", "QQ", "AKs", "AKo"}
    source = SeededRandomSource(f"preflop {wanted}")
    found = 0
    while found < count:
        deck = shuffled_deck(source)
        hole = (deck[0], deck[1])
        pct = preflop_percentile(*hole)
        if (wanted == "trash" and pct < 0.6) or (
            wanted == "premium" and hand_class(*hole) not in premium
        ):
            continue
        hand = Hand.start(
            preset("house"), HandSetup.simple([10_000] * 6, 50, 100), _deck_with(hole, deck)
        )
        act(hand, "r1000", "f", "f")
        assert hand.seat_to_act == 6
        found += 1
        yield decide(view_for(hand, 6), level_name, SeededRandomSource(f"d{found}"))


def _deck_with(hole: tuple[int, int], deck: Sequence[int]) -> list[int]:
    """``deck`` rearranged so that the button (sixth of six) gets ``hole``."""
    rest = [c for c in deck if c not in hole]
    return [*rest[:5], hole[0], *rest[5:10], hole[1], *rest[10:]]


def flop_spots(level_name: str, wanted: str, count: int) -> Iterator[Decision]:
    """Heads-up, limped pre-flop; on the flop the big blind bets the pot and the
    button, holding ``wanted`` (trash: high card, no draw; monster: a set or better
    on an unpaired board, so the hole cards make it), is to act."""
    source = SeededRandomSource(f"flop {wanted}")
    found = 0
    while found < count:
        deck = shuffled_deck(source)
        hole, board = deck[:2], deck[2:5]
        made = category_of(evaluate([*hole, *board]))
        if wanted == "trash" and (
            made != Category.HIGH_CARD
            or draw_outs(tuple(hole), tuple(board)) >= 4
            or preflop_percentile(*hole) < 0.5
        ):
            continue
        if wanted == "monster" and (
            made < Category.THREE_OF_A_KIND or len({c >> 2 for c in board}) < 3
        ):
            continue
        hand = Hand.start(
            preset("house"),
            HandSetup.simple([10_000, 10_000], 50, 100),
            arrange_deck([None, hole], board),
        )
        act(hand, "c", "x", "b200")  # button limps, big blind checks, then bets the pot
        assert hand.seat_to_act == 2
        found += 1
        yield decide(view_for(hand, 2), level_name, SeededRandomSource(f"d{found}"))


def rate(decisions: Iterator[Decision], *kinds: ActionKind) -> float:
    counted = Counter(d.action.kind for d in decisions)
    return sum(counted[k] for k in kinds) / sum(counted.values())


@pytest.mark.parametrize("name", LEVEL_NAMES)
def test_trash_folds_to_a_big_raise(name: str) -> None:
    assert rate(preflop_spots(name, "trash", 150), ActionKind.FOLD) > 0.9


@pytest.mark.parametrize(("name", "least"), [("beginner", 0.5), ("regular", 0.8), ("shark", 0.8)])
def test_trash_folds_to_a_pot_sized_bet(name: str, least: float) -> None:
    assert rate(flop_spots(name, "trash", 150), ActionKind.FOLD) > least


@pytest.mark.parametrize("name", LEVEL_NAMES)
def test_premium_hands_re_raise_more_often_than_not(name: str) -> None:
    assert rate(preflop_spots(name, "premium", 60), ActionKind.RAISE) > 0.5


@pytest.mark.parametrize("name", ["regular", "shark"])
def test_sets_raise_a_bet_more_often_than_not(name: str) -> None:
    assert rate(flop_spots(name, "monster", 80), ActionKind.RAISE) > 0.5


def test_monsters_never_fold() -> None:
    for name in LEVEL_NAMES:
        assert rate(flop_spots(name, "monster", 40), ActionKind.FOLD) == 0


def test_premium_thresholds_hold_the_hands_they_name() -> None:
    def pct(text: str) -> float:
        return preflop_percentile(*parse_cards(text))

    assert pct("Ac Kd") <= PREMIUM[0] < pct("As Ts")  # 88+, AJs+, AKo
    assert pct("8c 8d") <= PREMIUM[0] and pct("Ah Jh") <= PREMIUM[0]
    assert pct("Tc Td") <= PREMIUM[1] < pct("9c 9d")  # TT+
    assert pct("Kc Kd") <= PREMIUM[2] < pct("Qc Qd")  # KK+


def test_draw_outs() -> None:
    def outs(hole: str, board: str) -> int:
        h, b = parse_cards(hole), parse_cards(board)
        return draw_outs((h[0], h[1]), tuple(b))

    assert outs("Ah 5h", "Kh 9h 2c") == 9  # flush draw
    assert outs("9c 8d", "7h 6s 2c") == 8  # open-ended
    assert outs("9c 8d", "Jh 7s 2c") == 4  # gutshot (ten)
    assert outs("Ac 2d", "3h 4s Kc") == 4  # wheel gutshot (five)
    assert outs("9h 8h", "7h 6h 2c") == 15  # both, capped
    assert outs("Kc Qd", "7h 6s 2c") == 0
    assert outs("Kc Qd", "7h 6s 2c 3d 4c") == 0  # river: no draws left
    assert outs("2c 3d", "9h 8h 7h 6h") == 0  # the board's draw, not ours


# ---------------------------------------------------------- determinism


def test_same_seed_same_decisions() -> None:
    def run(seed: str) -> list[Action]:
        bots = {s: Bot(LEVEL_NAMES[s % 3], SeededRandomSource(f"{seed}{s}")) for s in (1, 2, 3)}
        source = SeededRandomSource("deals")
        actions: list[Action] = []
        for _ in range(15):
            hand = Hand.start(
                preset("house"), HandSetup.simple([5000] * 3, 50, 100), shuffled_deck(source)
            )
            while not hand.is_over:
                seat = hand.seat_to_act
                assert seat is not None
                action = bots[seat].act_in(hand)
                actions.append(action)
                hand.act(action, seat)
        return actions

    assert run("a") == run("a")
    assert run("a") != run("b")


def test_functional_and_object_forms_agree() -> None:
    hand = deal([5000, 5000, 5000], hole=["AsAh", "KsKh", "QsQh"])
    seat = hand.seat_to_act
    assert seat is not None
    one = bot_action(hand, seat, "shark", SeededRandomSource("x"))
    two = Bot(level("shark"), SeededRandomSource("x")).act_in(hand)
    assert one == two


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="no bot level"):
        level("grandmaster")


# ------------------------------------------------------------- results


def regular() -> Bot:
    return Bot("regular", SeededRandomSource("regular"))


def test_regular_beats_a_calling_station() -> None:
    result = duplicate_match(regular(), CallingStation(), 120, SeededRandomSource("deals 1"))
    assert result.hands == 240
    assert result.bb_per_100 > 50
    assert result.bb_per_100 > 3 * result.bb_per_100_error


def test_regular_beats_a_random_player() -> None:
    opponent = RandomPlayer(SeededRandomSource("random player"))
    result = duplicate_match(regular(), opponent, 120, SeededRandomSource("deals 2"))
    assert result.bb_per_100 > 50
    assert result.bb_per_100 > 3 * result.bb_per_100_error


def test_regular_beats_a_beginner() -> None:
    beginner = Bot("beginner", SeededRandomSource("beginner"))
    result = duplicate_match(regular(), beginner, 100, SeededRandomSource("deals 3"))
    assert result.bb_per_100 > 2 * result.bb_per_100_error > 0


# ------------------------------------------------------------- styles


class Recorder:
    """A bot that keeps its decisions, with the view each was made from and the
    number of the hand (set by the game loop)."""

    def __init__(self, name: str, seed: str) -> None:
        self.bot = Bot(name, SeededRandomSource(seed))
        self.hand = 0
        self.log: list[tuple[int, SeatView, Decision]] = []

    def act(self, view: SeatView) -> Action:
        decision = self.bot.decide(view)
        self.log.append((self.hand, view, decision))
        return decision.action


def style(log: list[tuple[int, SeatView, Decision]]) -> dict[str, float]:
    """VPIP (voluntarily put chips in pre-flop, per hand), limps per hand, the
    post-flop aggression factor (bets and raises per call) and bluffs (per post-flop
    decision)."""
    hands: set[tuple[int, int]] = set()
    vpip: set[tuple[int, int]] = set()
    limps = 0
    post = aggressive = calls = bluffs = 0
    for number, view, decision in log:
        key = (number, view.seat)
        kind = decision.action.kind
        if view.street == 0:
            hands.add(key)
            if kind in (ActionKind.CALL, ActionKind.RAISE, ActionKind.BET, ActionKind.ALL_IN):
                vpip.add(key)
            limps += decision.reason in ("limp", "limp behind")
        else:
            post += 1
            aggressive += kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)
            calls += kind is ActionKind.CALL
            bluffs += decision.reason in ("bluff", "bluff raise")
    return {
        "vpip": len(vpip) / len(hands),
        "limps": limps / len(hands),
        "aggression": aggressive / max(calls, 1),
        "bluffs": bluffs / max(post, 1),
    }


def test_levels_play_measurably_differently() -> None:
    bots = [Recorder(LEVEL_NAMES[i % 3], f"style {i}") for i in range(6)]
    source = SeededRandomSource("style deals")
    for number in range(150):
        for recorder in bots:
            recorder.hand = number
        hand = Hand.start(
            preset("house"), HandSetup.simple([10_000] * 6, 50, 100), shuffled_deck(source)
        )
        play(hand, {seat: bots[(seat + number) % 6] for seat in range(1, 7)})  # bots move round
    styles = {}
    for name in LEVEL_NAMES:
        log = [entry for r in bots if r.bot.level.name == name for entry in r.log]
        styles[name] = style(log)
    beginner, regular, shark = styles["beginner"], styles["regular"], styles["shark"]
    assert beginner["vpip"] > 1.5 * regular["vpip"]
    assert beginner["limps"] > 0.1 and regular["limps"] == shark["limps"] == 0
    assert regular["aggression"] > 2 * beginner["aggression"]
    assert shark["bluffs"] > regular["bluffs"] > beginner["bluffs"]
