"""Games, their players, hands, events, deadlines and idempotency keys.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

A migration is frozen history: it spells out every type and value list instead of
importing them from the models, which will move on.

The ledger's ``game_id`` and ``hand_id`` columns stay plain integers: the ledger is
usable (and tested) on its own, and the audit checks every game's account against
its table instead.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=20)


def _moment(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _game_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=f"fk_{table}_game_id_games")


def _user_fk(table: str, column: str = "user_id") -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["users.id"], name=f"fk_{table}_{column}_users")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(length=20), nullable=False),
        sa.Column("format", _enum("game_format", "cash", "per_hand", "tournament"), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column(
            "status",
            _enum("game_status", "waiting", "running", "paused", "finished", "cancelled"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        _moment("created_at"),
        _moment("last_activity_at"),
        _moment("started_at", nullable=True),
        _moment("ended_at", nullable=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.CheckConstraint("version >= 1", name=op.f("ck_games_version_positive")),
        _user_fk("games", "host_id"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index(op.f("ix_games_host_id"), "games", ["host_id"])
    op.create_index("ix_games_status_last_activity_at", "games", ["status", "last_activity_at"])

    op.create_table(
        "game_players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("waiting_slot", sa.Integer(), nullable=True),
        _moment("joined_at"),
        sa.CheckConstraint(
            "seat IS NULL OR seat BETWEEN 1 AND 10", name=op.f("ck_game_players_seat_range")
        ),
        sa.CheckConstraint(
            "waiting_slot IS NULL OR waiting_slot BETWEEN 1 AND 3",
            name=op.f("ck_game_players_waiting_slot_range"),
        ),
        sa.CheckConstraint(
            "waiting_slot IS NULL OR seat IS NOT NULL",
            name=op.f("ck_game_players_waiting_needs_seat"),
        ),
        _game_fk("game_players"),
        _user_fk("game_players"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_players")),
        sa.UniqueConstraint("game_id", "user_id", name="uq_game_players_game_id_user_id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_game_players_game_id_seat"),
        sa.UniqueConstraint("user_id", "waiting_slot", name="uq_game_players_user_id_waiting_slot"),
    )
    op.create_index(op.f("ix_game_players_user_id"), "game_players", ["user_id"])

    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("deck", sa.JSON(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        _moment("started_at"),
        _moment("ended_at", nullable=True),
        sa.Column("final_state", sa.JSON(), nullable=True),
        _game_fk("hands"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
        sa.UniqueConstraint("game_id", "number", name="uq_hands_game_id_number"),
    )

    op.create_table(
        "game_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        _moment("created_at"),
        _game_fk("game_events"),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hands.id"], name=op.f("fk_game_events_hand_id_hands")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_events")),
        sa.UniqueConstraint("game_id", "seq", name="uq_game_events_game_id_seq"),
    )
    op.create_index(op.f("ix_game_events_hand_id"), "game_events", ["hand_id"])

    op.create_table(
        "deadlines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            _enum("deadline_kind", "turn", "continue", "cancel_waiting", "blind_level"),
            nullable=False,
        ),
        _moment("due_at"),
        sa.Column("payload", sa.JSON(), nullable=False),
        _moment("created_at"),
        _moment("fired_at", nullable=True),
        sa.Column("claimed_by", sa.String(length=100), nullable=True),
        sa.Column("outcome", sa.String(length=200), nullable=True),
        _game_fk("deadlines"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deadlines")),
    )
    op.create_index("ix_deadlines_fired_at_due_at", "deadlines", ["fired_at", "due_at"])
    op.create_index(op.f("ix_deadlines_game_id"), "deadlines", ["game_id"])
    # At most one pending deadline of each kind per game.
    op.create_index(
        "uq_deadlines_pending",
        "deadlines",
        ["game_id", "kind"],
        unique=True,
        sqlite_where=sa.text("fired_at IS NULL"),
        postgresql_where=sa.text("fired_at IS NULL"),
    )

    op.create_table(
        "idempotency_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("request", sa.JSON(), nullable=False),
        sa.Column("response", sa.JSON(), nullable=False),
        _moment("created_at"),
        _game_fk("idempotency_keys"),
        _user_fk("idempotency_keys"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_keys")),
        sa.UniqueConstraint(
            "game_id", "user_id", "key", name="uq_idempotency_keys_game_id_user_id_key"
        ),
    )
    op.create_index(op.f("ix_idempotency_keys_user_id"), "idempotency_keys", ["user_id"])


def downgrade() -> None:
    # Dropping a table drops its indexes with it, on both databases.
    for table in (
        "idempotency_keys",
        "deadlines",
        "game_events",
        "hands",
        "game_players",
        "games",
    ):
        op.drop_table(table)
