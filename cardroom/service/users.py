"""Users as the rest of the room sees them: the name rules, lookups by name, and the
plain record that use cases return instead of ORM objects."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardroom.service.errors import AccountSuspended, InvalidInput, NotFound
from cardroom.store.models import NAME_MAX_LENGTH, Role, User

NAME_MIN_LENGTH = 3
_NAME = re.compile(rf"[A-Za-z0-9_-]{{{NAME_MIN_LENGTH},{NAME_MAX_LENGTH}}}", re.ASCII)

# Names a player may not choose for themselves, because other players would read them
# as the room speaking. The operator can still create them from the console.
RESERVED_NAMES = frozenset(
    {"admin", "administrator", "cardroom", "dealer", "house", "moderator", "root", "system"}
)

SUSPENDED_SENTENCE = "This account is suspended; ask an admin to reinstate it."


@dataclass(frozen=True)
class UserInfo:
    id: int
    name: str
    role: Role
    suspended: bool
    created_at: datetime

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN

    @classmethod
    def of(cls, user: User) -> UserInfo:
        return cls(
            id=user.id,
            name=user.name,
            role=user.role,
            suspended=user.suspended,
            created_at=user.created_at,
        )


def name_key(name: str) -> str:
    """The form under which names are unique: ``Alice`` and ``alice`` are one user."""
    return name.lower()


def check_new_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise InvalidInput(
            f"A name has {NAME_MIN_LENGTH} to {NAME_MAX_LENGTH} characters: "
            "letters, digits, _ and - only."
        )


def user_named(session: Session, name: str) -> User:
    user = session.scalar(select(User).where(User.name_key == name_key(name.strip())))
    if user is None:
        raise NotFound(f"There is no user called {name.strip()!r}.")
    return user


def active_user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id) if type(user_id) is int else None
    if user is None:
        raise NotFound("There is no such user.")
    if user.suspended:
        raise AccountSuspended(SUSPENDED_SENTENCE)
    return user
