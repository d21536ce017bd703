"""Delivering: Web Push and email, from the ``notice_deliveries`` rows that
``cardroom.service.notices.record`` wrote. ``deliver_due`` (the delivery loop,
``cardroom.service.runner``) and ``deliver`` (one notice) both:

1. lock the player's settings row, so one worker at a time delivers to a player;
2. skip what should no longer go (the turn is over, the notice was read, the player
   turned the channel off), defer what would break the per-player gap (one push per
   ``push_gap_seconds``, one email per ``email_gap_seconds``), and claim the rest;
3. send one message per channel for everything claimed (coalesced: "Your turn in 3
   games"), with no transaction open;
4. record each outcome; a browser whose push service answers 404 or 410 is forgotten.

Neither raises into its caller. A crash while sending leaves the rows ``sending``: a
notice goes out at most once.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from cardroom.notify import channels
from cardroom.notify.channels import Browser
from cardroom.notify.messages import Item, game_path
from cardroom.notify.settings import NotifySettings
from cardroom.notify.webpush import (
    PushOutcome,
    PushTarget,
)
from cardroom.service.context import ServiceContext, worker_name
from cardroom.service.game_records import Notice
from cardroom.service.notices.choices import Preferences, preferences_of, settings_of, settings_row
from cardroom.service.notices.decide import Turn, current_turn
from cardroom.store.models import Game, User
from cardroom.store.notify_models import (
    Channel,
    DeliveryStatus,
    NoticeDelivery,
    NoticeKind,
    PushSubscription,
)
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.table import table_from_dict

log = logging.getLogger(__name__)

DEFAULT_PUSH_TTL_SECONDS = 24 * 3600


@dataclass
class _Job:
    channel: Channel
    rows: list[int]  # delivery ids
    items: list[Item]
    address: str | None = None
    browsers: list[Browser] = field(default_factory=list)
    ttl: int = DEFAULT_PUSH_TTL_SECONDS
    urgent: bool = False


def next_delivery_due(ctx: ServiceContext) -> datetime | None:
    """When the earliest pending delivery is due: how long a scheduler may sleep."""
    with ctx.transaction() as session:
        due: datetime | None = session.scalar(
            select(func.min(NoticeDelivery.due_at)).where(
                NoticeDelivery.status == DeliveryStatus.PENDING
            )
        )
        return due


def deliver_due(
    ctx: ServiceContext,
    now: datetime | None = None,
    *,
    limit: int = 100,
    notify: NotifySettings | None = None,
) -> int:
    """Deliver every pending notice that is due, player by player (oldest due
    first, at most ``limit`` players). Returns how many messages it tried to send.
    Never raises: a failure is logged and recorded."""
    settings = settings_of(notify)
    moment = now or ctx.now()
    try:
        with ctx.transaction() as session:
            users = list(
                session.scalars(
                    select(NoticeDelivery.user_id)
                    .where(
                        NoticeDelivery.status == DeliveryStatus.PENDING,
                        NoticeDelivery.due_at <= moment,
                    )
                    .group_by(NoticeDelivery.user_id)
                    .order_by(func.min(NoticeDelivery.due_at))
                    .limit(limit)
                )
            )
    except Exception:
        log.exception("could not look for due notices")
        return 0
    return sum(_deliver_safely(ctx, settings, user, moment, None) for user in users)


def deliver(ctx: ServiceContext, notice: Notice, *, notify: NotifySettings | None = None) -> None:
    """Send ``notice`` by the player's other channels now (Web Push, email), with
    whatever else of theirs is due, as one message per channel; a background task
    calls it at ``notice.deliver_at``. Checks as it goes that the turn is still on,
    and the gap since the last message (what is too early waits for
    ``deliver_due``). Never raises; outcomes go to ``notice_deliveries``."""
    if notice.deliver_at is None:
        return
    _deliver_safely(ctx, settings_of(notify), notice.user_id, ctx.now(), notice.id)


def _deliver_safely(
    ctx: ServiceContext,
    notify: NotifySettings,
    user_id: int,
    now: datetime,
    notice_id: int | None,
) -> int:
    try:
        return _deliver_user(ctx, notify, user_id, now, notice_id)
    except Exception:
        log.exception("delivering notices to user %s failed", user_id)
        return 0


def _deliver_user(
    ctx: ServiceContext,
    notify: NotifySettings,
    user_id: int,
    now: datetime,
    notice_id: int | None,
) -> int:
    jobs = _claim(ctx, notify, user_id, now, notice_id)
    outcomes: list[tuple[_Job, bool, str, list[tuple[int, PushOutcome]]]] = []
    for job in jobs:
        if job.channel is Channel.EMAIL:
            assert job.address is not None
            result = channels.send_email(notify, job.address, job.items, now=now)
            outcomes.append((job, result.sent, result.detail, []))
        else:
            results = channels.push(
                notify,
                job.browsers,
                job.items,
                ttl=job.ttl,
                urgent=job.urgent,
                hosts=ctx.settings.push_hosts,
                resolver=ctx.resolver,
            )
            sent = sum(1 for _, r in results if r.outcome is PushOutcome.SENT)
            details = sorted({r.detail for _, r in results if r.outcome is not PushOutcome.SENT})
            detail = f"sent to {sent} of {len(results)} browsers"
            if details:
                detail += f" ({'; '.join(details)})"
            outcomes.append((job, sent > 0, detail, [(s, r.outcome) for s, r in results]))
    if outcomes:
        _record_outcomes(ctx, outcomes, now)
    return len(jobs)


def _claim(
    ctx: ServiceContext,
    notify: NotifySettings,
    user_id: int,
    now: datetime,
    notice_id: int | None,
) -> list[_Job]:
    """Phase one, one transaction: skip, defer or claim the player's due deliveries,
    and say what to send."""
    worker = worker_name()
    with ctx.transaction() as session:
        player_row = settings_row(session, user_id, now)
        prefs = preferences_of(player_row)
        due = NoticeDelivery.due_at <= now
        if notice_id is not None:
            due = due | (NoticeDelivery.notice_id == notice_id)
        query = (
            select(NoticeDelivery, NoticeRow)
            .join(NoticeRow, NoticeRow.id == NoticeDelivery.notice_id)
            .where(
                NoticeDelivery.user_id == user_id,
                NoticeDelivery.status == DeliveryStatus.PENDING,
                due,
            )
            .order_by(NoticeDelivery.due_at, NoticeDelivery.id)
        )
        rows = session.execute(query).all()
        if not rows:
            return []
        user = session.get(User, user_id)
        live = _LiveCheck(session)
        jobs: list[_Job] = []
        for channel in Channel:
            mine = [(d, n) for d, n in rows if d.channel is channel]
            if not mine:
                continue
            off = _channel_off(session, notify, prefs, channel, user_id)
            if user is None or user.suspended:
                off = "the player is suspended"
            if off is not None:
                _finish(mine, DeliveryStatus.SKIPPED, off, now)
                continue
            last = player_row.last_push_at if channel is Channel.WEB_PUSH else None
            gap = notify.push_gap_seconds
            if channel is Channel.EMAIL:
                last, gap = player_row.last_email_at, notify.email_gap_seconds
            if last is not None and now < last + timedelta(seconds=gap):
                # Too soon after the last message: wait, and go out with whatever
                # else comes meanwhile, as one message.
                for delivery, _ in mine:
                    delivery.due_at = max(delivery.due_at, last + timedelta(seconds=gap))
                continue
            claimed: list[tuple[NoticeDelivery, NoticeRow]] = []
            for delivery, notice in mine:
                why_not = live.why_not(notice)
                if why_not is not None:
                    _finish([(delivery, notice)], DeliveryStatus.SKIPPED, why_not, now)
                else:
                    claimed.append((delivery, notice))
            if not claimed:
                continue
            for delivery, _ in claimed:
                delivery.status = DeliveryStatus.SENDING
                delivery.claimed_by = worker
                delivery.attempted_at = now
            job = _Job(
                channel,
                [d.id for d, _ in claimed],
                [_item(notice, notify) for _, notice in claimed],
            )
            if channel is Channel.EMAIL:
                player_row.last_email_at = now
                job.address = prefs.email_address
            else:
                player_row.last_push_at = now
                job.browsers = [
                    Browser(s.id, PushTarget(s.endpoint, s.p256dh, s.auth))
                    for s in session.scalars(
                        select(PushSubscription)
                        .where(PushSubscription.user_id == user_id)
                        .order_by(PushSubscription.id)
                    )
                ]
                job.urgent = any(n.kind is NoticeKind.YOUR_TURN for _, n in claimed)
                job.ttl = _push_ttl([n for _, n in claimed], now)
            jobs.append(job)
        return jobs


def _channel_off(
    session: Session,
    notify: NotifySettings,
    prefs: Preferences,
    channel: Channel,
    user_id: int,
) -> str | None:
    """Why ``channel`` cannot carry the player's notices now, if it cannot."""
    if channel is Channel.EMAIL:
        if not prefs.email or not prefs.email_address:
            return "email is turned off"
        if not notify.email_enabled:
            return "the room has no mail server"
        return None
    if not prefs.web_push:
        return "Web Push is turned off"
    has_browser = session.scalar(select(func.count()).where(PushSubscription.user_id == user_id))
    return None if has_browser else "no browser is subscribed"


def _push_ttl(notices: Sequence[NoticeRow], now: datetime) -> int:
    """How long a push service may hold the message for an offline browser: until
    the turn's clock runs out (a later push is no use), else a day."""
    ttl = 0
    for notice in notices:
        due_text = notice.data.get("due_at") if notice.kind is NoticeKind.YOUR_TURN else None
        if due_text:
            seconds = int((datetime.fromisoformat(due_text) - now).total_seconds())
        else:
            seconds = DEFAULT_PUSH_TTL_SECONDS
        ttl = max(ttl, seconds)
    return max(ttl, 60)


class _LiveCheck:
    """Whether a notice is still worth sending, with each game's table read once."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.turns: dict[int, Turn | None] = {}

    def why_not(self, notice: NoticeRow) -> str | None:
        if notice.read_at is not None:
            return "the player has read it"
        if notice.kind is not NoticeKind.YOUR_TURN:
            return None
        if notice.game_id not in self.turns:
            game = self.session.get(Game, notice.game_id)
            self.turns[notice.game_id] = (
                None
                if game is None
                else current_turn(self.session, game, table_from_dict(game.state))
            )
        turn = self.turns[notice.game_id]
        if turn != Turn(notice.user_id, notice.hand_id or 0, notice.turn_seq or 0):
            return "the turn is over"
        return None


def _finish(
    rows: Iterable[tuple[NoticeDelivery, NoticeRow]],
    status: DeliveryStatus,
    outcome: str,
    now: datetime,
) -> None:
    for delivery, _ in rows:
        delivery.status = status
        delivery.outcome = outcome[:200]
        delivery.attempted_at = now


def _item(notice: NoticeRow, notify: NotifySettings) -> Item:
    return Item(
        notice_id=notice.id,
        kind=notice.kind.value,
        game_id=notice.game_id,
        title=notice.title,
        body=notice.body,
        path=game_path(notice.game_id),
        link=notify.link(game_path(notice.game_id)),
    )


def _record_outcomes(
    ctx: ServiceContext,
    outcomes: Sequence[tuple[_Job, bool, str, list[tuple[int, PushOutcome]]]],
    now: datetime,
) -> None:
    """Phase three: what became of each message, and forget browsers that have gone."""
    with ctx.transaction() as session:
        for job, sent, detail, browsers in outcomes:
            session.execute(
                update(NoticeDelivery)
                .where(NoticeDelivery.id.in_(job.rows))
                .values(
                    status=DeliveryStatus.SENT if sent else DeliveryStatus.FAILED,
                    outcome=detail[:200],
                )
            )
            gone = [s for s, outcome in browsers if outcome is PushOutcome.GONE]
            if gone:
                session.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
            ok = [s for s, outcome in browsers if outcome is PushOutcome.SENT]
            if ok:
                session.execute(
                    update(PushSubscription)
                    .where(PushSubscription.id.in_(ok))
                    .values(last_sent_at=now)
                )
