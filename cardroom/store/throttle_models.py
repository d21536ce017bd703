"""The sign-in throttle's counters (migration 0006).

One row per thing being counted: a name being signed in to (``scope`` "name", ``key``
its lower-case form) or a client address (``scope`` "address"). ``attempts`` counts
the attempts of the window that began at ``window_started_at``; a row whose window is
over is deleted by the next attempt. Kept in the database so that every server
process of a room counts the same attempts (docs/reliability.md).

This model shares ``cardroom.store.base.Base``; ``cardroom.store.schema`` gathers it
with the others.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from cardroom.store.base import Base

THROTTLE_KEY_MAX_LENGTH = 100
THROTTLE_SCOPES = ("name", "address")


class LoginThrottleCounter(Base):
    __tablename__ = "login_throttle"
    __table_args__ = (
        UniqueConstraint("scope", "key"),
        CheckConstraint("scope IN ('name', 'address')", name="scope"),
        CheckConstraint("attempts >= 0", name="attempts"),
        Index("ix_login_throttle_window_started_at", "window_started_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    scope: Mapped[str] = mapped_column(String(10))
    key: Mapped[str] = mapped_column(String(THROTTLE_KEY_MAX_LENGTH))
    window_started_at: Mapped[datetime]
    attempts: Mapped[int]
