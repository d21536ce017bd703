"""The notification tables (migration 0003): each player's choice of channels, their
browsers' push subscriptions, the notices the room gave them, and each attempt to
deliver a notice by Web Push or email.

These models share ``cardroom.store.base.Base``; ``cardroom.store.schema`` imports
this module with the others, for Alembic's comparison and the test fixtures that
empty every table.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from cardroom.store.base import Base, enum_column

EMAIL_ADDRESS_MAX_LENGTH = 254
NOTICE_TITLE_MAX_LENGTH = 120
NOTICE_BODY_MAX_LENGTH = 500
DEDUPE_KEY_MAX_LENGTH = 80
OUTCOME_MAX_LENGTH = 200


class NoticeKind(enum.StrEnum):
    YOUR_TURN = "your_turn"
    GAME_STARTED = "game_started"
    GAME_ENDED = "game_ended"  # a tournament's finish, or a cancellation


class Channel(enum.StrEnum):
    """The channels delivered from the server after the fact. In-app notices go out
    with the command that made them, and the browser's own notification is the
    open page's: neither has a delivery row."""

    WEB_PUSH = "web_push"
    EMAIL = "email"


class DeliveryStatus(enum.StrEnum):
    PENDING = "pending"  # waits for its due time
    SENDING = "sending"  # claimed by a worker, which is sending it now
    SENT = "sent"
    FAILED = "failed"  # the push service or mail server refused, or did not answer
    SKIPPED = "skipped"  # not sent, on purpose: the turn was over, the notice read...


class NotificationSettings(Base):
    """A player's channels. No row means the defaults: in-app and browser on, Web
    Push and email off. The ``last_*_at`` columns are the per-player rate limit's
    memory, kept here because delivery locks this row anyway."""

    __tablename__ = "notification_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    in_app: Mapped[bool]
    browser: Mapped[bool]
    web_push: Mapped[bool]
    email: Mapped[bool]
    email_address: Mapped[str | None] = mapped_column(String(EMAIL_ADDRESS_MAX_LENGTH))
    updated_at: Mapped[datetime]
    last_push_at: Mapped[datetime | None]
    last_email_at: Mapped[datetime | None]
    # When to remind the player before a long turn clock runs out ("50%", "1h"...:
    # ``cardroom.service.schedule.reminder_points``); None: the room's default, []:
    # never (migration 0011).
    reminders: Mapped[list[str] | None] = mapped_column(JSON)


class PushSubscription(Base):
    """One browser's Web Push subscription (``PushSubscription.toJSON()``). The
    endpoint is a capability URL of any length, so uniqueness is on its SHA-256: a
    browser belongs to whoever subscribed it last."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    endpoint: Mapped[str] = mapped_column(Text)
    endpoint_hash: Mapped[str] = mapped_column(String(64), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(50))
    created_at: Mapped[datetime]
    last_sent_at: Mapped[datetime | None]


class Notice(Base):
    """Something the room told a player. ``dedupe_key`` names the occasion (a turn:
    game, hand and the seq of the event that started it; a game's start; its end),
    and ``(user_id, dedupe_key)`` is unique, so a repeated call, a retry or a second
    server process cannot tell a player the same thing twice."""

    __tablename__ = "notices"
    __table_args__ = (
        UniqueConstraint("user_id", "dedupe_key", name="uq_notices_user_id_dedupe_key"),
        # A player's list pages newest first.
        Index("ix_notices_user_id_id", "user_id", "id"),
        # A player's unread notices of one game: a new turn notice supersedes the
        # older unread ones (migration 0011), in its own insert (on SQLite by the
        # trigger ``tr_notices_turn_supersedes``, migration 0012; models cannot say
        # triggers, and the schema comparison does not see them).
        Index(
            "ix_notices_unread",
            "user_id",
            "game_id",
            sqlite_where=text("read_at IS NULL"),
            postgresql_where=text("read_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[NoticeKind] = mapped_column(enum_column(NoticeKind, "notice_kind"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"))
    turn_seq: Mapped[int | None]  # your_turn: the seq of the event that started the turn
    dedupe_key: Mapped[str] = mapped_column(String(DEDUPE_KEY_MAX_LENGTH))
    title: Mapped[str] = mapped_column(String(NOTICE_TITLE_MAX_LENGTH))
    body: Mapped[str] = mapped_column(String(NOTICE_BODY_MAX_LENGTH))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    read_at: Mapped[datetime | None]


class NoticeDelivery(Base):
    """One notice on one channel: when it may go, and what became of it. A worker
    claims due rows (``pending`` to ``sending``) in a transaction that also takes the
    player's settings row, then sends with no transaction open, then records the
    outcome; a crash while sending leaves the row ``sending``: a notice is sent at
    most once, never twice."""

    __tablename__ = "notice_deliveries"
    __table_args__ = (
        UniqueConstraint("notice_id", "channel", name="uq_notice_deliveries_notice_id_channel"),
        Index("ix_notice_deliveries_status_due_at", "status", "due_at"),
        Index("ix_notice_deliveries_user_id_status", "user_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    notice_id: Mapped[int] = mapped_column(ForeignKey("notices.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    channel: Mapped[Channel] = mapped_column(enum_column(Channel, "notice_channel"))
    status: Mapped[DeliveryStatus] = mapped_column(enum_column(DeliveryStatus, "delivery_status"))
    due_at: Mapped[datetime]
    attempted_at: Mapped[datetime | None]
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    outcome: Mapped[str | None] = mapped_column(String(OUTCOME_MAX_LENGTH))
