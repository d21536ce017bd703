"""The player's choices: which channels carry their notices (in the app, the open
page's system notification, Web Push, email), when to be reminded before a long turn
clock runs out, the settings row that holds them and the delivery worker locks, and
the browsers subscribed to Web Push.

``settings_of`` is the room's notification settings (``NotifySettings``) when a
caller passes none: the environment's."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from cardroom.notify.email import valid_address
from cardroom.notify.settings import NotifySettings, environ_settings
from cardroom.notify.webpush import (
    EndpointRefused,
    check_endpoint,
    check_keys,
)
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Conflict, InvalidInput
from cardroom.service.schedule import DEFAULT_REMINDERS, reminder_points
from cardroom.service.users import active_user
from cardroom.store.notify_models import (
    NotificationSettings,
    PushSubscription,
)

MAX_BROWSERS_PER_PLAYER = 10  # a player's oldest subscription goes when an 11th comes


@dataclass(frozen=True)
class Preferences:
    """A player's channels. Web Push also needs a subscribed browser, email an
    address and a room with a mail server."""

    in_app: bool = True
    browser: bool = True  # the open page shows a system notification
    web_push: bool = False
    email: bool = False
    email_address: str | None = None
    # Before a long turn clock runs out ("50%": half of it left, "1h": an hour left);
    # () for no reminders. They go on the channels above.
    reminders: tuple[str, ...] = DEFAULT_REMINDERS


DEFAULTS = Preferences()


@dataclass(frozen=True)
class BrowserSubscription:
    id: int
    endpoint: str
    created_at: datetime
    created: bool  # False: the browser was subscribed already, and is now this player's


def settings_of(notify: NotifySettings | None) -> NotifySettings:
    return notify if notify is not None else environ_settings()


def _insert(session: Session, model: Any) -> Any:
    """``INSERT`` with the dialect's ``ON CONFLICT`` clause available: the unique
    constraints do the deduplicating, without an exception to roll back."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(model)
    return sqlite.insert(model)


def preferences_of(row: NotificationSettings | None) -> Preferences:
    if row is None:
        return DEFAULTS
    return Preferences(
        row.in_app,
        row.browser,
        row.web_push,
        row.email,
        row.email_address,
        reminders_of(row.reminders),
    )


def reminders_of(stored: object) -> tuple[str, ...]:
    """The points a settings row keeps: None is the room's default. A stored value
    the room cannot read (written by hand) counts as the default, not as an error
    in the middle of a clock's work."""
    if stored is None:
        return DEFAULT_REMINDERS
    try:
        return reminder_points(stored)
    except ValueError:
        return DEFAULT_REMINDERS


def reminders_for(session: Session, user_id: int) -> tuple[str, ...]:
    """The player's reminder points: one read of their settings row."""
    stored = session.execute(
        select(NotificationSettings.reminders).where(NotificationSettings.user_id == user_id)
    ).first()
    return DEFAULT_REMINDERS if stored is None else reminders_of(stored[0])


def settings_row(session: Session, user_id: int, now: datetime) -> NotificationSettings:
    """The player's settings row, made with the defaults if missing, and locked
    (``FOR UPDATE``; SQLite's ``BEGIN IMMEDIATE`` has already serialised us)."""
    session.execute(
        _insert(session, NotificationSettings)
        .values(
            user_id=user_id,
            in_app=DEFAULTS.in_app,
            browser=DEFAULTS.browser,
            web_push=DEFAULTS.web_push,
            email=DEFAULTS.email,
            email_address=None,
            updated_at=now,
        )
        .on_conflict_do_nothing(index_elements=["user_id"])
    )
    row = session.scalars(
        select(NotificationSettings)
        .where(NotificationSettings.user_id == user_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).one()
    return row


def get_preferences(ctx: ServiceContext, user_id: int) -> Preferences:
    with ctx.transaction() as session:
        active_user(session, user_id)
        return preferences_of(session.get(NotificationSettings, user_id))


def set_preferences(
    ctx: ServiceContext,
    user_id: int,
    prefs: Preferences,
    *,
    reminders: Sequence[str] | None = None,
    notify: NotifySettings | None = None,
) -> Preferences:
    """Replace the player's channels. Email needs an address (kept when email is
    turned off, so turning it back on is one switch) and a room with a mail server.
    ``reminders``: the new reminder points ([] for none); None keeps them. A turn
    under way goes by them from its next reminder: one that is no longer chosen is
    not sent."""
    settings = settings_of(notify)
    points: tuple[str, ...] | None = None
    if reminders is not None:
        try:
            points = reminder_points(reminders)
        except ValueError as bad:
            raise InvalidInput(str(bad)) from None
    address = prefs.email_address
    if address is not None:
        address = address.strip() or None
    if address is not None and not valid_address(address):
        raise InvalidInput(
            "That email address does not look right: write it like name@example.com."
        )
    if prefs.email and address is None:
        raise InvalidInput("Give an email address to get notices by email.")
    if prefs.email and not settings.email_enabled:
        raise Conflict("This room has no mail server, so it cannot send email.")
    now = ctx.now()
    with ctx.transaction() as session:
        active_user(session, user_id)
        row = settings_row(session, user_id, now)
        row.in_app = bool(prefs.in_app)
        row.browser = bool(prefs.browser)
        row.web_push = bool(prefs.web_push)
        row.email = bool(prefs.email)
        row.email_address = address
        if points is not None:
            row.reminders = list(points)
        row.updated_at = now
        return preferences_of(row)


def _endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def add_browser(
    ctx: ServiceContext,
    user_id: int,
    endpoint: str,
    p256dh: str,
    auth: str,
    *,
    notify: NotifySettings | None = None,
) -> BrowserSubscription:
    """Keep a browser's push subscription (``PushSubscription.toJSON()``) for the
    player. The same browser again updates its keys; a browser another player had
    subscribed becomes this player's (one browser, one signed-in player)."""
    settings = settings_of(notify)
    try:
        check_endpoint(
            endpoint,
            allow_insecure=settings.push_allow_insecure,
            hosts=ctx.settings.push_hosts,
            resolver=ctx.resolver,
        )
        check_keys(p256dh, auth)
    except EndpointRefused as refused:
        raise InvalidInput(str(refused)) from None
    except ValueError as bad:
        raise InvalidInput(str(bad)) from None
    now = ctx.now()
    digest = _endpoint_hash(endpoint)
    with ctx.transaction() as session:
        active_user(session, user_id)
        existing = session.scalar(
            select(PushSubscription).where(PushSubscription.endpoint_hash == digest)
        )
        if existing is not None:
            existing.user_id, existing.p256dh, existing.auth = user_id, p256dh, auth
            existing.endpoint = endpoint
            session.flush()
            return BrowserSubscription(existing.id, endpoint, existing.created_at, False)
        session.execute(
            _insert(session, PushSubscription)
            .values(
                user_id=user_id,
                endpoint=endpoint,
                endpoint_hash=digest,
                p256dh=p256dh,
                auth=auth,
                created_at=now,
            )
            .on_conflict_do_update(
                index_elements=["endpoint_hash"],
                set_={"user_id": user_id, "p256dh": p256dh, "auth": auth},
            )
        )
        row = session.scalars(
            select(PushSubscription)
            .where(PushSubscription.endpoint_hash == digest)
            .execution_options(populate_existing=True)
        ).one()
        extra = session.scalars(
            select(PushSubscription.id)
            .where(PushSubscription.user_id == user_id)
            .order_by(PushSubscription.id.desc())
            .offset(MAX_BROWSERS_PER_PLAYER)
        ).all()
        if extra:
            session.execute(delete(PushSubscription).where(PushSubscription.id.in_(extra)))
        return BrowserSubscription(row.id, endpoint, row.created_at, True)


def remove_browser(ctx: ServiceContext, user_id: int, endpoint: str) -> bool:
    """Forget the player's subscription for ``endpoint``; False if there was none
    (which is no error: the browser is unsubscribed either way)."""
    if not isinstance(endpoint, str) or not endpoint:
        raise InvalidInput("Say which browser: its push endpoint.")
    with ctx.transaction() as session:
        active_user(session, user_id)
        result = session.execute(
            delete(PushSubscription).where(
                PushSubscription.user_id == user_id,
                PushSubscription.endpoint_hash == _endpoint_hash(endpoint),
            )
        )
        return bool(getattr(result, "rowcount", 0))


def browser_count(ctx: ServiceContext, user_id: int) -> int:
    with ctx.transaction() as session:
        return int(
            session.scalar(select(func.count()).where(PushSubscription.user_id == user_id)) or 0
        )
