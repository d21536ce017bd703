"""Notification settings from CARDROOM_* variables."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.config import ConfigError
from cardroom.notify.settings import NotifySettings


def test_defaults_send_no_email_and_keep_keys_under_var() -> None:
    settings = NotifySettings.from_environ({})
    assert settings == NotifySettings()
    assert not settings.email_enabled
    assert settings.vapid_file == Path("var/vapid.json")
    assert settings.link("/games/3") == "http://localhost:8000/games/3"


def test_every_variable_is_read() -> None:
    settings = NotifySettings.from_environ(
        {
            "CARDROOM_PUBLIC_URL": "https://cards.example.org/",
            "CARDROOM_SMTP_HOST": "mail.example.org",
            "CARDROOM_SMTP_TLS": "TLS",
            "CARDROOM_SMTP_USER": "room",
            "CARDROOM_SMTP_PASSWORD": "pass word ",
            "CARDROOM_SMTP_FROM": "room@example.org",
            "CARDROOM_VAPID_FILE": "/etc/cardroom/vapid.json",
            "CARDROOM_NOTIFY_DELAY_SECONDS": "5",
            "CARDROOM_NOTIFY_PUSH_GAP_SECONDS": "10",
            "CARDROOM_NOTIFY_EMAIL_GAP_SECONDS": "600",
            "CARDROOM_PUSH_ALLOW_INSECURE": "1",
        }
    )
    assert settings == NotifySettings(
        public_url="https://cards.example.org",
        smtp_host="mail.example.org",
        smtp_port=465,
        smtp_tls="tls",
        smtp_user="room",
        smtp_password="pass word ",
        smtp_from="room@example.org",
        vapid_file=Path("/etc/cardroom/vapid.json"),
        vapid_subject="mailto:room@example.org",
        delay_seconds=5,
        push_gap_seconds=10,
        email_gap_seconds=600,
        push_allow_insecure=True,
    )
    assert settings.email_enabled


def test_ports_follow_the_tls_mode() -> None:
    ports = {
        mode: NotifySettings.from_environ({"CARDROOM_SMTP_TLS": mode}).smtp_port
        for mode in ("starttls", "tls", "none")
    }
    assert ports == {"starttls": 587, "tls": 465, "none": 25}
    assert NotifySettings.from_environ({"CARDROOM_SMTP_PORT": "2525"}).smtp_port == 2525


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("CARDROOM_PUBLIC_URL", "cards.example.org", "http or https"),
        ("CARDROOM_SMTP_TLS", "ssl", "one of starttls, tls, none"),
        ("CARDROOM_SMTP_PORT", "smtp", "whole number"),
        ("CARDROOM_SMTP_PORT", "70000", "1 to 65535"),
        ("CARDROOM_SMTP_FROM", "room", "email address"),
        ("CARDROOM_VAPID_SUBJECT", "http://cards.example.org", "mailto: or https:"),
        ("CARDROOM_NOTIFY_DELAY_SECONDS", "-1", "0 to 86400"),
        ("CARDROOM_PUSH_ALLOW_INSECURE", "maybe", "1 or 0"),
    ],
)
def test_bad_values_are_refused_with_a_sentence(name: str, value: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        NotifySettings.from_environ({name: value})
