"""Helpers for the controls' tests: the server's side of what a click did, read
through the API (balance, seat, game state), and the table's own controls."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from playwright.sync_api import Browser, Locator, expect

from tests.ui.kit import Account, Player, ready, unique_name

T = TypeVar("T")


def until(read: Callable[[], T], done: Callable[[T], bool], seconds: float = 5.0) -> T:
    """Read the server again until ``done`` holds or time is up; the last reading."""
    deadline = time.monotonic() + seconds
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(0.1)
        value = read()
    return value


def balance(account: Account) -> int:
    """The account's balance in cents, as the server keeps it."""
    return int(account.call("GET", "/api/me/balance")["balance_cents"])


def game(account: Account, game_id: int) -> dict[str, Any]:
    """The table as the server shows it to ``account``."""
    found: dict[str, Any] = account.call("GET", f"/api/games/{game_id}")
    return found


def seat_of(account: Account, game_id: int) -> dict[str, Any] | None:
    """``account``'s seat at the game (None when it has none), from the server."""
    for seat in game(account, game_id)["seats"]:
        if seat["user_id"] == account.id:
            found: dict[str, Any] = seat
            return found
    return None


def act(account: Account, game_id: int, kind: str, amount: int | None = None) -> None:
    """An action over the API, on the version the server shows now."""
    body: dict[str, Any] = {"kind": kind, "version": game(account, game_id)["version"]}
    if amount is not None:
        body["amount"] = amount
    account.call("POST", f"/api/games/{game_id}/actions", body)


def to_act(accounts: list[Account], game_id: int) -> Account:
    """The account whose turn it is in the running hand."""
    for account in accounts:
        if game(account, game_id)["hand"]["legal"] is not None:
            return account
    raise AssertionError("nobody may act")


def new_game(host: Account, **body: Any) -> int:
    """A game made over the API by ``host`` (seated), from House cash defaults."""
    wanted = {"preset": "house", "format": "cash", "seats": 3, "buy_in": 1000, **body}
    return int(host.call("POST", "/api/games", wanted)["game_id"])


def account(base: str, prefix: str) -> Account:
    return Account(base, unique_name(prefix))


def at_table(browser: Browser, account: Account, base: str, game_id: int) -> Player:
    """``account``'s browser on the table's page, set up and live."""
    player = account.open(browser)
    player.visit(f"{base}/games/{game_id}")
    expect(player.page.locator("[data-conn]")).to_have_text("Live")
    return player


def seat_command(player: Player, name: str) -> Locator:
    """One of the seat's own commands under the table (Cash out, Sit out...)."""
    return player.page.locator("[data-seat-tools]").get_by_role("button", name=name, exact=True)


def confirm_yes(player: Player) -> None:
    """Answer Yes in the table's confirmation dialog."""
    dialog = player.page.locator("[data-confirm-dialog]")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Yes").click()
    expect(dialog).to_be_hidden()


def no_page_errors(*players: Player) -> None:
    for player in players:
        assert player.errors == [], (player.name, player.errors)


def reload(player: Player) -> None:
    player.page.reload()
    ready(player.page)
