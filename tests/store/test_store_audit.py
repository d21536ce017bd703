"""The audit finds every kind of tampering it claims to, and nothing in clean books."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.orm import Session

from cardroom.store import ledger
from cardroom.store.audit import AuditReport, audit
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
def books(db: Engine) -> Engine:
    """Alice was granted $100.00 and bought in for $30.00; Bob was granted $50.00, of
    which $20.00 was removed."""
    with make_sessionmaker(db).begin() as session:
        alice, bob = (_player(session, name) for name in ("alice", "bob"))
        house = ledger.house_account(session)
        table = ledger.open_game_account(session, 9, NOW)
        _move(session, house, alice, 10_000, TransferKind.GRANT)
        _move(session, house, bob, 5_000, TransferKind.GRANT)
        _move(session, alice, table, 3_000, TransferKind.BUY_IN)
        _move(session, bob, house, 2_000, TransferKind.REMOVAL)
    return db


def _player(session: Session, name: str) -> LedgerAccount:
    user = User(
        name=name,
        name_key=name,
        password_hash="-",
        role=Role.PLAYER,
        suspended=False,
        created_at=NOW,
    )
    session.add(user)
    session.flush()
    return ledger.open_user_account(session, user.id, NOW)


def _move(
    session: Session,
    source: LedgerAccount,
    destination: LedgerAccount,
    cents: int,
    kind: TransferKind,
) -> None:
    ledger.transfer(
        session,
        source=source,
        destination=destination,
        amount_cents=cents,
        kind=kind,
        reason=kind.value,
        now=NOW,
    )


def run_audit(db: Engine) -> AuditReport:
    with make_sessionmaker(db).begin() as session:
        return audit(session)


@pytest.fixture
def raw(books: Engine) -> Iterator[Session]:
    """A session for tampering with the books behind the ledger's back."""
    with make_sessionmaker(books)() as session:
        yield session


def test_clean_books_balance(books: Engine) -> None:
    report = run_audit(books)
    assert report.differences == ()
    assert report.balanced
    assert (report.granted_cents, report.removed_cents) == (15_000, 2_000)
    assert report.player_balances_cents == 7_000 + 3_000
    assert report.chips_on_tables_cents == 3_000
    assert report.house_balance_cents == -13_000
    assert report.money_in_play_cents == report.granted_cents - report.removed_cents
    assert (report.accounts, report.transfers, report.entries) == (4, 4, 8)


def test_an_empty_room_balances(db: Engine) -> None:
    report = run_audit(db)
    assert report.balanced
    assert report.money_in_play_cents == 0


def test_a_balance_edited_by_hand_is_found(raw: Session, books: Engine) -> None:
    raw.execute(
        update(LedgerAccount)
        .where(LedgerAccount.name == f"user:{_user_id(raw, 'bob')}")
        .values(balance_cents=LedgerAccount.balance_cents + 1)
    )
    raw.commit()
    report = run_audit(books)
    subjects = {d.subject: d for d in report.differences}
    bob = f"account user:{_user_id(raw, 'bob')}"
    assert subjects[bob].expected_cents == 3_000
    assert subjects[bob].found_cents == 3_001
    assert "all accounts" in subjects  # a cent appeared from nowhere
    assert "money in play" in subjects
    assert not report.balanced


def test_a_deleted_entry_is_found(raw: Session, books: Engine) -> None:
    buy_in = raw.scalar(select(LedgerTransfer.id).where(LedgerTransfer.kind == TransferKind.BUY_IN))
    raw.execute(
        delete(LedgerEntry).where(LedgerEntry.transfer_id == buy_in, LedgerEntry.amount_cents > 0)
    )
    raw.commit()
    explanations = {d.explanation for d in run_audit(books).differences}
    assert "a transfer has fewer than two entries" in explanations
    assert "the stored balance differs from the sum of the account's entries" in explanations


def test_an_entry_changed_on_one_side_only_is_found(raw: Session, books: Engine) -> None:
    grant = raw.scalar(select(LedgerTransfer.id).where(LedgerTransfer.kind == TransferKind.GRANT))
    raw.execute(
        update(LedgerEntry)
        .where(LedgerEntry.transfer_id == grant, LedgerEntry.amount_cents > 0)
        .values(amount_cents=LedgerEntry.amount_cents + 100)
    )
    raw.commit()
    differences = run_audit(books).differences
    assert any(d.subject == f"transfer {grant}" and d.found_cents == 100 for d in differences), (
        differences
    )


def test_a_wrong_running_balance_is_found(raw: Session, books: Engine) -> None:
    raw.execute(
        update(LedgerEntry)
        .where(LedgerEntry.id == raw.scalar(select(LedgerEntry.id).order_by(LedgerEntry.id.desc())))
        .values(balance_after_cents=123)
    )
    raw.commit()
    explanations = {d.explanation for d in run_audit(books).differences}
    assert explanations == {"the stored balance differs from the balance after the latest entry"}


def test_money_minted_by_a_balanced_but_unrecorded_grant_is_found(
    raw: Session, books: Engine
) -> None:
    # A forged transfer that balances (house -> alice) but is labelled a buy-in: the
    # accounts and transfers all add up, but money in play no longer equals what was
    # granted.
    alice = raw.scalar(select(LedgerAccount).where(LedgerAccount.name.like("user:%")))
    house = ledger.house_account(raw)
    assert alice is not None
    forged = raw.execute(
        insert(LedgerTransfer)
        .values(kind=TransferKind.BUY_IN, reason="forged", created_at=NOW)
        .returning(LedgerTransfer.id)
    ).scalar_one()
    alice.balance_cents += 500
    house.balance_cents -= 500
    raw.add_all(
        [
            LedgerEntry(
                transfer_id=forged,
                account_id=house.id,
                amount_cents=-500,
                balance_after_cents=house.balance_cents,
            ),
            LedgerEntry(
                transfer_id=forged,
                account_id=alice.id,
                amount_cents=500,
                balance_after_cents=alice.balance_cents,
            ),
        ]
    )
    raw.commit()
    differences = run_audit(books).differences
    assert [d.subject for d in differences] == ["money in play"]
    assert differences[0].found_cents - differences[0].expected_cents == 500


def _user_id(session: Session, name: str) -> int:
    user_id = session.scalar(select(User.id).where(User.name == name))
    assert user_id is not None
    return user_id
