"""The action bar's amount box: the bet button follows what is typed, an amount out
of the legal range is shown as such and never sent (by the button or by Enter), and
all in only when the player chooses it. Read back from the server's hand."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, expect

from tests.ui.conftest import Room
from tests.ui.controls_kit import account, at_table, game, no_page_errors, to_act, until
from tests.ui.kit import Account, Player, heads_up_game

pytestmark = pytest.mark.slow


@dataclass
class Turn:
    """The host's first turn of a heads-up $10 table: raise from $0.40 to $10.00."""

    host: Account
    game_id: int
    player: Player

    @property
    def box(self) -> Locator:
        return self.player.page.locator("[data-actions] [data-amount]")

    @property
    def bet_button(self) -> Locator:
        return self.player.page.locator("[data-actions] [data-bet]")

    @property
    def note(self) -> Locator:
        return self.player.page.locator("[data-actions] [data-amount-note]")

    def my_bet(self) -> int:
        hand = game(self.host, self.game_id)["hand"]
        seat = next(
            s for s in game(self.host, self.game_id)["seats"] if s["user_id"] == self.host.id
        )
        mine = next(p for p in hand["players"] if p["seat"] == seat["seat"])
        return int(mine["bet"])

    def nothing_sent(self) -> None:
        """Half a second later the server still waits for the host, blind in front."""
        self.player.page.wait_for_timeout(500)
        table = game(self.host, self.game_id)
        assert table["hand"]["legal"] is not None, "the host's action was sent"
        assert self.my_bet() == 10


@pytest.fixture
def turn(room: Room, browser: Browser) -> Iterator[Turn]:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    player = at_table(browser, host, room.base, game_id)
    expect(player.page.locator("[data-actions]")).to_be_visible()
    yield Turn(host, game_id, player)
    no_page_errors(player)
    player.context.close()


def test_the_box_is_in_dollars_and_the_button_follows_it(turn: Turn) -> None:
    expect(turn.player.page.locator("[data-amount-unit]")).to_have_text("$")
    expect(turn.note).to_contain_text("From $0.40 to $10.00")
    expect(turn.note).to_contain_text("1 chip = 1 cent")
    turn.box.fill("0.75")
    expect(turn.bet_button).to_have_text("Raise to $0.75")
    expect(turn.bet_button).to_be_enabled()
    turn.box.press("Enter")
    bet = until(turn.my_bet, lambda b: b != 10)
    assert bet == 75, bet  # the server's hand holds exactly the raise typed


def test_too_much_is_shown_and_not_sent(turn: Turn, artifacts: Path) -> None:
    turn.box.fill("999")
    expect(turn.bet_button).to_have_text("Raise to $999.00")
    expect(turn.bet_button).to_be_disabled()
    expect(turn.note).to_have_text(
        "$999.00 is more than the most you can raise to, $10.00 (All-in)."
    )
    turn.player.shot(artifacts, "amount-box-too-much")
    turn.box.press("Enter")
    turn.nothing_sent()
    expect(turn.note).to_contain_text("more than the most")


def test_too_little_is_shown_and_not_sent(turn: Turn) -> None:
    turn.box.fill("0.25")
    expect(turn.bet_button).to_have_text("Raise to $0.25")
    expect(turn.bet_button).to_be_disabled()
    expect(turn.note).to_have_text("$0.25 is less than the least you can raise to, $0.40.")
    turn.box.press("Enter")
    turn.nothing_sent()
    turn.box.fill("lots")
    expect(turn.note).to_have_text("Type an amount in dollars, such as 0.40.")
    expect(turn.bet_button).to_be_disabled()
    turn.box.press("Enter")
    turn.nothing_sent()


def test_all_in_only_when_chosen(turn: Turn) -> None:
    turn.box.fill("9.99")
    expect(turn.bet_button).to_have_text("Raise to $9.99")
    turn.player.page.locator("[data-actions] [data-preset=all_in]").click()
    expect(turn.box).to_have_value("10.00")
    expect(turn.bet_button).to_have_text("All in $10.00")
    turn.bet_button.click()
    bet = until(turn.my_bet, lambda b: b != 10)
    assert bet == 1000, bet
    hand = game(turn.host, turn.game_id)["hand"]
    assert any(p["all_in"] for p in hand["players"]), hand["players"]


def test_the_box_and_its_note_fit_a_phone(room: Room, browser: Browser, artifacts: Path) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    game_id = heads_up_game(host, guest)
    player = host.open(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    player.visit(f"{room.base}/games/{game_id}")
    box = player.page.locator("[data-actions] [data-amount]")
    box.fill("999")
    note = player.page.locator("[data-actions] [data-amount-note]")
    expect(note).to_contain_text("more than the most")
    expect(note).to_be_in_viewport()
    width = player.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    player.shot(artifacts, "amount-box-too-much-phone")
    no_page_errors(player)
    player.context.close()


def test_at_a_points_table_the_box_is_in_points(room: Room, browser: Browser) -> None:
    host, guest = account(room.base, "host"), account(room.base, "guest")
    body = {"preset": "arena", "format": "tournament", "seats": 2, "buy_in": 1000,
            "small_blind": 10, "big_blind": 20, "blinds_every_hands": 10}  # fmt: skip
    game_id = int(host.call("POST", "/api/games", body)["game_id"])
    guest.call("POST", f"/api/games/{game_id}/join", {})
    first = to_act([host, guest], game_id)
    player = at_table(browser, first, room.base, game_id)
    bar = player.page.locator("[data-actions]")
    expect(bar.locator("[data-amount-unit]")).to_have_text("points")
    expect(bar.locator("[data-amount-note]")).to_have_text("From 40 to 1,000 points.")
    bar.locator("[data-amount]").fill("0.5")
    expect(bar.locator("[data-amount-note]")).to_have_text(
        "Type a whole number of points, such as 40."
    )
    expect(bar.locator("[data-bet]")).to_be_disabled()
    bar.locator("[data-amount]").fill("60")
    expect(bar.locator("[data-bet]")).to_have_text("Raise to 60")
    bar.locator("[data-amount]").press("Enter")
    table = until(
        lambda: game(first, game_id), lambda g: any(p["bet"] == 60 for p in g["hand"]["players"])
    )
    assert any(p["bet"] == 60 for p in table["hand"]["players"]), table["hand"]["players"]
    no_page_errors(player)
    player.context.close()
