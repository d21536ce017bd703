"""PokerStars hand-history text, the format that hand-tracking tools import.

One hand reads like this (a money table; one chip is one cent)::

    PokerStars Hand #1001:  Hold'em No Limit ($0.05/$0.10 USD) - 2026/11/30 12:00:00 ET
    Table 'Oak' 6-max Seat #3 is the button
    Seat 1: ann ($10 in chips)
    ...
    ann: posts small blind $0.05
    bob: posts big blind $0.10
    *** HOLE CARDS ***
    Dealt to ann [As Kd]
    cy: raises $0.20 to $0.30
    ...
    *** SUMMARY ***
    Total pot $0.65 | Rake $0
    Seat 1: ann (small blind) folded before Flop

Conventions followed (from PokerStars' own files): two spaces after the hand number
of a cash-game header; the time in US Eastern time with an unpadded hour; amounts as
dollars with cents only when there are some (``$1``, ``$0.50``, ``$1.50``), the
header's blinds with cents when either has some (``$0.50/$1.00``); arena point tables
in plain chips with no currency (``(10/20)``, ``1500 in chips``); ``raises X to Y``
where X is what the raise adds to the highest bet; ``and is all-in``;
``Uncalled bet (X) returned to name``; pots named ``pot`` when there is one,
otherwise ``main pot`` and ``side pot`` (or ``side pot-1``, ``side pot-2``, ...),
collected side pots last-formed first as PokerStars does; hand names such as
``a pair of Deuces``, ``two pair, Aces and Kings``, ``a straight, Ace to Five``,
``a full house, Kings full of Tens``, ``a Royal Flush``. Not written: the
``- King kicker`` suffix PokerStars adds when a kicker decides between two shown
hands, rake (there is none) and sitting-out players.

The writer never decides who may see a hole card: ``dealt`` holds the hole cards the
reader may see from the deal (``cardroom.history.privacy`` decides), written as
``Dealt to`` lines and beside a mucked hand in the summary. Cards shown at the
showdown are public and come from the hand's own events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta

from cardroom.cards import card_text
from cardroom.evaluator import Category, category_of, rank_digits
from cardroom.events import (
    BetReturned,
    BlindPosted,
    BoardDealt,
    HandMucked,
    HandShown,
    HoleCardDealt,
    PlayerActed,
    PotAwarded,
)
from cardroom.history.record import HandRecord, replay
from cardroom.rules import ChipUnit

HAND_SEPARATOR = "\n\n\n"  # PokerStars files leave two empty lines between hands

_NAMES = (
    "Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
    "Queen", "King", "Ace",
)  # fmt: skip
_PLURALS = (
    "Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
    "Jacks", "Queens", "Kings", "Aces",
)  # fmt: skip
_FOLDED = {
    "preflop": "folded before Flop",
    "flop": "folded on the Flop",
    "turn": "folded on the Turn",
    "river": "folded on the River",
}


def hand_name(rank: int) -> str:
    """A hand's name as PokerStars writes it: ``a pair of Aces``, ``high card King``.

    >>> from cardroom.cards import parse_cards
    >>> from cardroom.evaluator import evaluate
    >>> hand_name(evaluate(parse_cards("Ah 2d 3c 4s 5h 9d Kc")))
    'a straight, Ace to Five'
    >>> hand_name(evaluate(parse_cards("2h 2d 2c 6s 6h")))
    'a full house, Deuces full of Sixes'
    """
    category = category_of(rank)
    r = rank_digits(rank)
    if category is Category.HIGH_CARD:
        return f"high card {_NAMES[r[0]]}"
    if category is Category.PAIR:
        return f"a pair of {_PLURALS[r[0]]}"
    if category is Category.TWO_PAIR:
        return f"two pair, {_PLURALS[r[0]]} and {_PLURALS[r[1]]}"
    if category is Category.THREE_OF_A_KIND:
        return f"three of a kind, {_PLURALS[r[0]]}"
    if category is Category.STRAIGHT:
        return f"a straight, {_straight(r[0])}"
    if category is Category.FLUSH:
        return f"a flush, {_NAMES[r[0]]} high"
    if category is Category.FULL_HOUSE:
        return f"a full house, {_PLURALS[r[0]]} full of {_PLURALS[r[1]]}"
    if category is Category.FOUR_OF_A_KIND:
        return f"four of a kind, {_PLURALS[r[0]]}"
    if category is Category.STRAIGHT_FLUSH:
        return f"a straight flush, {_straight(r[0])}"
    return "a Royal Flush"


def _straight(top: int) -> str:
    low = _NAMES[top - 4] if top >= 4 else "Ace"  # the wheel runs Ace to Five
    return f"{low} to {_NAMES[top]}"


def eastern_time(moment: datetime) -> datetime:
    """US Eastern time (the ``ET`` of PokerStars files) as a naive datetime, by the
    daylight-saving rule in force since 2007: from 2:00 on the second Sunday of March
    to 2:00 on the first Sunday of November. Computed here rather than read from a
    time-zone database, so it gives the same answer everywhere."""
    utc = moment.astimezone(UTC).replace(tzinfo=None)
    summer_starts = _sunday(utc.year, 3, 2) + timedelta(hours=7)  # 2:00 EST
    summer_ends = _sunday(utc.year, 11, 1) + timedelta(hours=6)  # 2:00 EDT
    offset = 4 if summer_starts <= utc < summer_ends else 5
    return utc - timedelta(hours=offset)


def _sunday(year: int, month: int, nth: int) -> datetime:
    first = datetime(year, month, 1)
    return first + timedelta(days=(6 - first.weekday()) % 7 + 7 * (nth - 1))


def _date(moment: datetime) -> str:
    e = eastern_time(moment)
    return f"{e.year:04d}/{e.month:02d}/{e.day:02d} {e.hour}:{e.minute:02d}:{e.second:02d} ET"


def _cards(cards: Iterable[int]) -> str:
    return "[" + " ".join(card_text(c) for c in cards) + "]"


class _Money:
    """How chips read: cents as dollars at money tables, plain chips otherwise."""

    def __init__(self, money: bool) -> None:
        self.money = money

    def __call__(self, chips: int) -> str:
        if not self.money:
            return str(chips)
        dollars, cents = divmod(chips, 100)
        return f"${dollars}" if cents == 0 else f"${dollars}.{cents:02d}"

    def blinds(self, small: int, big: int) -> str:
        if not self.money:
            return f"{small}/{big}"
        if small % 100 == 0 and big % 100 == 0:
            return f"${small // 100}/${big // 100} USD"
        return f"${small / 100:.2f}/${big / 100:.2f} USD"


def _pot_label(number: int, count: int) -> str:
    if count == 1:
        return "pot"
    if number == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{number}"


def hand_text(record: HandRecord, dealt: Mapping[int, Sequence[int]] | None = None) -> str:
    """One hand as PokerStars text. ``dealt`` maps seats to the hole cards the reader
    may see from the deal: the player's own seat in a player's export, every seat in
    an admin's, none for an observer."""
    dealt = dict(dealt or {})
    hand = replay(record)
    setup = hand.setup
    name = record.name
    amount = _Money(record.rules.chip_unit is ChipUnit.CENT)
    lines = [
        f"PokerStars Hand #{record.hand_number}:  Hold'em No Limit "
        f"({amount.blinds(setup.small_blind, setup.big_blind)}) - {_date(record.started_at)}",
        f"Table '{record.table}' {record.seat_count}-max Seat #{setup.button_seat} is the button",
    ]
    for seat, stack in sorted(zip(hand.seats, hand.starting_stacks, strict=True)):
        lines.append(f"Seat {seat}: {name(seat)} ({amount(stack)} in chips)")

    street = "preflop"
    bets = dict.fromkeys(hand.seats, 0)
    high = 0
    blinds_posted: set[int] = set()
    put_in: set[int] = set()  # seats that put chips in by choice
    folded_on: dict[int, str] = {}
    shown: dict[int, HandShown] = {}
    mucked: set[int] = set()
    won = dict.fromkeys(hand.seats, 0)
    awards: list[PotAwarded] = []
    hole_cards_written = False
    for event in hand.events:
        if isinstance(event, BlindPosted):
            if event.blind == "ante":
                text = f"posts the ante {amount(event.amount)}"
            else:
                blinds_posted.add(event.seat)
                bets[event.seat] += event.amount
                high = max(high, bets[event.seat])
                text = f"posts {event.blind.replace('_', ' ')} {amount(event.amount)}"
            lines.append(f"{name(event.seat)}: {text}{' and is all-in' if event.all_in else ''}")
        elif isinstance(event, HoleCardDealt):
            if not hole_cards_written:
                hole_cards_written = True
                lines.append("*** HOLE CARDS ***")
                for seat in hand.seats:
                    if seat in dealt:
                        lines.append(f"Dealt to {name(seat)} {_cards(dealt[seat])}")
        elif isinstance(event, PlayerActed):
            seat = event.seat
            if event.timed_out:
                lines.append(f"{name(seat)} has timed out")
            if event.action == "fold":
                folded_on[seat] = street
                text = "folds"
            elif event.action == "check":
                text = "checks"
            elif event.action == "call":
                text = f"calls {amount(event.amount)}"
            elif event.action == "bet":
                text = f"bets {amount(event.amount)}"
            else:
                text = f"raises {amount(event.bet - high)} to {amount(event.bet)}"
            if event.amount:
                put_in.add(seat)
            bets[seat] = event.bet
            high = max(high, event.bet)
            lines.append(f"{name(seat)}: {text}{' and is all-in' if event.all_in else ''}")
        elif isinstance(event, BetReturned):
            lines.append(f"Uncalled bet ({amount(event.amount)}) returned to {name(event.seat)}")
        elif isinstance(event, BoardDealt):
            before = hand.board[: {"flop": 0, "turn": 3, "river": 4}[event.street]]
            label = f"*** {event.street.upper()} ***"
            if before:
                lines.append(f"{label} {_cards(before)} {_cards(event.cards)}")
            else:
                lines.append(f"{label} {_cards(event.cards)}")
            street = event.street
            bets = dict.fromkeys(hand.seats, 0)
            high = 0
        elif isinstance(event, HandShown | HandMucked):
            if not shown and not mucked:
                lines.append("*** SHOW DOWN ***")
            if isinstance(event, HandShown):
                shown[event.seat] = event
                lines.append(
                    f"{name(event.seat)}: shows {_cards(event.cards)} ({hand_name(event.rank)})"
                )
            else:
                mucked.add(event.seat)
                lines.append(f"{name(event.seat)}: mucks hand")
        elif isinstance(event, PotAwarded):
            awards.append(event)

    count = len(awards)
    for award in sorted(awards, key=lambda a: -a.pot):  # side pots first, as PokerStars
        for seat, share in zip(award.winners, award.shares, strict=True):
            won[seat] += share
            lines.append(
                f"{name(seat)} collected {amount(share)} from {_pot_label(award.pot, count)}"
            )
    uncontested = not shown and not mucked
    if uncontested:
        for seat in sorted({s for a in awards for s in a.winners}):
            lines.append(f"{name(seat)}: doesn't show hand")

    lines.append("*** SUMMARY ***")
    total = sum(a.amount for a in awards)
    pots = ""
    if count > 1:
        pots = "".join(
            f" {_pot_label(a.pot, count).capitalize()} {amount(a.amount)}." for a in awards
        )
    lines.append(f"Total pot {amount(total)}{pots} | Rake {amount(0)}")
    if hand.board:
        lines.append(f"Board {_cards(hand.board)}")
    for seat in sorted(hand.seats):
        tags = ""
        if seat == setup.button_seat:
            tags += " (button)"
        if seat == setup.small_blind_seat:
            tags += " (small blind)"
        if seat == setup.big_blind_seat:
            tags += " (big blind)"
        if seat in folded_on:
            outcome = _FOLDED[folded_on[seat]]
            if folded_on[seat] == "preflop" and seat not in blinds_posted | put_in:
                outcome += " (didn't bet)"
        elif seat in shown:
            show = shown[seat]
            if won[seat]:
                outcome = f"showed {_cards(show.cards)} and won ({amount(won[seat])})"
            else:
                outcome = f"showed {_cards(show.cards)} and lost"
            outcome += f" with {hand_name(show.rank)}"
        elif seat in mucked:
            outcome = "mucked" + (f" {_cards(dealt[seat])}" if seat in dealt else "")
        else:
            outcome = f"collected ({amount(won[seat])})"
        lines.append(f"Seat {seat}: {name(seat)}{tags} {outcome}")
    return "\n".join(lines) + "\n"


def hands_text(texts: Iterable[str]) -> str:
    """Several hands in one file, as PokerStars writes them."""
    return HAND_SEPARATOR.join(t.rstrip("\n") for t in texts) + "\n"
