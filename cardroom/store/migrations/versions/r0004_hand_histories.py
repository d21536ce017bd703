"""Hand histories: each hand's deck commitment, and who was dealt into each hand.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05

``hands.deck_root`` is the Merkle root published before the hand's first card and
``hands.deck_salts`` the 52 secret salts behind it (docs/fairness.md); both NULL for
hands dealt before this revision. ``hand_players`` names the players dealt into each
hand and their seats, so a player's hands can be listed; it is filled in here for the
hands already played, from their ``HandDealt`` records.

A migration is frozen history: it spells out every type instead of importing them
from the models, which will move on.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ALTER TABLE on both databases (no batch rebuild of a table other tables
    # point at: SQLite, with foreign keys on, refuses to drop it while it has rows).
    op.add_column("hands", sa.Column("deck_root", sa.String(length=64), nullable=True))
    op.add_column("hands", sa.Column("deck_salts", sa.JSON(), nullable=True))

    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], name="fk_hand_players_hand_id_hands"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name="fk_hand_players_user_id_users"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_hand_players_game_id_games"),
        sa.PrimaryKeyConstraint("hand_id", "user_id", name=op.f("pk_hand_players")),
    )
    op.create_index("ix_hand_players_user_id_hand_id", "hand_players", ["user_id", "hand_id"])
    op.create_index(
        "ix_hand_players_user_id_game_id_hand_id",
        "hand_players",
        ["user_id", "game_id", "hand_id"],
    )
    _fill_hand_players()


def _fill_hand_players() -> None:
    """One row per (hand, player) from each hand's ``HandDealt`` record, whose
    ``players`` are [seat, player id, stack] triples."""
    bind = op.get_bind()
    events = sa.table(
        "game_events",
        sa.column("game_id", sa.Integer()),
        sa.column("hand_id", sa.Integer()),
        sa.column("kind", sa.String()),
        sa.column("payload", sa.JSON()),
    )
    players = sa.table(
        "hand_players",
        sa.column("hand_id", sa.Integer()),
        sa.column("user_id", sa.Integer()),
        sa.column("game_id", sa.Integer()),
        sa.column("seat", sa.Integer()),
    )
    rows: list[dict[str, Any]] = []
    dealt = bind.execute(
        sa.select(events.c.game_id, events.c.hand_id, events.c.payload).where(
            events.c.kind == "HandDealt", events.c.hand_id.is_not(None)
        )
    )
    for game_id, hand_id, payload in dealt:
        data = json.loads(payload) if isinstance(payload, str) else payload
        seen: set[int] = set()
        for seat, player, _stack in data.get("players", ()):
            if player not in seen:
                seen.add(player)
                rows.append(
                    {"hand_id": hand_id, "user_id": player, "game_id": game_id, "seat": seat}
                )
    if rows:
        bind.execute(sa.insert(players), rows)


def downgrade() -> None:
    op.drop_index("ix_hand_players_user_id_game_id_hand_id", table_name="hand_players")
    op.drop_index("ix_hand_players_user_id_hand_id", table_name="hand_players")
    op.drop_table("hand_players")
    op.drop_column("hands", "deck_salts")  # SQLite 3.35 and later drop columns in place
    op.drop_column("hands", "deck_root")
