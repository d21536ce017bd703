"""The sign-in throttle's counters: attempts per name and per client address.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "login_throttle",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=10), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("window_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.CheckConstraint("scope IN ('name', 'address')", name=op.f("ck_login_throttle_scope")),
        sa.CheckConstraint("attempts >= 0", name=op.f("ck_login_throttle_attempts")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_throttle")),
        sa.UniqueConstraint("scope", "key", name=op.f("uq_login_throttle_scope")),
    )
    op.create_index("ix_login_throttle_window_started_at", "login_throttle", ["window_started_at"])


def downgrade() -> None:
    op.drop_index("ix_login_throttle_window_started_at", table_name="login_throttle")
    op.drop_table("login_throttle")
