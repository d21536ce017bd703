"""The hand history's list (issue 7): every game the player was dealt into, from
``GET /api/me/history``, with their last ten hands there (number, cards, board,
result), older ones a "More hands" click away (``GET /api/me/hands``), and any hand
one click from its street-by-street replay (from ``GET /api/hands/{id}``), its
downloads and "Verify this hand".

The hands are played over the API, not in the browser: a heads-up points (``arena``)
tournament of a dozen quick folds, one hand checked to the river and folded there (no
showdown: neither saw the other's cards), then all-ins until one player is knocked
out. The loser has left the table: it is in neither their games (``/api/me/games``)
nor their statement (points move no money), which is all the page used to list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardroom.cards import parse_card
from tests.ui.conftest import Room
from tests.ui.kit import Account, Player, heads_up_game, ready, unique_name, visit

pytestmark = pytest.mark.slow

PHONE = {"width": 390, "height": 844}
FOLDS = 12  # hands folded before the flop: more than the ten the list shows
Choice = tuple[str, int | None]

RANKS = {"T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
NUMBERS = {"2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six"}
NUMBERS |= {"7": "Seven", "8": "Eight", "9": "Nine"}
SUITS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def card_label(card: str) -> str:
    """A card as the page labels it for screen readers: "Ace of spades"."""
    parse_card(card)  # refuses a card that is not one
    return f"{(RANKS | NUMBERS)[card[0]]} of {SUITS[card[1]]}"


# -- playing over the API -------------------------------------------------------------------


def fold_first(hand: dict[str, Any]) -> Choice:
    return ("fold", None)


def to_the_river(hand: dict[str, Any]) -> Choice:
    """Called and checked to the river; there the first to act bets and the other
    folds: five board cards, no showdown."""
    legal = hand["legal"]
    free = "check" in legal["actions"]
    if hand["street"] == "river":
        return ("bet", legal["min_to"]) if free else ("fold", None)
    return ("check", None) if free else ("call", None)


def all_in(hand: dict[str, Any]) -> Choice:
    actions = hand["legal"]["actions"]
    if "all_in" in actions:
        return ("all_in", None)
    return ("call", None) if "call" in actions else ("check", None)


def play_hand(players: list[Account], game_id: int, choose: Callable[[Any], Choice]) -> int:
    """Play the running hand to its end over the API; its number at the table."""
    by_id = {p.id: p for p in players}
    number = 0
    for _ in range(40):
        game = players[0].call("GET", f"/api/games/{game_id}")
        hand = game["hand"]
        if hand is None or not hand["running"]:
            return number
        number = hand["number"]
        user = next(s["user_id"] for s in game["seats"] if s["seat"] == hand["seat_to_act"])
        mine = by_id[user].call("GET", f"/api/games/{game_id}")
        kind, amount = choose(mine["hand"])
        body: dict[str, Any] = {"kind": kind, "version": mine["version"]}
        if amount is not None:
            body["amount"] = amount
        by_id[user].call("POST", f"/api/games/{game_id}/actions", body)
    raise AssertionError(f"hand {number} did not end")


def status(account: Account, game_id: int) -> str:
    return str(account.call("GET", f"/api/games/{game_id}")["summary"]["status"])


def deal_next(host: Account, game_id: int) -> None:
    """The host deals the next hand without waiting for Continue."""
    host.call("POST", f"/api/games/{game_id}/skip-waiting", {})


@pytest.fixture(scope="module")
def arena(room: Room) -> Iterator[dict[str, Any]]:
    host = Account(room.base, unique_name("nora"))
    guest = Account(room.base, unique_name("otto"))
    both = [host, guest]
    game_id = heads_up_game(
        host, guest, preset="arena", format="tournament", small_blind=10, big_blind=20
    )
    for _ in range(FOLDS):
        play_hand(both, game_id, fold_first)
        deal_next(host, game_id)
    river = play_hand(both, game_id, to_the_river)
    for _ in range(30):
        deal_next(host, game_id)
        play_hand(both, game_id, all_in)
        if status(host, game_id) == "finished":
            break
    assert status(host, game_id) == "finished"
    seated = [
        any(g["id"] == game_id for g in p.call("GET", "/api/me/games")["games"]) for p in both
    ]
    assert seated.count(False) >= 1, "nobody left the table"
    loser = both[seated.index(False)]
    winner = both[1 - seated.index(False)]
    # what the page used to list from: no seat there, no line in the statement
    lines = loser.call("GET", "/api/me/ledger?limit=200")["lines"]
    assert all(line["game_id"] != game_id for line in lines)
    hands = loser.call("GET", f"/api/me/hands?game_id={game_id}&limit=100")["hands"]
    assert len(hands) > FOLDS + 1
    yield {
        "game_id": game_id,
        "loser": loser,
        "winner": winner,
        "hands": hands,  # the loser's, newest first
        "river": next(h for h in hands if h["number"] == river),
    }


def game_section(page: Page, game_id: int) -> Any:
    return page.locator(f"section.history-game[data-game='{game_id}']")


def hand_rows(page: Page, game_id: int) -> Any:
    return game_section(page, game_id).locator("[data-game-hands] tr")


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px"


def open_history(player: Player, room: Room) -> Page:
    visit(player.page, room.url("/history"))
    return player.page


# -- the list -------------------------------------------------------------------------------


def test_a_points_game_you_left_is_listed_with_its_hands(
    room: Room, browser: Browser, arena: dict[str, Any], artifacts: Any
) -> None:
    game_id, hands = arena["game_id"], arena["hands"]
    player = arena["loser"].open(browser, viewport=PHONE)
    page = open_history(player, room)
    section = game_section(page, game_id)
    expect(section.get_by_role("heading", name=f"#{game_id} · Arena")).to_be_visible()
    expect(section).to_contain_text(f"Finished · {len(hands)} hands dealt to you")
    expect(page.locator("[data-history-empty]")).to_be_hidden()
    rows = hand_rows(page, game_id)
    expect(rows).to_have_count(10)
    for row, hand in zip(rows.all(), hands[:10], strict=True):
        expect(row).to_have_attribute("data-hand-id", str(hand["id"]))
        expect(row.get_by_role("rowheader")).to_have_text(f"#{hand['number']}")
        mine = row.get_by_role("group", name="Your cards")
        expect(mine.get_by_role("img")).to_have_count(2)
        for card, face in zip(hand["cards"], mine.get_by_role("img").all(), strict=True):
            expect(face).to_have_attribute("aria-label", card_label(card))
        if hand["board"]:
            board = row.get_by_role("group", name="Board")
            expect(board.get_by_role("img")).to_have_count(len(hand["board"]))
        else:
            expect(row).to_contain_text("no flop")
        net = hand["net"]
        result = f"+{net:,}" if net > 0 else f"−{-net:,}" if net < 0 else "0"
        expect(row.locator("[data-net]")).to_have_text(result)
        expect(
            row.get_by_role("button", name=f"Replay hand {hand['number']} of game #{game_id}")
        ).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "history-list-phone.png"), full_page=True)
    assert player.errors == [], player.errors
    player.context.close()


def test_ten_hands_a_game_and_more_on_request(
    room: Room, browser: Browser, arena: dict[str, Any], artifacts: Any
) -> None:
    game_id = arena["game_id"]
    account = arena["winner"]
    everything = account.call("GET", f"/api/me/hands?game_id={game_id}&limit=100")["hands"]
    player = account.open(browser)
    page = open_history(player, room)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/me/hands" in r.url else None)
    expect(hand_rows(page, game_id)).to_have_count(10)
    # every game shows ten at most (this player's other games too, if any)
    for count in page.locator("[data-game-hands]").evaluate_all("bs => bs.map(b => b.rows.length)"):
        assert count <= 10
    more = game_section(page, game_id).get_by_role("button", name="More hands")
    pages = 0
    while more.is_visible():
        shown = hand_rows(page, game_id).count()
        last = hand_rows(page, game_id).last.get_attribute("data-hand-id")
        more.click()
        expect(hand_rows(page, game_id)).not_to_have_count(shown)
        pages += 1
        assert asked[-1].endswith(f"/api/me/hands?game_id={game_id}&before={last}&limit=10")
    assert pages == (len(everything) - 1) // 10
    numbers = hand_rows(page, game_id).evaluate_all("rs => rs.map(r => Number(r.dataset.hand))")
    assert numbers == [h["number"] for h in everything]
    assert numbers == list(range(len(everything), 0, -1))  # newest first, none missing
    # once every hand is listed, the keyboard is on the first of the older ones
    expect(hand_rows(page, game_id).nth(pages * 10).get_by_role("button")).to_be_focused()
    page.screenshot(path=str(artifacts / "history-list.png"), full_page=True)
    assert player.errors == [], player.errors
    player.context.close()


def test_no_hands_yet_says_so(room: Room, browser: Browser) -> None:
    player = Account(room.base, unique_name("pia")).open(browser)
    page = open_history(player, room)
    expect(page.locator("[data-history-empty]")).to_have_text(
        "You have no hands yet. Every hand you are dealt is listed here once it ends, ten a "
        "game, each one click from its replay."
    )
    expect(page.locator("section.history-game")).to_have_count(0)
    assert player.errors == [], player.errors
    player.context.close()


# -- one click to the replay ----------------------------------------------------------------


def test_a_hand_replays_street_by_street_with_only_your_cards(
    room: Room, browser: Browser, arena: dict[str, Any], artifacts: Any
) -> None:
    game_id, river = arena["game_id"], arena["river"]
    account = arena["loser"]
    record = account.call("GET", f"/api/hands/{river['id']}")
    other = next(p for p in record["players"] if p["seat"] != river["seat"])
    assert other["cards"] is None and not other["shown"]  # the room hides them too
    player = account.open(browser, viewport=PHONE)
    page = open_history(player, room)
    row = page.locator(f"[data-game-hands] tr[data-hand-id='{river['id']}']")
    expect(row).to_be_visible()  # among the last ten
    row.get_by_role("button", name=f"Replay hand {river['number']} of game #{game_id}").click()

    replay = page.locator("[data-replay]")
    title = page.locator("[data-replay-title]")
    expect(title).to_have_text(f"Hand #{river['number']} · game #{game_id}")
    expect(title).to_be_focused()
    step = replay.locator("[data-step-text]")
    expect(step).to_have_text(f"Hand #{river['number']} is dealt.")
    expect(replay.locator("[data-seats] .card[data-suit]")).to_have_count(0)
    for _ in range(3):  # small blind, big blind, the hole cards
        page.keyboard.press("ArrowRight")
    expect(step).to_have_text("The hole cards are dealt.")
    mine = replay.locator(".seat.me .card[data-suit]")
    expect(mine).to_have_count(2)
    for card, face in zip(river["cards"], mine.all(), strict=True):
        expect(face).to_have_attribute("aria-label", card_label(card))
    expect(replay.locator(".seat.me .name")).to_contain_text(account.name)
    expect(replay.locator(".seat:not(.me) .name")).to_have_text(other["name"])
    hidden = replay.locator(".seat:not(.me) .card")
    expect(hidden).to_have_count(2)
    expect(replay.locator(".seat:not(.me) .card.back")).to_have_count(2)

    # street by street (Page Down): the flop's first card, the turn, the river
    board = replay.locator("[data-board] .card[data-suit]")
    count = replay.locator("[data-step-count]")
    for street, cards in (("flop", 1), ("turn", 4), ("river", 5)):
        page.keyboard.press("PageDown")
        expect(count).to_contain_text(f"· {street}")
        expect(board).to_have_count(cards)
        expect(replay.locator(".seat:not(.me) .card[data-suit]")).to_have_count(0)
    for card, face in zip(river["board"], board.all(), strict=True):
        expect(face).to_have_attribute("aria-label", card_label(card))
    replay.get_by_role("button", name="To the end").click()
    winner = next(p for p in record["players"] if p["net"] > 0)
    pot = record["pots"][0]["amount"]
    expect(step).to_have_text(f"{winner['name']} wins the main pot, {pot:,}.")
    expect(replay.locator(".seat:not(.me) .card[data-suit]")).to_have_count(0)
    expect(replay.locator(".seat.me .card[data-suit]")).to_have_count(2)
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "history-list-replay-phone.png"), full_page=True)

    # its downloads, and its proof checked in the page
    links = page.locator("[data-downloads] a")
    expect(links).to_have_count(3)
    hrefs = [link.get_attribute("href") for link in links.all()]
    assert hrefs == [
        f"/api/hands/{river['id']}/export?format=phh",
        f"/api/hands/{river['id']}/export?format=pokerstars",
        f"/api/hands/{river['id']}/proof",
    ]
    expect(page.locator("[data-published-root]")).to_have_text(river["deck_root"])
    page.get_by_role("button", name="Verify this hand").click()
    verdict = page.locator("[data-verify-verdict]")
    expect(verdict).to_have_text(
        "Verified: all 7 revealed cards match the commitment, so they were fixed before "
        "the hand began."
    )

    # back to the list, where it was; and the address opens the same hand again
    page.get_by_role("button", name="Back to the hands").click()
    expect(row.get_by_role("button")).to_be_focused()
    assert page.url.endswith(f"/history#replay-{river['id']}")
    page.reload()
    ready(page)
    expect(title).to_have_text(f"Hand #{river['number']} · game #{game_id}")
    assert player.errors == [], player.errors
    player.context.close()
