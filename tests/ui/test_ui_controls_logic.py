"""The pure parts of the controls' fixes, run in the browser: a typed total checked,
never clamped; whether a balance covers a seat; a fold win and a per-hand table's
settlement told; the body of a practice table against bots."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.ui.test_ui_logic import page, run

pytestmark = pytest.mark.slow
__all__ = ["page"]  # the module's page fixture, shared

SIZE = {"kind": "raise", "min": 40, "max": 990, "allIn": 990}
NAMES = (
    "const names = new m.Names(); names.setUsers([{seat: 1, user_id: 7, name: 'ann'},"
    " {seat: 2, user_id: 8, name: 'ben'}]); const money = c => '$' + (c / 100).toFixed(2);"
)


def test_a_typed_total_is_checked_not_clamped(page: Page) -> None:
    tries = [99900, 990, 40, 39, 75, None, 40.5]
    checked = run(page, "betting.js", "return arg.tries.map(to => m.checkTo(arg.size, to));",
                  {"size": SIZE, "tries": tries})  # fmt: skip
    assert checked == ["above", "ok", "ok", "below", "ok", "not_an_amount", "not_an_amount"]


def test_a_balance_covers_a_seat_or_says_why_not(page: Page) -> None:
    said = run(
        page,
        "joining.js",
        "return [m.joinShortfall(10000, 8000, {paysMoney: true, format: 'cash'}),"
        " m.joinShortfall(10000, 8000, {paysMoney: true, format: 'tournament'}),"
        " m.joinShortfall(10000, 10000, {paysMoney: true, format: 'cash'}),"
        " m.joinShortfall(1000, 0, {paysMoney: false, format: 'tournament'}),"
        " m.joinShortfall(1000, null, {paysMoney: true, format: 'cash'})];",
    )
    assert said == [
        "Your balance, $80.00, does not cover the $100.00 buy-in.",
        "Your balance, $80.00, does not cover the $100.00 entry.",
        None,
        None,
        None,
    ]


def hand(*events: dict[str, Any]) -> list[dict[str, Any]]:
    dealt = {"seq": 1, "type": "HandDealt", "data": {"number": 3, "players": [[1, 7], [2, 8]]}}
    return [dealt, *({"seq": i + 2, **e} for i, e in enumerate(events))]


def test_a_fold_win_and_a_per_hand_settlement_are_told(page: Page) -> None:
    fold = hand(
        {"type": "PotAwarded", "data": {"pot": 0, "amount": 20, "winners": [2], "shares": [20],
         "hand_name": ""}},
        {"type": "HandSettled", "data": {"player": 7, "amount": 990}},
        {"type": "HandSettled", "data": {"player": 8, "amount": 1010}},
    )  # fmt: skip
    told = run(
        page,
        "story.js",
        NAMES + "names.setHand(arg[0].data); const r = m.handResult(arg);"
        " return {lines: m.resultLines(r, names, money),"
        " settled: m.settlementLines(r, names, money, {buyIn: 1000, me: 8}),"
        " log: m.describe(arg[2], names, money)};",
        fold,
    )
    assert told["lines"] == ["Everyone else folded: ben wins $0.20."]
    assert told["settled"] == [
        "ann lost $0.10: $9.90 back to their balance.",
        "You won $0.10: $10.10 back to your balance.",
    ]
    assert told["log"] == "$9.90 goes back to ann's balance."
    # a showdown is not a fold win, even with one winner
    shown = hand(
        {"type": "HandShown", "data": {"seat": 2, "cards": ["Ah", "Kh"], "name": "Ace high"}},
        {"type": "PotAwarded", "data": {"pot": 0, "amount": 40, "winners": [2], "shares": [40],
         "hand_name": "Ace high"}},
    )  # fmt: skip
    lines = run(
        page, "story.js", NAMES + "return m.resultLines(m.handResult(arg), names, money);", shown
    )
    assert lines == ["Pot $0.40: ben wins with Ace high."]


def test_a_practice_table_is_a_points_table_with_a_seat_per_bot(page: Page) -> None:
    body = run(page, "create-game.js", "return m.practiceRequest(3);")
    assert body == {
        "preset": "arena", "format": "tournament", "seats": 4, "sit": True,
        "buy_in": 1000, "small_blind": 10, "big_blind": 20, "blinds_every_hands": 10,
    }  # fmt: skip
    refused = run(
        page,
        "create-game.js",
        "return [0, 10, 1.5].map(n => { try { m.practiceRequest(n); return null; }"
        " catch (e) { return e.message; } });",
    )
    assert refused == ["Play against 1 to 9 bots."] * 3
