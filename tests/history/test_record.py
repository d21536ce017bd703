"""Hand records: every simulated hand replays from its record event for event.

``random_hand`` and ``random_record`` (seeded random play over every preset, 2 to 10
players, random seats, buttons, blinds, antes and stacks, the clock and the admin
now and then) are also used by the export, privacy and fairness tests.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from cardroom.actions import Action
from cardroom.events import PlayerActed, PotAwarded
from cardroom.hand import Hand, HandSetup
from cardroom.history.record import (
    HandRecord,
    RecordedAction,
    RecordError,
    record_of,
    replay,
)
from cardroom.rules import PRESETS, preset

START = datetime(2026, 11, 30, 17, 0, 0, tzinfo=UTC)
NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")


def random_setup(rng: random.Random, players: int | None = None) -> tuple[HandSetup, int]:
    """A setup at a table of 2 to 10 seats, and the table's size."""
    seat_count = rng.randint(2, 10) if players is None else rng.randint(players, 10)
    n = rng.randint(2, seat_count) if players is None else players
    seats = sorted(rng.sample(range(1, seat_count + 1), n))
    big_blind = rng.choice([2, 10, 20, 50, 100])
    small_blind = rng.choice([big_blind // 2, big_blind // 2, big_blind, 1])
    ante = rng.choice([0, 0, 0, big_blind // 10 or 1])
    big_blind_ante = bool(ante) and rng.random() < 0.4
    # now and then an empty seat holds the button (a dead button)
    button = rng.choice(seats) if rng.random() < 0.8 else rng.randint(1, seat_count)
    order = sorted(seats, key=lambda s: (s <= button, s))
    if n == 2 and button in seats:
        small, big = button, order[0]
    else:
        small, big = order[0], order[1]
    small_seat: int | None = small
    if n > 2 and rng.random() < 0.1:
        small_seat = None  # a dead small blind
    stacks = tuple(
        rng.choice(
            [
                rng.randint(1, big_blind),  # short: all in on the blinds
                rng.randint(big_blind, 20 * big_blind),
                rng.randint(20 * big_blind, 150 * big_blind),
            ]
        )
        for _ in seats
    )
    setup = HandSetup(
        seats=tuple(seats),
        stacks=stacks,
        button_seat=button,
        small_blind_seat=small_seat,
        big_blind_seat=big,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        big_blind_ante=big_blind_ante,
    )
    return setup, seat_count


def play_randomly(hand: Hand, rng: random.Random, admin: bool = True) -> None:
    """Random legal play to the end: folds, checks, calls, bets and raises of random
    sizes, all-ins, the clock, and (if ``admin``) an admin folding someone out of turn."""
    while not hand.is_over:
        roll = rng.random()
        if roll < 0.03:
            hand.time_out()
            continue
        if roll < 0.05 and admin:
            live = [
                s for i, s in enumerate(hand.seats) if not hand.folded[i] and s != hand.seat_to_act
            ]
            if live:
                hand.fold_out_of_turn(rng.choice(live))
                continue
        legal = hand.legal_actions()
        kinds = legal.kinds()
        kind = rng.choice(kinds)
        if kind == "fold" and rng.random() < 0.5:
            kind = rng.choice(kinds)  # fold a little less often: more showdowns
        if kind in ("bet", "raise"):
            if rng.random() < 0.2:
                hand.act(Action.all_in())
                continue
            low, high = legal.min_to, legal.max_to
            to = rng.choice([low, low, rng.randint(low, high), high])
            hand.act(Action.bet(to) if kind == "bet" else Action.raise_to(to))
        else:
            hand.act(Action(kind))


def names_for(seats: tuple[int, ...]) -> dict[int, str]:
    return {seat: NAMES[seat - 1] for seat in seats}


def random_hand(seed: int, rules_name: str | None = None, players: int | None = None) -> Hand:
    rng = random.Random(seed)
    rules = preset(rules_name or rng.choice(sorted(PRESETS)))
    setup, _ = random_setup(rng, players)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand.start(rules, setup, deck)
    play_randomly(hand, rng)
    return hand


def random_record(
    seed: int, rules_name: str | None = None, players: int | None = None, admin: bool = True
) -> tuple[Hand, HandRecord]:
    rng = random.Random(seed)
    rules = preset(rules_name or rng.choice(sorted(PRESETS)))
    setup, seat_count = random_setup(rng, players)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand.start(rules, setup, deck)
    play_randomly(hand, rng, admin)
    actions = sum(1 for e in hand.events if isinstance(e, PlayerActed))
    times, now = [], START
    for _ in range(actions):
        now += timedelta(seconds=rng.randint(1, 90), microseconds=rng.randint(0, 999_999))
        times.append(now)
    names = names_for(setup.seats)
    record = record_of(
        hand,
        names,
        times,
        table="Oak",
        hand_number=1000 + seed,
        started_at=START,
        seat_count=seat_count,
    )
    return hand, record


# ---------------------------------------------------------------------- replay


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_every_simulated_hand_replays_from_its_record_event_for_event(rules_name: str) -> None:
    shapes: Counter[str] = Counter()
    for seed in range(150):
        hand, record = random_record(seed, rules_name)
        again = replay(record)
        assert again.events == hand.events, seed
        assert again.stacks == hand.stacks and again.seats == hand.seats
        assert again.contributed == hand.contributed and again.board == hand.board
        # and the same through JSON, as the server stores it
        stored = HandRecord.from_dict(json.loads(json.dumps(record.to_dict())))
        assert stored == record
        assert replay(stored).events == hand.events
        pots = sum(1 for e in hand.events if isinstance(e, PotAwarded))
        shapes["side pots" if pots > 1 else "one pot"] += 1
        shapes[f"{len(hand.seats)} players"] += 1
        acted = [e for e in hand.events if isinstance(e, PlayerActed)]
        shapes["timed out"] += any(e.timed_out for e in acted)
    # the sample covers what it claims to
    assert shapes["side pots"] >= 50 and shapes["timed out"] >= 5
    assert all(shapes[f"{n} players"] for n in range(2, 11))


def test_records_hold_seats_names_deck_and_timed_actions() -> None:
    hand, record = random_record(3)
    data = record.to_dict()
    assert data["version"] == 1 and data["table"] == "Oak" and data["hand_number"] == 1003
    assert data["started_at"] == "2026-11-30T17:00:00+00:00"
    assert data["rules"] == hand.rules.to_dict()
    assert data["setup"]["seats"] == list(hand.setup.seats)
    assert sorted(int(s) for s in data["names"]) == sorted(hand.setup.seats)
    assert len(data["deck"]) == 52 and data["deck"][0] == _text(hand.deck[0])
    acted = [e for e in hand.events if isinstance(e, PlayerActed)]
    assert [(a["seat"], a["kind"]) for a in data["actions"]] == [(e.seat, e.action) for e in acted]
    times = [datetime.fromisoformat(a["at"]) for a in data["actions"]]
    assert times == sorted(times) and all(t > START for t in times)
    assert "deck_salts" not in data and "deck_root" not in data


def test_bets_and_raises_are_recorded_as_the_total_they_make() -> None:
    hand = Hand.start(preset("standard"), HandSetup.simple([1000, 1000, 1000], 5, 10), range(52))
    hand.act(Action.raise_to(30))
    hand.act(Action.call())
    hand.act(Action.fold())
    hand.act(Action.bet(50))
    hand.act(Action.all_in())
    hand.act(Action.call())
    times = [START + timedelta(seconds=k) for k in range(6)]
    record = record_of(
        hand, names_for((1, 2, 3)), times, table="T", hand_number=1, started_at=START
    )
    assert [(a.kind, a.amount) for a in record.actions] == [
        ("raise", 30), ("call", 30), ("fold", 0), ("bet", 50), ("raise", 970), ("call", 970),
    ]  # fmt: skip
    assert replay(record).events == hand.events


def test_an_admins_fold_out_of_turn_and_the_clock_replay_as_such() -> None:
    hand = Hand.start(preset("legacy"), HandSetup.simple([500, 500, 500, 500], 5, 10), range(52))
    hand.fold_out_of_turn(1)  # seat 3 is to act
    hand.time_out()  # seat 3 cannot check: folds
    hand.act(Action.call())
    hand.act(Action.check())
    times = [START + timedelta(seconds=k) for k in range(4)]
    record = record_of(
        hand, names_for((1, 2, 3, 4)), times, table="T", hand_number=2, started_at=START
    )
    assert [(a.seat, a.kind, a.timed_out) for a in record.actions][:2] == [
        (1, "fold", False),
        (3, "fold", True),
    ]
    assert replay(record).events == hand.events


# ---------------------------------------------------------------------- refusals


def test_a_record_that_does_not_replay_says_which_action() -> None:
    _, record = random_record(5, "house", players=4)
    first = record.actions[0]
    bad = dataclasses.replace(first, kind="raise", amount=10**9)
    broken = dataclasses.replace(record, actions=(bad, *record.actions[1:]))
    with pytest.raises(RecordError, match="Action 1 "):
        replay(broken)
    wrong_seat = dataclasses.replace(first, seat=99)
    with pytest.raises(RecordError, match="Action 1 "):
        replay(dataclasses.replace(record, actions=(wrong_seat, *record.actions[1:])))
    unknown = dataclasses.replace(first, kind="dance")
    with pytest.raises(RecordError, match="not a recorded action"):
        replay(dataclasses.replace(record, actions=(unknown, *record.actions[1:])))


def test_a_call_that_does_not_make_the_recorded_total_is_refused() -> None:
    hand = Hand.start(preset("standard"), HandSetup.simple([1000, 1000, 1000], 5, 10), range(52))
    hand.act(Action.call())
    hand.act(Action.fold())
    hand.act(Action.check())
    record = record_of(
        hand, names_for((1, 2, 3)), [START] * 3, table="T", hand_number=3, started_at=START
    )
    bad = dataclasses.replace(record.actions[0], amount=25)
    with pytest.raises(RecordError, match="makes their bet 10, not 25"):
        replay(dataclasses.replace(record, actions=(bad, *record.actions[1:])))


def test_record_of_checks_names_times_and_time_zones() -> None:
    hand = random_hand(7, "house", players=3)
    acted = sum(1 for e in hand.events if isinstance(e, PlayerActed))
    names = {seat: "x" for seat in hand.setup.seats}
    kw = {"table": "T", "hand_number": 1, "started_at": START}
    with pytest.raises(RecordError, match="one time per action"):
        record_of(hand, names, [START] * (acted + 1), **kw)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="has no player name"):
        record_of(hand, {}, [START] * acted, **kw)  # type: ignore[arg-type]
    naive = datetime(2026, 1, 1)
    with pytest.raises(RecordError, match="time zone"):
        record_of(hand, names, [naive] * acted, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("deck"), "no 'deck' field"),
        (lambda d: d.update(version=99), "version 1"),
        (lambda d: d.update(deck=["Xx"] * 52), "not valid"),
        (lambda d: d["setup"].update(big_blind=0), "not valid"),
        (lambda d: d["rules"].update(colour="red"), "not valid"),
        (lambda d: d.update(started_at="yesterday"), "not valid"),
        (lambda d: d.update(started_at="2026-01-01T00:00:00"), "time zone"),
    ],
)
def test_bad_stored_records_get_a_sentence(change: object, message: str) -> None:
    _, record = random_record(11)
    data = record.to_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(RecordError, match=message):
        HandRecord.from_dict(data)


def test_recorded_action_round_trip_keeps_the_clock_flag() -> None:
    action = RecordedAction(4, "fold", 0, START, timed_out=True)
    assert RecordedAction.from_dict(action.to_dict()) == action
    assert "timed_out" not in RecordedAction(4, "check", 0, START).to_dict()


def _text(card: int) -> str:
    from cardroom.cards import card_text

    return card_text(card)
