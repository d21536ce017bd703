"""The player's notices as the notification centre lists them: newest first, a page
at a time, and marked read (a read notice is not pushed or mailed any more)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from cardroom.notify.messages import game_path
from cardroom.notify.settings import NotifySettings
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput, NotFound
from cardroom.service.game_records import Notice
from cardroom.service.notices.choices import Preferences, preferences_of, settings_of
from cardroom.service.users import active_user
from cardroom.store.db import reading
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.store.notify_models import (
    NotificationSettings,
)

PAGE_DEFAULT = 20
PAGE_MAX = 100


@dataclass(frozen=True)
class NoticePage:
    notices: tuple[Notice, ...]  # newest first
    unread: int  # all the player's unread notices, whatever the page
    next_before_id: int | None  # pass as ``before_id`` for the next page; None at the end


def _record(row: NoticeRow, notify: NotifySettings, prefs: Preferences) -> Notice:
    return Notice(
        id=row.id,
        user_id=row.user_id,
        kind=row.kind,
        game_id=row.game_id,
        hand_id=row.hand_id,
        title=row.title,
        body=row.body,
        url=game_path(row.game_id),
        data=dict(row.data),
        created_at=row.created_at,
        read_at=row.read_at,
        in_app=prefs.in_app,
        browser=prefs.browser,
    )


def list_notices(
    ctx: ServiceContext,
    user_id: int,
    *,
    before_id: int | None = None,
    limit: int = PAGE_DEFAULT,
    notify: NotifySettings | None = None,
) -> NoticePage:
    """The player's notices, newest first, a page at a time."""
    settings = settings_of(notify)
    if type(limit) is not int or not 1 <= limit <= PAGE_MAX:
        raise InvalidInput(f"A page lists 1 to {PAGE_MAX} notices.")
    with ctx.transaction() as session:
        active_user(session, user_id)
        prefs = preferences_of(session.get(NotificationSettings, user_id))
        query = select(NoticeRow).where(NoticeRow.user_id == user_id)
        if before_id is not None:
            query = query.where(NoticeRow.id < before_id)
        rows = session.scalars(query.order_by(NoticeRow.id.desc()).limit(limit + 1)).all()
        unread = session.scalar(
            select(func.count()).where(NoticeRow.user_id == user_id, NoticeRow.read_at.is_(None))
        )
        page = rows[:limit]
        return NoticePage(
            notices=tuple(_record(row, settings, prefs) for row in page),
            unread=int(unread or 0),
            next_before_id=page[-1].id if len(rows) > limit else None,
        )


def unread_count(ctx: ServiceContext, user_id: int) -> int:
    """How many of the player's notices are unread (the header's count on every
    page): one read-only statement, by the index on the notices' user."""
    with reading(), ctx.transaction() as session:
        unread = session.scalar(
            select(func.count()).where(NoticeRow.user_id == user_id, NoticeRow.read_at.is_(None))
        )
        return int(unread or 0)


def mark_read(
    ctx: ServiceContext,
    user_id: int,
    notice_id: int,
    *,
    notify: NotifySettings | None = None,
) -> Notice:
    """The player has seen the notice: it is not pushed or mailed any more. Marking
    it again changes nothing (the first reading time stays)."""
    settings = settings_of(notify)
    now = ctx.now()
    with ctx.transaction() as session:
        active_user(session, user_id)
        row = session.get(NoticeRow, notice_id) if type(notice_id) is int else None
        if row is None or row.user_id != user_id:
            raise NotFound(f"You have no notice {notice_id}.")
        if row.read_at is None:
            row.read_at = now
        return _record(row, settings, preferences_of(session.get(NotificationSettings, user_id)))
