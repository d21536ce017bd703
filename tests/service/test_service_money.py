"""Money: grants, removals, statements, refusals that change nothing, the audit, and
money that stays exact under concurrent requests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select, text
from sqlalchemy.orm import Session

from cardroom.service import accounts, money
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    AccountSuspended,
    Forbidden,
    InsufficientBalance,
    InvalidInput,
    NotFound,
)
from cardroom.store import ledger
from cardroom.store.audit import AuditReport
from cardroom.store.audit import audit as audit_ledger
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import AdminAction, Role, TransferKind

Unchanged = Callable[[], AbstractContextManager[None]]
PASSWORD = "correct horse"


@pytest.fixture
def boss(ctx: ServiceContext) -> int:
    return accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN).id


@pytest.fixture
def alice(ctx: ServiceContext) -> int:
    return accounts.sign_up(ctx, "alice", PASSWORD).id


def test_an_admin_grants_money_with_a_reason(
    ctx: ServiceContext, db: Engine, boss: int, alice: int
) -> None:
    assert money.grant(ctx, boss, "Alice", 12_50, "tournament winnings restored") == 112_50
    line = money.statement(ctx, alice).lines[0]
    assert (line.kind, line.amount_cents, line.balance_after_cents) == (
        TransferKind.GRANT,
        12_50,
        112_50,
    )
    assert line.reason == "tournament winnings restored"
    with make_sessionmaker(db)() as session:
        action = session.scalars(select(AdminAction).where(AdminAction.action == "grant")).one()
        assert (action.admin_id, action.target_user_id) == (boss, alice)
        assert action.before == {"balance_cents": 100_00}
        assert action.after == {"balance_cents": 112_50, "transfer_id": line.transfer_id}


def test_an_admin_removes_money_but_never_below_zero(
    ctx: ServiceContext, boss: int, alice: int, unchanged: Unchanged
) -> None:
    assert money.remove(ctx, boss, "alice", 40_00, "refund chargeback") == 60_00
    with unchanged(), pytest.raises(InsufficientBalance) as refused:
        money.remove(ctx, boss, "alice", 60_01, "too much")
    assert refused.value.sentence == "A balance of $60.00 does not cover $60.01."
    assert (refused.value.balance_cents, refused.value.amount_cents) == (60_00, 60_01)
    assert money.remove(ctx, boss, "alice", 60_00, "account closed") == 0
    assert money.balance(ctx, alice) == 0


def test_the_console_can_grant(ctx: ServiceContext, alice: int) -> None:
    assert money.grant(ctx, CONSOLE, "alice", 1, "a cent for luck") == 100_01


def test_a_non_admin_cannot_grant_or_remove(
    ctx: ServiceContext, alice: int, unchanged: Unchanged
) -> None:
    accounts.sign_up(ctx, "bob", PASSWORD)
    with unchanged(), pytest.raises(Forbidden, match="Only an admin"):
        money.grant(ctx, alice, "alice", 100_00, "I deserve it")
    with unchanged(), pytest.raises(Forbidden):
        money.remove(ctx, alice, "bob", 1_00, "spite")
    with unchanged(), pytest.raises(Forbidden):
        money.grant(ctx, 987_654, "alice", 1_00, "a user that does not exist")


def test_a_suspended_admin_cannot_grant(
    ctx: ServiceContext, boss: int, alice: int, unchanged: Unchanged
) -> None:
    accounts.create_user(ctx, CONSOLE, "other_admin", PASSWORD, role=Role.ADMIN)
    accounts.suspend(ctx, CONSOLE, "boss", "compromised")
    with unchanged(), pytest.raises(Forbidden):
        money.grant(ctx, boss, "alice", 1_00, "still trying")


@pytest.mark.parametrize(
    ("amount", "sentence"),
    [
        (0, "more than"),
        (-500, "more than"),
        (100_000_001, "at most"),
        (True, "whole number"),
        (12.5, "whole number"),
        ("1000", "whole number"),
    ],
)
def test_bad_amounts_are_refused(
    ctx: ServiceContext, boss: int, alice: int, unchanged: Unchanged, amount: object, sentence: str
) -> None:
    for move in (money.grant, money.remove):
        with unchanged(), pytest.raises(InvalidInput, match=sentence):
            move(ctx, boss, "alice", amount, "edge case")  # type: ignore[arg-type]


@pytest.mark.parametrize("reason", ["", "   ", "x" * 201])
def test_a_reason_is_required(
    ctx: ServiceContext, boss: int, alice: int, unchanged: Unchanged, reason: str
) -> None:
    with unchanged(), pytest.raises(InvalidInput, match="reason"):
        money.grant(ctx, boss, "alice", 1_00, reason)


def test_granting_to_nobody_is_refused(
    ctx: ServiceContext, boss: int, unchanged: Unchanged
) -> None:
    with unchanged(), pytest.raises(NotFound, match="no user called 'ghost'"):
        money.grant(ctx, boss, "ghost", 1_00, "boo")


def test_a_player_reads_their_own_statement_in_pages(
    ctx: ServiceContext, boss: int, alice: int, unchanged: Unchanged
) -> None:
    for cents in range(1, 6):
        money.grant(ctx, boss, "alice", cents, f"grant {cents}")
    with unchanged():
        first = money.statement(ctx, alice, limit=4)
        second = money.statement(ctx, alice, limit=4, before_entry_id=first.next_before_entry_id)
    assert [line.amount_cents for line in first.lines] == [5, 4, 3, 2]
    assert [line.amount_cents for line in second.lines] == [1, 100_00]
    assert second.next_before_entry_id is None
    assert first.balance_cents == second.balance_cents == 100_15


def test_a_statement_that_fits_one_page_has_no_next(ctx: ServiceContext, alice: int) -> None:
    page = money.statement(ctx, alice, limit=1)
    assert len(page.lines) == 1 and page.next_before_entry_id is None


def test_only_an_admin_reads_another_players_statement(
    ctx: ServiceContext, boss: int, alice: int, unchanged: Unchanged
) -> None:
    bob = accounts.sign_up(ctx, "bob", PASSWORD).id
    with unchanged(), pytest.raises(Forbidden):
        money.statement(ctx, bob, name="alice")
    assert money.statement(ctx, bob, name="BOB").balance_cents == 100_00  # one's own, by name
    assert money.statement(ctx, boss, name="alice").balance_cents == 100_00


@pytest.mark.parametrize(
    "paging", [{"limit": 0}, {"limit": 201}, {"before_entry_id": 0}, {"before_entry_id": -3}]
)
def test_bad_paging_is_refused(
    ctx: ServiceContext, alice: int, paging: dict[str, int], unchanged: Unchanged
) -> None:
    with unchanged(), pytest.raises(InvalidInput):
        money.statement(ctx, alice, **paging)  # type: ignore[arg-type]


def test_a_suspended_player_reads_no_statement(
    ctx: ServiceContext, alice: int, unchanged: Unchanged
) -> None:
    accounts.suspend(ctx, CONSOLE, "alice", "collusion")
    with unchanged(), pytest.raises(AccountSuspended):
        money.statement(ctx, alice)


def test_pay_turns_an_overdraft_into_a_refusal_of_the_whole_use_case(
    ctx: ServiceContext, alice: int, unchanged: Unchanged
) -> None:
    # The shape of a future buy-in: open the table, move the buy-in, in one
    # transaction. The overdraft must undo the table too.
    with unchanged(), pytest.raises(InsufficientBalance), ctx.transaction() as session:
        table = ledger.open_game_account(session, 5, ctx.now())
        money.pay(
            session,
            source=ledger.user_account(session, alice),
            destination=table,
            amount_cents=100_01,
            kind=TransferKind.BUY_IN,
            reason="Buy-in",
            now=ctx.now(),
            game_id=5,
        )


def test_the_audit_balances_after_activity(ctx: ServiceContext, boss: int, alice: int) -> None:
    money.grant(ctx, boss, "alice", 50_00, "bonus")
    money.remove(ctx, boss, "alice", 20_00, "correction")
    with ctx.transaction() as session:
        table = ledger.open_game_account(session, 3, ctx.now())
        money.pay(
            session,
            source=ledger.user_account(session, alice),
            destination=table,
            amount_cents=25_00,
            kind=TransferKind.BUY_IN,
            reason="Buy-in",
            now=ctx.now(),
            game_id=3,
        )
    report = money.audit(ctx)
    assert report.balanced, report.differences
    assert report.granted_cents == 100_00 + 100_00 + 50_00  # two starting balances
    assert report.removed_cents == 20_00
    assert report.chips_on_tables_cents == 25_00
    assert report.player_balances_cents == 100_00 + 105_00


def test_concurrent_removals_never_overdraw(ctx: ServiceContext, boss: int, alice: int) -> None:
    # Eight admins' clicks at once, each taking $30.00 of $100.00: exactly three
    # succeed, whatever the interleaving, and the books stay exact.
    outcomes: list[str] = []
    start = threading.Barrier(8)

    def take() -> None:
        start.wait()
        try:
            money.remove(ctx, boss, "alice", 30_00, "race")
            outcomes.append("removed")
        except InsufficientBalance:
            outcomes.append("refused")

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused"] * 5 + ["removed"] * 3
    assert money.balance(ctx, alice) == 10_00
    assert money.audit(ctx).balanced


def test_opposite_transfers_at_once_do_not_deadlock(ctx: ServiceContext, alice: int) -> None:
    # Buy-ins and cash-outs between the same two accounts, interleaved from two
    # threads: locks are taken in account order, so neither waits for the other
    # forever (PostgreSQL would abort one as a deadlock).
    with ctx.transaction() as session:
        table = ledger.open_game_account(session, 11, ctx.now())
        money.pay(
            session,
            source=ledger.user_account(session, alice),
            destination=table,
            amount_cents=50_00,
            kind=TransferKind.BUY_IN,
            reason="Buy-in",
            now=ctx.now(),
        )
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def shuttle(kind: TransferKind) -> None:
        start.wait()
        try:
            for _ in range(15):
                with ctx.transaction() as session:
                    player = ledger.user_account(session, alice)
                    game = ledger.game_account(session, 11)
                    source, destination = (
                        (player, game) if kind is TransferKind.REBUY else (game, player)
                    )
                    money.pay(
                        session,
                        source=source,
                        destination=destination,
                        amount_cents=1_00,
                        kind=kind,
                        reason=kind.value,
                        now=ctx.now(),
                    )
        except BaseException as exc:  # any failure, reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=shuttle, args=(kind,))
        for kind in (TransferKind.REBUY, TransferKind.CASH_OUT)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert money.balance(ctx, alice) == 50_00
    assert money.audit(ctx).balanced


MOVES = st.lists(
    st.tuples(
        st.sampled_from(["grant", "remove", "buy_in", "cash_out"]),
        st.sampled_from(["alice", "bob"]),
        st.integers(min_value=1, max_value=150_00),
    ),
    max_size=12,
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(moves=MOVES)
def test_any_sequence_of_movements_keeps_the_books_exact(
    ctx: ServiceContext, empty_tables: Callable[[], None], moves: list[tuple[str, str, int]]
) -> None:
    empty_tables()
    accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN)
    players = {name: accounts.sign_up(ctx, name, PASSWORD).id for name in ("alice", "bob")}
    with ctx.transaction() as session:
        ledger.open_game_account(session, 1, ctx.now())
    start = ctx.settings.starting_balance_cents
    expected = {"alice": start, "bob": start, "table": 0}
    granted = 3 * start
    removed = 0

    for move, name, cents in moves:
        source_has = expected["table"] if move == "cash_out" else expected[name]
        covered = move == "grant" or source_has >= cents
        try:
            if move in ("grant", "remove"):
                (money.grant if move == "grant" else money.remove)(ctx, CONSOLE, name, cents, move)
            else:
                _table_move(ctx, players[name], cents, move)
        except InsufficientBalance:
            assert not covered
            continue
        assert covered
        sign = -1 if move in ("remove", "buy_in") else 1
        expected[name] += sign * cents
        if move in ("buy_in", "cash_out"):
            expected["table"] -= sign * cents
        granted += cents if move == "grant" else 0
        removed += cents if move == "remove" else 0

    for name, user_id in players.items():
        assert money.balance(ctx, user_id) == expected[name] >= 0
    report = money.audit(ctx)
    assert report.balanced, report.differences
    assert report.chips_on_tables_cents == expected["table"]
    assert (report.granted_cents, report.removed_cents) == (granted, removed)


def _table_move(ctx: ServiceContext, user_id: int, cents: int, move: str) -> None:
    with ctx.transaction() as session:
        player = ledger.user_account(session, user_id)
        table = ledger.game_account(session, 1)
        buy_in = move == "buy_in"
        money.pay(
            session,
            source=player if buy_in else table,
            destination=table if buy_in else player,
            amount_cents=cents,
            kind=TransferKind.BUY_IN if buy_in else TransferKind.CASH_OUT,
            reason=move,
            now=ctx.now(),
            game_id=1,
        )


def test_the_audit_reads_one_snapshot(
    ctx: ServiceContext, db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def spy(session: Session) -> AuditReport:
        if db.dialect.name == "postgresql":
            seen.append(session.execute(text("SHOW transaction_isolation")).scalar_one())
        else:
            # SQLite: the transaction holds the write lock, so no writer can interleave.
            seen.append("in transaction" if session.connection().in_transaction() else "none")
        return audit_ledger(session)

    monkeypatch.setattr(money, "audit_ledger", spy)
    assert money.audit(ctx).balanced
    assert seen == (["repeatable read"] if db.dialect.name == "postgresql" else ["in transaction"])
    if db.dialect.name == "postgresql":
        # The pooled connection goes back to the default level for the next use case.
        with ctx.transaction() as session:
            level = session.execute(text("SHOW transaction_isolation")).scalar_one()
        assert level == "read committed"
