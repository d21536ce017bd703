"""The double-entry ledger: transfers, overdrafts, directions, statements."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.store import ledger
from cardroom.store.audit import audit
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import (
    LedgerAccount,
    LedgerEntry,
    LedgerTransfer,
    Role,
    TransferKind,
    User,
)

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def session(db: Engine) -> Iterator[Session]:
    with make_sessionmaker(db).begin() as session:
        yield session


def add_player(session: Session, name: str) -> LedgerAccount:
    user = User(
        name=name,
        name_key=name.lower(),
        password_hash="-",
        role=Role.PLAYER,
        suspended=False,
        created_at=NOW,
    )
    session.add(user)
    session.flush()
    return ledger.open_user_account(session, user.id, NOW)


def grant(session: Session, account: LedgerAccount, cents: int) -> LedgerTransfer:
    return ledger.transfer(
        session,
        source=ledger.house_account(session),
        destination=account,
        amount_cents=cents,
        kind=TransferKind.GRANT,
        reason="test grant",
        now=NOW,
    )


def test_a_grant_is_two_entries_that_sum_to_zero(session: Session) -> None:
    alice = add_player(session, "alice")
    record = grant(session, alice, 10_000)

    entries = session.scalars(select(LedgerEntry).where(LedgerEntry.transfer_id == record.id))
    by_account = {entry.account.name: entry for entry in entries}
    assert by_account.keys() == {"house", alice.name}
    assert by_account["house"].amount_cents == -10_000
    assert by_account[alice.name].amount_cents == 10_000
    assert by_account[alice.name].balance_after_cents == 10_000
    assert alice.balance_cents == 10_000
    assert ledger.house_account(session).balance_cents == -10_000
    assert record.kind is TransferKind.GRANT and record.created_at == NOW


def test_buy_in_and_cash_out_move_chips_through_a_game(session: Session) -> None:
    alice = add_player(session, "alice")
    grant(session, alice, 5_000)
    table = ledger.open_game_account(session, 7, NOW)

    ledger.transfer(
        session,
        source=alice,
        destination=table,
        amount_cents=2_000,
        kind=TransferKind.BUY_IN,
        reason="buy-in",
        now=NOW,
        game_id=7,
    )
    ledger.transfer(
        session,
        source=table,
        destination=alice,
        amount_cents=2_500 - 500,
        kind=TransferKind.CASH_OUT,
        reason="cash-out",
        now=NOW,
        game_id=7,
        hand_id=31,
    )
    assert (alice.balance_cents, table.balance_cents) == (5_000, 0)
    report = audit(session)
    assert report.balanced, report.differences
    assert report.money_in_play_cents == 5_000


def test_an_overdraft_is_refused_before_anything_is_written(session: Session) -> None:
    alice = add_player(session, "alice")
    grant(session, alice, 999)
    table = ledger.open_game_account(session, 1, NOW)
    entries_before = session.scalars(select(LedgerEntry.id)).all()

    with pytest.raises(ledger.Overdraft) as refused:
        ledger.transfer(
            session,
            source=alice,
            destination=table,
            amount_cents=1_000,
            kind=TransferKind.BUY_IN,
            reason="buy-in",
            now=NOW,
        )
    assert (refused.value.balance_cents, refused.value.amount_cents) == (999, 1_000)
    session.expire_all()
    assert session.scalars(select(LedgerEntry.id)).all() == entries_before
    assert ledger.user_account(session, alice.user_id or 0).balance_cents == 999
    assert ledger.game_account(session, 1).balance_cents == 0


def test_the_whole_balance_can_be_spent(session: Session) -> None:
    alice = add_player(session, "alice")
    grant(session, alice, 1_000)
    table = ledger.open_game_account(session, 1, NOW)
    ledger.transfer(
        session,
        source=alice,
        destination=table,
        amount_cents=1_000,
        kind=TransferKind.BUY_IN,
        reason="buy-in",
        now=NOW,
    )
    assert alice.balance_cents == 0


@pytest.mark.parametrize("amount", [0, -1, True, 10**15 + 1, 1.5])
def test_amounts_must_be_positive_whole_cents(session: Session, amount: object) -> None:
    alice = add_player(session, "alice")
    with pytest.raises(ValueError, match="cents"):
        grant(session, alice, amount)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "source", "destination"),
    [
        (TransferKind.GRANT, "game", "user"),  # grants come from the house only
        (TransferKind.REMOVAL, "user", "game"),
        (TransferKind.BUY_IN, "game", "user"),
        (TransferKind.CASH_OUT, "user", "game"),
        (TransferKind.PRIZE, "house", "user"),
        (TransferKind.SETTLEMENT, "house", "game"),
    ],
)
def test_each_kind_goes_one_way(
    session: Session, kind: TransferKind, source: str, destination: str
) -> None:
    accounts = {
        "house": ledger.house_account(session),
        "user": add_player(session, "alice"),
        "game": ledger.open_game_account(session, 1, NOW),
    }
    with pytest.raises(ValueError, match=f"a {kind.value} cannot go"):
        ledger.transfer(
            session,
            source=accounts[source],
            destination=accounts[destination],
            amount_cents=1,
            kind=kind,
            reason="wrong way",
            now=NOW,
        )


def test_a_transfer_needs_two_accounts_and_a_reason(session: Session) -> None:
    alice = add_player(session, "alice")
    grant(session, alice, 100)
    table = ledger.open_game_account(session, 1, NOW)
    with pytest.raises(ValueError, match="two accounts"):
        ledger.transfer(
            session,
            source=alice,
            destination=alice,
            amount_cents=1,
            kind=TransferKind.BUY_IN,
            reason="x",
            now=NOW,
        )
    for reason in ("", "   ", "x" * 201):
        with pytest.raises(ValueError, match="reason"):
            ledger.transfer(
                session,
                source=alice,
                destination=table,
                amount_cents=1,
                kind=TransferKind.BUY_IN,
                reason=reason,
                now=NOW,
            )


def test_the_database_itself_refuses_a_negative_player_balance(db: Engine) -> None:
    # Behind the service's checks: even a raw UPDATE cannot overdraw a player.
    with make_sessionmaker(db).begin() as session:
        add_player(session, "alice")
    with pytest.raises(IntegrityError), db.begin() as connection:
        connection.execute(
            update(LedgerAccount).where(LedgerAccount.name != ledger.HOUSE).values(balance_cents=-1)
        )


def test_a_statement_pages_newest_first(
    db: Engine, unchanged: Callable[[], AbstractContextManager[None]]
) -> None:
    with make_sessionmaker(db).begin() as session:
        alice = add_player(session, "alice")
        for cents in range(1, 8):
            ledger.transfer(
                session,
                source=ledger.house_account(session),
                destination=alice,
                amount_cents=cents,
                kind=TransferKind.GRANT,
                reason=f"grant {cents}",
                now=NOW + timedelta(minutes=cents),
            )
        account_id = alice.id

    with unchanged(), make_sessionmaker(db).begin() as session:
        first = ledger.statement(session, account_id, before_entry_id=None, limit=3)
        second = ledger.statement(session, account_id, before_entry_id=first[-1].entry_id, limit=3)
        third = ledger.statement(session, account_id, before_entry_id=second[-1].entry_id, limit=3)
    assert [line.amount_cents for line in first + second + third] == [7, 6, 5, 4, 3, 2, 1]
    assert [line.balance_after_cents for line in first] == [28, 21, 15]
    assert first[0].reason == "grant 7" and first[0].created_at == NOW + timedelta(minutes=7)
    assert first[0].kind is TransferKind.GRANT
