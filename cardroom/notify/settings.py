"""Settings for notifications, read from ``CARDROOM_*`` environment variables.

Like ``cardroom.config``, reading the environment is all this module does: no file is
opened and no connection made, so building ``NotifySettings`` has no side effect.
Every setting has a default that works on a laptop; email stays off until a mail
server is named.

- ``CARDROOM_PUBLIC_URL``: the address players reach the room at, for the links in
  emails and pushes; default ``http://localhost:8000``.
- ``CARDROOM_SMTP_HOST``: the mail server; unset means the room sends no email.
- ``CARDROOM_SMTP_PORT``: default 587 with STARTTLS, 465 with implicit TLS, 25 without.
- ``CARDROOM_SMTP_TLS``: ``starttls`` (default), ``tls`` (implicit, port 465) or ``none``.
- ``CARDROOM_SMTP_USER``, ``CARDROOM_SMTP_PASSWORD``: sign in to the server if set.
- ``CARDROOM_SMTP_FROM``: the sender, default ``cardroom@localhost``.
- ``CARDROOM_VAPID_FILE``: where the Web Push key pair is kept, default
  ``./var/vapid.json`` (made on first use, readable by the owner only).
- ``CARDROOM_VAPID_SUBJECT``: the contact push services see (RFC 8292 ``sub``): a
  ``mailto:`` or ``https:`` URI, default ``mailto:`` and the sender address.
- ``CARDROOM_NOTIFY_DELAY_SECONDS``: how long a notice waits before it goes out by
  Web Push or email, default 30: a player at the table acts first and is not pushed.
- ``CARDROOM_NOTIFY_PUSH_GAP_SECONDS`` (default 60) and
  ``CARDROOM_NOTIFY_EMAIL_GAP_SECONDS`` (default 900): at most one push, and one email,
  per player in that time; what comes in between waits and goes out as one message.
- ``CARDROOM_PUSH_ALLOW_INSECURE``: ``1`` lets push subscriptions name plain-HTTP or
  local endpoints. For tests and development only: otherwise a player could make the
  server post to addresses on its own network.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from cardroom.config import ConfigError

DEFAULT_PUBLIC_URL = "http://localhost:8000"
DEFAULT_SMTP_FROM = "cardroom@localhost"
DEFAULT_VAPID_FILE = Path("var/vapid.json")
DEFAULT_DELAY_SECONDS = 30
DEFAULT_PUSH_GAP_SECONDS = 60
DEFAULT_EMAIL_GAP_SECONDS = 15 * 60
SMTP_TLS_MODES = ("starttls", "tls", "none")
_DEFAULT_PORTS = {"starttls": 587, "tls": 465, "none": 25}
MAX_DELAY_SECONDS = 24 * 3600

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})

# What py_vapid accepts as a subject (and what Apple's push service insists on).
_SUBJECT = re.compile(r"^(mailto:[^@\s]+@[^@\s]+|https://[^\s/]+(/\S*)?)$", re.IGNORECASE)


@dataclass(frozen=True)
class NotifySettings:
    public_url: str = DEFAULT_PUBLIC_URL
    smtp_host: str | None = None
    smtp_port: int = _DEFAULT_PORTS["starttls"]
    smtp_tls: str = "starttls"
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = DEFAULT_SMTP_FROM
    smtp_timeout_seconds: float = 10.0
    vapid_file: Path = DEFAULT_VAPID_FILE
    vapid_subject: str = f"mailto:{DEFAULT_SMTP_FROM}"
    delay_seconds: int = DEFAULT_DELAY_SECONDS
    push_gap_seconds: int = DEFAULT_PUSH_GAP_SECONDS
    email_gap_seconds: int = DEFAULT_EMAIL_GAP_SECONDS
    push_timeout_seconds: float = 10.0
    push_allow_insecure: bool = False

    def __post_init__(self) -> None:
        parts = urlsplit(self.public_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(
                f"CARDROOM_PUBLIC_URL must be an http or https address, not {self.public_url!r}."
            )
        if self.public_url.endswith("/"):
            object.__setattr__(self, "public_url", self.public_url.rstrip("/"))
        if self.smtp_tls not in SMTP_TLS_MODES:
            raise ConfigError(
                f"CARDROOM_SMTP_TLS must be one of {', '.join(SMTP_TLS_MODES)}, "
                f"not {self.smtp_tls!r}."
            )
        if not 1 <= self.smtp_port <= 65535:
            raise ConfigError(f"CARDROOM_SMTP_PORT must be 1 to 65535, not {self.smtp_port}.")
        if "@" not in self.smtp_from:
            raise ConfigError(f"CARDROOM_SMTP_FROM must be an email address: {self.smtp_from!r}.")
        if not _SUBJECT.match(self.vapid_subject):
            raise ConfigError(
                "CARDROOM_VAPID_SUBJECT must be a mailto: or https: address, "
                f"not {self.vapid_subject!r}."
            )
        for name, value in (
            ("CARDROOM_NOTIFY_DELAY_SECONDS", self.delay_seconds),
            ("CARDROOM_NOTIFY_PUSH_GAP_SECONDS", self.push_gap_seconds),
            ("CARDROOM_NOTIFY_EMAIL_GAP_SECONDS", self.email_gap_seconds),
        ):
            if not 0 <= value <= MAX_DELAY_SECONDS:
                raise ConfigError(f"{name} must be 0 to {MAX_DELAY_SECONDS}, not {value}.")

    @property
    def email_enabled(self) -> bool:
        return self.smtp_host is not None

    def link(self, path: str) -> str:
        """An absolute link to a page of the room."""
        return f"{self.public_url}{path}"

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> NotifySettings:
        """Settings from ``environ`` (default: ``os.environ``); unset or empty
        variables take their defaults."""
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        tls = (get("CARDROOM_SMTP_TLS") or "starttls").lower()
        if tls not in SMTP_TLS_MODES:
            raise ConfigError(
                f"CARDROOM_SMTP_TLS must be one of {', '.join(SMTP_TLS_MODES)}, not {tls!r}."
            )
        sender = get("CARDROOM_SMTP_FROM") or DEFAULT_SMTP_FROM
        insecure = (get("CARDROOM_PUSH_ALLOW_INSECURE") or "").lower()
        if insecure not in _TRUE | _FALSE:
            raise ConfigError(f"CARDROOM_PUSH_ALLOW_INSECURE must be 1 or 0, not {insecure!r}.")
        return cls(
            public_url=get("CARDROOM_PUBLIC_URL") or DEFAULT_PUBLIC_URL,
            smtp_host=get("CARDROOM_SMTP_HOST"),
            smtp_port=_int(get, "CARDROOM_SMTP_PORT", _DEFAULT_PORTS[tls]),
            smtp_tls=tls,
            smtp_user=get("CARDROOM_SMTP_USER"),
            # A password may end in a space: take it as it is, only unset when empty.
            smtp_password=env.get("CARDROOM_SMTP_PASSWORD") or None,
            smtp_from=sender,
            vapid_file=Path(get("CARDROOM_VAPID_FILE") or DEFAULT_VAPID_FILE),
            vapid_subject=get("CARDROOM_VAPID_SUBJECT") or f"mailto:{sender}",
            delay_seconds=_int(get, "CARDROOM_NOTIFY_DELAY_SECONDS", DEFAULT_DELAY_SECONDS),
            push_gap_seconds=_int(
                get, "CARDROOM_NOTIFY_PUSH_GAP_SECONDS", DEFAULT_PUSH_GAP_SECONDS
            ),
            email_gap_seconds=_int(
                get, "CARDROOM_NOTIFY_EMAIL_GAP_SECONDS", DEFAULT_EMAIL_GAP_SECONDS
            ),
            push_allow_insecure=insecure in _TRUE,
        )


@cache
def environ_settings() -> NotifySettings:
    """The process's settings from its environment, read once: what the use cases
    fall back on when no settings are passed."""
    return NotifySettings.from_environ()


def _int(get: Callable[[str], str | None], name: str, default: int) -> int:
    text = get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {text!r}.") from None
