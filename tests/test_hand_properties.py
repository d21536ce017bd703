"""Properties of every hand, whatever the players, stacks, blinds and choices.

Hypothesis deals random hands of 2 to 10 players (random seats, button, blinds, antes,
stacks down to a single chip, a dead button or a dead small blind now and then) under
each preset, and plays them by picking among the actions the query offers. Along the
way it checks that:

- every offered action is accepted, with the bounds ``min_to`` and ``max_to``
  themselves, and does what it says;
- every other action (kinds not offered, amounts outside the bounds or missing, the
  wrong seat, any action once the hand is over) is refused with an ``IllegalAction``
  subclass and leaves the state exactly as it was;
- every hand ends within a bound that follows from the rules;
- chips are conserved: the final stacks add up to the starting stacks, each pot's
  shares add up to the pot, and the event log accounts for every chip of every seat;
- a hand saved as JSON at any point and loaded again goes on exactly like the original.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from cardroom.actions import (
    Action,
    ActionKind,
    ActionNotAllowed,
    AmountOutOfRange,
    HandIsOver,
    IllegalAction,
    LegalActions,
    NotYourTurn,
)
from cardroom.events import (
    BetReturned,
    BlindPosted,
    HandEnded,
    HandShown,
    PlayerActed,
    PotAwarded,
)
from cardroom.hand import Hand, HandSetup
from cardroom.rules import PRESETS

PRESET_NAMES = sorted(PRESETS)
MAX_STACK_IN_BIG_BLINDS = 60
TIME_OUT = "time_out"  # the clock's action, offered whenever someone is to act

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def hand_setups(draw: st.DrawFn) -> HandSetup:
    n = draw(st.integers(2, 10))
    big_blind = draw(st.integers(1, 200))
    small_blind = draw(st.integers(0, big_blind))
    ante = draw(st.one_of(st.just(0), st.integers(1, big_blind)))
    big_blind_ante = ante > 0 and draw(st.booleans())
    stacks = draw(
        st.lists(
            st.integers(1, big_blind * MAX_STACK_IN_BIG_BLINDS),
            min_size=n,
            max_size=n,
        )
    )
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=n, max_size=n)))
    button = draw(st.integers(1, 10))  # may be an empty seat: a dead button
    order = sorted(seats, key=lambda s: (s <= button, s))
    if n == 2 and button in seats:  # heads-up: the button posts the small blind
        small_blind_seat: int | None = button
        big_blind_seat = order[0]
    else:
        small_blind_seat, big_blind_seat = order[0], order[1]
        if n > 2 and draw(st.integers(0, 9)) == 0:
            small_blind_seat = None  # a dead small blind
    return HandSetup(
        seats=tuple(seats),
        stacks=tuple(stacks),
        button_seat=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        big_blind_ante=big_blind_ante,
    )


def start(data: st.DataObject, preset_name: str) -> tuple[Hand, HandSetup]:
    setup = data.draw(hand_setups(), label="setup")
    deck = data.draw(st.permutations(range(52)), label="deck")
    return Hand.start(PRESETS[preset_name], setup, deck), setup


def action_bound(setup: HandSetup) -> int:
    """No hand can take more actions than this. A round's bet goes up only by a full
    raise (at least a big blind) or by an all-in (once per player in a hand); between
    two increases each player acts at most once; there are four rounds."""
    n = len(setup.seats)
    increases = max(setup.stacks) // setup.big_blind + n + 2
    return 4 * (n + 1) * increases


def choose_offered(data: st.DataObject, legal: LegalActions) -> Action | str:
    choice = data.draw(st.sampled_from([*legal.kinds(), TIME_OUT]), label="kind")
    if choice == TIME_OUT:
        return TIME_OUT
    kind = ActionKind(choice)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        to = data.draw(
            st.one_of(
                st.just(legal.min_to),
                st.just(legal.max_to),
                st.integers(legal.min_to, legal.max_to),
            ),
            label="to",
        )
        return Action(kind, to)
    return Action(kind)


def apply(hand: Hand, choice: Action | str) -> None:
    if choice == TIME_OUT:
        hand.time_out()
    else:
        assert isinstance(choice, Action)
        hand.act(choice)


def last_player_action(hand: Hand) -> PlayerActed:
    for event in reversed(hand.events):
        if isinstance(event, PlayerActed):
            return event
    raise AssertionError("no PlayerActed event")


def check_effect(hand: Hand, legal: LegalActions, choice: Action | str) -> None:
    """The action just applied did what was asked, as the event log tells it."""
    event = last_player_action(hand)
    assert event.seat == legal.seat
    if choice == TIME_OUT:
        assert event.timed_out
        assert event.action == ("check" if legal.can_check else "fold")
        return
    assert isinstance(choice, Action)
    kind = choice.kind
    if kind is ActionKind.ALL_IN:
        assert event.all_in and event.amount == legal.stack
    elif kind is ActionKind.FOLD:
        assert event.action == "fold" and event.amount == 0
    elif kind is ActionKind.CHECK:
        assert event.action == "check" and event.amount == 0
    elif kind is ActionKind.CALL:
        assert event.action == "call" and event.amount == legal.call_amount
        assert event.all_in == (legal.call_amount == legal.stack)
    else:
        assert choice.amount is not None
        assert event.action == str(kind)
        assert event.bet == choice.amount
        assert event.amount == choice.amount - legal.bet
        assert event.all_in == (choice.amount == legal.all_in_to)


def refused_actions(
    data: st.DataObject, legal: LegalActions, setup: HandSetup
) -> list[tuple[Action, int | None, type[IllegalAction]]]:
    """Actions the player to act may not take now, with the seat they come from and
    the refusal each must meet."""
    offered = legal.kinds()
    out: list[tuple[Action, int | None, type[IllegalAction]]] = []
    for kind in ActionKind:
        if kind not in offered:
            sizing = kind in (ActionKind.BET, ActionKind.RAISE)
            out.append((Action(kind, legal.all_in_to if sizing else None), None, ActionNotAllowed))
    if legal.can_bet or legal.can_raise:
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        below = data.draw(st.integers(-10, legal.min_to - 1), label="below")
        above = data.draw(st.integers(legal.max_to + 1, legal.max_to + 10_000), label="above")
        for to in {legal.min_to - 1, below, legal.max_to + 1, above}:
            out.append((Action(kind, to), None, AmountOutOfRange))
        out.append((Action(kind, None), None, AmountOutOfRange))
    some_offered = Action(offered[0])
    if some_offered.kind in (ActionKind.BET, ActionKind.RAISE):
        some_offered = Action(some_offered.kind, legal.min_to)
    for seat in (*setup.seats, 11, 0):
        if seat != legal.seat:
            out.append((some_offered, seat, NotYourTurn))
    return out


def check_refusals(data: st.DataObject, hand: Hand, setup: HandSetup) -> None:
    legal = hand.legal_actions()
    before = hand.to_dict()
    for action, seat, refusal in refused_actions(data, legal, setup):
        with pytest.raises(refusal) as caught:
            hand.act(action, seat)
        assert str(caught.value).strip(), "a refusal needs a sentence"
        assert hand.to_dict() == before, f"{action} from seat {seat} changed the hand"
    assert hand.legal_actions() == legal


def check_over(hand: Hand, setup: HandSetup) -> None:
    """A finished hand refuses every action, the clock's too, and stays as it is."""
    assert hand.is_over
    before = hand.to_dict()
    with pytest.raises(HandIsOver):
        hand.legal_actions()
    with pytest.raises(HandIsOver):
        hand.time_out()
    for kind in ActionKind:
        amount = 1 if kind in (ActionKind.BET, ActionKind.RAISE) else None
        for seat in (None, setup.seats[0]):
            with pytest.raises(HandIsOver):
                hand.act(Action(kind, amount), seat)
    assert hand.to_dict() == before


def check_chips(hand: Hand, setup: HandSetup) -> None:
    start_by_seat = dict(zip(setup.seats, setup.stacks, strict=True))
    final_by_seat = hand.final_stacks_by_seat()
    assert sum(final_by_seat.values()) == sum(start_by_seat.values())
    assert all(stack >= 0 for stack in final_by_seat.values())
    # every chip is accounted for by the event log
    moved: Counter[int] = Counter()
    awarded = 0
    for event in hand.events:
        if isinstance(event, BlindPosted | PlayerActed):
            moved[event.seat] -= event.amount
        elif isinstance(event, BetReturned):
            moved[event.seat] += event.amount
        elif isinstance(event, PotAwarded):
            assert sum(event.shares) == event.amount, "a pot's shares must add up to it"
            assert len(event.shares) == len(event.winners) == len(set(event.winners)) >= 1
            assert all(share >= 0 for share in event.shares)
            awarded += event.amount
            for seat, share in zip(event.winners, event.shares, strict=True):
                moved[seat] += share
    assert awarded == hand.pot, "the pots must hold every chip put in"
    pots = sum(isinstance(e, PotAwarded) for e in hand.events)
    tally("side pots" if pots > 1 else "one pot")
    tally("showdown" if any(isinstance(e, HandShown) for e in hand.events) else "no showdown")
    for seat in setup.seats:
        assert final_by_seat[seat] == start_by_seat[seat] + moved[seat], f"seat {seat}"
    ended = hand.events[-1]
    assert isinstance(ended, HandEnded)
    assert sum(ended.stacks) == sum(setup.stacks)
    assert sorted(ended.stacks) == sorted(final_by_seat.values())


def play(
    data: st.DataObject,
    hand: Hand,
    setup: HandSetup,
    *,
    refusals: bool,
    after_step: Any = None,
) -> int:
    """Play the hand to its end with offered actions; return the number of actions."""
    bound = action_bound(setup)
    actions = 0
    while not hand.is_over:
        assert actions < bound, f"the hand did not end within {bound} actions"
        if refusals:
            check_refusals(data, hand, setup)
        legal = hand.legal_actions()
        choice = choose_offered(data, legal)
        apply(hand, choice)
        check_effect(hand, legal, choice)
        actions += 1
        if after_step is not None:
            after_step(choice)
    return actions


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@SETTINGS
@given(data=st.data())
def test_offered_actions_are_accepted_every_hand_ends_and_chips_are_conserved(
    preset_name: str, data: st.DataObject
) -> None:
    hand, setup = start(data, preset_name)
    play(data, hand, setup, refusals=False)
    check_chips(hand, setup)
    check_over(hand, setup)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@SETTINGS
@given(data=st.data())
def test_every_other_action_is_refused_and_leaves_the_hand_unchanged(
    preset_name: str, data: st.DataObject
) -> None:
    hand, setup = start(data, preset_name)
    play(data, hand, setup, refusals=True)
    check_chips(hand, setup)


def round_trip(hand: Hand) -> Hand:
    data = hand.to_dict()
    copy = Hand.from_dict(json.loads(json.dumps(data)))
    assert copy.to_dict() == data
    return copy


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@SETTINGS
@given(data=st.data())
def test_a_hand_saved_as_json_at_any_point_goes_on_identically(
    preset_name: str, data: st.DataObject
) -> None:
    hand, setup = start(data, preset_name)
    save_at = data.draw(st.integers(0, 40), label="save_at")
    for _ in range(save_at):
        if hand.is_over:
            break
        apply(hand, choose_offered(data, hand.legal_actions()))
    copy = round_trip(hand)

    def step(choice: Action | str) -> None:
        legal = copy.legal_actions()
        apply(copy, choice)
        check_effect(copy, legal, choice)
        assert copy.to_dict() == hand.to_dict()
        if not hand.is_over:
            assert copy.legal_actions() == hand.legal_actions()

    if not hand.is_over:
        assert copy.legal_actions() == hand.legal_actions()
    play(data, hand, setup, refusals=False, after_step=step)
    assert copy.is_over
    assert copy.to_dict() == hand.to_dict()
    assert copy.events == hand.events
    check_chips(copy, setup)
