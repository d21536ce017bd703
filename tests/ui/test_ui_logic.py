"""The UI's pure JavaScript, run in the browser: the action bar's sizes within the
legal bounds, where seats go, what the create form sends, how events are told, and
the game socket's resync after gaps and drops."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.ui.conftest import Room

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def page(room: Room, browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(room.url("/sign-in"))
    # the versioned folder of the modules, from the page's own stylesheet link
    tab.evaluate(
        "window.js = document.querySelector('link[rel=stylesheet]').href"
        ".replace(/css\\/app\\.css$/, 'js/')"
    )
    yield tab
    context.close()


def run(page: Page, module: str, body: str, arg: Any = None) -> Any:
    """Import ``module`` (as ``m``) and return ``body``'s value."""
    return page.evaluate(
        f"async arg => {{ const m = await import(window.js + '{module}'); {body} }}", arg
    )


def legal(**kw: Any) -> dict[str, Any]:
    base = {"actions": ["fold", "call", "raise", "all_in"], "to_call": 10, "call_amount": 10}
    base.update({"min_to": 40, "max_to": 1000, "all_in_to": 1000})
    base.update(kw)
    return base


def test_sizes_are_min_half_pot_pot_and_all_in_within_the_legal_bounds(page: Page) -> None:
    # heads-up pre-flop, small blind to act: 10 to call, pot 30 (blinds 10/20)
    size = run(page, "betting.js", "return m.sizing(arg, 30, 10);", legal())
    assert size["kind"] == "raise"
    assert {p["name"]: p["to"] for p in size["presets"]} == {
        "min": 40, "half": 40, "pot": 60, "all_in": 1000,
    }  # fmt: skip
    # a short stack: every size is clamped to the most it can put in
    short = run(page, "betting.js", "return m.sizing(arg, 30, 10);", legal(max_to=50, all_in_to=50))
    assert [p["to"] for p in short["presets"]] == [40, 40, 50, 50]
    # a bet into 100 with no bet to call: half pot 50, pot 100
    bet = legal(actions=["check", "bet", "all_in"], to_call=0, call_amount=0, min_to=20)
    size = run(page, "betting.js", "return m.sizing(arg, 100, 0);", bet)
    assert size["kind"] == "bet"
    assert [p["to"] for p in size["presets"]] == [20, 50, 100, 1000]
    # nothing to size when only check or call is legal
    only_call = legal(actions=["fold", "call"])
    assert run(page, "betting.js", "return m.sizing(arg, 30, 0);", only_call) is None
    # what the bet button sends: all of it is an all-in; below is a raise, kept in bounds
    sent = run(
        page,
        "betting.js",
        "const s = m.sizing(arg, 30, 10);return [1000, 60, 5, 5000].map(to => m.betAction(s, to));",
        legal(),
    )
    assert sent == [
        {"kind": "all_in"}, {"kind": "raise", "amount": 60}, {"kind": "raise", "amount": 40},
        {"kind": "all_in"},
    ]  # fmt: skip
    plain = run(page, "betting.js", "return m.plainActions(arg);", legal(call_amount=5, to_call=10))
    assert plain == [{"kind": "fold"}, {"kind": "call", "amount": 5, "allIn": True}]


def test_seats_go_clockwise_from_the_viewer_at_the_bottom(page: Page) -> None:
    spots = run(page, "seating.js", "return m.seatPositions(4, 3);")
    assert spots["3"] == {"x": 50, "y": 90}  # the viewer, bottom centre
    assert spots["4"]["x"] < 50 and spots["4"]["y"] == 50  # next clockwise: the left
    assert spots["1"] == {"x": 50, "y": 10}  # across the table
    assert spots["2"]["x"] > 50  # then the right
    assert run(page, "seating.js", "return m.towardsCentre({x: 50, y: 90}, 0.5);") == {
        "x": 50,
        "y": 70,
    }


def test_the_create_form_sends_what_the_room_takes(page: Page) -> None:
    values = {
        "preset": "house", "format": "tournament", "seats": "6", "buy_in": "25.50",
        "small_blind": "", "big_blind": "", "schedule": "minutes", "every": "15", "rate": "50",
        "payouts": "65/35", "turn_clock_seconds": "off", "raise_cap": "", "showdown": "ordered",
        "full_big_blind_call": "no", "sit": True,
    }  # fmt: skip
    body = run(page, "create-game.js", "return m.createRequest(arg);", values)
    assert body == {
        "preset": "house", "format": "tournament", "seats": 6, "sit": True, "buy_in": 2550,
        "blinds_every_minutes": 15, "blinds_rate_percent": 50, "payouts": [65, 35],
        "rules": {"turn_clock_seconds": None, "full_big_blind_call": False, "showdown": "ordered"},
    }  # fmt: skip
    arena = {
        "preset": "arena", "format": "tournament", "seats": "4", "buy_in": "1500",
        "small_blind": "10", "big_blind": "20", "schedule": "hands", "every": "8", "sit": True,
    }  # fmt: skip
    body = run(page, "create-game.js", "return m.createRequest(arg);", arena)
    assert body["buy_in"] == 1500 and body["blinds_every_hands"] == 8
    assert "blinds_rate_percent" not in body  # arena doubles: no rate to give
    refusals = run(
        page,
        "create-game.js",
        "return arg.map(v => { try { m.createRequest(v); return null; }"
        " catch (e) { return e.message; } });",
        [
            {**values, "buy_in": "0.50"},
            {**values, "payouts": "50/60"},
            {**values, "payouts": "30/70"},
            {**arena, "big_blind": ""},
        ],
    )
    assert refusals == [
        "The buy-in is at least $1.00.",
        "The prize percentages add up to 100.",
        "A lower place never pays more than a higher one.",
        "Arena tables need both blinds.",
    ]


def test_money_and_cards_read_as_players_say_them(page: Page) -> None:
    out = run(
        page,
        "format.js",
        "return [m.money(1250), m.money(-5), m.money(123456789), m.parseMoney('$1,234.5'),"
        " m.parseMoney('abc'), m.countdown(65), m.countdown(7260), m.duration(120)];",
    )
    assert out == ["$12.50", "−$0.05", "$1,234,567.89", 123450, None, "1:05", "2 h 01 min", "2 min"]
    names = run(page, "cards.js", "return ['As', 'Td', 0, 51, null].map(m.cardName);")
    assert names == [
        "Ace of spades", "Ten of diamonds", "Two of clubs", "Ace of spades", "Hidden card",
    ]  # fmt: skip


def test_events_are_told_as_sentences_and_results(page: Page) -> None:
    events = [
        {"seq": 1, "type": "HandDealt", "data": {"number": 4, "button": 1, "small_blind": 1,
         "big_blind": 2, "blinds": [10, 20], "players": [[1, 7, 1000], [2, 8, 1000]]}},
        {"seq": 2, "type": "PlayerActed", "data": {"seat": 1, "action": "raise", "amount": 50,
         "bet": 60, "all_in": False, "timed_out": False}},
        {"seq": 3, "type": "HandShown", "data": {"seat": 2, "cards": ["Ah", "Kh"], "rank": 1,
         "name": "Pair of Aces, King, Nine and Four kickers"}},
        {"seq": 4, "type": "PotAwarded", "data": {"pot": 0, "amount": 120, "winners": [2],
         "shares": [120], "hand_name": "Pair of Aces, King, Nine and Four kickers"}},
        {"seq": 5, "type": "PotAwarded", "data": {"pot": 1, "amount": 41, "winners": [1, 2],
         "shares": [21, 20], "hand_name": "Straight, Ten high"}},
    ]  # fmt: skip
    told = run(
        page,
        "story.js",
        "const names = new m.Names(); names.setUsers([{seat: 1, user_id: 7, name: 'ann'},"
        " {seat: 2, user_id: 8, name: 'ben'}]);"
        "const money = c => '$' + (c / 100).toFixed(2);"
        "return {lines: arg.map(e => m.describe(e, names, money)),"
        " result: m.resultLines(m.handResult(arg), names, money)};",
        events,
    )
    assert told["lines"] == [
        "Hand #4: ann has the button; blinds $0.10/$0.20.",
        "ann raises to $0.60.",
        "ben shows A♥ K♥: Pair of Aces, King, Nine and Four kickers.",
        "ben wins the main pot, $1.20 with Pair of Aces, King, Nine and Four kickers.",
        "ann and ben split side pot 1 ($0.41) with Straight, Ten high.",
    ]
    assert told["result"] == [
        "Main pot $1.20: ben wins with Pair of Aces, King, Nine and Four kickers.",
        "Side pot 1 $0.41 split by ann and ben ($0.21 and $0.20) with Straight, Ten high.",
    ]


def test_the_game_socket_asks_again_for_what_it_missed(page: Page) -> None:
    """GameSocket.receive with scripted messages: events are handed on once, in
    order; a gap, a snapshot ahead of the events, or a reconnection sends a resync
    after the last event it has."""
    out = run(
        page,
        "ws.js",
        """
        const sent = [], got = [], shown = [];
        const s = new m.GameSocket(1, {onSnapshot: (g, seq) => shown.push(seq),
                                       onEvents: (es) => got.push(...es.map(e => e.seq))});
        s.live.send = (msg) => { sent.push(msg); return true; };
        const ev = (...seqs) => ({type: 'events', events: seqs.map(seq => ({seq}))});
        s.receive({type: 'snapshot', seq: 5, game: {}});      // where events start
        s.receive(ev(6, 7));
        s.receive({type: 'snapshot', seq: 7, game: {}});
        s.receive(ev(7, 8));                                   // 7 again: only 8 is new
        s.receive(ev(10, 11));                                 // 9 is missing
        s.receive(ev(9, 10, 11));                              // the resync's answer
        s.receive({type: 'snapshot', seq: 11, game: {}});
        s.receive({type: 'snapshot', seq: 13, game: {}});      // ahead of the events
        s.receive(ev(12, 13));
        s.receive({type: 'snapshot', seq: 13, game: {}});
        s.live.onOpen();                                       // back after a drop
        s.live.stop();
        return {sent, got, shown, resyncing: s.resyncing};
        """,
    )
    assert out["got"] == [6, 7, 8, 9, 10, 11, 12, 13]
    assert out["sent"] == [
        {"type": "resync", "after": 8},
        {"type": "resync", "after": 11},
        {"type": "resync", "after": 13},
    ]
    assert out["shown"] == [5, 7, 11, 13, 13]


def test_a_command_on_the_game_socket_is_matched_by_its_ref_or_left_to_http(
    page: Page,
) -> None:
    """GameSocket.command: the answer with its ref settles it (a result resolves with
    the route's answer, a refusal rejects with its status and sentence); a closed
    socket, a socket lost before the answer, or a 401 resolve undefined, which sends
    the command over HTTP instead."""
    out = run(
        page,
        "ws.js",
        """
        const sent = [];
        const s = new m.GameSocket(1, {onSnapshot: () => {}, onEvents: () => {}});
        let open = true;
        s.live.send = (msg) => { if (open) sent.push(msg); return open; };
        const settled = (p) => p.then(v => ({ok: v === undefined ? 'http' : v}),
                                      e => ({status: e.status, code: e.code, text: e.message}));
        const first = settled(s.command({type: 'act', kind: 'call', version: 3}));
        const second = settled(s.command({type: 'continue'}));
        s.receive({type: 'refused', ref: sent[1].ref, status: 409,
                   error: {code: 'conflict', message: 'Not now.'}});
        s.receive({type: 'result', ref: 'c99', result: {version: 99}});   // nobody's
        s.receive({type: 'result', ref: sent[0].ref, result: {version: 4}});
        const third = settled(s.command({type: 'act', kind: 'fold', version: 4}));
        s.receive({type: 'refused', ref: sent[2].ref, status: 401,
                   error: {code: 'not_signed_in', message: 'Sign in.'}});
        const lost = settled(s.command({type: 'act', kind: 'check', version: 4}));
        s.live.onStatus('closed');                             // lost before the answer
        open = false;
        const closed = settled(s.command({type: 'continue'}));
        s.live.stop();
        return {sent, answers: await Promise.all([first, second, third, lost, closed]),
                waiting: s.pending.size};
        """,
    )
    assert [m["type"] for m in out["sent"]] == ["act", "continue", "act", "act"]
    assert len({m["ref"] for m in out["sent"]}) == 4
    assert out["sent"][0] == {
        "type": "act",
        "kind": "call",
        "version": 3,
        "ref": out["sent"][0]["ref"],
    }
    assert out["answers"] == [
        {"ok": {"version": 4}},
        {"status": 409, "code": "conflict", "text": "Not now."},
        {"ok": "http"},
        {"ok": "http"},
        {"ok": "http"},
    ]
    assert out["waiting"] == 0
