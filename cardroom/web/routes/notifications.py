"""Notifications over HTTP: a player's channels, their browsers' push subscriptions,
the room's VAPID public key, and the notices themselves.

| route | what |
|---|---|
| ``GET /api/me/notification-settings`` | the player's channels |
| ``PUT /api/me/notification-settings`` | replace them |
| ``GET /api/notifications/vapid-public-key`` | the key ``pushManager.subscribe`` takes |
| ``POST /api/me/push-subscriptions`` | keep this browser's ``PushSubscription.toJSON()`` |
| ``DELETE /api/me/push-subscriptions`` | forget a browser, by its endpoint |
| ``GET /api/me/notifications`` | the player's notices, newest first, paged |
| ``POST /api/me/notifications/{notice_id}/read`` | mark one read: no push or email then |

The notification settings (SMTP, the VAPID file, delays) are ``app.state.notify`` if
the app has them, else read from the environment once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from cardroom.notify.email import EMAIL_MAX_LENGTH
from cardroom.notify.settings import NotifySettings, environ_settings
from cardroom.notify.vapid import load_or_create
from cardroom.notify.webpush import ENDPOINT_MAX_LENGTH
from cardroom.service.game_records import Notice
from cardroom.service.notices import choices, inbox
from cardroom.service.notices.choices import Preferences
from cardroom.service.notices.inbox import NoticePage
from cardroom.service.schedule import MAX_REMINDERS
from cardroom.store.notify_models import NoticeKind
from cardroom.web.deps import ContextDep, CurrentUser, current_user
from cardroom.web.errors import Unavailable, documented
from cardroom.web.live import LiveDep
from cardroom.web.schemas import MAX_ROW_ID, QueryInt

router = APIRouter(tags=["notifications"])


def get_notify_settings(request: Request) -> NotifySettings:
    configured = getattr(request.app.state, "notify", None)
    if isinstance(configured, NotifySettings):
        return configured
    return environ_settings()


NotifyDep = Annotated[NotifySettings, Depends(get_notify_settings)]

_NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"


# -- the wire -----------------------------------------------------------------------------


class _In(BaseModel):
    # As in cardroom.web.schemas: unknown fields and loose types are refused.
    model_config = ConfigDict(extra="forbid", strict=True)


class NotificationSettingsIn(_In):
    in_app: StrictBool = Field(description="Notices in the room's pages.")
    browser: StrictBool = Field(
        description="A system notification from the open page when it is not in front."
    )
    web_push: StrictBool = Field(
        description="Web Push to this player's subscribed browsers, even when closed."
    )
    email: StrictBool = Field(description="Email to `email_address`.")
    email_address: (
        Annotated[
            StrictStr,
            Field(max_length=EMAIL_MAX_LENGTH, pattern=_NO_CONTROL_CHARACTERS),
        ]
        | None
    ) = Field(
        default=None,
        description="Where email goes; kept when email is off. Null or empty: none.",
        examples=["alice@example.com"],
    )
    reminders: (
        Annotated[
            list[Annotated[StrictStr, Field(max_length=20)]],
            Field(max_length=MAX_REMINDERS),
        ]
        | None
    ) = Field(
        default=None,
        description="When to be reminded before a turn clock of 30 minutes or more runs "
        'out: "N%" when that share of the clock is left (1 to 99), "Nm", "Nh" or "Nd" '
        "when that much time is left (5 minutes to 14 days); [] for no reminders. "
        "Left out or null: kept as they are.",
        examples=[["50%", "1h"]],
    )


class NotificationSettingsOut(BaseModel):
    in_app: bool
    browser: bool
    web_push: bool
    email: bool
    email_address: str | None
    email_available: bool = Field(description="Whether this room has a mail server.")
    push_subscriptions: int = Field(description="Browsers subscribed to Web Push.")
    reminders: list[str] = Field(
        description="When the player is reminded before a long turn clock runs out, "
        'earliest first on a long clock ("50%": half of it left, "1h": an hour left); '
        '[] for never. Until changed: ["50%", "1h"].'
    )


class VapidPublicKeyOut(BaseModel):
    public_key: str = Field(
        description="The room's VAPID public key (RFC 8292): an uncompressed P-256 point "
        "in unpadded base64url, the `applicationServerKey` for `pushManager.subscribe`."
    )


class PushKeysIn(_In):
    p256dh: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    auth: Annotated[StrictStr, Field(min_length=1, max_length=50)]


Endpoint = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=ENDPOINT_MAX_LENGTH,
        description="The push service's https address for this browser.",
    ),
]
# A browser's toJSON() also has expirationTime (a number or null); taken, not used.
ExpirationTime = StrictInt | StrictFloat | None


class PushSubscriptionIn(_In):
    """``PushSubscription.toJSON()`` as the browser gives it."""

    endpoint: Endpoint
    expirationTime: ExpirationTime = None  # the browser's own spelling
    keys: PushKeysIn


class PushSubscriptionRefIn(_In):
    """Which browser to forget: its endpoint (the rest of ``toJSON()`` may come too)."""

    endpoint: Endpoint
    expirationTime: ExpirationTime = None
    keys: PushKeysIn | None = None


class PushSubscriptionOut(BaseModel):
    id: int
    endpoint: str
    created_at: datetime


class NoticeOut(BaseModel):
    """A notice: the same fields as the ``notification`` message on ``/ws/me``."""

    id: int
    kind: NoticeKind
    game_id: int
    title: str
    body: str
    url: str = Field(description="The game's page, as a path on this room.")
    data: dict[str, Any] = Field(
        description="your_turn: hand, street, to_call, pot, due_at, and for a reminder "
        "also reminder (the point, e.g. 50%) and left_seconds; game_ended: result "
        "(finished or cancelled), place and prize, or reason and refund."
    )
    created_at: datetime
    read: bool
    in_app: bool
    browser: bool

    @classmethod
    def of(cls, notice: Notice) -> NoticeOut:
        return cls.model_validate(notice.to_wire())


class NoticePageOut(BaseModel):
    notices: list[NoticeOut] = Field(description="Newest first.")
    unread: int = Field(description="All the player's unread notices, whatever the page.")
    next_before_id: int | None = Field(
        description="Pass as `before_id` for the next (older) page; null on the last."
    )

    @classmethod
    def of(cls, page: NoticePage) -> NoticePageOut:
        return cls(
            notices=[NoticeOut.of(n) for n in page.notices],
            unread=page.unread,
            next_before_id=page.next_before_id,
        )


def _settings_out(
    ctx: ContextDep, user_id: int, prefs: Preferences, notify: NotifySettings
) -> NotificationSettingsOut:
    return NotificationSettingsOut(
        in_app=prefs.in_app,
        browser=prefs.browser,
        web_push=prefs.web_push,
        email=prefs.email,
        email_address=prefs.email_address,
        email_available=notify.email_enabled,
        push_subscriptions=choices.browser_count(ctx, user_id),
        reminders=list(prefs.reminders),
    )


# -- routes -------------------------------------------------------------------------------


@router.get("/api/me/notification-settings", responses=documented(401, 403))
def get_settings(ctx: ContextDep, user: CurrentUser, notify: NotifyDep) -> NotificationSettingsOut:
    """The player's channels. Until changed: in-app and browser on, Web Push and
    email off."""
    return _settings_out(ctx, user.id, choices.get_preferences(ctx, user.id), notify)


@router.put("/api/me/notification-settings", responses=documented(401, 403, 409, 413, 415, 422))
def put_settings(
    body: NotificationSettingsIn, ctx: ContextDep, user: CurrentUser, notify: NotifyDep
) -> NotificationSettingsOut:
    """Replace the player's channels. Email needs an address (422 without one) and a
    room with a mail server (409 without one). Web Push also needs a subscribed
    browser (``POST /api/me/push-subscriptions``). ``reminders`` left out keeps the
    player's reminder points; a point the room cannot read is a 422 that says why."""
    prefs = Preferences(
        in_app=body.in_app,
        browser=body.browser,
        web_push=body.web_push,
        email=body.email,
        email_address=body.email_address,
    )
    saved = choices.set_preferences(ctx, user.id, prefs, reminders=body.reminders, notify=notify)
    return _settings_out(ctx, user.id, saved, notify)


@router.get(
    "/api/notifications/vapid-public-key",
    dependencies=[Depends(current_user)],
    responses=documented(401, 403, 503),
)
def vapid_public_key(notify: NotifyDep) -> VapidPublicKeyOut:
    """The key browsers subscribe with (signed in, like every ``/api/`` route). The
    same for as long as the room keeps its key file; made on first use."""
    try:
        keys = load_or_create(notify.vapid_file)
    except (OSError, ValueError):
        # An unwritable folder or a damaged key file: the operator's to fix, and no
        # reason to make a new key behind their back (it would orphan every browser).
        raise Unavailable("Web Push is not available in this room right now.") from None
    return VapidPublicKeyOut(public_key=keys.public_key)


@router.post(
    "/api/me/push-subscriptions",
    status_code=201,
    responses={
        200: {"model": PushSubscriptionOut, "description": "The browser was subscribed already."},
        **documented(401, 403, 413, 415, 422),
    },
)
def add_push_subscription(
    body: PushSubscriptionIn,
    ctx: ContextDep,
    user: CurrentUser,
    notify: NotifyDep,
    response: Response,
) -> PushSubscriptionOut:
    """Keep this browser's push subscription for the player: 201 when new, 200 when
    the browser was subscribed already (its keys are updated, and a browser another
    player had subscribed becomes this player's)."""
    kept = choices.add_browser(
        ctx, user.id, body.endpoint, body.keys.p256dh, body.keys.auth, notify=notify
    )
    if not kept.created:
        response.status_code = 200
    return PushSubscriptionOut(id=kept.id, endpoint=kept.endpoint, created_at=kept.created_at)


@router.delete(
    "/api/me/push-subscriptions", status_code=204, responses=documented(401, 403, 413, 415, 422)
)
def remove_push_subscription(
    body: PushSubscriptionRefIn, ctx: ContextDep, user: CurrentUser
) -> None:
    """Forget one of the player's browsers, by its endpoint. Forgetting a browser
    that is not subscribed succeeds too: it is unsubscribed either way."""
    choices.remove_browser(ctx, user.id, body.endpoint)


BeforeId = Annotated[
    QueryInt | None,
    Query(ge=1, le=MAX_ROW_ID, description="Notices older than this one: the next page."),
]
PageLimit = Annotated[QueryInt, Query(ge=1, le=inbox.PAGE_MAX, description="Notices on the page.")]
NOTICES_READ = {"type": "notices_read"}  # to the player's /ws/me: the unread count fell
NoticeIdPath = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The notice's id.")]


@router.get("/api/me/notifications", responses=documented(401, 403, 422))
def list_notices(
    ctx: ContextDep,
    user: CurrentUser,
    notify: NotifyDep,
    before_id: BeforeId = None,
    limit: PageLimit = inbox.PAGE_DEFAULT,
) -> NoticePageOut:
    """The player's notices, newest first, and how many are unread."""
    page = inbox.list_notices(ctx, user.id, before_id=before_id, limit=limit, notify=notify)
    return NoticePageOut.of(page)


class UnreadOut(BaseModel):
    unread: int = Field(description="How many of the player's notices are unread.")


@router.get("/api/me/notifications/unread", responses=documented(401, 403))
def unread_notices(ctx: ContextDep, user: CurrentUser) -> UnreadOut:
    """The count beside every page's Notifications link: one count statement (kept
    out of ``GET /api/me``, which a page asks first and a moment later costs none)."""
    return UnreadOut(unread=inbox.unread_count(ctx, user.id))


@router.post("/api/me/notifications/{notice_id}/read", responses=documented(401, 403, 404, 422))
def mark_read(
    notice_id: NoticeIdPath, ctx: ContextDep, user: CurrentUser, notify: NotifyDep, live: LiveDep
) -> NoticeOut:
    """The player has seen this notice: it will not be pushed or mailed. Marking it
    again changes nothing. The player's other pages hear ``notices_read`` on their
    ``/ws/me`` and ask their unread count again."""
    notice = inbox.mark_read(ctx, user.id, notice_id, notify=notify)
    live.tell_user(user.id, NOTICES_READ)
    return NoticeOut.of(notice)
