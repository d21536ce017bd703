"""The lobby and the game lifecycle: creating games, listing and showing them, joining,
leaving, starting; every refusal a specific error that changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from cardroom.service import accounts, game_details, lobby
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import AccountSuspended, InsufficientBalance, InvalidInput, NotFound
from cardroom.service.game_errors import (
    AlreadySeated,
    GameNotFound,
    InvalidGameOptions,
    NotAllowedNow,
    NotHostOrAdmin,
    NotSeated,
    SeatUnavailable,
    TooManyWaitingGames,
)
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import (
    Game,
    GameFormat,
    GamePlayer,
    GameStatus,
    HandRecord,
    LedgerTransfer,
    Role,
    TransferKind,
)
from tests.conftest import FakeClock
from tests.service.gamekit import (
    assert_audit_clean,
    balance,
    detail,
    kinds,
    players,
    source,
)

Unchanged = Callable[[], AbstractContextManager[None]]


@pytest.fixture
def trio(ctx: ServiceContext) -> list[int]:
    return players(ctx, "alice", "bob", "carol")


def test_create_a_game_with_the_preset_defaults(ctx: ServiceContext, trio: list[int]) -> None:
    alice = trio[0]
    result = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00))
    assert result.version == 1 and result.status is GameStatus.WAITING
    assert kinds(result) == ["GameCreated", "PlayerSeated", "BoughtIn"]
    assert [e.seq for e in result.events] == [1, 2, 3]
    assert balance(ctx, alice) == 90_00  # the host sits down and pays

    (game,) = lobby.list_lobby(ctx)
    assert (game.preset, game.format, game.status) == ("house", GameFormat.CASH, GameStatus.WAITING)
    assert (game.buy_in, game.small_blind, game.big_blind) == (10_00, 10, 20)  # BB = buy-in/50
    assert (game.seats_taken, game.seat_count) == (1, 9)
    assert (game.turn_clock_seconds, game.between_hands_seconds) == (120, 60)
    assert game.host_name == "alice" and game.pays_money
    assert game.payouts == (100,) and game.blinds_every_hands is None

    shown = detail(ctx, result.game_id, alice)
    assert shown.viewer_seat == 1 and shown.viewer_cost is None
    assert [(s.seat, s.name, s.stack) for s in shown.seats] == [(1, "alice", 10_00)]
    assert shown.cancel_due_at == ctx.now() + timedelta(hours=72)
    assert detail(ctx, result.game_id, trio[1]).viewer_cost == 10_00
    assert_audit_clean(ctx)


def test_create_with_every_option(ctx: ServiceContext, trio: list[int]) -> None:
    options = GameOptions(
        preset="house",
        format="tournament",
        seats=6,
        buy_in=25_00,
        small_blind=25,
        big_blind=50,
        blinds_every_minutes=15,
        blinds_rate_percent=50,
        payouts=(65, 35),
        rules={"turn_clock_seconds": 3 * 24 * 3600, "between_hands_seconds": 30},
    )
    result = lobby.create_game(ctx, trio[0], options, sit=False)
    assert kinds(result) == ["GameCreated"]
    game = detail(ctx, result.game_id).summary
    assert (game.format, game.seat_count, game.buy_in) == (GameFormat.TOURNAMENT, 6, 25_00)
    assert (game.small_blind, game.big_blind, game.blinds_every_minutes) == (25, 50, 15)
    assert game.blinds_rate_percent == 50 and game.payouts == (65, 35)
    assert (game.turn_clock_seconds, game.between_hands_seconds) == (3 * 24 * 3600, 30)
    assert balance(ctx, trio[0]) == 100_00 and game.seats_taken == 0


def test_other_presets(ctx: ServiceContext, trio: list[int]) -> None:
    standard = lobby.create_game(ctx, trio[0], GameOptions(preset="standard", buy_in=5_00))
    shown = detail(ctx, standard.game_id).summary
    assert (shown.format, shown.turn_clock_seconds, shown.big_blind) == (
        GameFormat.PER_HAND,
        30,
        10,
    )
    assert kinds(standard) == ["GameCreated", "PlayerSeated"]  # nothing paid at the seat
    arena = lobby.create_game(
        ctx, trio[1], GameOptions(preset="arena", buy_in=1500, small_blind=10, big_blind=20)
    )
    shown = detail(ctx, arena.game_id).summary
    assert not shown.pays_money and shown.blinds_every_hands == 10
    assert shown.blinds_rate_percent == 100
    assert balance(ctx, trio[1]) == 100_00  # points: no money moves
    legacy = lobby.create_game(ctx, trio[2], GameOptions(preset="legacy", buy_in=2_00))
    assert detail(ctx, legacy.game_id).summary.turn_clock_seconds is None


@pytest.mark.parametrize(
    ("options", "sentence"),
    [
        (GameOptions(buy_in=99), r"at least \$1\.00"),
        (GameOptions(seats=11), "seats is from 2 to 10"),
        (GameOptions(seats=1), "seats is from 2 to 10"),
        (GameOptions(preset="casino"), "not a preset"),
        (GameOptions(preset="standard", format="cash"), "no cash games"),
        (GameOptions(format="per_hand"), "no per_hand games"),
        (GameOptions(format="bingo"), "not a game format"),
        (GameOptions(preset="arena", buy_in=1500), "Set the blinds"),
        (GameOptions(format="tournament", payouts=(60, 30)), "add up to 100"),
        (GameOptions(format="tournament", payouts=(30, 70)), "lower place"),
        (GameOptions(payouts=(65, 35)), "Only money tournaments"),
        (GameOptions(rules={"chip_unit": "point"}), "fixed by the house preset"),
        (GameOptions(rules={"colour": "red"}), "Unknown rule option: colour"),
        (GameOptions(rules={"turn_clock_seconds": 2}), "turn_clock_seconds is from 5"),
        (GameOptions(rules={"showdown": "whenever"}), "showdown is one of"),
        (GameOptions(rules={"cash_rebuy": "yes"}), "true or false"),
        (GameOptions(small_blind=5), "Give both blinds"),
        (GameOptions(small_blind=30, big_blind=20), "no larger than the big blind"),
        (GameOptions(preset="standard", small_blind=10, big_blind=20, buy_in=5_00), "1/50"),
        (GameOptions(preset="standard", blinds_every_hands=10, blinds_rate_percent=50), "never"),
        (GameOptions(blinds_every_hands=10), "rate of at least 1%"),
        (GameOptions(buy_in=10.5), "whole number"),  # type: ignore[arg-type]
        (GameOptions(buy_in=True), "whole number"),
        (GameOptions(seats="9"), "whole number"),  # type: ignore[arg-type]
    ],
)
def test_impossible_options_are_refused(
    ctx: ServiceContext,
    trio: list[int],
    unchanged: Unchanged,
    options: GameOptions,
    sentence: str,
) -> None:
    with unchanged(), pytest.raises(InvalidGameOptions, match=sentence):
        lobby.create_game(ctx, trio[0], options)


def test_create_refusals_about_the_host(
    ctx: ServiceContext, trio: list[int], unchanged: Unchanged
) -> None:
    with unchanged(), pytest.raises(NotFound):
        lobby.create_game(ctx, 999, GameOptions())
    accounts.suspend(ctx, CONSOLE, "alice", "testing")
    with unchanged(), pytest.raises(AccountSuspended):
        lobby.create_game(ctx, trio[0], GameOptions())
    with unchanged(), pytest.raises(InsufficientBalance, match=r"costs \$200\.00"):
        lobby.create_game(ctx, trio[1], GameOptions(buy_in=200_00))


def test_join_and_leave_before_the_start_refunds(ctx: ServiceContext, trio: list[int]) -> None:
    alice, bob, _ = trio
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=30_00)).game_id
    joined = lobby.join(ctx, game, bob, seat=5)
    assert kinds(joined) == ["PlayerSeated", "BoughtIn"] and joined.version == 2
    assert balance(ctx, bob) == 70_00
    assert [(s.seat, s.name) for s in detail(ctx, game).seats] == [(1, "alice"), (5, "bob")]
    left = lobby.leave(ctx, game, bob)
    assert kinds(left) == ["BuyInRefunded", "PlayerLeft"]
    assert balance(ctx, bob) == 100_00
    with make_sessionmaker(ctx.engine)() as session:
        refund = session.scalars(
            select(LedgerTransfer).where(LedgerTransfer.kind == TransferKind.REFUND)
        ).one()
        assert refund.game_id == game and refund.reason.startswith(f"Refund, game {game}")
        row = session.scalars(select(GamePlayer).where(GamePlayer.user_id == bob)).one()
        assert (row.seat, row.waiting_slot) == (None, None)
    # Leaving and coming back is fine before the start.
    lobby.join(ctx, game, bob)
    assert_audit_clean(ctx)


def test_join_refusals_change_nothing(
    ctx: ServiceContext, trio: list[int], unchanged: Unchanged
) -> None:
    alice, bob, carol = trio
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=60_00, seats=3)).game_id
    with unchanged(), pytest.raises(AlreadySeated, match="already have a seat"):
        lobby.join(ctx, game, alice)
    with unchanged(), pytest.raises(SeatUnavailable, match="Seat 1 is taken"):
        lobby.join(ctx, game, bob, seat=1)
    with unchanged(), pytest.raises(SeatUnavailable, match="no seat 4"):
        lobby.join(ctx, game, bob, seat=4)
    with unchanged(), pytest.raises(InvalidInput):
        lobby.join(ctx, game, bob, seat="2")  # type: ignore[arg-type]
    with unchanged(), pytest.raises(GameNotFound):
        lobby.join(ctx, game + 100, bob)
    with unchanged(), pytest.raises(NotFound):
        lobby.join(ctx, game, 12345)
    lobby.join(ctx, game, bob)
    dave = players(ctx, "dave")[0]
    # A $60 buy-in with $40 left.
    lobby.create_game(ctx, dave, GameOptions(buy_in=60_00, seats=3))
    with unchanged(), pytest.raises(InsufficientBalance) as short:
        lobby.join(ctx, game, dave)
    assert short.value.sentence == "A seat at this table costs $60.00 and your balance is $40.00."
    assert (short.value.amount_cents, short.value.balance_cents) == (60_00, 40_00)
    with unchanged(), pytest.raises(NotSeated):
        lobby.leave(ctx, game, carol)


def test_at_most_three_waiting_games(
    ctx: ServiceContext, trio: list[int], unchanged: Unchanged
) -> None:
    alice, bob, carol = trio
    options = GameOptions(buy_in=1_00)
    # (a host has three waiting games at most, seated or not: issue 17)
    games = [lobby.create_game(ctx, bob, options, sit=False).game_id for _ in range(3)]
    games.append(lobby.create_game(ctx, carol, options, sit=False).game_id)
    for game in games[:3]:
        lobby.join(ctx, game, alice)
    with unchanged(), pytest.raises(TooManyWaitingGames, match="3 games waiting"):
        lobby.join(ctx, games[3], alice)
    with unchanged(), pytest.raises(TooManyWaitingGames):
        lobby.create_game(ctx, alice, GameOptions(buy_in=1_00))
    # A game hosted without sitting down counts too (issue 17: 60 empty games).
    with unchanged(), pytest.raises(TooManyWaitingGames):
        lobby.create_game(ctx, alice, GameOptions(buy_in=1_00), sit=False)
    # Once one starts, it no longer counts.
    lobby.join(ctx, games[0], carol)
    lobby.start(ctx, games[0], bob, source=source())
    lobby.join(ctx, games[3], alice)


def test_the_database_refuses_a_fourth_waiting_slot_and_a_shared_seat(
    ctx: ServiceContext, db: Engine, trio: list[int]
) -> None:
    alice, bob, _ = trio
    games = [lobby.create_game(ctx, alice, GameOptions(buy_in=1_00)).game_id for _ in range(3)]
    lobby.join(ctx, games[1], bob)  # bob's waiting slot 1
    rows: list[dict[str, Any]] = [
        # a fourth waiting game, bypassing the service
        {"game_id": games[0], "user_id": alice, "seat": 2, "waiting_slot": 4},
        # a second row for one player at one game
        {"game_id": games[0], "user_id": alice, "seat": 3, "waiting_slot": None},
        # a seat that is taken
        {"game_id": games[0], "user_id": bob, "seat": 1, "waiting_slot": None},
        # a waiting slot that another game of the same player holds
        {"game_id": games[2], "user_id": bob, "seat": 2, "waiting_slot": 1},
    ]
    for row in rows:
        with pytest.raises(IntegrityError), db.begin() as connection:
            connection.execute(insert(GamePlayer).values(joined_at=ctx.now(), **row))


def test_start_needs_the_host_and_two_players(
    ctx: ServiceContext, trio: list[int], unchanged: Unchanged
) -> None:
    alice, bob, carol = trio
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    with unchanged(), pytest.raises(NotAllowedNow, match="at least two players"):
        lobby.start(ctx, game, alice)
    lobby.join(ctx, game, bob)
    with unchanged(), pytest.raises(NotHostOrAdmin, match="Only the host"):
        lobby.start(ctx, game, bob)
    started = lobby.start(ctx, game, alice, source=source())
    assert kinds(started)[:4] == ["GameStarted", "HandDealt", "DeckCommitted", "BlindPosted"]
    assert started.status is GameStatus.RUNNING
    with unchanged(), pytest.raises(NotAllowedNow, match="already started"):
        lobby.start(ctx, game, alice)
    # A running cash game takes new players; they wait for the big blind.
    joined = lobby.join(ctx, game, carol)
    assert joined.events[0].payload["waits_for_big_blind"] is True
    shown = detail(ctx, game)
    assert shown.summary.status is GameStatus.RUNNING and shown.hand is not None
    assert shown.hand.number == 1 and shown.turn_due_at == ctx.now() + timedelta(seconds=120)


def test_an_admin_may_start_a_game(ctx: ServiceContext, trio: list[int]) -> None:
    alice, bob, _ = trio
    boss = accounts.create_user(ctx, CONSOLE, "boss", "correct horse", role=Role.ADMIN)
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, bob)
    assert lobby.start(ctx, game, boss.id, source=source()).status is GameStatus.RUNNING


def test_a_full_game_starts_by_itself_and_a_tournament_draws_seats(
    ctx: ServiceContext, trio: list[int], unchanged: Unchanged
) -> None:
    alice, bob, carol = trio
    options = GameOptions(format="tournament", seats=3, buy_in=10_00)
    game = lobby.create_game(ctx, alice, options).game_id
    lobby.join(ctx, game, bob)
    full = lobby.join(ctx, game, carol, source=source(3))
    assert kinds(full)[:5] == ["PlayerSeated", "BoughtIn", "SeatsDrawn", "GameStarted", "HandDealt"]
    drawn = {player: seat for player, seat in full.events[2].payload["seats"]}
    assert sorted(drawn) == sorted(trio) and sorted(drawn.values()) == [1, 2, 3]
    shown = detail(ctx, game)
    assert {s.user_id: s.seat for s in shown.seats} == drawn
    with make_sessionmaker(ctx.engine)() as session:
        rows = session.scalars(select(GamePlayer).where(GamePlayer.game_id == game)).all()
        assert {r.user_id: r.seat for r in rows} == drawn
        assert all(r.waiting_slot is None for r in rows)
        hand = session.scalars(select(HandRecord)).one()
        assert hand.number == 1 and sorted(hand.deck) == list(range(52))
        assert hand.ended_at is None and hand.final_state is None
    dave = players(ctx, "dave")[0]
    with unchanged(), pytest.raises(NotAllowedNow, match="takes no more players"):
        lobby.join(ctx, game, dave)
    with unchanged(), pytest.raises(NotAllowedNow, match="cannot leave a running tournament"):
        lobby.leave(ctx, game, bob)


def test_a_full_cash_table_refuses_another_player(
    ctx: ServiceContext, trio: list[int], unchanged: Unchanged
) -> None:
    alice, bob, carol = trio
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00, seats=2)).game_id
    assert lobby.join(ctx, game, bob, source=source()).status is GameStatus.RUNNING
    with unchanged(), pytest.raises(SeatUnavailable, match="full"):
        lobby.join(ctx, game, carol)


def test_the_lobby_lists_waiting_then_running_games(
    ctx: ServiceContext, clock: FakeClock, trio: list[int]
) -> None:
    alice, bob, carol = trio
    running = lobby.create_game(ctx, alice, GameOptions(buy_in=5_00, seats=2)).game_id
    clock.advance(timedelta(minutes=1))
    waiting = lobby.create_game(ctx, carol, GameOptions(buy_in=5_00)).game_id
    clock.advance(timedelta(minutes=1))
    lobby.join(ctx, running, bob, source=source())
    cancelled = lobby.create_game(ctx, bob, GameOptions(buy_in=5_00)).game_id
    lobby.cancel_game(ctx, bob, cancelled, "changed my mind")
    listed = lobby.list_lobby(ctx)
    assert [(g.id, g.status) for g in listed] == [
        (waiting, GameStatus.WAITING),
        (running, GameStatus.RUNNING),
    ]
    assert [g.summary.id for g in lobby.my_games(ctx, bob)] == [running]
    with pytest.raises(InvalidInput):
        lobby.list_lobby(ctx, limit=0)
    with pytest.raises(GameNotFound):
        game_details.game_detail(ctx, 999)
    with make_sessionmaker(ctx.engine)() as session:
        row = session.get(Game, cancelled)
        assert row is not None and row.status is GameStatus.CANCELLED and row.ended_at is not None
    assert balance(ctx, bob) == 95_00
    assert_audit_clean(ctx)
