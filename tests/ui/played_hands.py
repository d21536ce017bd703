"""Hands played fast over the API for the statistics and ledger browser tests (not a
``*kit*`` module: the inventory test reads those as every test's helpers)."""

from __future__ import annotations

from typing import Any

from tests.ui.kit import Account, heads_up_game


def game_of(account: Account, game_id: int) -> dict[str, Any]:
    game: dict[str, Any] = account.call("GET", f"/api/games/{game_id}")
    return game


def move(account: Account, game_id: int, kind: str, amount: int | None = None) -> None:
    body: dict[str, Any] = {"kind": kind, "version": game_of(account, game_id)["version"]}
    if amount is not None:
        body["amount"] = amount
    account.call("POST", f"/api/games/{game_id}/actions", body)


def next_hand(game_id: int, *players: Account) -> None:
    for player in players:
        version = game_of(player, game_id)["version"]
        player.call("POST", f"/api/games/{game_id}/continue", {"version": version})


def three_hands(host: Account, guest: Account) -> tuple[int, int, int]:
    """A heads-up House cash game and three hands on it: (game, small, big blind).

    1. the host (button) raises to three big blinds, the guest folds;
    2. the guest limps, the host checks, bets a big blind on the flop, the guest folds;
    3. the host folds the button: the guest's walk.
    The host ends up 2 BB - SB, the guest down as much."""
    game_id = heads_up_game(host, guest)
    hand = game_of(host, game_id)["hand"]
    small, big = int(hand["small_blind"]), int(hand["big_blind"])
    move(host, game_id, "raise", 3 * big)
    move(guest, game_id, "fold")
    next_hand(game_id, host, guest)
    move(guest, game_id, "call")
    move(host, game_id, "check")
    move(host, game_id, "bet", big)
    move(guest, game_id, "fold")
    next_hand(game_id, host, guest)
    move(host, game_id, "fold")
    return game_id, small, big
