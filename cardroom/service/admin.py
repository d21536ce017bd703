"""Who may do admin work, and the record of what they did.

An admin action comes from an ``Actor``: either an admin's user id (the web) or
``CONSOLE``, the operator at the server's command line, who already holds the
database and needs no account. Spelling the console out, rather than letting ``None``
mean it, keeps a missing user id from quietly becoming full authority.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from cardroom.service.errors import Forbidden, InvalidInput
from cardroom.store.models import REASON_MAX_LENGTH, AdminAction, Role, User


@dataclass(frozen=True)
class ConsoleOperator:
    def __repr__(self) -> str:
        return "CONSOLE"


CONSOLE = ConsoleOperator()

Actor = int | ConsoleOperator


def require_admin(session: Session, actor: Actor) -> User | None:
    """The acting admin (``None`` for the console), or ``Forbidden``. The role is read
    inside the use case's transaction, so an admin demoted or suspended a moment ago
    can no longer act."""
    if isinstance(actor, ConsoleOperator):
        return None
    admin = session.get(User, actor)
    if admin is None or admin.role is not Role.ADMIN or admin.suspended:
        raise Forbidden("Only an admin can do that.")
    return admin


def check_reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise InvalidInput("Give a reason: it is kept with the change.")
    if len(text) > REASON_MAX_LENGTH:
        raise InvalidInput(f"A reason can have at most {REASON_MAX_LENGTH} characters.")
    return text


def record_admin_action(
    session: Session,
    *,
    admin: User | None,
    action: str,
    target: User | None,
    reason: str,
    before: dict[str, Any],
    after: dict[str, Any],
    now: datetime,
) -> None:
    session.add(
        AdminAction(
            admin_id=None if admin is None else admin.id,
            action=action,
            target_user_id=None if target is None else target.id,
            reason=reason,
            before=before,
            after=after,
            created_at=now,
        )
    )
