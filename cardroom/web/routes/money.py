"""A player's own money: ``GET /api/me/balance`` and ``GET /api/me/ledger``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from cardroom.service import money
from cardroom.web.deps import ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.schemas import MAX_ROW_ID, BalanceOut, LedgerPageOut, QueryInt

router = APIRouter(prefix="/api/me", tags=["money"])

BeforeEntryId = Annotated[
    QueryInt | None,
    Query(ge=1, le=MAX_ROW_ID, description="Lines older than this entry: the next page."),
]
LedgerLimit = Annotated[
    QueryInt, Query(ge=1, le=money.STATEMENT_PAGE_MAX, description="Lines on the page.")
]


@router.get("/balance", responses=documented(401, 403))
def balance(ctx: ContextDep, user: CurrentUser) -> BalanceOut:
    return BalanceOut(balance_cents=money.balance(ctx, user.id))


@router.get("/ledger", responses=documented(401, 403, 422))
def ledger(
    ctx: ContextDep,
    user: CurrentUser,
    before_entry_id: BeforeEntryId = None,
    limit: LedgerLimit = money.STATEMENT_PAGE_DEFAULT,
) -> LedgerPageOut:
    """The player's statement, newest first, with the reason for every movement."""
    page = money.statement(ctx, user.id, before_entry_id=before_entry_id, limit=limit)
    return LedgerPageOut.of(page)
