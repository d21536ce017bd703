"""Properties of the public queries, on random hands of every preset (the hands of
``test_hand_properties``: 2 to 10 players, random seats, button, blinds, antes and
stacks, dead buttons and dead small blinds):

- ``Hand.pots()`` at every moment adds up to the chips committed minus the uncalled
  part of the top bet; its pots nest (each side pot's seats are among the pot
  before's), hold chips, and name only seats still in; once the hand is over they are
  the pots awarded, and every winner was eligible;
- ``refusal``/``accepts`` and ``action in allowed_actions()`` agree with ``act`` on
  every action offered and on refused ones (wrong kind, amounts out of range or not
  whole chips, the wrong seat), and asking changes nothing.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.engine import (
    Action,
    ActionKind,
    AllowedActions,
    Hand,
    HandSetup,
    IllegalAction,
    PotAwarded,
    TablePot,
)
from cardroom.rules import PRESETS
from tests.test_hand_properties import SETTINGS, action_bound, hand_setups

PRESET_NAMES = sorted(PRESETS)


def start(data: st.DataObject, preset_name: str) -> tuple[Hand, HandSetup]:
    setup = data.draw(hand_setups(), label="setup")
    deck = data.draw(st.permutations(range(52)), label="deck")
    return Hand.start(PRESETS[preset_name], setup, deck), setup


def uncalled(hand: Hand) -> int:
    """The part of this round's top bet that nobody has matched (bets of players who
    folded count as matched up to what they put in)."""
    bets = sorted(hand.player(seat).bet for seat in hand.seats)
    return bets[-1] - bets[-2]


def check_pots(hand: Hand, setup: HandSetup) -> list[TablePot]:
    pots = hand.pots()
    players = hand.players()
    committed = sum(setup.stacks) - sum(p.stack for p in players.values())
    if not hand.is_over:
        assert sum(p.amount for p in pots) == committed - uncalled(hand)
    assert all(p.amount > 0 for p in pots)
    for pot in pots:
        assert pot.eligible_seats, "a pot nobody can win"
        assert all(not players[seat].folded for seat in pot.eligible_seats)
    for earlier, later in itertools.pairwise(pots):
        assert set(later.eligible_seats) < set(earlier.eligible_seats)
    return pots


def offered(data: st.DataObject, allowed: AllowedActions) -> Action:
    kind = data.draw(st.sampled_from(allowed.kinds), label="kind")
    sizes = allowed.bet_to if kind is ActionKind.BET else allowed.raise_to
    if sizes is None:
        return Action(kind)
    to = data.draw(
        st.one_of(
            st.just(sizes.min_to), st.just(sizes.max_to), st.integers(sizes.min_to, sizes.max_to)
        ),
        label="to",
    )
    return Action(kind, to)


def candidates(
    data: st.DataObject, allowed: AllowedActions, setup: HandSetup
) -> list[tuple[Action, int | None]]:
    """Actions to ask about: every kind with amounts in, at and out of any range, some
    not whole chips, from the player to act, from nobody named, and from other seats."""
    amounts: list[object] = [None, 0, -1, 1]
    for sizes in (allowed.bet_to, allowed.raise_to):
        if sizes is not None:
            amounts += [sizes.min_to - 1, sizes.min_to, sizes.max_to, sizes.max_to + 1]
            amounts.append(data.draw(st.integers(sizes.min_to, sizes.max_to), label="inside"))
            amounts.append(float(sizes.min_to))
    if allowed.all_in_to is not None:
        amounts.append(allowed.all_in_to)
    out: list[tuple[Action, int | None]] = []
    for kind in ActionKind:
        for amount in amounts:
            action = Action(kind, amount)  # type: ignore[arg-type]
            out.append((action, None))
    other = data.draw(st.sampled_from([*setup.seats, 0, 11]), label="other seat")
    some = Action(allowed.kinds[0], allowed.all_in_to)
    out += [(some, allowed.seat), (some, other)]
    return out


def check_queries_agree_with_act(data: st.DataObject, hand: Hand, setup: HandSetup) -> None:
    allowed = hand.allowed_actions()
    before = hand.to_dict()
    for action, seat in candidates(data, allowed, setup):
        refusal = hand.refusal(action, seat)
        accepted = hand.accepts(action, seat)
        assert accepted == (refusal is None)
        if seat is None or seat == allowed.seat:
            assert (action in allowed) == accepted, action
        assert hand.to_dict() == before, "asking changed the hand"
        if refusal is not None:
            assert str(refusal).strip()
            with pytest.raises(IllegalAction) as caught:
                hand.act(action, seat)
            assert type(caught.value) is type(refusal)
            assert str(caught.value) == str(refusal)
            assert hand.to_dict() == before, "a refused action changed the hand"
    assert hand.allowed_actions() == allowed


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@SETTINGS
@given(data=st.data())
def test_pots_always_add_up_to_the_chips_committed_less_the_uncalled_bet(
    preset_name: str, data: st.DataObject
) -> None:
    hand, setup = start(data, preset_name)
    check_pots(hand, setup)
    for _ in range(action_bound(setup)):
        if hand.is_over:
            break
        hand.act(offered(data, hand.allowed_actions()))
        check_pots(hand, setup)
    assert hand.is_over
    pots = check_pots(hand, setup)
    # (a hand won by folds with nothing in the pot, the big blind's bet uncalled,
    # awards an empty pot; pots() gives no pot then)
    awarded = [e for e in hand.events if isinstance(e, PotAwarded) and e.amount]
    assert [p.amount for p in pots] == [e.amount for e in awarded]
    for pot, award in zip(pots, awarded, strict=True):
        assert set(award.winners) <= set(pot.eligible_seats)


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@SETTINGS
@given(data=st.data())
def test_would_it_be_accepted_agrees_with_act_on_offered_and_refused_actions(
    preset_name: str, data: st.DataObject
) -> None:
    hand, setup = start(data, preset_name)
    for _ in range(action_bound(setup)):
        if hand.is_over:
            break
        check_queries_agree_with_act(data, hand, setup)
        action = offered(data, hand.allowed_actions())
        assert hand.accepts(action)
        hand.act(action)  # every offered action is accepted
    assert hand.is_over
    assert not hand.accepts(Action.fold())
