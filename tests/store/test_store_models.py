"""The constraints the schema itself enforces, behind the service layer's checks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, insert, select, text
from sqlalchemy.exc import IntegrityError, StatementError

from cardroom.store.db import make_sessionmaker
from cardroom.store.models import AccountKind, LedgerAccount, Role, User, UserSession

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def user_row(name: str, key: str | None = None, role: str = "player") -> dict[str, object]:
    return {
        "name": name,
        "name_key": name.lower() if key is None else key,
        "password_hash": "-",
        "role": role,
        "suspended": False,
        "created_at": NOW,
    }


def test_names_are_unique_ignoring_case(db: Engine) -> None:
    with db.begin() as connection:
        connection.execute(insert(User), [user_row("Alice")])
    with pytest.raises(IntegrityError), db.begin() as connection:
        connection.execute(insert(User), [user_row("ALICE")])


def test_the_name_key_must_be_the_folded_name(db: Engine) -> None:
    with pytest.raises(IntegrityError), db.begin() as connection:
        connection.execute(insert(User), [user_row("Alice", key="bob")])


def test_only_known_roles_are_stored(db: Engine) -> None:
    with pytest.raises(IntegrityError), db.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (name, name_key, password_hash, role, suspended, created_at)"
                " VALUES ('eve', 'eve', '-', 'owner', false, CURRENT_TIMESTAMP)"
            )
        )


def test_a_user_account_needs_a_user_and_a_game_account_a_game(db: Engine) -> None:
    for row in (
        {"name": "user:x", "kind": "user", "balance_cents": 0, "created_at": NOW},
        {"name": "game:x", "kind": "game", "balance_cents": 0, "created_at": NOW},
        {"name": "h2", "kind": "house", "game_id": 3, "balance_cents": 0, "created_at": NOW},
    ):
        with pytest.raises(IntegrityError), db.begin() as connection:
            connection.execute(insert(LedgerAccount), [row])


def test_times_come_back_as_utc_on_every_database(db: Engine) -> None:
    with make_sessionmaker(db).begin() as session:
        user = User(**user_row("alice"))  # type: ignore[arg-type]
        user.role = Role.PLAYER
        session.add(user)
        session.flush()
        session.add(
            UserSession(
                user_id=user.id,
                token_hash="t" * 64,
                created_at=NOW,
                expires_at=NOW.replace(hour=23),
            )
        )
    with make_sessionmaker(db)() as session:
        stored = session.scalars(select(UserSession)).one()
        assert stored.created_at == NOW and stored.created_at.tzinfo is not None
        assert stored.expires_at.utcoffset() is not None
        assert stored.revoked_at is None
        assert session.scalars(select(LedgerAccount.kind)).one() is AccountKind.HOUSE


def test_a_naive_time_is_refused(db: Engine) -> None:
    with pytest.raises(StatementError, match="naive"), db.begin() as connection:
        connection.execute(
            insert(User), [{**user_row("alice"), "created_at": datetime(2026, 1, 1)}]
        )
