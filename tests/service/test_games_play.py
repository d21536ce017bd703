"""Playing through the use cases: hands to a showdown and to a fold, Continue, cash-out,
rebuy, rejoin, per-hand settlement, a tournament to its winner; stale versions,
idempotency keys, and refusals that change nothing."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from cardroom.service import game_details, lobby, money, play
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InsufficientBalance, InvalidInput
from cardroom.service.game_errors import (
    ActionNotAllowed,
    AmountOutOfRange,
    GameNotFound,
    IdempotencyKeyReused,
    NotAllowedNow,
    NotHostOrAdmin,
    NotSeated,
    NotYourTurn,
    RebuyNotAllowed,
    StaleVersion,
)
from cardroom.service.game_options import GameOptions
from cardroom.service.game_records import PlayResult
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import (
    Game,
    GameEvent,
    GameStatus,
    HandRecord,
    LedgerTransfer,
    TransferKind,
)
from tests.conftest import FakeClock
from tests.service.gamekit import (
    all_kinds,
    assert_audit_clean,
    balance,
    detail,
    everyone_continues,
    folder,
    kinds,
    passive,
    play_hand,
    players,
    shove,
    source,
    to_act,
)

Unchanged = Callable[[], AbstractContextManager[None]]


def heads_up(ctx: ServiceContext, buy_in: int = 10_00, **options: object) -> tuple[int, int, int]:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=buy_in, **options)).game_id  # type: ignore[arg-type]
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source())
    return game, alice, bob


def test_a_hand_to_a_showdown_then_one_to_a_fold(ctx: ServiceContext) -> None:
    game, alice, bob = heads_up(ctx)
    shown = detail(ctx, game, alice)
    assert shown.hand is not None and len(shown.hand.my_cards) == 2
    assert detail(ctx, game).hand.my_cards == ()  # type: ignore[union-attr]

    results = play_hand(ctx, game)
    events = all_kinds(results)
    assert events.count("BoardDealt") == 3 and events.count("HandShown") == 2
    assert events[-2:] == ["HandEnded", "HandFinished"]
    stacks = {s.user_id: s.stack for s in detail(ctx, game).seats}
    assert sum(stacks.values()) == 20_00
    with make_sessionmaker(ctx.engine)() as session:
        hand = session.scalars(select(HandRecord)).one()
        assert hand.ended_at is not None and hand.final_state is not None
        assert hand.final_state["street"] == 4
        hand_events = session.scalar(
            select(func.count()).select_from(GameEvent).where(GameEvent.hand_id == hand.id)
        )
        assert hand_events and hand_events > 10
        seqs = session.scalars(select(GameEvent.seq).order_by(GameEvent.seq)).all()
        assert seqs == list(range(1, len(seqs) + 1))  # numbered with no gaps

    # Between hands: Continue from both deals the next hand.
    between = detail(ctx, game)
    assert between.hand is not None and not between.hand.running
    assert between.deal_due_at == ctx.now() + timedelta(seconds=60)
    first = play.press_continue(ctx, game, alice)
    assert kinds(first) == ["PlayerContinued"]
    second = play.press_continue(ctx, game, bob, source=source(2))
    assert kinds(second)[:2] == ["PlayerContinued", "HandDealt"]

    folded = play_hand(ctx, game, folder)
    assert all_kinds(folded)[0:1] == ["PlayerActed"]
    assert folded[0].events[0].payload["action"] == "fold"
    assert "HandShown" not in all_kinds(folded)
    assert sum(s.stack for s in detail(ctx, game).seats) == 20_00
    assert_audit_clean(ctx)


def test_act_refusals_change_nothing(ctx: ServiceContext, unchanged: Unchanged) -> None:
    game, alice, bob = heads_up(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    other = bob if player == alice else alice
    stranger = players(ctx, "carol")[0]
    with unchanged(), pytest.raises(NotYourTurn, match="turn"):
        play.act(ctx, game, other, "call")
    with unchanged(), pytest.raises(AmountOutOfRange):
        play.act(ctx, game, player, "raise", legal.max_to + 1)
    with unchanged(), pytest.raises(AmountOutOfRange):
        play.act(ctx, game, player, "raise", legal.min_to - 1)
    with unchanged(), pytest.raises(ActionNotAllowed, match="cannot check"):
        play.act(ctx, game, player, "check")
    with unchanged(), pytest.raises(InvalidInput, match="An action is one of"):
        play.act(ctx, game, player, "shove")
    with unchanged(), pytest.raises(InvalidInput, match="Only a bet or a raise"):
        play.act(ctx, game, player, "call", 40)
    with unchanged(), pytest.raises(InvalidInput, match="how much"):
        play.act(ctx, game, player, "raise")
    with unchanged(), pytest.raises(NotSeated):
        play.act(ctx, game, stranger, "call")
    with unchanged(), pytest.raises(GameNotFound):
        play.act(ctx, game + 1, player, "call")
    with unchanged(), pytest.raises(StaleVersion, match="changed since you saw it") as stale:
        play.act(ctx, game, player, "call", expected_version=version - 1)
    assert (stale.value.expected, stale.value.current) == (version - 1, version)
    with unchanged(), pytest.raises(InvalidInput):
        play.act(ctx, game, player, "call", expected_version="7")  # type: ignore[arg-type]
    with unchanged(), pytest.raises(InvalidInput, match="idempotency key"):
        play.act(ctx, game, player, "call", idempotency_key="")
    with unchanged(), pytest.raises(NotAllowedNow, match="still being played"):
        play.press_continue(ctx, game, player)
    with unchanged(), pytest.raises(RebuyNotAllowed):
        play.rebuy(ctx, game, player)
    with unchanged(), pytest.raises(InvalidInput):
        play.events_since(ctx, game, -1)
    # The legal raise goes through.
    assert play.act(ctx, game, player, "raise", legal.min_to, expected_version=version).version


def test_a_repeated_idempotency_key_gets_the_first_answer(ctx: ServiceContext) -> None:
    game, alice, bob = heads_up(ctx)
    turn = to_act(ctx, game)
    assert turn is not None
    player, _, version = turn
    first = play.act(ctx, game, player, "call", expected_version=version, idempotency_key="k-1")
    again = play.act(ctx, game, player, "call", expected_version=version, idempotency_key="k-1")
    assert again.replayed and not first.replayed
    assert (again.version, again.events, again.status) == (
        first.version,
        first.events,
        first.status,
    )
    assert detail(ctx, game).summary.version == first.version  # no second effect
    with make_sessionmaker(ctx.engine)() as session:
        count = session.scalar(select(func.count()).select_from(GameEvent))
    assert count == play.events_since(ctx, game)[-1].seq
    with pytest.raises(IdempotencyKeyReused):
        play.act(ctx, game, player, "fold", idempotency_key="k-1")
    # Keys are per player: the other player's "k-1" is a new request.
    other = bob if player == alice else alice
    assert not play.act(ctx, game, other, "check", idempotency_key="k-1").replayed


def test_events_since_for_a_client_that_missed_some(ctx: ServiceContext) -> None:
    game, *_ = heads_up(ctx)
    everything = play.events_since(ctx, game)
    assert [e.seq for e in everything] == list(range(1, len(everything) + 1))
    assert everything[0].kind == "GameCreated"
    tail = play.events_since(ctx, game, 5, limit=3)
    assert [e.seq for e in tail] == [6, 7, 8]
    assert play.events_since(ctx, game, everything[-1].seq) == ()
    with pytest.raises(GameNotFound):
        play.events_since(ctx, 404)


def test_cash_out_rebuy_and_rejoin(ctx: ServiceContext, clock: FakeClock) -> None:
    game, alice, bob = heads_up(ctx, seats=3)
    broke = bust_someone(ctx, game)
    stacks = {s.user_id: s.stack for s in detail(ctx, game).seats}
    winner = alice if broke == bob else bob
    assert stacks[winner] == 20_00
    assert detail(ctx, game).summary.status is GameStatus.PAUSED  # one player with chips
    with pytest.raises(RebuyNotAllowed, match="only when your chips reach zero"):
        play.rebuy(ctx, game, winner)
    before = balance(ctx, broke)
    rebought = play.rebuy(ctx, game, broke, source=source(9))
    assert kinds(rebought)[:2] == ["Rebought", "TableResumed"]
    assert balance(ctx, broke) == before - 10_00

    # The winner cashes out between hands with twice the buy-in...
    play_hand(ctx, game, folder)
    winner_stack = next(s.stack for s in detail(ctx, game).seats if s.user_id == winner)
    cash_before = balance(ctx, winner)
    out = lobby.cash_out(ctx, game, winner)
    assert kinds(out)[:2] == ["CashedOut", "PlayerLeft"]
    assert balance(ctx, winner) == cash_before + winner_stack
    # ...and coming back within 2 hours costs what they left with.
    clock.advance(timedelta(hours=1))
    assert game_details.seat_cost(ctx, game, winner) == max(10_00, winner_stack)
    assert detail(ctx, game, winner).viewer_cost == max(10_00, winner_stack)
    back = lobby.rejoin(ctx, game, winner)
    assert back.events[0].payload["stack"] == max(10_00, winner_stack)
    assert balance(ctx, winner) == cash_before + winner_stack - max(10_00, winner_stack)
    assert_audit_clean(ctx)


def test_rejoin_after_two_hours_costs_the_buy_in(
    ctx: ServiceContext, clock: FakeClock, unchanged: Unchanged
) -> None:
    game, alice, _ = heads_up(ctx, seats=3)
    with unchanged(), pytest.raises(NotAllowedNow, match="join it instead"):
        lobby.rejoin(ctx, game, alice)
    play_hand(ctx, game, folder)
    lobby.cash_out(ctx, game, alice)
    clock.advance(timedelta(hours=2, seconds=1))
    assert game_details.seat_cost(ctx, game, alice) == 10_00
    before = balance(ctx, alice)
    lobby.rejoin(ctx, game, alice)
    assert balance(ctx, alice) == before - 10_00
    assert_audit_clean(ctx)


def test_sit_out_and_skip_waiting(ctx: ServiceContext, unchanged: Unchanged) -> None:
    game, alice, bob = heads_up(ctx, seats=3)
    carol = players(ctx, "carol")[0]
    lobby.join(ctx, game, carol)
    play_hand(ctx, game, folder)
    assert kinds(play.sit_out(ctx, game, carol)) == ["PlayerSatOut"]
    with unchanged(), pytest.raises(NotAllowedNow, match="already sitting out"):
        play.sit_out(ctx, game, carol)
    with unchanged(), pytest.raises(NotHostOrAdmin):
        play.skip_waiting_and_deal(ctx, game, bob)
    dealt = play.skip_waiting_and_deal(ctx, game, alice, source=source(4))
    assert "HandDealt" in kinds(dealt)
    players_in = {s.user_id for s in detail(ctx, game).seats if s.in_hand}
    assert players_in == {alice, bob}
    with unchanged(), pytest.raises(NotAllowedNow, match="being played"):
        play.skip_waiting_and_deal(ctx, game, alice)
    assert kinds(play.sit_in(ctx, game, carol))[0] == "PlayerSatIn"
    with unchanged(), pytest.raises(NotAllowedNow, match="not sitting out"):
        play.sit_in(ctx, game, carol)


def test_a_per_hand_table_settles_every_hand(ctx: ServiceContext) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    options = GameOptions(preset="standard", buy_in=5_00, seats=3)
    game = lobby.create_game(ctx, alice, options).game_id
    lobby.join(ctx, game, bob)
    started = lobby.start(ctx, game, alice, source=source())
    assert kinds(started)[:3] == ["GameStarted", "HandBoughtIn", "HandBoughtIn"]
    assert balance(ctx, alice) == balance(ctx, bob) == 95_00
    with make_sessionmaker(ctx.engine)() as session:
        game_row = session.get(Game, game)
        assert game_row is not None
    for hand in range(1, 4):
        play_hand(ctx, game, shove if hand == 2 else folder)
        assert balance(ctx, alice) + balance(ctx, bob) == 200_00  # settled at once
        with make_sessionmaker(ctx.engine)() as session:
            row = session.scalars(select(HandRecord).where(HandRecord.number == hand)).one()
            transfers = session.scalars(
                select(LedgerTransfer).where(LedgerTransfer.hand_id == row.id)
            ).all()
            assert {t.kind for t in transfers} == {TransferKind.SETTLEMENT}
            assert len(transfers) >= 3  # two buy-ins and at least one result
        assert money.audit(ctx).chips_on_tables_cents == 0
        everyone_continues(ctx, game, source(hand))
    # A newcomer is dealt in from the next hand with its own buy-in.
    lobby.join(ctx, game, carol)
    assert_audit_clean(ctx)


def test_a_tournament_to_its_winner_pays_the_prizes(ctx: ServiceContext) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    options = GameOptions(format="tournament", seats=3, buy_in=10_00, payouts=(65, 35))
    game = lobby.create_game(ctx, alice, options).game_id
    lobby.join(ctx, game, bob)
    lobby.join(ctx, game, carol, source=source(11))  # full: starts by itself
    results = []
    for hand in range(1, 60):
        results += play_hand(ctx, game, shove)
        if detail(ctx, game).summary.status is GameStatus.FINISHED:
            break
        results += everyone_continues(ctx, game, source(100 + hand))
    events = [e for r in results for e in r.events]
    finished = next(e for e in events if e.kind == "TournamentFinished")
    prizes = [e.payload for e in events if e.kind == "PrizePaid"]
    assert sum(p["amount"] for p in prizes) == 30_00
    places = dict(map(tuple, finished.payload["places"]))
    first = finished.payload["winner"]
    assert places[first] == 1
    paid = {p["player"]: p["amount"] for p in prizes}
    assert sorted(places.values()) == [1, 2, 3]  # with these seeds
    second = next(p for p, place in places.items() if place == 2)
    assert paid == {first: 19_50, second: 10_50}  # 65/35 of $30.00
    assert balance(ctx, first) == 90_00 + paid[first]
    assert sum(balance(ctx, p) for p in (alice, bob, carol)) == 300_00
    shown = detail(ctx, game)
    assert shown.summary.status is GameStatus.FINISHED and shown.finishes
    assert game not in [g.id for g in lobby.list_lobby(ctx)]
    with pytest.raises(NotAllowedNow, match="over"):
        lobby.join(ctx, game, players(ctx, "dave")[0])
    assert money.audit(ctx).chips_on_tables_cents == 0
    assert_audit_clean(ctx)


def test_an_arena_tournament_moves_no_money(ctx: ServiceContext) -> None:
    alice, bob = players(ctx, "alice", "bob")
    options = GameOptions(preset="arena", buy_in=1500, small_blind=10, big_blind=20, seats=2)
    game = lobby.create_game(ctx, alice, options).game_id
    lobby.join(ctx, game, bob, source=source(1))
    for hand in range(1, 40):
        play_hand(ctx, game, shove)
        if detail(ctx, game).summary.status is GameStatus.FINISHED:
            break
        everyone_continues(ctx, game, source(hand))
    assert detail(ctx, game).summary.status is GameStatus.FINISHED
    assert balance(ctx, alice) == balance(ctx, bob) == 100_00
    with make_sessionmaker(ctx.engine)() as session:
        assert session.scalars(select(LedgerTransfer.kind)).all() == [TransferKind.GRANT] * 2
    assert_audit_clean(ctx)


def test_a_rebuy_needs_the_money(ctx: ServiceContext, unchanged: Unchanged) -> None:
    game, alice, bob = heads_up(ctx, buy_in=50_00)
    broke = bust_someone(ctx, game)
    name = {alice: "alice", bob: "bob"}[broke]
    money.remove(ctx, CONSOLE, name, 10_00, "testing")  # $40.00 left
    with unchanged(), pytest.raises(InsufficientBalance, match=r"A rebuy costs \$50\.00"):
        play.rebuy(ctx, game, broke)


def bust_someone(ctx: ServiceContext, game: int) -> int:
    """All in until a player is at zero; that player."""
    for hand in range(10):
        play_hand(ctx, game, shove)
        broke = [s.user_id for s in detail(ctx, game).seats if s.stack == 0]
        if broke:
            return broke[0]
        everyone_continues(ctx, game, source(50 + hand))
    raise AssertionError("nobody went broke")


def test_two_requests_at_once_one_applies_the_other_is_stale(ctx: ServiceContext) -> None:
    game, *_ = heads_up(ctx)

    def race(key: str | None) -> list[object]:
        turn = to_act(ctx, game)
        assert turn is not None
        player, legal, version = turn
        kind = passive(legal)[0]
        barrier = threading.Barrier(2)
        outcomes: list[object] = []

        def send() -> None:
            barrier.wait()
            try:
                outcomes.append(
                    play.act(ctx, game, player, kind, expected_version=version, idempotency_key=key)
                )
            except StaleVersion as stale:
                outcomes.append(stale)

        threads = [threading.Thread(target=send) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return outcomes

    # Without a key: exactly one is applied, the other is told the table moved on.
    outcomes = race(None)
    assert sorted(type(o).__name__ for o in outcomes) == ["PlayResult", "StaleVersion"]
    # With one key: the second gets the first's answer, and nothing is done twice.
    results = [o for o in race("same") if isinstance(o, PlayResult)]
    assert len(results) == 2 and sorted(r.replayed for r in results) == [False, True]
    assert results[0].version == results[1].version == detail(ctx, game).summary.version
    assert_audit_clean(ctx)
