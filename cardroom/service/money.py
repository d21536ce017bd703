"""Money use cases: balances, statements, admin grants and removals, the audit.

Every amount is integer cents. Moving money inside a larger use case (a buy-in, a
cash-out) goes through ``pay`` so that an overdraft becomes the player-facing
``InsufficientBalance`` and the whole use case is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from cardroom.service.admin import Actor, check_reason, record_admin_action, require_admin
from cardroom.service.amounts import format_cents
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    AccountSuspended,
    InsufficientBalance,
    InvalidInput,
    NotFound,
)
from cardroom.service.users import SUSPENDED_SENTENCE, user_named
from cardroom.store import ledger
from cardroom.store.audit import AuditReport
from cardroom.store.audit import audit as audit_ledger
from cardroom.store.db import reading
from cardroom.store.ledger import StatementLine
from cardroom.store.models import LedgerAccount, LedgerTransfer, TransferKind, User

# One admin grant or removal at most: play money, but a slipped finger should not
# mint a fortune. Larger amounts take several grants, each with its reason.
MAX_ADMIN_MOVEMENT_CENTS = 100_000_000  # $1,000,000.00

STATEMENT_PAGE_DEFAULT = 50
STATEMENT_PAGE_MAX = 200

STARTING_BALANCE_REASON = "Starting balance"


@dataclass(frozen=True)
class StatementPage:
    lines: tuple[StatementLine, ...]  # newest first
    balance_cents: int  # the balance now, whatever the page
    # Pass as ``before_entry_id`` for the next (older) page; None on the last page.
    next_before_entry_id: int | None


def pay(
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
    """``ledger.transfer``, refusing an overdraft with ``InsufficientBalance``."""
    try:
        return ledger.transfer(
            session,
            source=source,
            destination=destination,
            amount_cents=amount_cents,
            kind=kind,
            reason=reason,
            now=now,
            created_by_id=created_by_id,
            game_id=game_id,
            hand_id=hand_id,
        )
    except ledger.Overdraft as short:
        raise InsufficientBalance(
            f"A balance of {format_cents(short.balance_cents)} does not cover "
            f"{format_cents(short.amount_cents)}.",
            balance_cents=short.balance_cents,
            amount_cents=short.amount_cents,
        ) from None


def open_balance(session: Session, user: User, *, starting_cents: int, now: datetime) -> None:
    """Give a new user their ledger account and the starting balance."""
    account = ledger.open_user_account(session, user.id, now)
    if starting_cents > 0:
        pay(
            session,
            source=ledger.house_account(session),
            destination=account,
            amount_cents=starting_cents,
            kind=TransferKind.GRANT,
            reason=STARTING_BALANCE_REASON,
            now=now,
        )


def balance(ctx: ServiceContext, user_id: int) -> int:
    with reading(), ctx.transaction() as session:
        return ledger.user_account(session, user_id).balance_cents


def grant(ctx: ServiceContext, actor: Actor, name: str, amount_cents: int, reason: str) -> int:
    """An admin gives ``name`` play money from the house. Returns the new balance."""
    return _admin_movement(ctx, actor, name, amount_cents, reason, TransferKind.GRANT)


def remove(ctx: ServiceContext, actor: Actor, name: str, amount_cents: int, reason: str) -> int:
    """An admin takes play money from ``name`` back to the house; never more than the
    balance. Returns the new balance."""
    return _admin_movement(ctx, actor, name, amount_cents, reason, TransferKind.REMOVAL)


def _admin_movement(
    ctx: ServiceContext,
    actor: Actor,
    name: str,
    amount_cents: int,
    reason: str,
    kind: TransferKind,
) -> int:
    check_admin_amount(amount_cents)
    why = check_reason(reason)
    now = ctx.now()
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        target = user_named(session, name)
        house = ledger.house_account(session)
        account = ledger.user_account(session, target.id)
        before = account.balance_cents
        source, destination = (house, account) if kind is TransferKind.GRANT else (account, house)
        record = pay(
            session,
            source=source,
            destination=destination,
            amount_cents=amount_cents,
            kind=kind,
            reason=why,
            now=now,
            created_by_id=None if admin is None else admin.id,
        )
        after = ledger.user_account(session, target.id).balance_cents
        record_admin_action(
            session,
            admin=admin,
            action=kind.value,
            target=target,
            reason=why,
            before={"balance_cents": before},
            after={"balance_cents": after, "transfer_id": record.id},
            now=now,
        )
        return after


def check_admin_amount(amount_cents: int) -> None:
    if type(amount_cents) is not int:
        raise InvalidInput("An amount is a whole number of cents.")
    if amount_cents <= 0:
        raise InvalidInput("An amount must be more than $0.00.")
    if amount_cents > MAX_ADMIN_MOVEMENT_CENTS:
        raise InvalidInput(
            f"One grant or removal moves at most {format_cents(MAX_ADMIN_MOVEMENT_CENTS)}."
        )


def statement(
    ctx: ServiceContext,
    viewer_id: int,
    *,
    name: str | None = None,
    before_entry_id: int | None = None,
    limit: int = STATEMENT_PAGE_DEFAULT,
) -> StatementPage:
    """A page of a ledger, newest first: the viewer's own, or (for an admin) the user
    called ``name``."""
    if type(limit) is not int or not 1 <= limit <= STATEMENT_PAGE_MAX:
        raise InvalidInput(f"A page holds 1 to {STATEMENT_PAGE_MAX} lines.")
    if before_entry_id is not None and (type(before_entry_id) is not int or before_entry_id < 1):
        raise InvalidInput("That is not a position in a ledger.")
    with reading(), ctx.transaction() as session:
        viewer = session.get(User, viewer_id)
        if viewer is None:
            raise NotFound("There is no such user.")
        if viewer.suspended:
            raise AccountSuspended(SUSPENDED_SENTENCE)
        owner = viewer
        if name is not None and user_named(session, name).id != viewer.id:
            require_admin(session, viewer.id)
            owner = user_named(session, name)
        account = ledger.user_account(session, owner.id)
        # One line more than asked tells whether an older page exists.
        lines = ledger.statement(
            session, account.id, before_entry_id=before_entry_id, limit=limit + 1
        )
        more = len(lines) > limit
        lines = lines[:limit]
        return StatementPage(
            lines=tuple(lines),
            balance_cents=account.balance_cents,
            next_before_entry_id=lines[-1].entry_id if more else None,
        )


def audit(ctx: ServiceContext) -> AuditReport:
    """Audit the whole ledger from one consistent snapshot."""
    with reading(), ctx.transaction() as session:
        if session.get_bind().dialect.name == "postgresql":
            # Every query of the audit must see the same moment; PostgreSQL's default
            # READ COMMITTED gives each statement its own. (SQLite's BEGIN IMMEDIATE
            # already holds off every writer.)
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
        return audit_ledger(session)
