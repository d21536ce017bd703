"""Practice bots' accounts (migration 0005).

A bot plays under a user of its own, so that everything a table does with a person
(its seat, ``game_players``, the events naming it, the waiting slots) works for a bot
unchanged. ``bot_accounts`` says which users are bots and at which level they play.
A user is made a bot when it is created and never stops being one, nor starts: a
person's account is never a bot's.

These models share ``cardroom.store.base.Base``; ``cardroom.store.schema`` gathers
them with the others.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from cardroom.store.base import Base

BOT_LEVEL_MAX_LENGTH = 20


class BotAccount(Base):
    """A user that is a practice bot: ``level`` is a ``cardroom.bots`` level name."""

    __tablename__ = "bot_accounts"
    __table_args__ = (Index("ix_bot_accounts_level_user_id", "level", "user_id"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    level: Mapped[str] = mapped_column(String(BOT_LEVEL_MAX_LENGTH))
    created_at: Mapped[datetime]
