"""The game's latest hand on its row: ``games.hand_id``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-09

Every action on a running hand looked the hand's row up by game and number
(``hands.game_id``, ``hands.number``) for its id, one statement each. The game's row,
which the command locks and loads anyway, now carries the id of its latest hand
(NULL for a game with no hand yet); it is filled in here from the hands already
stored: each game's hand with the highest number.

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ALTER TABLE on both databases, as in 0004 and 0007 (SQLite refuses a batch
    # rebuild of ``games``, which other tables point at, once it has rows). No foreign
    # key: the models say why.
    op.add_column("games", sa.Column("hand_id", sa.Integer(), nullable=True))
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("hand_id", sa.Integer()))
    hands = sa.table(
        "hands",
        sa.column("id", sa.Integer()),
        sa.column("game_id", sa.Integer()),
        sa.column("number", sa.Integer()),
    )
    latest = (
        sa.select(hands.c.id)
        .where(hands.c.game_id == games.c.id)
        .order_by(hands.c.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    op.get_bind().execute(sa.update(games).values(hand_id=latest))


def downgrade() -> None:
    op.drop_column("games", "hand_id")  # SQLite 3.35 and later drop columns in place
