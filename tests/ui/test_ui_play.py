"""Two players in two browsers: sign up, create and join a game, play a hand to a fold
and one to a showdown, with the keyboard alone, one of them on a phone's screen."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from cardroom.cards import parse_card
from cardroom.evaluator import evaluate, hand_name
from tests.ui.conftest import Room
from tests.ui.kit import Player, open_player, ready, seat, sign_up, unique_name, visit

pytestmark = pytest.mark.slow

PHONE: ViewportSize = {"width": 390, "height": 844}
RANKS = {
    "Two": "2", "Three": "3", "Four": "4", "Five": "5", "Six": "6", "Seven": "7",
    "Eight": "8", "Nine": "9", "Ten": "T", "Jack": "J", "Queen": "Q", "King": "K", "Ace": "A",
}  # fmt: skip
SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}


def card_text(label: str) -> str:
    """ "Ace of spades" (a card's aria-label) -> "As"."""
    rank, _, suit = label.split(" ")
    return RANKS[rank] + SUITS[suit]


def face_cards(page: Page, scope: str) -> list[str]:
    """The cards shown face up inside ``scope``, as text ("As")."""
    labels = page.locator(f"{scope} .card[data-suit]").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    return [card_text(label) for label in labels]


def actor(players: list[Player]) -> tuple[Player, Player]:
    """The player whose action bar is showing, and the other one."""
    for player in players:
        player.page.wait_for_function(
            "() => window.cardroomTable && window.cardroomTable.game"
            " && window.cardroomTable.game.hand && window.cardroomTable.game.hand.running"
        )
    for _ in range(200):  # ten seconds
        for i, player in enumerate(players):
            if player.page.locator("[data-actions]").is_visible():
                return player, players[1 - i]
        players[0].page.wait_for_timeout(50)
    raise AssertionError("nobody's action bar is showing")


def stack(player: Player, name: str) -> str:
    text: str = seat(player, name).locator(".stack").inner_text()
    return text.replace("stack", "").strip()


def watch_commands(page: Page, requests: list[str], commands: list[str]) -> None:
    def request(sent: Any) -> None:
        if re.search(r"/api/games/\d+/(actions|continue)$", sent.url):
            requests.append(sent.url)

    def socket(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") in ("act", "continue"):
                commands.append(message["type"])

        ws.on("framesent", frame)

    page.on("request", request)
    page.on("websocket", socket)


def test_two_players_play_to_a_fold_and_a_showdown(
    room: Room, browser: Browser, artifacts: Path
) -> None:
    alice = open_player(browser, unique_name("alice"))
    bob = open_player(browser, unique_name("bob"), viewport=PHONE, is_mobile=True, has_touch=True)
    play_requests: list[str] = []  # HTTP requests for the commands of play
    socket_commands: list[str] = []  # the commands of play sent on the table's socket
    for player in (alice, bob):
        watch_commands(player.page, play_requests, socket_commands)
    sign_up(alice, room.base)
    sign_up(bob, room.base)
    expect(alice.page.locator("[data-balance]")).to_have_text("$100.00")

    # alice creates a House cash game from the lobby's form
    page = alice.page
    page.get_by_label("Rules", exact=True).select_option("house")
    page.get_by_label("Format", exact=True).select_option("cash")
    page.get_by_label("Seats", exact=True).select_option("6")
    page.get_by_label("Buy-in ($)").fill("10.00")
    alice.shot(artifacts, "lobby-create-form")
    page.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    ready(page)
    game_id = int(page.url.rsplit("/", 1)[1])
    expect(page.locator("[data-balance]")).to_have_text("$90.00")
    expect(seat(alice, alice.name).locator(".stack")).to_contain_text("$10.00")

    # bob finds it in the lobby (on his phone) and joins
    bob.page.reload()
    ready(bob.page)
    row = bob.page.locator(f"tr[data-game='{game_id}']")
    expect(row).to_contain_text("$10.00")
    expect(row).to_contain_text("$0.10/$0.20")
    expect(row).to_contain_text("1/6")
    expect(row).to_contain_text("2 min")
    bob.shot(artifacts, "lobby-phone")
    row.get_by_role("button", name=re.compile(r"^Join for \$10\.00$")).click()
    bob.page.wait_for_url(room.url(f"/games/{game_id}"))
    ready(bob.page)
    expect(seat(alice, bob.name)).to_be_visible()  # alice's table shows him, live

    # alice's lobby, desktop, with the game in it
    lobby = alice.context.new_page()
    visit(lobby, room.url("/"))
    expect(lobby.locator(f"tr[data-game='{game_id}']")).to_contain_text("2/6")
    lobby.screenshot(path=str(artifacts / "lobby.png"))
    lobby.close()

    alice.page.get_by_role("button", name="Start the game").click()
    players = [alice, bob]

    # -- hand 1: the first to act folds ---------------------------------------------
    folder, winner = actor(players)
    for p in players:  # nobody sees the other's cards
        other = bob if p is alice else alice
        expect(seat(p, other.name).locator(".card.back")).to_have_count(2)
        assert face_cards(p.page, f".seat[data-seat='{other.game()['viewer_seat']}']") == []
        assert len(face_cards(p.page, ".seat.me")) == 2
    folder.page.get_by_role("button", name="Fold").click()
    for p in players:
        result = p.page.locator("[data-result]")
        expect(result).to_be_visible()
        expect(result).to_contain_text(f"Everyone else folded: {winner.name} wins $0.20.")
        expect(seat(p, folder.name).locator(".stack")).to_contain_text("$9.90")
        expect(seat(p, winner.name).locator(".stack")).to_contain_text("$10.10")
        # the folded hand and the uncontested winner's hand stay hidden
        assert face_cards(p.page, ".seat:not(.me)") == []
    expect(winner.page.locator("[data-log]")).to_contain_text(f"{folder.name} folds.")
    continue_button = alice.page.locator("[data-continue]")
    expect(continue_button).to_have_text(re.compile(r"^Continue \(\d:\d\d\)$"))
    alice.shot(artifacts, "table-result-fold")

    # -- hand 2: checked and called down with the keyboard alone, to a showdown -------
    before = {p.name: stack(p, p.name) for p in players}
    for p in players:
        p.page.locator("[data-continue]").focus()
        p.page.keyboard.press("Enter")
    expect(alice.page.locator("[data-log]")).to_contain_text("Hand #2:")
    streets_seen = 0
    phone_turn = False
    while True:  # until the hand is over
        current, other = actor(players)
        page = current.page
        button = page.locator("[data-actions] [data-kind=check], [data-actions] [data-kind=call]")
        expect(button).to_be_focused()  # the turn put the keyboard on check/call
        if current is bob and not phone_turn:
            phone_turn = True  # the action bar within a thumb's reach, the table above it
            bob.shot(artifacts, "table-phone-your-turn")
            box = page.locator("[data-actions]").bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"]
        if len(face_cards(page, "[data-board]")) == 3 and streets_seen == 0:
            streets_seen = 1
            # mid-hand: the opponent's cards are backs, the board is out
            expect(seat(current, other.name).locator(".card.back")).to_have_count(2)
            assert face_cards(page, ".seat:not(.me)") == []
            alice.shot(artifacts, "table-mid-hand")
            bob.shot(artifacts, "table-mid-hand-phone")
        expect(button).to_be_focused()
        version = current.game()["version"]
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                "version => window.cardroomTable.game.version > version", arg=version, timeout=10000
            )
        except Exception:
            state = page.evaluate(
                "({active: document.activeElement.outerHTML, error: document.querySelector("
                "'[data-error]').textContent, conn: document.querySelector('[data-conn]')"
                ".textContent, version: window.cardroomTable.game.version})"
            )
            raise AssertionError(f"{current.name}'s Enter did nothing: {state}") from None
        if not current.game()["hand"]["running"]:
            break

    for p in players:
        expect(p.page.locator("[data-result]")).to_be_visible()
    board = face_cards(alice.page, "[data-board]")
    assert len(board) == 5
    holdings: dict[str, list[str]] = {}
    for p in players:
        other = bob if p is alice else alice
        own = face_cards(p.page, ".seat.me")
        # simultaneous showdown (house): each now sees the other's cards, as they are
        expect(seat(other, p.name).locator(".card[data-suit]")).to_have_count(2)
        assert face_cards(other.page, f".seat[data-seat='{p.game()['viewer_seat']}']") == own
        holdings[p.name] = own
    ranks = {
        name: evaluate([parse_card(c) for c in cards + board]) for name, cards in holdings.items()
    }
    best = max(ranks.values())
    winners = [name for name, rank in ranks.items() if rank == best]
    result = alice.page.locator("[data-result-lines]")
    if len(winners) == 1:
        expect(result).to_contain_text(f"Pot $0.40: {winners[0]} wins with {hand_name(best)}.")
        loser = next(name for name in ranks if name != winners[0])
        expected = {
            winners[0]: cents(before[winners[0]]) + 20,
            loser: cents(before[loser]) - 20,
        }
    else:
        expect(result).to_contain_text(f"split by {winners[0]} and {winners[1]}")
        expected = {name: cents(before[name]) for name in ranks}
    for name, rank in ranks.items():
        expect(result).to_contain_text(f"{name} showed")
        expect(result).to_contain_text(hand_name(rank))
    for p in players:
        for name, amount in expected.items():
            expect(seat(p, name).locator(".stack")).to_contain_text(money(amount))
    alice.shot(artifacts, "table-result-showdown")
    bob.shot(artifacts, "table-result-showdown-phone")

    # the phone's page never scrolls sideways
    width = bob.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    # every action and Continue went on the table's socket, none as an HTTP request
    assert play_requests == [], play_requests
    assert "act" in socket_commands and "continue" in socket_commands, socket_commands
    for p in players:
        assert p.errors == [], p.errors
        p.context.close()


def cents(text: str) -> int:
    return int(text.replace("$", "").replace(".", "").replace(",", ""))


def money(amount: int) -> str:
    return f"${amount // 100}.{amount % 100:02d}"
