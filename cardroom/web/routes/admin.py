"""Admin work: ``/api/admin/*``. Every route refuses a non-admin with 403 (the
``AdminUser`` dependency), and every change is kept in the admin log with its
reason, before and after."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from cardroom.service import accounts, directory, money
from cardroom.web import session_ends
from cardroom.web.deps import AdminUser, ContextDep, TargetUser
from cardroom.web.errors import documented
from cardroom.web.live import LiveDep
from cardroom.web.schemas import (
    MAX_ROW_ID,
    AdminActionOut,
    AdminLogOut,
    AuditOut,
    LedgerPageOut,
    MoneyMovedOut,
    MoneyMovementIn,
    QueryInt,
    ReasonIn,
    RoleChangeIn,
    UserListOut,
    UserOut,
    UserWithBalanceOut,
)

router = APIRouter(prefix="/api/admin", tags=["admin"])

READ = documented(401, 403, 422)
CHANGE = documented(401, 403, 404, 409, 413, 415, 422)

PageLimit = Annotated[QueryInt, Query(ge=1, le=directory.PAGE_MAX, description="Rows on the page.")]
LedgerLimit = Annotated[QueryInt, Query(ge=1, le=money.STATEMENT_PAGE_MAX)]


@router.get("/users", responses=READ)
def users(
    ctx: ContextDep,
    admin: AdminUser,
    after_id: Annotated[
        QueryInt | None, Query(ge=0, le=MAX_ROW_ID, description="Next page.")
    ] = None,
    limit: PageLimit = directory.PAGE_DEFAULT,
) -> UserListOut:
    """Every user with their balance, by id."""
    page = directory.list_users(ctx, admin.id, after_id=after_id, limit=limit)
    return UserListOut(
        users=[UserWithBalanceOut.with_balance(row) for row in page.users],
        next_after_id=page.next_after_id,
    )


@router.get("/users/{user_id}/ledger", responses=documented(401, 403, 404, 422))
def user_ledger(
    ctx: ContextDep,
    admin: AdminUser,
    target: TargetUser,
    before_entry_id: Annotated[QueryInt | None, Query(ge=1, le=MAX_ROW_ID)] = None,
    limit: LedgerLimit = money.STATEMENT_PAGE_DEFAULT,
) -> LedgerPageOut:
    """A user's statement, as they see it."""
    page = money.statement(
        ctx, admin.id, name=target.name, before_entry_id=before_entry_id, limit=limit
    )
    return LedgerPageOut.of(page)


@router.post("/users/{user_id}/grant", responses=CHANGE)
def grant(
    body: MoneyMovementIn, ctx: ContextDep, admin: AdminUser, target: TargetUser
) -> MoneyMovedOut:
    """Give play money from the house, with a reason kept in the ledger and the log."""
    after = money.grant(ctx, admin.id, target.name, body.amount_cents, body.reason)
    return MoneyMovedOut(user=UserOut.of(target), balance_cents=after)


@router.post("/users/{user_id}/remove", responses=CHANGE)
def remove(
    body: MoneyMovementIn, ctx: ContextDep, admin: AdminUser, target: TargetUser
) -> MoneyMovedOut:
    """Take play money back to the house; never more than the balance (409)."""
    after = money.remove(ctx, admin.id, target.name, body.amount_cents, body.reason)
    return MoneyMovedOut(user=UserOut.of(target), balance_cents=after)


@router.post("/users/{user_id}/suspend", responses=CHANGE)
def suspend(
    body: ReasonIn, ctx: ContextDep, live: LiveDep, admin: AdminUser, target: TargetUser
) -> UserOut:
    """Stop the user signing in or acting, and end their sessions (their sockets
    close, in every server process); their money stays."""
    suspended = accounts.suspend(ctx, admin.id, target.name, body.reason)
    live.end_sessions(suspended.id, session_ends.suspended())
    return UserOut.of(suspended)


@router.post("/users/{user_id}/reinstate", responses=CHANGE)
def reinstate(body: ReasonIn, ctx: ContextDep, admin: AdminUser, target: TargetUser) -> UserOut:
    return UserOut.of(accounts.reinstate(ctx, admin.id, target.name, body.reason))


@router.post("/users/{user_id}/role", responses=CHANGE)
def set_role(body: RoleChangeIn, ctx: ContextDep, admin: AdminUser, target: TargetUser) -> UserOut:
    """Make the user a player or an admin. The last active admin stays one (409)."""
    return UserOut.of(accounts.set_role(ctx, admin.id, target.name, body.role, body.reason))


@router.get("/audit", responses=documented(401, 403))
def audit(ctx: ContextDep, admin: AdminUser) -> AuditOut:
    """Prove from the stored rows that no cent was created or lost."""
    return AuditOut.of(directory.audit(ctx, admin.id))


@router.get("/actions", responses=READ)
def actions(
    ctx: ContextDep,
    admin: AdminUser,
    before_id: Annotated[
        QueryInt | None, Query(ge=1, le=MAX_ROW_ID, description="Next page.")
    ] = None,
    user_id: Annotated[
        QueryInt | None, Query(ge=1, le=MAX_ROW_ID, description="Only actions on this user.")
    ] = None,
    limit: PageLimit = directory.PAGE_DEFAULT,
) -> AdminLogOut:
    """The admin log, newest first: who did what to whom, when, why, before and
    after. Actions from the operator's console have no admin."""
    page = directory.admin_log(
        ctx, admin.id, target_user_id=user_id, before_id=before_id, limit=limit
    )
    return AdminLogOut(
        actions=[AdminActionOut.of(record) for record in page.actions],
        next_before_id=page.next_before_id,
    )
