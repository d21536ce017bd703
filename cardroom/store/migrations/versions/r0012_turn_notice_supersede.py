"""SQLite: a new "your turn" notice marks the player's older unread ones at the game
read in its own insert, by a trigger, not in a second statement.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03

One unread turn notice per player per game (migration 0011's index serves it): the
notice's insert used to ask, in its ``RETURNING``, whether the player had an older
unread turn notice at the game, and an ``UPDATE`` followed when so, which is nearly
every command while a player is away from the table. On SQLite a statement of its
own costs several times the same update run inside the insert's step, so an
``AFTER INSERT`` trigger does it there: the older rows get ``read_at`` = the new
notice's ``created_at`` (the command's clock, as the update wrote), and only when a
row is inserted (not on ``ON CONFLICT DO NOTHING``, nor for a suspended player,
whose insert selects no row). PostgreSQL already does both in one statement (the
insert in a ``WITH`` beside the update) and gets no trigger.

A migration is frozen history: the trigger is spelt out here, not imported.
"""

from __future__ import annotations

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None

_TRIGGER = "tr_notices_turn_supersedes"


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        f"CREATE TRIGGER {_TRIGGER} AFTER INSERT ON notices "
        "WHEN NEW.kind = 'your_turn' BEGIN "
        "UPDATE notices SET read_at = NEW.created_at "
        "WHERE user_id = NEW.user_id AND game_id = NEW.game_id "
        "AND kind = 'your_turn' AND read_at IS NULL AND id != NEW.id; "
        "END"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(f"DROP TRIGGER {_TRIGGER}")
