"""The shortcuts of ``cardroom.views`` on every change's path: the pots of a hand's
view taken from a cache, and a payload in its record's order copied whole. Each
gives what the long way gives, and nothing it hands out is shared."""

from __future__ import annotations

import random

import pytest

from cardroom.cards import card_text
from cardroom.hand import Hand
from cardroom.pots import side_pots
from cardroom.rules import PRESETS
from cardroom.views import hand_view, payload_view
from tests.test_views import random_action, random_hand


def _pots_the_long_way(hand: Hand) -> list[dict[str, object]]:
    """The pots as ``hand_view`` made them before the cache."""
    collected = [c - b for c, b in zip(hand.contributed, hand.bets, strict=True)]
    if not any(collected):
        return []
    live = [c - d for c, d in zip(collected, hand.dead, strict=True)]
    pots = side_pots(live, hand.folded, sum(hand.dead))
    seats = hand.seats
    return [{"amount": p.amount, "eligible": [seats[i] for i in p.eligible]} for p in pots]


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_cached_pots_are_the_side_pots_and_each_views_own(rules_name: str) -> None:
    rng = random.Random(f"pots {rules_name}")
    compared = 0
    for _ in range(40):
        hand = random_hand(rng, rules_name)
        while True:
            first = hand_view(hand, None)
            assert first["pots"] == _pots_the_long_way(hand)
            for pot in first["pots"]:  # a view's pots are its own: the next is not changed
                pot["eligible"].append(99)
                pot["amount"] = -1
            assert hand_view(hand, None)["pots"] == _pots_the_long_way(hand)
            compared += 1
            if hand.is_over:
                break
            hand.act(random_action(rng, hand))
    assert compared > 200


def test_a_payload_in_its_records_order_is_copied_not_shared() -> None:
    shown = {"seat": 2, "cards": [0, 5], "rank": 1, "name": "High card"}
    won = {"pot": 0, "amount": 10, "winners": [1], "shares": (10,), "hand_name": ""}
    view = payload_view("PotAwarded", won, None)
    assert view == {"pot": 0, "amount": 10, "winners": [1], "shares": [10], "hand_name": ""}
    assert view["winners"] is not won["winners"]
    view["winners"].append(3)
    assert won["winners"] == [1]
    cards = payload_view("HandShown", shown, None)["cards"]
    assert cards == [card_text(0), card_text(5)]
    assert shown["cards"] == [0, 5]
