"""Practice bots: which users are bots, and at which level they play.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "bot_accounts",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_bot_accounts_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_bot_accounts")),
    )
    op.create_index("ix_bot_accounts_level_user_id", "bot_accounts", ["level", "user_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_accounts_level_user_id", table_name="bot_accounts")
    op.drop_table("bot_accounts")
