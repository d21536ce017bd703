"""The channels the server delivers after the fact: one message, possibly standing
for several notices, sent by Web Push to each of a player's browsers or by email.

This is the I/O and nothing else: the service layer decides who gets what and when
(``cardroom.service.notices.deliver``), and calls these with no transaction open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cardroom.notify import email, messages, webpush
from cardroom.notify.messages import ACCOUNT_PATH, Item
from cardroom.notify.push_address import Resolver
from cardroom.notify.settings import NotifySettings
from cardroom.notify.vapid import load_or_create
from cardroom.notify.webpush import PushResult, PushTarget


@dataclass(frozen=True)
class Browser:
    subscription_id: int
    target: PushTarget


def push(
    settings: NotifySettings,
    browsers: Sequence[Browser],
    items: Sequence[Item],
    *,
    ttl: int,
    urgent: bool,
    hosts: Sequence[str],
    resolver: Resolver,
) -> list[tuple[int, PushResult]]:
    """One push per browser, each with the same message; the result for each."""
    payload = messages.push_payload(items)
    keys = load_or_create(settings.vapid_file)
    return [
        (
            browser.subscription_id,
            webpush.send(
                keys,
                settings.vapid_subject,
                browser.target,
                payload,
                ttl=ttl,
                urgency="high" if urgent else "normal",
                allow_insecure=settings.push_allow_insecure,
                timeout=settings.push_timeout_seconds,
                hosts=hosts,
                resolver=resolver,
            ),
        )
        for browser in browsers
    ]


def send_email(
    settings: NotifySettings, address: str, items: Sequence[Item], *, now: datetime
) -> email.SendResult:
    subject, text = messages.email(items, account_link=settings.link(ACCOUNT_PATH))
    return email.send(settings, email.compose(settings, address, subject, text, now=now))
