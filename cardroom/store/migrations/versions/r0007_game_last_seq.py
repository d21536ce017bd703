"""The game's last event number on its row: ``games.last_seq``.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-08

Every command numbered its events on from ``max(seq)`` over the game's
``game_events``, and every read of a table asked the same to say where its log ends:
one statement each. The row, which the command locks and the read loads anyway, now
carries the number (0 for a game with no events yet); it is filled in here from the
events already stored.

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ALTER TABLE on both databases, as in 0004: SQLite adds a column in place
    # (what batch mode would do for an added column anyway), while a batch rebuild of
    # ``games``, which other tables point at, is refused by SQLite with foreign keys
    # on once it has rows.
    op.add_column("games", sa.Column("last_seq", sa.Integer(), server_default="0", nullable=False))
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("last_seq", sa.Integer()))
    events = sa.table(
        "game_events", sa.column("game_id", sa.Integer()), sa.column("seq", sa.Integer())
    )
    last = (
        sa.select(sa.func.coalesce(sa.func.max(events.c.seq), 0))
        .where(events.c.game_id == games.c.id)
        .scalar_subquery()
    )
    op.get_bind().execute(sa.update(games).values(last_seq=last))


def downgrade() -> None:
    op.drop_column("games", "last_seq")  # SQLite 3.35 and later drop columns in place
