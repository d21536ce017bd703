"""The double-entry ledger: every cent that exists sits in exactly one account, and
money only ever moves between accounts.

A movement is a ``LedgerTransfer`` (why, on whose word, about which game or hand)
with two ``LedgerEntry`` rows: minus the amount on the source, plus the amount on the
destination. The ``house`` account is where play money comes from: a grant moves
money out of it, a removal back in, so its balance is minus all the money in play and
the balances of all accounts always sum to zero.

Each account also keeps a running ``balance_cents``, updated in the same transaction
as its entries, so reading a balance is one row; ``cardroom.store.audit`` proves the
two agree.

The functions here run inside the caller's transaction and never commit. A refused
transfer raises ``Overdraft`` before writing anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom.store.models import (
    REASON_MAX_LENGTH,
    AccountKind,
    LedgerAccount,
    LedgerEntry,
    LedgerTransfer,
    TransferKind,
)

HOUSE = "house"

# Far above any real movement (ten trillion dollars) and far below the 64-bit limit
# of the balance columns, so no sum of a few movements can overflow.
MAX_TRANSFER_CENTS = 10**15

_USER, _GAME, _HOUSE = AccountKind.USER, AccountKind.GAME, AccountKind.HOUSE

# Which way each kind of transfer may go: (source kind, destination kind). Checking
# it here keeps the books readable (a "grant" is always house -> player) and means
# only grants and removals touch the house, which the audit relies on.
DIRECTIONS: dict[TransferKind, frozenset[tuple[AccountKind, AccountKind]]] = {
    TransferKind.GRANT: frozenset({(_HOUSE, _USER)}),
    TransferKind.REMOVAL: frozenset({(_USER, _HOUSE)}),
    TransferKind.BUY_IN: frozenset({(_USER, _GAME)}),
    TransferKind.REBUY: frozenset({(_USER, _GAME)}),
    TransferKind.REFUND: frozenset({(_GAME, _USER)}),
    TransferKind.CASH_OUT: frozenset({(_GAME, _USER)}),
    TransferKind.PRIZE: frozenset({(_GAME, _USER)}),
    # A per-hand game settles each player's result: a loss goes to the table, a win
    # comes back from it.
    TransferKind.SETTLEMENT: frozenset({(_GAME, _USER), (_USER, _GAME)}),
}


class Overdraft(Exception):
    """A transfer would take an account below zero. The service layer turns this into
    the player-facing ``InsufficientBalance``."""

    def __init__(self, account: str, balance_cents: int, amount_cents: int) -> None:
        super().__init__(
            f"{account} holds {balance_cents} cents and cannot pay {amount_cents} cents"
        )
        self.account = account
        self.balance_cents = balance_cents
        self.amount_cents = amount_cents


def user_account_name(user_id: int) -> str:
    return f"user:{user_id}"


def game_account_name(game_id: int) -> str:
    return f"game:{game_id}"


def house_account(session: Session) -> LedgerAccount:
    """The house, created by the first migration."""
    house = session.scalar(select(LedgerAccount).where(LedgerAccount.name == HOUSE))
    if house is None:
        raise RuntimeError("the house ledger account is missing: run `cardroom db upgrade`")
    return house


def open_user_account(session: Session, user_id: int, now: datetime) -> LedgerAccount:
    account = LedgerAccount(
        name=user_account_name(user_id),
        kind=AccountKind.USER,
        user_id=user_id,
        balance_cents=0,
        created_at=now,
    )
    session.add(account)
    session.flush()
    return account


def open_game_account(session: Session, game_id: int, now: datetime) -> LedgerAccount:
    account = LedgerAccount(
        name=game_account_name(game_id),
        kind=AccountKind.GAME,
        game_id=game_id,
        balance_cents=0,
        created_at=now,
    )
    session.add(account)
    session.flush()
    return account


def user_account(session: Session, user_id: int) -> LedgerAccount:
    account = session.scalar(select(LedgerAccount).where(LedgerAccount.user_id == user_id))
    if account is None:
        raise LookupError(f"user {user_id} has no ledger account")
    return account


def game_account(session: Session, game_id: int) -> LedgerAccount:
    account = session.scalar(select(LedgerAccount).where(LedgerAccount.game_id == game_id))
    if account is None:
        raise LookupError(f"game {game_id} has no ledger account")
    return account


def transfer(
    session: Session,
    *,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount_cents: int,
    kind: TransferKind,
    reason: str,
    now: datetime,
    created_by_id: int | None = None,
    game_id: int | None = None,
    hand_id: int | None = None,
) -> LedgerTransfer:
    """Move ``amount_cents`` from ``source`` to ``destination`` and record why.

    Raises ``Overdraft`` (writing nothing) if the source is not the house and holds
    less than the amount, and ``ValueError`` for a call that breaks the ledger's rules
    (a programming error, not a player's).
    """
    _check_transfer(source, destination, amount_cents, kind, reason)
    # Lock both rows, always in id order so that two opposite transfers between the
    # same accounts cannot deadlock on PostgreSQL, and re-read the balances under the
    # lock (SQLite's BEGIN IMMEDIATE has already serialised the transaction).
    locked = session.scalars(
        select(LedgerAccount)
        .where(LedgerAccount.id.in_((source.id, destination.id)))
        .order_by(LedgerAccount.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).all()
    if len(locked) != 2:
        raise ValueError("both accounts of a transfer must be stored first")
    # Work on the rows just read under the lock, whatever objects the caller held.
    by_id = {account.id: account for account in locked}
    source, destination = by_id[source.id], by_id[destination.id]
    if source.kind != AccountKind.HOUSE and source.balance_cents < amount_cents:
        raise Overdraft(source.name, source.balance_cents, amount_cents)

    source.balance_cents -= amount_cents
    destination.balance_cents += amount_cents
    record = LedgerTransfer(
        kind=kind,
        reason=reason,
        game_id=game_id,
        hand_id=hand_id,
        created_by_id=created_by_id,
        created_at=now,
        entries=[
            LedgerEntry(
                account=source,
                amount_cents=-amount_cents,
                balance_after_cents=source.balance_cents,
            ),
            LedgerEntry(
                account=destination,
                amount_cents=amount_cents,
                balance_after_cents=destination.balance_cents,
            ),
        ],
    )
    session.add(record)
    session.flush()
    return record


def _check_transfer(
    source: LedgerAccount,
    destination: LedgerAccount,
    amount_cents: int,
    kind: TransferKind,
    reason: str,
) -> None:
    if type(amount_cents) is not int:  # bool is an int, and True cents is a bug
        raise ValueError(f"an amount is whole cents, not {amount_cents!r}")
    if not 0 < amount_cents <= MAX_TRANSFER_CENTS:
        raise ValueError(f"a transfer moves 1 to {MAX_TRANSFER_CENTS} cents, not {amount_cents}")
    if source.id == destination.id:
        raise ValueError(f"a transfer needs two accounts, not {source.name} twice")
    if (source.kind, destination.kind) not in DIRECTIONS[kind]:
        raise ValueError(f"a {kind.value} cannot go from {source.name} to {destination.name}")
    if not reason.strip() or len(reason) > REASON_MAX_LENGTH:
        raise ValueError(f"a transfer needs a reason of 1 to {REASON_MAX_LENGTH} characters")


@dataclass(frozen=True)
class StatementLine:
    """One line of an account's statement, newest first."""

    entry_id: int
    transfer_id: int
    created_at: datetime
    kind: TransferKind
    reason: str
    amount_cents: int  # signed: what this account gained or lost
    balance_after_cents: int
    game_id: int | None
    hand_id: int | None


def statement(
    session: Session, account_id: int, *, before_entry_id: int | None, limit: int
) -> list[StatementLine]:
    """Up to ``limit`` lines of an account, newest first, older than
    ``before_entry_id`` when given (keyset paging: stable while new entries arrive)."""
    query = (
        select(LedgerEntry, LedgerTransfer)
        .join(LedgerTransfer, LedgerEntry.transfer_id == LedgerTransfer.id)
        .where(LedgerEntry.account_id == account_id)
        .order_by(LedgerEntry.id.desc())
        .limit(limit)
    )
    if before_entry_id is not None:
        query = query.where(LedgerEntry.id < before_entry_id)
    return [
        StatementLine(
            entry_id=entry.id,
            transfer_id=record.id,
            created_at=record.created_at,
            kind=record.kind,
            reason=record.reason,
            amount_cents=entry.amount_cents,
            balance_after_cents=entry.balance_after_cents,
            game_id=record.game_id,
            hand_id=record.hand_id,
        )
        for entry, record in session.execute(query)
    ]
