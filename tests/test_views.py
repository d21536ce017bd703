"""Per-viewer views: nobody sees a hole card its owner has not shown, and nobody but
an admin sees a burnt card."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardroom.actions import Action
from cardroom.cards import card_text
from cardroom.events import event_from_dict, event_to_dict
from cardroom.hand import Hand, HandSetup
from cardroom.rules import PRESETS, preset
from cardroom.views import event_view, hand_view, payload_view, seat_hand_view
from tests.handkit import act, deal


def random_hand(rng: random.Random, rules_name: str) -> Hand:
    n = rng.randint(2, 9)
    stacks = [rng.randint(1, 3000) for _ in range(n)]
    deck = list(range(52))
    rng.shuffle(deck)
    return Hand.start(preset(rules_name), HandSetup.simple(stacks, 5, 10), deck)


def random_action(rng: random.Random, hand: Hand) -> Action:
    legal = hand.legal_actions()
    choices = []
    if legal.can_fold:
        choices.append(Action.fold())
    choices.append(Action.check() if legal.can_check else Action.call())
    if legal.can_raise or legal.can_bet:
        to = rng.randint(legal.min_to, legal.max_to)
        choices.append(Action.raise_to(to) if legal.can_raise else Action.bet(to))
    return rng.choice(choices)


def secrets_for(hand: Hand, viewer: int | None, shown: set[int]) -> set[str]:
    hidden = set()
    for seat, cards in zip(hand.seats, hand.hole, strict=True):
        if seat != viewer and seat not in shown:
            hidden.update(card_text(c) for c in cards)
    return hidden


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_no_viewer_sees_an_unshown_hole_card_or_a_burn(rules_name: str) -> None:
    rng = random.Random(rules_name)
    scanned = 0
    for _ in range(60):
        hand = random_hand(rng, rules_name)
        sent: dict[int | None, list[str]] = {None: [], **{s: [] for s in hand.seats}}
        while True:
            for viewer in sent:
                sent[viewer].append(json.dumps(hand_view(hand, viewer)))
            if hand.is_over:
                break
            hand.act(random_action(rng, hand))
        shown = {
            e["seat"]
            for e in (event_view(x, None) for x in hand.events)
            if e["type"] == "HandShown"
        }
        burns = {card_text(c) for c in [hand.deck[2 * len(hand.seats) + k] for k in (0, 4, 6)]}
        for viewer, payloads in sent.items():
            payloads += [json.dumps(event_view(e, viewer)) for e in hand.events]
            text = "\n".join(payloads)
            for card in secrets_for(hand, viewer, shown) | burns:
                assert f'"{card}"' not in text, (viewer, card)
            scanned += len(payloads)
    assert scanned > 1000


def test_own_cards_and_shown_cards_are_visible() -> None:
    hand = deal([1000] * 3, rules="standard", hole=["AsAh", "KsKh", "7c2d"], board="QdJc9s4h3c")
    view = hand_view(hand, 3)
    assert [p["cards"] for p in view["players"]] == [None, None, ["7c", "2d"]]
    assert view["legal"] is not None and view["to_act"] == 3
    assert hand_view(hand, 1)["legal"] is None  # not their turn
    act(hand, "f", "c", "x", "x", "x", "x", "x", "x", "x")  # seat 2 mucks to seat 1
    final = hand_view(hand, None)
    assert [p["cards"] for p in final["players"]] == [["As", "Ah"], None, None]
    assert hand_view(hand, None, full=True)["players"][1]["cards"] == ["Ks", "Kh"]


def test_pots_show_the_side_pots_collected_so_far() -> None:
    hand = deal(
        [300, 1000, 1000], rules="standard", hole=["AsAh", "7c2d", "KsKh"], board="QdJc9s4h3c"
    )
    act(hand, "c", "a", "c", "c")  # the short stack is all in; the flop is dealt
    view = hand_view(hand, None)
    assert view["pots"] == [{"amount": 900, "eligible": [1, 2, 3]}]
    act(hand, "b100", "c")
    view = hand_view(hand, None)
    assert view["pot"] == 1100 and [p["bet"] for p in view["players"]] == [0, 0, 0]
    assert view["pots"] == [
        {"amount": 900, "eligible": [1, 2, 3]},
        {"amount": 200, "eligible": [2, 3]},
    ]


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_a_seat_sees_what_nobody_sees_and_its_own(rules_name: str) -> None:
    """``seat_hand_view`` from nobody's view is the seat's own ``hand_view``, at every
    moment of random hands, for every seat (and for nobody, and a seat not dealt in),
    and leaves nobody's view as it was."""
    rng = random.Random(f"seat {rules_name}")
    compared = 0
    for _ in range(40):
        hand = random_hand(rng, rules_name)
        while True:
            seen = hand_view(hand, None, equity=True)
            before = json.dumps(seen)
            for viewer in (None, *hand.seats, max(hand.seats) + 1):
                mine = seat_hand_view(seen, hand, viewer)
                assert mine == hand_view(hand, viewer, equity=True), (viewer, hand.events)
                compared += 1
            assert json.dumps(seen) == before
            if hand.is_over:
                break
            hand.act(random_action(rng, hand))
    assert compared > 1000


def _the_long_way(kind: str, payload: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """What ``payload_view`` replaces: the record rebuilt, then viewed."""
    data = event_view(event_from_dict({"type": kind, **payload}), viewer)
    data.pop("type")
    return data


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_a_payload_is_viewed_as_its_record_is(rules_name: str) -> None:
    """``payload_view`` of every stored record of random hands, from every seat and
    none, is ``event_view`` of the record rebuilt from it: the same dict, in the
    same order (the JSON written of it), its key order in the payload no matter
    (PostgreSQL's JSONB keeps none), a field left out at its default."""
    rng = random.Random(f"payload {rules_name}")
    compared = 0
    for _ in range(30):
        hand = random_hand(rng, rules_name)
        while not hand.is_over:
            hand.act(random_action(rng, hand))
        for event in hand.events:
            stored = event_to_dict(event)
            kind = stored.pop("type")
            shuffled = dict(sorted(stored.items(), key=lambda _: rng.random()))
            for viewer in (None, *hand.seats):
                for payload in (stored, shuffled):
                    mine = payload_view(kind, payload, viewer)
                    theirs = _the_long_way(kind, payload, viewer)
                    assert list(mine.items()) == list(theirs.items()), (kind, viewer)
                    compared += 1
    assert compared > 1000
    acted = {"seat": 2, "action": "call", "amount": 5, "bet": 10, "all_in": False}
    assert payload_view("PlayerActed", acted, None) == _the_long_way("PlayerActed", acted, None)
    assert payload_view("PlayerActed", acted, None)["timed_out"] is False
    won = {"pot": 0, "amount": 10, "winners": (1,), "shares": [10], "hand_name": ""}
    assert payload_view("PotAwarded", won, 1) == {**won, "winners": [1], "shares": [10]}


@pytest.mark.parametrize(
    "payload",
    [
        {"seat": 1, "card": 5, "extra": 1},  # a key that is no field
        {"seat": 1},  # a field without a default left out
        {"seat": 1, "card": 5, "type": "CardBurned"},
    ],
)
def test_a_payload_that_is_not_its_records_fields_is_refused_as_before(
    payload: dict[str, Any],
) -> None:
    with pytest.raises(TypeError) as theirs:
        _the_long_way("HoleCardDealt", payload, 1)
    with pytest.raises(TypeError) as mine:
        payload_view("HoleCardDealt", payload, 1)
    assert str(mine.value) == str(theirs.value)
