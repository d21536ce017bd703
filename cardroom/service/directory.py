"""What an admin reads about the room: the users with their balances, one user by
number, the admin log, and the ledger audit.

Each call checks that the requester is an admin inside its own transaction, as the
admin use cases do, so an admin demoted a moment ago can no longer read these. The
pages are keyset pages (by row id), stable while new rows arrive.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from cardroom.service import money
from cardroom.service.admin import Actor, require_admin
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput, NotFound
from cardroom.service.users import UserInfo
from cardroom.store.audit import AuditReport
from cardroom.store.db import reading
from cardroom.store.models import AdminAction, LedgerAccount, User

PAGE_DEFAULT = 50
PAGE_MAX = 200


@dataclass(frozen=True)
class UserWithBalance:
    user: UserInfo
    balance_cents: int


@dataclass(frozen=True)
class UserPage:
    users: tuple[UserWithBalance, ...]  # by id, oldest account first
    # Pass as ``after_id`` for the next page; None on the last page.
    next_after_id: int | None


@dataclass(frozen=True)
class AdminActionRecord:
    id: int
    created_at: datetime
    admin_id: int | None  # None: the operator's console
    admin_name: str | None
    action: str
    target_user_id: int | None
    target_name: str | None
    reason: str
    before: dict[str, Any]
    after: dict[str, Any]


@dataclass(frozen=True)
class AdminLogPage:
    actions: tuple[AdminActionRecord, ...]  # newest first
    # Pass as ``before_id`` for the next (older) page; None on the last page.
    next_before_id: int | None


def _check_page(limit: int, position: int | None) -> None:
    if type(limit) is not int or not 1 <= limit <= PAGE_MAX:
        raise InvalidInput(f"A page holds 1 to {PAGE_MAX} lines.")
    if position is not None and (type(position) is not int or position < 0):
        raise InvalidInput("That is not a position in the list.")


def user_by_id(ctx: ServiceContext, actor: Actor, user_id: int) -> UserInfo:
    """The user numbered ``user_id``, for an admin about to act on them."""
    with reading(), ctx.transaction() as session:
        require_admin(session, actor)
        user = session.get(User, user_id)
        if user is None:
            raise NotFound(f"There is no user number {user_id}.")
        return UserInfo.of(user)


def list_users(
    ctx: ServiceContext, actor: Actor, *, after_id: int | None = None, limit: int = PAGE_DEFAULT
) -> UserPage:
    _check_page(limit, after_id)
    with reading(), ctx.transaction() as session:
        require_admin(session, actor)
        query = (
            select(User, func.coalesce(LedgerAccount.balance_cents, 0))
            .outerjoin(LedgerAccount, LedgerAccount.user_id == User.id)
            .order_by(User.id)
            .limit(limit + 1)  # one more than asked tells whether another page exists
        )
        if after_id is not None:
            query = query.where(User.id > after_id)
        rows = [
            UserWithBalance(UserInfo.of(user), int(balance))
            for user, balance in session.execute(query)
        ]
    more = len(rows) > limit
    rows = rows[:limit]
    return UserPage(users=tuple(rows), next_after_id=rows[-1].user.id if more else None)


def admin_log(
    ctx: ServiceContext,
    actor: Actor,
    *,
    target_user_id: int | None = None,
    before_id: int | None = None,
    limit: int = PAGE_DEFAULT,
) -> AdminLogPage:
    """The admin log, newest first; only the actions on one user if
    ``target_user_id`` is given."""
    _check_page(limit, before_id)
    admin, target = aliased(User), aliased(User)
    with reading(), ctx.transaction() as session:
        require_admin(session, actor)
        query = (
            select(AdminAction, admin.name, target.name)
            .outerjoin(admin, AdminAction.admin_id == admin.id)
            .outerjoin(target, AdminAction.target_user_id == target.id)
            .order_by(AdminAction.id.desc())
            .limit(limit + 1)
        )
        if before_id is not None:
            query = query.where(AdminAction.id < before_id)
        if target_user_id is not None:
            query = query.where(AdminAction.target_user_id == target_user_id)
        records = [
            AdminActionRecord(
                id=action.id,
                created_at=action.created_at,
                admin_id=action.admin_id,
                admin_name=admin_name,
                action=action.action,
                target_user_id=action.target_user_id,
                target_name=target_name,
                reason=action.reason,
                before=dict(action.before),
                after=dict(action.after),
            )
            for action, admin_name, target_name in session.execute(query)
        ]
    more = len(records) > limit
    records = records[:limit]
    return AdminLogPage(actions=tuple(records), next_before_id=records[-1].id if more else None)


def audit(ctx: ServiceContext, actor: Actor) -> AuditReport:
    """``money.audit`` for an admin. The audit reads from its own snapshot, so the
    admin check runs in a transaction of its own just before it."""
    with reading(), ctx.transaction() as session:
        require_admin(session, actor)
    return money.audit(ctx)
