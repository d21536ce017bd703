"""Users, sessions, the double-entry ledger and the admin log.

Revision ID: 0001
Revises:
Create Date: 2026-11-30

A migration is frozen history: it spells out every type and value list instead of
importing them from the models, which will move on.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=20)


def _moment(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=20), nullable=False),
        sa.Column("name_key", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", _enum("role", "player", "admin"), nullable=False),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        _moment("created_at"),
        sa.CheckConstraint("name_key = lower(name)", name=op.f("ck_users_name_key_folded")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("name_key", name=op.f("uq_users_name_key")),
    )

    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        _moment("created_at"),
        _moment("expires_at"),
        _moment("revoked_at", nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sessions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_sessions_token_hash")),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"])

    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("kind", _enum("account_kind", "house", "user", "game"), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("balance_cents", sa.BigInteger(), nullable=False),
        _moment("created_at"),
        sa.CheckConstraint(
            "kind = 'house' OR balance_cents >= 0",
            name=op.f("ck_ledger_accounts_balance_not_negative"),
        ),
        sa.CheckConstraint(
            "(kind = 'user' AND user_id IS NOT NULL OR kind <> 'user' AND user_id IS NULL)"
            " AND (kind = 'game' AND game_id IS NOT NULL OR kind <> 'game' AND game_id IS NULL)",
            name=op.f("ck_ledger_accounts_owner_matches_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_ledger_accounts_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_accounts")),
        sa.UniqueConstraint("name", name=op.f("uq_ledger_accounts_name")),
        sa.UniqueConstraint("user_id", name=op.f("uq_ledger_accounts_user_id")),
        sa.UniqueConstraint("game_id", name=op.f("uq_ledger_accounts_game_id")),
    )

    # The house is where all play money comes from; it exists from the start so that
    # no transaction ever has to race another to create it.
    op.bulk_insert(
        sa.table(
            "ledger_accounts",
            sa.column("name", sa.String()),
            sa.column("kind", sa.String()),
            sa.column("balance_cents", sa.BigInteger()),
            sa.column("created_at", sa.DateTime(timezone=True)),
        ),
        [{"name": "house", "kind": "house", "balance_cents": 0, "created_at": datetime.now(UTC)}],
    )

    op.create_table(
        "ledger_transfers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            _enum(
                "transfer_kind",
                "grant",
                "removal",
                "buy_in",
                "refund",
                "rebuy",
                "cash_out",
                "settlement",
                "prize",
            ),
            nullable=False,
        ),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        _moment("created_at"),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name=op.f("fk_ledger_transfers_created_by_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_transfers")),
    )
    op.create_index(
        op.f("ix_ledger_transfers_created_by_id"), "ledger_transfers", ["created_by_id"]
    )
    op.create_index(op.f("ix_ledger_transfers_game_id"), "ledger_transfers", ["game_id"])
    op.create_index(op.f("ix_ledger_transfers_hand_id"), "ledger_transfers", ["hand_id"])

    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("balance_after_cents", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount_cents <> 0", name=op.f("ck_ledger_entries_amount_not_zero")),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["ledger_accounts.id"],
            name=op.f("fk_ledger_entries_account_id_ledger_accounts"),
        ),
        sa.ForeignKeyConstraint(
            ["transfer_id"],
            ["ledger_transfers.id"],
            name=op.f("fk_ledger_entries_transfer_id_ledger_transfers"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
    )
    op.create_index("ix_ledger_entries_account_id_id", "ledger_entries", ["account_id", "id"])
    op.create_index(op.f("ix_ledger_entries_transfer_id"), "ledger_entries", ["transfer_id"])

    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("target_user_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("after", sa.JSON(), nullable=False),
        _moment("created_at"),
        sa.ForeignKeyConstraint(
            ["admin_id"], ["users.id"], name=op.f("fk_admin_actions_admin_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["target_user_id"], ["users.id"], name=op.f("fk_admin_actions_target_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    op.create_index(op.f("ix_admin_actions_admin_id"), "admin_actions", ["admin_id"])
    op.create_index(op.f("ix_admin_actions_target_user_id"), "admin_actions", ["target_user_id"])


def downgrade() -> None:
    # Dropping a table drops its indexes with it, on both databases.
    for table in (
        "admin_actions",
        "ledger_entries",
        "ledger_transfers",
        "ledger_accounts",
        "sessions",
        "users",
    ):
        op.drop_table(table)
