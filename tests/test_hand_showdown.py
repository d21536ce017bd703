"""Side pots, uncalled bets, dealing out the board, showdowns and odd chips."""

from __future__ import annotations

import json

from cardroom.actions import Action
from cardroom.cards import parse_cards
from cardroom.events import (
    BetReturned,
    BoardDealt,
    CardBurned,
    HandMucked,
    HandShown,
    HoleCardDealt,
    PotAwarded,
)
from cardroom.hand import Hand, Street
from cardroom.pots import Pot, side_pots, split
from tests.handkit import act, deal


def awards(hand: Hand) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    return [
        (e.pot, e.amount, e.winners, e.shares) for e in hand.events if isinstance(e, PotAwarded)
    ]


def shown(hand: Hand) -> list[int]:
    return [e.seat for e in hand.events if isinstance(e, HandShown)]


def test_side_pots_arena_example() -> None:
    # Alice all in for 20, Bob calls, Charlie raises to 50, Bob calls: "The pot
    # contains 120, but this is split into two side pots": 60 for all, 60 for Bob
    # and Charlie.
    assert side_pots([20, 50, 50], [False, False, False]) == [
        Pot(60, (0, 1, 2)),
        Pot(60, (1, 2)),
    ]


def test_side_pots_many_all_ins_and_folded_money() -> None:
    contributed = [100, 300, 300, 700, 700, 50]
    folded = [False, False, True, False, False, True]
    pots = side_pots(contributed, folded)
    assert pots == [
        Pot(100 * 5 + 50, (0, 1, 3, 4)),
        Pot(200 * 4, (1, 3, 4)),
        Pot(400 * 2, (3, 4)),
    ]
    assert sum(p.amount for p in pots) == sum(contributed)


def test_split_gives_odd_chips_from_the_buttons_left() -> None:
    assert split(101, [3, 1]) == [51, 50]  # index 1 is nearer the button's left
    assert split(5, [0, 1, 2]) == [2, 2, 1]


def test_arena_side_pot_example_alice_wins_only_the_main_pot() -> None:
    # seats: 1 Bob (SB), 2 Charlie (BB), 3 Alice (button) with 20 points
    hand = deal(
        [100, 100, 20],
        (1, 2),
        rules="arena",
        hole=["7c3d", "8h3s", "AsAh"],
        board="AdKc9s4h2c",
    )
    act(hand, "a", "c", "r50", "c")  # Alice all in 20, Bob calls, Charlie to 50, Bob calls
    act(hand, "x", "x", "x", "x", "x", "x")  # flop, turn, river checked down
    assert hand.is_over
    pots = awards(hand)
    assert pots[0] == (0, 60, (3,), (60,))  # "If Alice wins, she wins 60 points"
    assert pots[1][1] == 60 and pots[1][2] == (2,)  # Charlie's eight-high beats Bob
    assert hand.stacks == [50, 110, 60]


def test_uncalled_bet_goes_back() -> None:
    hand = deal([1000] * 3, hole=["AsAh", "KsKh", "2c7d"], board="QdJc9s4h3c")
    act(hand, "f", "r400", "f")  # the small blind raises, the big blind folds
    returned = [e for e in hand.events if isinstance(e, BetReturned)]
    assert returned == [BetReturned(1, 300)]
    assert hand.stacks == [1100, 900, 1000]
    assert shown(hand) == []  # won without showing


def test_board_is_dealt_out_when_nobody_can_bet_and_everyone_reveals() -> None:
    hand = deal(
        [500, 1000, 1000],
        rules="standard",
        hole=["AsAh", "KsKh", "QsQh"],
        board="2c3d8h9cTd",
    )
    act(hand, "f", "a", "c")  # the button folds, seat 1 all in, seat 2 calls
    assert hand.is_over
    burns = [e for e in hand.events if isinstance(e, CardBurned)]
    boards = [e for e in hand.events if isinstance(e, BoardDealt)]
    assert len(burns) == 3 and [b.street for b in boards] == ["flop", "turn", "river"]
    assert hand.board == parse_cards("2c3d8h9cTd")
    assert sorted(shown(hand)) == [1, 2]  # everyone left reveals after an all-in


def test_deal_order_one_card_at_a_time_from_buttons_left_with_burns() -> None:
    hand = deal([1000] * 3, hole=["AsAh", "KsKh", "QsQh"], board="2c3d8h9cTd")
    dealt = [(e.seat, e.card) for e in hand.events if isinstance(e, HoleCardDealt)]
    a, k, q = parse_cards("AsAh"), parse_cards("KsKh"), parse_cards("QsQh")
    assert dealt == [(1, a[0]), (2, k[0]), (3, q[0]), (1, a[1]), (2, k[1]), (3, q[1])]
    assert hand.deck[6] not in hand.board  # the first burn


def test_simultaneous_showdown_reveals_everyone_left() -> None:
    hand = deal([1000] * 3, rules="house", hole=["AsAh", "KsKh", "7c2d"], board="QdJc9s4h3c")
    act(hand, "c", "c", "x")
    for _ in range(3):
        act(hand, "x", "x", "x")
    assert sorted(shown(hand)) == [1, 2, 3]
    assert awards(hand) == [(0, 300, (1,), (300,))]


def test_ordered_showdown_river_bettor_first_losers_muck() -> None:
    # Seat 2 bets the river and is called: seat 2 shows first; seat 3 (worse) mucks;
    # seat 1 (better) shows.
    hand = deal([1000] * 3, rules="standard", hole=["AsAh", "KsKh", "7c2d"], board="QdJc9s4h3c")
    act(hand, "c", "c", "x")
    act(hand, "x", "x", "x", "x", "x", "x")
    act(hand, "x", "b100", "c", "c")  # river: seat 2 bets, 3 and 1 call
    events = [e for e in hand.events if isinstance(e, HandShown | HandMucked)]
    assert [(type(e).__name__, e.seat) for e in events] == [
        ("HandShown", 2),
        ("HandMucked", 3),
        ("HandShown", 1),
    ]
    assert awards(hand)[0][2] == (1,)


def test_ordered_showdown_without_river_bet_starts_left_of_button() -> None:
    hand = deal([1000] * 3, rules="legacy", hole=["7c2d", "KsKh", "AsAh"], board="QdJc9s4h3c")
    act(hand, "c", "c", "x")
    for _ in range(3):
        act(hand, "x", "x", "x")
    events = [e for e in hand.events if isinstance(e, HandShown | HandMucked)]
    # seat 1 shows first; seat 2 beats it and shows; seat 3 beats both and shows
    assert [(type(e).__name__, e.seat) for e in events] == [
        ("HandShown", 1),
        ("HandShown", 2),
        ("HandShown", 3),
    ]
    hand2 = deal([1000] * 3, rules="legacy", hole=["AsAh", "KsKh", "7c2d"], board="QdJc9s4h3c")
    act(hand2, "c", "c", "x")
    for _ in range(3):
        act(hand2, "x", "x", "x")
    assert shown(hand2) == [1]  # the others cannot win anything and muck unseen


def test_ordered_showdown_shows_a_hand_that_wins_a_side_pot() -> None:
    # seat 1 all in short with the best hand; seats 2 and 3 contest a side pot.
    hand = deal(
        [300, 1000, 1000], rules="standard", hole=["AsAh", "7c2d", "KsKh"], board="QdJc9s4h3c"
    )
    act(hand, "c", "a", "c", "c")  # seat 3 calls, seat 1 all in 300, seats 2 and 3 call
    act(hand, "x", "x", "x", "x", "b100", "c")  # flop, turn checked; river seat 2 bets
    # show order: seat 2 (river bettor), then 3, then 1
    events = [
        (type(e).__name__, e.seat) for e in hand.events if isinstance(e, HandShown | HandMucked)
    ]
    assert events == [("HandShown", 2), ("HandShown", 3), ("HandShown", 1)]
    assert [a[2] for a in awards(hand)] == [(1,), (3,)]


def test_tie_splits_with_odd_chip_from_buttons_left() -> None:
    # the board plays; antes of 1 make the pot odd
    hand = deal([1000] * 3, (50, 100), ante=1, hole=["2c3d", "4h5s", "2d3c"], board="AsKsQsJsTs")
    act(hand, "c", "c", "x")
    for _ in range(3):
        act(hand, "x", "x", "x")
    # pot 303: three-way split, all play the royal flush on the board
    assert awards(hand) == [(0, 303, (1, 2, 3), (101, 101, 101))]
    hand = deal([1000] * 3, (50, 100), ante=1, hole=["2c3d", "4h5s", "2d3c"], board="AsKsQsJsTs")
    act(hand, "f", "c", "x")  # the button folds
    for _ in range(3):
        act(hand, "x", "x")
    # pot 203 between seats 1 and 2: the odd chip to seat 1 (nearest the button's left)
    assert awards(hand) == [(0, 203, (1, 2), (102, 101))]


def test_folded_cards_are_never_shown() -> None:
    hand = deal([1000] * 3, hole=["AsAh", "KsKh", "QsQh"], board="2c3d8h9cTd")
    act(hand, "f", "c", "x", "b100", "f")
    assert shown(hand) == []
    assert hand.is_over


def test_serialises_to_json_mid_hand_and_continues_identically() -> None:
    def play_rest(h: Hand) -> None:
        while not h.is_over:
            legal = h.legal_actions()
            h.act(Action.check() if legal.can_check else Action.call())

    hand = deal([1000, 2000, 300], hole=["AsAh", "KsKh", "QsQh"], board="2c3d8h9cTd")
    act(hand, "a", "c", "c", "b200")
    data = json.loads(json.dumps(hand.to_dict()))
    copy = Hand.from_dict(data)
    assert copy.to_dict() == hand.to_dict()
    play_rest(hand)
    play_rest(copy)
    assert copy.stacks == hand.stacks and copy.events == hand.events
    assert copy.street == Street.COMPLETE
