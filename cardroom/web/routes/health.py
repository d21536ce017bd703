"""``GET /healthz``: for load balancers and ``cardroom serve``'s own start-up check."""

from __future__ import annotations

from fastapi import APIRouter

from cardroom.service.health import DatabaseState, database_state
from cardroom.web.deps import ContextDep
from cardroom.web.errors import Unavailable, documented
from cardroom.web.schemas import HealthOut

router = APIRouter(tags=["health"])

_NOT_READY = {
    DatabaseState.OUT_OF_DATE: "The database is not up to date; run `cardroom db upgrade`.",
    DatabaseState.UNREACHABLE: "The database cannot be reached.",
}


@router.get("/healthz", responses=documented(503))
def healthz(ctx: ContextDep) -> HealthOut:
    """Ok when the process answers and its database is reachable and migrated."""
    state = database_state(ctx)
    if state is not DatabaseState.READY:
        raise Unavailable(_NOT_READY[state])
    return HealthOut()
