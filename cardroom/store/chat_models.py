"""A table's chat (migration 0010): its messages and who may not write in it.

Chat is kept beside the game, never in it: no game event, no hand record and no
export reads these tables, so a hand history never holds a word said at the table.

This module shares ``cardroom.store.base.Base``; ``cardroom.store.schema`` gathers it
with the others.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from cardroom.store.base import Base

CHAT_TEXT_MAX_LENGTH = 500


class ChatMessage(Base):
    """One message said at a table. An admin's deletion keeps the row (the admin log
    points at it) but no page shows it again."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        Index("ix_chat_messages_game_id_id", "game_id", "id"),
        # The rate limit counts a player's messages of the last seconds.
        Index("ix_chat_messages_user_id_created_at", "user_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(String(CHAT_TEXT_MAX_LENGTH))
    created_at: Mapped[datetime]
    deleted_at: Mapped[datetime | None]
    deleted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class ChatMute(Base):
    """A player an admin silenced: at one table (``game_id``) or, with no game, in
    every table's chat. Unmuting deletes the row."""

    __tablename__ = "chat_mutes"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime]
