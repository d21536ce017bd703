"""Helpers for the game use-case tests: players, whole hands through the use cases,
balances and a clean audit."""

from __future__ import annotations

from collections.abc import Callable

from cardroom.deck import RandomSource, SeededRandomSource
from cardroom.service import accounts, game_details, game_options, lobby, money, play
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import GameDetail, LegalActionsView, PlayResult
from cardroom.store.models import GameStatus, Role

PASSWORD = "correct horse"

Choice = tuple[str, int | None]
Policy = Callable[[LegalActionsView], Choice]


def players(ctx: ServiceContext, *names: str) -> list[int]:
    return [accounts.sign_up(ctx, name, PASSWORD).id for name in names]


def admin(ctx: ServiceContext, name: str = "boss") -> int:
    return accounts.create_user(ctx, CONSOLE, name, PASSWORD, role=Role.ADMIN).id


def source(seed: int = 7) -> RandomSource:
    return SeededRandomSource(seed)


def passive(legal: LegalActionsView) -> Choice:
    return ("check", None) if "check" in legal.kinds else ("call", None)


def shove(legal: LegalActionsView) -> Choice:
    return ("all_in", None) if "all_in" in legal.kinds else passive(legal)


def folder(legal: LegalActionsView) -> Choice:
    return ("check", None) if "check" in legal.kinds else ("fold", None)


def heads_up(ctx: ServiceContext, seed: int = 7) -> tuple[int, int, int]:
    """(game, alice, bob): alice hosts a heads-up cash game with the defaults, bob
    joins, alice starts it; the first hand is dealt and alice, on the button, acts
    first."""
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, game_options.GameOptions()).game_id
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source(seed))
    return game, alice, bob


def to_act(ctx: ServiceContext, game_id: int) -> tuple[int, LegalActionsView, int] | None:
    """(player to act, what they may do, table version), or None between hands."""
    seen = game_details.game_detail(ctx, game_id)
    if seen.hand is None or not seen.hand.running:
        return None
    player = next(s.user_id for s in seen.seats if s.seat == seen.hand.seat_to_act)
    mine = game_details.game_detail(ctx, game_id, player)
    assert mine.hand is not None and mine.hand.legal is not None
    return player, mine.hand.legal, mine.summary.version


def play_hand(
    ctx: ServiceContext,
    game_id: int,
    policy: Policy = passive,
    *,
    rng: RandomSource | None = None,
    limit: int = 200,
) -> list[PlayResult]:
    """Act for whoever is to act until the running hand ends."""
    results: list[PlayResult] = []
    for _ in range(limit):
        turn = to_act(ctx, game_id)
        if turn is None:
            return results
        player, legal, version = turn
        kind, amount = policy(legal)
        results.append(
            play.act(ctx, game_id, player, kind, amount, expected_version=version, source=rng)
        )
    raise AssertionError("the hand did not end")


def everyone_continues(
    ctx: ServiceContext, game_id: int, rng: RandomSource | None = None
) -> list[PlayResult]:
    detail = game_details.game_detail(ctx, game_id)
    return [
        play.press_continue(ctx, game_id, seat.user_id, source=rng)
        for seat in detail.seats
        if not seat.continued
    ]


def tournament_to_its_winner(ctx: ServiceContext, host: int, *others: int) -> int:
    """A three-seat sit-and-go (65/35) started by its last player and shoved to its
    winner; its id."""
    options = game_options.GameOptions(format="tournament", seats=3, buy_in=10_00, payouts=(65, 35))
    tournament = lobby.create_game(ctx, host, options).game_id
    *early, last = others
    for player in early:
        lobby.join(ctx, tournament, player)
    lobby.join(ctx, tournament, last, source=source(11))  # full: starts by itself
    for hand in range(1, 60):
        play_hand(ctx, tournament, shove)
        if detail(ctx, tournament).summary.status is GameStatus.FINISHED:
            return tournament
        everyone_continues(ctx, tournament, source(100 + hand))
    raise AssertionError("the tournament did not finish")


def kinds(result: PlayResult) -> list[str]:
    return [event.kind for event in result.events]


def all_kinds(results: list[PlayResult]) -> list[str]:
    return [kind for result in results for kind in kinds(result)]


def balance(ctx: ServiceContext, user_id: int) -> int:
    return money.balance(ctx, user_id)


def detail(ctx: ServiceContext, game_id: int, viewer: int | None = None) -> GameDetail:
    return game_details.game_detail(ctx, game_id, viewer)


def assert_audit_clean(ctx: ServiceContext) -> None:
    report = money.audit(ctx)
    assert report.differences == (), report.differences
