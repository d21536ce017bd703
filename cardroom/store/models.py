"""The tables, as SQLAlchemy 2 typed models. The migrations in ``migrations/versions``
must build exactly this schema; a test compares the two.

Money columns are integer cents (``BigInteger``) named ``*_cents``. Times are UTC and
come from the service layer's clock, never from a server default, so that tests and
replays control them.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Enum,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from cardroom.store.columns import UtcDateTime

# Named constraints: Alembic can only alter or drop a constraint it can name, and
# SQLite and PostgreSQL would otherwise invent different names.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

NAME_MAX_LENGTH = 20
REASON_MAX_LENGTH = 200


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UtcDateTime(),
        dict[str, Any]: JSON(),
    }


def _enum_column(enum_type: type[enum.Enum], name: str) -> Enum:
    # Stored as short text with a CHECK constraint (not a PostgreSQL ENUM type) so a
    # later migration can add a value on both databases the same way; the stored text
    # is the member's value, which is also what the API shows.
    return Enum(
        enum_type,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=20,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )


class Role(enum.StrEnum):
    PLAYER = "player"
    ADMIN = "admin"


class AccountKind(enum.StrEnum):
    """Who holds the money in a ledger account."""

    HOUSE = "house"  # the source of all play money: its balance is minus what exists
    USER = "user"  # a player's balance
    GAME = "game"  # chips on a table (one chip per cent at money tables)


class TransferKind(enum.StrEnum):
    """Why money moved. The direction each kind takes is in ``cardroom.store.ledger``."""

    GRANT = "grant"  # house -> user: starting balance, admin grant
    REMOVAL = "removal"  # user -> house: admin removal
    BUY_IN = "buy_in"  # user -> game
    REFUND = "refund"  # game -> user: leaving or cancellation before the start
    REBUY = "rebuy"  # user -> game
    CASH_OUT = "cash_out"  # game -> user
    SETTLEMENT = "settlement"  # either way: a per-hand game's result
    PRIZE = "prize"  # game -> user: a tournament's payout


class User(Base):
    __tablename__ = "users"
    __table_args__ = (
        # name_key is the case-folded name that makes "Alice" and "alice" one user;
        # the check keeps a bug from storing a key that disagrees with the name.
        CheckConstraint("name_key = lower(name)", name="name_key_folded"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(_enum_column(Role, "role"))
    suspended: Mapped[bool]
    created_at: Mapped[datetime]


class UserSession(Base):
    """A signed-in browser or client. Only a hash of the token is kept, so a copy of
    the database does not let anyone act as a player."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class LedgerAccount(Base):
    """One balance. ``balance_cents`` is a running total kept in step with the
    entries; ``cardroom audit`` proves that it is."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        # The last line of defence behind the service's InsufficientBalance check.
        CheckConstraint("kind = 'house' OR balance_cents >= 0", name="balance_not_negative"),
        CheckConstraint(
            "(kind = 'user' AND user_id IS NOT NULL OR kind <> 'user' AND user_id IS NULL)"
            " AND (kind = 'game' AND game_id IS NOT NULL OR kind <> 'game' AND game_id IS NULL)",
            name="owner_matches_kind",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)  # house, user:7, game:3
    kind: Mapped[AccountKind] = mapped_column(_enum_column(AccountKind, "account_kind"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True)
    # A foreign key to games arrives with the games table.
    game_id: Mapped[int | None] = mapped_column(Integer, unique=True)
    balance_cents: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime]


class LedgerTransfer(Base):
    """One movement of money: why, on whose word, about which game or hand. Its
    entries (two today) sum to zero."""

    __tablename__ = "ledger_transfers"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[TransferKind] = mapped_column(_enum_column(TransferKind, "transfer_kind"))
    reason: Mapped[str] = mapped_column(String(REASON_MAX_LENGTH))
    # Foreign keys to games and hands arrive with those tables.
    game_id: Mapped[int | None] = mapped_column(Integer, index=True)
    hand_id: Mapped[int | None] = mapped_column(Integer, index=True)
    # NULL: the room itself (a sign-up grant, the clock) or the operator's console.
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime]

    entries: Mapped[list[LedgerEntry]] = relationship(back_populates="transfer")


class LedgerEntry(Base):
    """One side of a transfer: a signed amount on one account, and that account's
    balance just after it (what a player's statement shows)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount_cents <> 0", name="amount_not_zero"),
        # A player's statement pages through their account newest first.
        Index("ix_ledger_entries_account_id_id", "account_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("ledger_transfers.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    balance_after_cents: Mapped[int] = mapped_column(BigInteger)

    transfer: Mapped[LedgerTransfer] = relationship(back_populates="entries")
    account: Mapped[LedgerAccount] = relationship()


class AdminAction(Base):
    """What an admin (or the operator's console) changed, why, and the values before
    and after, so a dispute can be settled from the record."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    # NULL: the operator at the command line, who already holds the database.
    admin_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    action: Mapped[str] = mapped_column(String(40))
    target_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str] = mapped_column(String(REASON_MAX_LENGTH))
    before: Mapped[dict[str, Any]]
    after: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
