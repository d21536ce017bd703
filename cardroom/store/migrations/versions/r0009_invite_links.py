"""Invite links and private tables: ``games.invite_token``, ``games.private`` and
``game_invitees``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02

Every table gets an invite link whose secret is a random token, not its id; a private
table is left out of the lobby and is open only to its host, its players, admins and
whoever opened the link (one ``game_invitees`` row each). The games already stored get
a token each here, and stay public.

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ALTER TABLE on both databases, as in 0007 and 0008 (SQLite refuses a batch
    # rebuild of ``games``, which other tables point at, once it has rows): so the
    # token is a nullable column with a unique index, filled in for every game below.
    op.add_column("games", sa.Column("invite_token", sa.String(length=32), nullable=True))
    op.add_column(
        "games", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    games = sa.table(
        "games", sa.column("id", sa.Integer()), sa.column("invite_token", sa.String(32))
    )
    bind = op.get_bind()
    for (game_id,) in bind.execute(sa.select(games.c.id)).all():
        bind.execute(
            sa.update(games)
            .where(games.c.id == game_id)
            .values(invite_token=secrets.token_urlsafe(16))
        )
    op.create_index("ix_games_invite_token", "games", ["invite_token"], unique=True)
    op.create_table(
        "game_invitees",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_game_invitees_game_id_games"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_game_invitees_user_id_users"),
        sa.PrimaryKeyConstraint("game_id", "user_id", name="pk_game_invitees"),
    )
    op.create_index("ix_game_invitees_user_id", "game_invitees", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_game_invitees_user_id", table_name="game_invitees")
    op.drop_table("game_invitees")
    op.drop_index("ix_games_invite_token", table_name="games")
    op.drop_column("games", "private")  # SQLite 3.35 and later drop columns in place
    op.drop_column("games", "invite_token")
