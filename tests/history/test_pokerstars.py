"""PokerStars hand-history text: golden files and the conventions one by one.

The golden files under ``golden/`` were written once by this module and read line
by line against PokerStars' own files. To write them again after a deliberate
change of format, run ``CARDROOM_WRITE_GOLDEN=1 pytest tests/history/test_pokerstars.py``
and review the difference before committing it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from cardroom.actions import Action, ActionKind
from cardroom.cards import parse_cards
from cardroom.evaluator import evaluate
from cardroom.events import PlayerActed
from cardroom.hand import Hand, HandSetup, arrange_deck
from cardroom.history import pokerstars
from cardroom.history.record import HandRecord, record_of
from cardroom.rules import preset
from tests.history.test_record import random_record

GOLDEN = Path(__file__).parent / "golden"
WINTER = datetime(2026, 11, 30, 17, 0, 0, tzinfo=UTC)  # 12:00:00 ET (EST)
SUMMER = datetime(2026, 7, 4, 13, 5, 9, tzinfo=UTC)  # 9:05:09 ET (EDT)


def play(hand: Hand, moves: str) -> None:
    """Moves: f fold, x check, c call, a all-in, bN bet to N, rN raise to N, t clock."""
    for move in moves.split():
        code, amount = move[0], move[1:]
        if code == "t":
            hand.time_out()
        elif code in "fxca":
            hand.act(
                Action(ActionKind({"f": "fold", "x": "check", "c": "call", "a": "all_in"}[code]))
            )
        else:
            to = int(amount)
            hand.act(Action.bet(to) if code == "b" else Action.raise_to(to))


def build(
    rules: str,
    setup: HandSetup,
    hole: Mapping[int, str],
    board: str,
    moves: str,
    *,
    started_at: datetime,
    hand_number: int,
    seat_count: int,
    table: str = "Oak",
) -> tuple[Hand, HandRecord]:
    hand = Hand.start(preset(rules), setup, setup.rigged_deck(hole, board))
    play(hand, moves)
    assert hand.is_over
    acted = sum(1 for e in hand.events if isinstance(e, PlayerActed))
    times = [started_at + timedelta(seconds=15 * (k + 1)) for k in range(acted)]
    names = {seat: NAMES[seat] for seat in setup.seats}
    record = record_of(
        hand,
        names,
        times,
        table=table,
        hand_number=hand_number,
        started_at=started_at,
        seat_count=seat_count,
    )
    return hand, record


NAMES = {1: "ann", 2: "bob", 3: "cy", 4: "dee", 5: "eve", 6: "fay", 7: "gus", 8: "hal"}


def fold_preflop() -> tuple[Hand, HandRecord]:
    # 6-max, seat 3 empty; button 4, blinds 5 and 6; a raise takes the blinds
    setup = HandSetup((1, 2, 4, 5, 6), (1000, 1250, 800, 2000, 1000), 4, 5, 6, 5, 10)
    hole = {1: "2c7d", 2: "QhJh", 4: "9s9d", 5: "AsKd", 6: "5c5d"}
    return build(
        "house", setup, hole, "", "f r30 t f f", started_at=WINTER, hand_number=1001, seat_count=6
    )


def showdown() -> tuple[Hand, HandRecord]:
    # ordered showdown: the river bettor shows a pair of Kings, the caller mucks
    setup = HandSetup((1, 3, 5, 6), (1500, 1000, 1000, 2500), 6, 1, 3, 5, 10)
    hole = {1: "AhKh", 3: "QsQd", 5: "JcTc", 6: "8d8c"}
    moves = "c r40 c c f  x x b60 c f  x x  b150 c"
    return build(
        "standard",
        setup,
        hole,
        "Ks7h2c9d3s",
        moves,
        started_at=SUMMER,
        hand_number=1002,
        seat_count=6,
    )


def side_pots() -> tuple[Hand, HandRecord]:
    # an arena points table: antes, two all-ins, main pot and two side pots
    setup = HandSetup((2, 3, 7, 8), (300, 800, 1500, 1500), 8, 2, 3, 25, 50, ante=5)
    hole = {2: "AsAd", 3: "KsKd", 7: "QsQd", 8: "JsJd"}
    moves = "r150 c a a c c  x x  x x  b200 c"
    return build(
        "arena",
        setup,
        hole,
        "2c5h9dTc3h",
        moves,
        started_at=WINTER,
        hand_number=1003,
        seat_count=9,
        table="Arena 4",
    )


def split_pot() -> tuple[Hand, HandRecord]:
    # two Broadway straights split 145 chips: the odd chip to the first left of the button
    setup = HandSetup((1, 3, 5), (1000, 1000, 1000), 5, 1, 3, 5, 10)
    hole = {1: "7h2s", 3: "AhKs", 5: "AdKc"}
    return build(
        "house",
        setup,
        hole,
        "QdJhTc4s4h",
        "r30 f c  x b40 c  x x  x x",
        started_at=SUMMER,
        hand_number=1004,
        seat_count=6,
    )


def heads_up_all_in() -> tuple[Hand, HandRecord]:
    # heads-up: the button posts the small blind; the clock checks for the big blind;
    # a short all-in call, the uncalled part returned, the board run out
    setup = HandSetup((1, 2), (400, 640), 1, 1, 2, 5, 10)
    hole = {1: "Tc9c", 2: "AhQd"}
    return build(
        "legacy",
        setup,
        hole,
        "9h4d2sQcKs",
        "c t  b20 r80 a c",
        started_at=WINTER + timedelta(hours=2, minutes=1),
        hand_number=1005,
        seat_count=2,
    )


def own_cards(hand: Hand, *seats: int) -> dict[int, tuple[int, ...]]:
    return {s: tuple(hand.hole[hand.seats.index(s)]) for s in seats}


CASES: dict[str, tuple[Callable[[], tuple[Hand, HandRecord]], Callable[[Hand], Sequence[int]]]] = {
    "fold_preflop": (fold_preflop, lambda h: (5,)),
    "showdown": (showdown, lambda h: (6,)),
    "showdown_admin": (showdown, lambda h: h.seats),
    "side_pots": (side_pots, lambda h: (2,)),
    "split_pot": (split_pot, lambda h: (3,)),
    "heads_up_all_in": (heads_up_all_in, lambda h: (2,)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_files(name: str) -> None:
    make, viewers = CASES[name]
    hand, record = make()
    text = pokerstars.hand_text(record, own_cards(hand, *viewers(hand)))
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("CARDROOM_WRITE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


# ------------------------------------------------------------- the conventions


def test_header_names_the_hand_table_button_and_eastern_time() -> None:
    _, record = fold_preflop()
    lines = pokerstars.hand_text(record).splitlines()
    assert lines[0] == (
        "PokerStars Hand #1001:  Hold'em No Limit ($0.05/$0.10 USD) - 2026/11/30 12:00:00 ET"
    )
    assert lines[1] == "Table 'Oak' 6-max Seat #4 is the button"
    assert lines[2:7] == [
        "Seat 1: ann ($10 in chips)",
        "Seat 2: bob ($12.50 in chips)",
        "Seat 4: dee ($8 in chips)",
        "Seat 5: eve ($20 in chips)",
        "Seat 6: fay ($10 in chips)",
    ]


def timezone_plus(hours: int) -> timezone:
    return timezone(timedelta(hours=hours))


@pytest.mark.parametrize(
    ("utc", "eastern"),
    [
        (datetime(2026, 1, 15, 5, 0, tzinfo=UTC), "2026/01/15 0:00:00"),
        (datetime(2026, 3, 8, 6, 59, 59, tzinfo=UTC), "2026/03/08 1:59:59"),  # EST
        (datetime(2026, 3, 8, 7, 0, 0, tzinfo=UTC), "2026/03/08 3:00:00"),  # EDT begins
        (datetime(2026, 11, 1, 5, 59, 59, tzinfo=UTC), "2026/11/01 1:59:59"),  # EDT
        (datetime(2026, 11, 1, 6, 0, 0, tzinfo=UTC), "2026/11/01 1:00:00"),  # EST again
        (datetime(2027, 3, 14, 7, 0, 0, tzinfo=UTC), "2027/03/14 3:00:00"),
        (datetime(2026, 12, 31, 23, 30, tzinfo=timezone_plus(2)), "2026/12/31 16:30:00"),
    ],
)
def test_times_are_us_eastern_by_the_daylight_saving_rule(utc: datetime, eastern: str) -> None:
    e = pokerstars.eastern_time(utc)
    assert f"{e:%Y/%m/%d} {e.hour}:{e:%M:%S}" == eastern


def test_eastern_time_agrees_with_the_time_zone_database() -> None:
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        new_york = zoneinfo.ZoneInfo("America/New_York")
    except zoneinfo.ZoneInfoNotFoundError:  # pragma: no cover - no tz database here
        pytest.skip("no time-zone database")
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    while moment.year < 2028:
        expected = moment.astimezone(new_york).replace(tzinfo=None)
        assert pokerstars.eastern_time(moment) == expected, moment
        moment += timedelta(hours=5, minutes=17)


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ah Kd 9c 7s 3h", "high card Ace"),
        ("2h 2d 9c 7s 3h", "a pair of Deuces"),
        ("6h 6d 9c 7s 3h", "a pair of Sixes"),
        ("Ah Ad Kc Ks 3h", "two pair, Aces and Kings"),
        ("Th Td Tc 7s 3h", "three of a kind, Tens"),
        ("Ah 2d 3c 4s 5h", "a straight, Ace to Five"),
        ("Th Jd Qc Ks Ah", "a straight, Ten to Ace"),
        ("6h 7d 8c 9s Th", "a straight, Six to Ten"),
        ("Qh 9h 7h 4h 2h", "a flush, Queen high"),
        ("Kh Kd Kc Ts Th", "a full house, Kings full of Tens"),
        ("9h 9d 9c 9s 2h", "four of a kind, Nines"),
        ("5d 6d 7d 8d 9d", "a straight flush, Five to Nine"),
        ("Ac 2c 3c 4c 5c", "a straight flush, Ace to Five"),
        ("Ts Js Qs Ks As", "a Royal Flush"),
    ],
)
def test_hand_names_read_as_pokerstars_writes_them(cards: str, name: str) -> None:
    assert pokerstars.hand_name(evaluate(parse_cards(cards))) == name


def test_money_amounts_show_cents_only_when_there_are_some() -> None:
    _, record = split_pot()
    text = pokerstars.hand_text(record)
    assert "eve: raises $0.20 to $0.30" in text and "cy: calls $0.20" in text
    assert "Total pot $1.45 | Rake $0" in text
    assert "Seat 1: ann ($10 in chips)" in text


def test_points_tables_show_chips_without_a_currency() -> None:
    _, record = side_pots()
    text = pokerstars.hand_text(record)
    assert "Hold'em No Limit (25/50) - " in text and "$" not in text and "USD" not in text
    assert "Seat 2: bob (300 in chips)" in text and "bob: posts the ante 5" in text
    assert "Total pot 3100 Main pot 1200. Side pot-1 1500. Side pot-2 400. | Rake 0" in text


def quick_record(hand: Hand) -> HandRecord:
    acted = sum(1 for e in hand.events if isinstance(e, PlayerActed))
    names = {seat: "abc"[seat - 1] for seat in hand.seats}
    return record_of(hand, names, [WINTER] * acted, table="T", hand_number=9, started_at=WINTER)


def test_whole_dollar_blinds_are_written_without_cents() -> None:
    setup = HandSetup((1, 2, 3), (50000, 50000, 50000), 3, 1, 2, 100, 200)
    hand = Hand.start(preset("house"), setup, range(52))
    play(hand, "f f")
    record = quick_record(hand)
    text = pokerstars.hand_text(record)
    assert "($1/$2 USD)" in text and "a: posts small blind $1" in text


def test_side_pots_are_collected_last_formed_first_and_named_as_pokerstars_does() -> None:
    _, record = side_pots()
    lines = pokerstars.hand_text(record).splitlines()
    collected = [line for line in lines if " collected " in line]
    assert collected == [
        "gus collected 400 from side pot-2",
        "cy collected 1500 from side pot-1",
        "bob collected 1200 from main pot",
    ]


def test_one_side_pot_is_called_the_side_pot() -> None:
    # seat 1 all in short; seats 2 and 3 bet on: one main pot and one side pot
    setup = HandSetup((1, 2, 3), (100, 1000, 1000), 3, 1, 2, 5, 10)
    deck = arrange_deck(
        [parse_cards("AsAd"), parse_cards("KsKd"), parse_cards("QsQd")], parse_cards("2c5h9dTc3h")
    )
    hand = Hand.start(preset("house"), setup, deck)
    play(hand, "c a c c  b50 c  x x  x x")
    record = quick_record(hand)
    text = pokerstars.hand_text(record)
    assert "b collected $1 from side pot" in text and "a collected $3 from main pot" in text
    assert "Total pot $4 Main pot $3. Side pot $1. | Rake $0" in text


def test_many_hands_in_one_file_are_separated_by_two_empty_lines() -> None:
    texts = [pokerstars.hand_text(make()[1]) for make in (fold_preflop, split_pot)]
    joined = pokerstars.hands_text(texts)
    assert joined.count("PokerStars Hand #") == 2
    assert "\n\n\nPokerStars Hand #1004:" in joined and joined.endswith("\n")
    assert "\n\n\n\n" not in joined


# ------------------------------------------------------------- every hand parses

LINE = re.compile(
    r"^(PokerStars Hand #\d+:  Hold'em No Limit \(.+\) - \d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET"
    r"|Table '.+' \d+-max Seat #\d+ is the button"
    r"|Seat \d+: \w+ \(\$?[\d.]+ in chips\)"
    r"|\w+: posts (small blind|big blind|the ante) \$?[\d.]+( and is all-in)?"
    r"|\*\*\* (HOLE CARDS|SHOW DOWN|SUMMARY) \*\*\*"
    r"|\*\*\* FLOP \*\*\* \[\w\w \w\w \w\w\]"
    r"|\*\*\* (TURN|RIVER) \*\*\* \[[\w ]+\] \[\w\w\]"
    r"|Dealt to \w+ \[\w\w \w\w\]"
    r"|\w+ has timed out"
    r"|\w+: (folds|checks|calls \$?[\d.]+|bets \$?[\d.]+|raises \$?[\d.]+ to \$?[\d.]+)"
    r"( and is all-in)?"
    r"|Uncalled bet \(\$?[\d.]+\) returned to \w+"
    r"|\w+: shows \[\w\w \w\w\] \(.+\)"
    r"|\w+: mucks hand"
    r"|\w+: doesn't show hand"
    r"|\w+ collected \$?[\d.]+ from (pot|main pot|side pot|side pot-\d)"
    r"|Total pot \$?[\d.]+( Main pot \$?[\d.]+\.( Side pot(-\d)? \$?[\d.]+\.)+)? \| Rake \$?0"
    r"|Board \[[\w ]+\]"
    r"|Seat \d+: \w+( \(button\))?( \(small blind\))?( \(big blind\))? "
    r"(folded before Flop( \(didn't bet\))?|folded on the (Flop|Turn|River)"
    r"|showed \[\w\w \w\w\] and (won \(\$?[\d.]+\)|lost) with .+"
    r"|mucked( \[\w\w \w\w\])?|collected \(\$?[\d.]+\)))$"
)


def test_every_line_of_simulated_hands_follows_the_format() -> None:
    for seed in range(200):
        hand, record = random_record(seed)
        text = pokerstars.hand_text(record, own_cards(hand, *hand.seats))
        for line in text.splitlines():
            assert LINE.match(line), (seed, line)
        # the money adds up: every chip collected is in the total pot
        total = re.search(r"Total pot \$?([\d.]+)", text)
        assert total is not None
        collected = re.findall(r" collected \$?([\d.]+) from", text)
        assert sum(map(_chips, collected)) == _chips(total.group(1))
        # one summary line per player dealt in
        assert len(
            re.findall(r"^Seat \d+: .+ (folded|showed|mucked|collected)", text, re.M)
        ) == len(hand.seats)


def _chips(text: str) -> int:
    if "." in text:
        dollars, cents = text.split(".")
        return int(dollars) * 100 + int(cents)
    return int(text) * 100 if text else 0
