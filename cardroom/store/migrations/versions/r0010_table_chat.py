"""Table chat and spectators: ``chat_messages``, ``chat_mutes`` and three columns of
``games`` (``spectators``, ``spectators_chat``, ``chat_on``).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02

The games already stored keep watching open, the chat on and closed to spectators,
the defaults of a new table.

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ALTER TABLE, as in 0009: SQLite cannot rebuild ``games`` once other tables
    # point at it, and a column with a server default needs no rebuild.
    op.add_column(
        "games", sa.Column("spectators", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.add_column(
        "games",
        sa.Column("spectators_chat", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "games", sa.Column("chat_on", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=500), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_chat_messages_game_id_games"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_chat_messages_user_id_users"),
        sa.ForeignKeyConstraint(
            ["deleted_by_id"], ["users.id"], name="fk_chat_messages_deleted_by_id_users"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_messages"),
    )
    op.create_index("ix_chat_messages_game_id_id", "chat_messages", ["game_id", "id"])
    op.create_index(
        "ix_chat_messages_user_id_created_at", "chat_messages", ["user_id", "created_at"]
    )
    op.create_table(
        "chat_mutes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_chat_mutes_user_id_users"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_chat_mutes_game_id_games"),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["users.id"], name="fk_chat_mutes_created_by_id_users"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_mutes"),
    )
    op.create_index("ix_chat_mutes_user_id", "chat_mutes", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_mutes_user_id", table_name="chat_mutes")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_user_id_created_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_game_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_column("games", "chat_on")
    op.drop_column("games", "spectators_chat")
    op.drop_column("games", "spectators")
