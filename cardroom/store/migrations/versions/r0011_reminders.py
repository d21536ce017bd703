"""Reminders for long clocks: ``notification_settings.reminders``, the deadline kind
``reminder``, and an index on each player's unread notices of a game.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02

``reminders`` is null for every player stored: the room's default points (half the
clock, an hour left). The unread index serves the supersede of an older "your turn"
notice by a newer one (one unread turn notice per player per game).

The deadline kind lives in a CHECK constraint (``enum_column``). PostgreSQL swaps the
constraint; SQLite cannot alter one, so ``deadlines`` is rebuilt there, with the same
columns, names and indexes (no table points at it, so the rebuild is safe).

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

_KINDS_BEFORE = ("turn", "continue", "cancel_waiting", "blind_level")
_KINDS_AFTER = (*_KINDS_BEFORE, "reminder")


def _kinds_check(kinds: tuple[str, ...]) -> str:
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def _rebuild_sqlite_deadlines(kinds: tuple[str, ...]) -> None:
    """``deadlines`` again with ``kinds`` in its CHECK: new table, copy, swap."""
    op.execute(
        "CREATE TABLE _deadlines_new ("
        "id INTEGER NOT NULL, game_id INTEGER NOT NULL, kind VARCHAR(20) NOT NULL, "
        "due_at DATETIME NOT NULL, payload JSON NOT NULL, created_at DATETIME NOT NULL, "
        "fired_at DATETIME, claimed_by VARCHAR(100), outcome VARCHAR(200), "
        "CONSTRAINT pk_deadlines PRIMARY KEY (id), "
        "CONSTRAINT fk_deadlines_game_id_games FOREIGN KEY(game_id) REFERENCES games (id), "
        f"CONSTRAINT ck_deadlines_deadline_kind CHECK ({_kinds_check(kinds)}))"
    )
    columns = "id, game_id, kind, due_at, payload, created_at, fired_at, claimed_by, outcome"
    op.execute(f"INSERT INTO _deadlines_new ({columns}) SELECT {columns} FROM deadlines")
    op.execute("DROP TABLE deadlines")  # its indexes go with it
    op.execute("ALTER TABLE _deadlines_new RENAME TO deadlines")
    op.create_index("ix_deadlines_fired_at_due_at", "deadlines", ["fired_at", "due_at"])
    op.create_index("ix_deadlines_game_id", "deadlines", ["game_id"])
    op.create_index(
        "uq_deadlines_pending",
        "deadlines",
        ["game_id", "kind"],
        unique=True,
        sqlite_where=sa.text("fired_at IS NULL"),
    )


def _deadline_kinds(kinds: tuple[str, ...]) -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild_sqlite_deadlines(kinds)
        return
    # ``op.f``: the name as written (the naming convention would prefix it again).
    op.drop_constraint(op.f("ck_deadlines_deadline_kind"), "deadlines", type_="check")
    op.create_check_constraint(op.f("ck_deadlines_deadline_kind"), "deadlines", _kinds_check(kinds))


def upgrade() -> None:
    op.add_column("notification_settings", sa.Column("reminders", sa.JSON(), nullable=True))
    op.create_index(
        "ix_notices_unread",
        "notices",
        ["user_id", "game_id"],
        sqlite_where=sa.text("read_at IS NULL"),
        postgresql_where=sa.text("read_at IS NULL"),
    )
    _deadline_kinds(_KINDS_AFTER)


def downgrade() -> None:
    # The reminders not yet fired go (the kind is no more); fired ones too, their
    # kind would break the constraint.
    op.execute("DELETE FROM deadlines WHERE kind = 'reminder'")
    _deadline_kinds(_KINDS_BEFORE)
    op.drop_index("ix_notices_unread", table_name="notices")
    op.drop_column("notification_settings", "reminders")
