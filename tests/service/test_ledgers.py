"""A table's ledger through the service: a cash table with a rebuy and a cash-out, a
per-hand table, a sit-and-go's places and prizes. Each player's net is checked
against their own balance (what they hold now, plus their chips still on the table,
minus what they held before they sat down), and the payments settle every net."""

from __future__ import annotations

import pytest

from cardroom.service import ledgers, lobby, money, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.service.ledgers import GameLedger, LedgerRefused
from cardroom.service.users import UserInfo
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import User
from tests.service.gamekit import (
    admin,
    detail,
    everyone_continues,
    folder,
    play_hand,
    players,
    shove,
    source,
    tournament_to_its_winner,
)

START = 100_00  # every new player's balance


def info(ctx: ServiceContext, user_id: int) -> UserInfo:
    with make_sessionmaker(ctx.engine)() as session:
        user = session.get(User, user_id)
        assert user is not None
        return UserInfo.of(user)


def check_settles(ledger: GameLedger) -> None:
    left = {line.user_id: line.net for line in ledger.players}
    for p in ledger.payments:
        left[p.payer_id] += p.amount
        left[p.payee_id] -= p.amount
    assert ledger.unsettled == 0
    assert all(v == 0 for v in left.values())
    assert len(ledger.payments) <= max(len(ledger.players) - 1, 0)


def test_a_cash_table_with_a_rebuy_and_a_cash_out(ctx: ServiceContext) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00, seats=3)).game_id
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source())
    for hand in range(10):  # all in until one of them is broke
        play_hand(ctx, game, shove)
        broke = [s.user_id for s in detail(ctx, game).seats if s.stack == 0]
        if broke:
            break
        everyone_continues(ctx, game, source(50 + hand))
    loser = broke[0]
    winner = alice if loser == bob else bob
    play.rebuy(ctx, game, loser, source=source(9))
    play_hand(ctx, game, folder)
    winner_stack = next(s.stack for s in detail(ctx, game).seats if s.user_id == winner)
    lobby.cash_out(ctx, game, winner)

    ledger = ledgers.game_ledger(ctx, info(ctx, loser), game)
    lines = {line.user_id: line for line in ledger.players}
    assert ledger.format == "cash" and ledger.pays_money
    won, lost = lines[winner], lines[loser]
    assert (won.buy_ins, won.rebuys, won.cash_outs, won.on_table, won.seat) == (
        10_00,
        0,
        winner_stack,
        0,
        None,
    )
    assert (lost.buy_ins, lost.rebuys, lost.cash_outs) == (10_00, 10_00, 0)
    assert lost.seat is not None and lost.on_table > 0
    for line in (won, lost):
        assert line.net == money.balance(ctx, line.user_id) + line.on_table - START
    check_settles(ledger)
    assert [(p.payer_id, p.payee_id, p.amount) for p in ledger.payments] == [
        (loser, winner, won.net)
    ]


def test_a_per_hand_table_settles_each_hand(ctx: ServiceContext) -> None:
    alice, bob = players(ctx, "alice", "bob")
    options = GameOptions(preset="standard", buy_in=10_00)
    game = lobby.create_game(ctx, alice, options).game_id
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source())
    play_hand(ctx, game, shove)
    ledger = ledgers.game_ledger(ctx, info(ctx, alice), game)
    assert ledger.format == "per_hand"
    for line in ledger.players:
        assert line.net == money.balance(ctx, line.user_id) + line.on_table - START
    assert any(line.settlements for line in ledger.players)
    check_settles(ledger)


def test_a_sit_and_go_has_places_and_prizes(ctx: ServiceContext) -> None:
    host, *others = players(ctx, "ann", "bob", "cyd")
    game = tournament_to_its_winner(ctx, host, *others)
    ledger = ledgers.game_ledger(ctx, info(ctx, host), game)
    assert ledger.format == "tournament" and ledger.finished
    by_place = sorted(ledger.players, key=lambda line: line.place or 99)
    # three buy-ins of $10.00 paid 65/35: $19.50, $10.50, nothing
    assert [(line.place, line.buy_ins, line.prizes, line.net) for line in by_place] == [
        (1, 10_00, 19_50, 9_50),
        (2, 10_00, 10_50, 50),
        (3, 10_00, 0, -10_00),
    ]
    assert all(line.on_table == 0 for line in ledger.players)  # tournament chips: no money
    for line in ledger.players:
        assert line.net == money.balance(ctx, line.user_id) - START
    first, second, third = (line.user_id for line in by_place)
    assert [(p.payer_id, p.payee_id, p.amount) for p in ledger.payments] == [
        (third, first, 9_50),
        (third, second, 50),
    ]
    check_settles(ledger)


def test_only_the_tables_players_and_admins_read_it(ctx: ServiceContext) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    boss = admin(ctx)
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, bob)
    lobby.leave(ctx, game, bob)  # left before the start: refunded, still a player of it
    ledger = ledgers.game_ledger(ctx, info(ctx, bob), game)
    refunded = next(line for line in ledger.players if line.user_id == bob)
    assert (refunded.buy_ins, refunded.refunds, refunded.net, refunded.seat) == (
        10_00,
        10_00,
        0,
        None,
    )
    assert ledgers.game_ledger(ctx, info(ctx, boss), game).game_id == game
    with pytest.raises(LedgerRefused, match="Only the players of game"):
        ledgers.game_ledger(ctx, info(ctx, carol), game)


def test_a_name_that_a_spreadsheet_would_run_is_quoted() -> None:
    ledger = GameLedger(
        game_id=1,
        format="cash",
        preset="house",
        status="running",
        pays_money=True,
        finished=False,
        players=(
            ledgers.LedgerLine(7, "-2+3", 1, 10_00, 0, 0, 0, 0, 0, 5_05, -4_95, None),
            ledgers.LedgerLine(8, "bo,b", 2, 10_00, 0, 0, 0, 0, 0, 14_95, 4_95, None),
        ),
        payments=(ledgers.LedgerPayment(7, "-2+3", 8, "bo,b", 4_95),),
        unsettled=0,
    )
    text = ledgers.ledger_csv(ledger)
    assert text.splitlines() == [
        "player,place,buy_ins,rebuys,cash_outs,refunds,settlements,prizes,on_table,net",
        "'-2+3,,10.00,0.00,0.00,0.00,0.00,0.00,5.05,-4.95",
        '"bo,b",,10.00,0.00,0.00,0.00,0.00,0.00,14.95,4.95',
        "",
        "payer,payee,amount",
        '\'-2+3,"bo,b",4.95',
    ]


def test_a_points_tournament_has_places_and_no_money(ctx: ServiceContext) -> None:
    """Arena tables play for points (tournaments only): no money moves, so every
    column is 0 and nobody pays anybody; the places are there."""
    alice, bob = players(ctx, "alice", "bob")
    options = GameOptions(
        preset="arena", format="tournament", seats=2, buy_in=1500, small_blind=10, big_blind=20
    )
    game = lobby.create_game(ctx, alice, options).game_id
    lobby.join(ctx, game, bob, source=source())  # full: it starts by itself
    for hand in range(60):
        play_hand(ctx, game, shove)
        if detail(ctx, game).summary.status.value == "finished":
            break
        everyone_continues(ctx, game, source(200 + hand))
    ledger = ledgers.game_ledger(ctx, info(ctx, bob), game)
    assert not ledger.pays_money and ledger.finished
    assert sorted(line.place or 0 for line in ledger.players) == [1, 2]
    for line in ledger.players:
        assert (line.buy_ins, line.prizes, line.on_table, line.net) == (0, 0, 0, 0)
        assert money.balance(ctx, line.user_id) == START
    assert ledger.payments == ()
    assert ledgers.ledger_csv(ledger).splitlines()[1].endswith(",0,0,0,0,0,0,0,0")  # points
