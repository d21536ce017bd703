"""Fixtures for the notification tests: the local push service and mail server of
``receivers.py``, and notification settings that point at them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

# The notification tables share the models' metadata; importing them here makes the
# fixtures that empty every table (tests/conftest.py) empty these too.
import cardroom.store.notify_models  # noqa: F401
from cardroom.notify.settings import NotifySettings
from cardroom.service.notices import choices
from tests.notify.receivers import MailServer, PushReceiver


@pytest.fixture
def receiver() -> Iterator[PushReceiver]:
    with PushReceiver() as running:
        yield running


@pytest.fixture
def mail() -> Iterator[MailServer]:
    with MailServer() as running:
        yield running


RoomNotify = Callable[[NotifySettings], NotifySettings]


@pytest.fixture
def room_notify(monkeypatch: pytest.MonkeyPatch) -> RoomNotify:
    """Make settings the room's own from now on: what commands record their notices
    with, in their transaction (a server reads them from its environment once,
    ``environ_settings``). Returns them."""

    def use(settings: NotifySettings) -> NotifySettings:
        monkeypatch.setattr(choices, "environ_settings", lambda: settings)
        return settings

    return use


@pytest.fixture
def notify(tmp_path: Path, room_notify: RoomNotify) -> NotifySettings:
    """No mail server, no delays or gaps, local push endpoints allowed, and a VAPID
    key file of the test's own; the room's settings."""
    return room_notify(
        NotifySettings(
            public_url="https://cards.example.org",
            vapid_file=tmp_path / "vapid.json",
            vapid_subject="mailto:room@cards.example.org",
            smtp_from="room@cards.example.org",
            delay_seconds=0,
            push_gap_seconds=0,
            email_gap_seconds=0,
            push_allow_insecure=True,
            push_timeout_seconds=5.0,
            smtp_timeout_seconds=5.0,
        )
    )


@pytest.fixture
def notify_mail(
    notify: NotifySettings, mail: MailServer, room_notify: RoomNotify
) -> NotifySettings:
    """``notify`` with the local mail server, in plain SMTP; the room's settings."""
    return room_notify(replace(notify, smtp_host="127.0.0.1", smtp_port=mail.port, smtp_tls="none"))
