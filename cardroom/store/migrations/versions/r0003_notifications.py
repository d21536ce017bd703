"""Notifications: players' channels, push subscriptions, notices and their deliveries.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-04

A migration is frozen history: it spells out every type and value list instead of
importing them from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=20)


def _moment(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _user_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=f"fk_{table}_user_id_users")


def upgrade() -> None:
    op.create_table(
        "notification_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("in_app", sa.Boolean(), nullable=False),
        sa.Column("browser", sa.Boolean(), nullable=False),
        sa.Column("web_push", sa.Boolean(), nullable=False),
        sa.Column("email", sa.Boolean(), nullable=False),
        sa.Column("email_address", sa.String(length=254), nullable=True),
        _moment("updated_at"),
        _moment("last_push_at", nullable=True),
        _moment("last_email_at", nullable=True),
        _user_fk("notification_settings"),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_notification_settings")),
    )

    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("endpoint_hash", sa.String(length=64), nullable=False),
        sa.Column("p256dh", sa.String(length=100), nullable=False),
        sa.Column("auth", sa.String(length=50), nullable=False),
        _moment("created_at"),
        _moment("last_sent_at", nullable=True),
        _user_fk("push_subscriptions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_push_subscriptions")),
        sa.UniqueConstraint("endpoint_hash", name=op.f("uq_push_subscriptions_endpoint_hash")),
    )
    op.create_index(op.f("ix_push_subscriptions_user_id"), "push_subscriptions", ["user_id"])

    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            _enum("notice_kind", "your_turn", "game_started", "game_ended"),
            nullable=False,
        ),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("turn_seq", sa.Integer(), nullable=True),
        sa.Column("dedupe_key", sa.String(length=80), nullable=False),
        sa.Column("title", sa.String(length=120), nullable=False),
        sa.Column("body", sa.String(length=500), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        _moment("created_at"),
        _moment("read_at", nullable=True),
        _user_fk("notices"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_notices_game_id_games")),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name=op.f("fk_notices_hand_id_hands")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notices")),
        # One notice per occasion per player, whoever calls and however often.
        sa.UniqueConstraint("user_id", "dedupe_key", name="uq_notices_user_id_dedupe_key"),
    )
    op.create_index("ix_notices_user_id_id", "notices", ["user_id", "id"])

    op.create_table(
        "notice_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("notice_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("channel", _enum("notice_channel", "web_push", "email"), nullable=False),
        sa.Column(
            "status",
            _enum("delivery_status", "pending", "sending", "sent", "failed", "skipped"),
            nullable=False,
        ),
        _moment("due_at"),
        _moment("attempted_at", nullable=True),
        sa.Column("claimed_by", sa.String(length=100), nullable=True),
        sa.Column("outcome", sa.String(length=200), nullable=True),
        sa.ForeignKeyConstraint(
            ["notice_id"], ["notices.id"], name=op.f("fk_notice_deliveries_notice_id_notices")
        ),
        _user_fk("notice_deliveries"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notice_deliveries")),
        sa.UniqueConstraint("notice_id", "channel", name="uq_notice_deliveries_notice_id_channel"),
    )
    op.create_index("ix_notice_deliveries_status_due_at", "notice_deliveries", ["status", "due_at"])
    op.create_index(
        "ix_notice_deliveries_user_id_status", "notice_deliveries", ["user_id", "status"]
    )


def downgrade() -> None:
    # Dropping a table drops its indexes with it, on both databases.
    for table in ("notice_deliveries", "notices", "push_subscriptions", "notification_settings"):
        op.drop_table(table)
