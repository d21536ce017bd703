"""Settings for one Cardroom process, read from ``CARDROOM_*`` environment variables.

Every setting has a default that works on a laptop (a SQLite file under ``./var/``,
one process), so ``cardroom db upgrade && cardroom serve`` needs no configuration.
Reading the environment is the only thing this module does: nothing here opens a
file or a connection, so importing it (or building ``Settings``) has no side effect.

- ``CARDROOM_DATABASE_URL``: a SQLAlchemy URL, default ``sqlite:///./var/cardroom.db``;
  ``postgresql+psycopg://user@host/dbname`` in production.
- ``CARDROOM_STARTING_BALANCE_CENTS``: play money granted to each new user, default
  ``10000`` ($100.00).
- ``CARDROOM_PASSWORD_HASHING``: ``standard`` (argon2id, RFC 9106 low-memory profile,
  the default) or ``cheap`` (the smallest costs argon2 allows: tests only).
- ``CARDROOM_SESSION_HOURS``: how long a sign-in lasts, default ``336`` (14 days).
- ``CARDROOM_PUSH_HOSTS``: the push services browsers' subscriptions may name,
  separated by commas: a host, ``*.`` and a domain for every host under it, or ``*``
  for any host (the address checks still apply). Default: the push services of
  Chrome, Firefox, Safari and Edge (``DEFAULT_PUSH_HOSTS``).
- ``CARDROOM_SIGN_UP``: who may make an account at ``/api/accounts/sign-up``:
  ``open`` (anyone, the default), ``invitation`` (whoever gives
  ``CARDROOM_INVITATION_CODE``) or ``closed`` (nobody: admins make accounts).
- ``CARDROOM_SIGN_UPS_PER_ADDRESS``: accounts one client address may make in 15
  minutes, default ``5``; ``0`` for no limit (issue 17: 20 accounts in 3.8 s, each
  with the starting balance, invite chip dumping).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta

DEFAULT_DATABASE_URL = "sqlite:///./var/cardroom.db"
DEFAULT_STARTING_BALANCE_CENTS = 10_000
DEFAULT_SESSION_HOURS = 14 * 24
DEFAULT_SIGN_UPS_PER_ADDRESS = 5
SIGN_UP_MODES = ("open", "invitation", "closed")

# The push services the big browsers subscribe to: Chrome (and other Chromium
# browsers) through Firebase Cloud Messaging, Firefox through Mozilla's autopush,
# Safari through Apple's, Edge through Windows Push Notification Services. The room
# posts only to these unless the operator names others: a subscription is a
# player's input, and without a list any host on the internet would do.
DEFAULT_PUSH_HOSTS = (
    "fcm.googleapis.com",
    "*.push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
)
_PUSH_HOST = re.compile(
    r"^(\*|(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+)$"
)

# A starting balance above this is almost certainly a typo (cents given as dollars
# times a hundred twice); refusing it at start-up is kinder than minting it.
MAX_STARTING_BALANCE_CENTS = 100_000_000  # $1,000,000.00


class ConfigError(ValueError):
    """An environment variable that does not hold a usable value."""


@dataclass(frozen=True)
class PasswordHashing:
    """argon2id cost parameters (see argon2-cffi's ``PasswordHasher``)."""

    time_cost: int
    memory_cost_kib: int
    parallelism: int

    @classmethod
    def standard(cls) -> PasswordHashing:
        # RFC 9106's second recommended option ("low memory"): argon2-cffi's default.
        return cls(time_cost=3, memory_cost_kib=64 * 1024, parallelism=4)

    @classmethod
    def cheap(cls) -> PasswordHashing:
        # The smallest costs argon2 accepts: a hash takes microseconds, so a test suite
        # that signs up hundreds of users stays fast. Never for real passwords.
        return cls(time_cost=1, memory_cost_kib=8, parallelism=1)


PASSWORD_HASHING_PROFILES = {
    "standard": PasswordHashing.standard,
    "cheap": PasswordHashing.cheap,
}


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    starting_balance_cents: int = DEFAULT_STARTING_BALANCE_CENTS
    password_hashing: PasswordHashing = field(default_factory=PasswordHashing.standard)
    session_lifetime: timedelta = timedelta(hours=DEFAULT_SESSION_HOURS)
    push_hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS
    sign_up: str = "open"  # one of SIGN_UP_MODES
    invitation_code: str | None = None  # needed to sign up when sign_up is "invitation"
    sign_ups_per_address: int = DEFAULT_SIGN_UPS_PER_ADDRESS  # in 15 minutes; 0: no limit

    def __post_init__(self) -> None:
        for pattern in self.push_hosts:
            if not _PUSH_HOST.match(pattern):
                raise ConfigError(
                    "CARDROOM_PUSH_HOSTS holds host names, *.domain or *, separated by "
                    f"commas, not {pattern!r}."
                )
        if self.sign_up not in SIGN_UP_MODES:
            raise ConfigError(
                f"CARDROOM_SIGN_UP must be one of {', '.join(SIGN_UP_MODES)}, not {self.sign_up!r}."
            )
        if self.sign_up == "invitation" and not self.invitation_code:
            raise ConfigError(
                "CARDROOM_SIGN_UP=invitation needs CARDROOM_INVITATION_CODE: the code "
                "a new player must give."
            )
        if self.sign_ups_per_address < 0:
            raise ConfigError("CARDROOM_SIGN_UPS_PER_ADDRESS must be 0 (no limit) or more.")
        if not 0 <= self.starting_balance_cents <= MAX_STARTING_BALANCE_CENTS:
            raise ConfigError(
                f"The starting balance must be between 0 and {MAX_STARTING_BALANCE_CENTS} "
                f"cents, not {self.starting_balance_cents}."
            )
        if self.session_lifetime <= timedelta(0):
            raise ConfigError("The session lifetime must be positive.")

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``environ`` (default: ``os.environ``); unset or empty
        variables take their defaults."""
        env = os.environ if environ is None else environ

        def get(name: str) -> str | None:
            value = env.get(name, "").strip()
            return value or None

        database_url = get("CARDROOM_DATABASE_URL") or DEFAULT_DATABASE_URL
        starting = _int_setting(
            "CARDROOM_STARTING_BALANCE_CENTS",
            get("CARDROOM_STARTING_BALANCE_CENTS"),
            DEFAULT_STARTING_BALANCE_CENTS,
        )
        profile = (get("CARDROOM_PASSWORD_HASHING") or "standard").lower()
        if profile not in PASSWORD_HASHING_PROFILES:
            choices = ", ".join(sorted(PASSWORD_HASHING_PROFILES))
            raise ConfigError(
                f"CARDROOM_PASSWORD_HASHING must be one of {choices}, not {profile!r}."
            )
        hours = _int_setting(
            "CARDROOM_SESSION_HOURS", get("CARDROOM_SESSION_HOURS"), DEFAULT_SESSION_HOURS
        )
        if hours <= 0:
            raise ConfigError(f"CARDROOM_SESSION_HOURS must be a positive number, not {hours}.")
        hosts = get("CARDROOM_PUSH_HOSTS")
        push_hosts = (
            DEFAULT_PUSH_HOSTS
            if hosts is None
            else tuple(h.strip().lower().rstrip(".") for h in hosts.split(",") if h.strip())
        )
        return cls(
            database_url=database_url,
            push_hosts=push_hosts,
            starting_balance_cents=starting,
            password_hashing=PASSWORD_HASHING_PROFILES[profile](),
            session_lifetime=timedelta(hours=hours),
            sign_up=(get("CARDROOM_SIGN_UP") or "open").lower(),
            invitation_code=get("CARDROOM_INVITATION_CODE"),
            sign_ups_per_address=_int_setting(
                "CARDROOM_SIGN_UPS_PER_ADDRESS",
                get("CARDROOM_SIGN_UPS_PER_ADDRESS"),
                DEFAULT_SIGN_UPS_PER_ADDRESS,
            ),
        )


def _int_setting(name: str, text: str | None, default: int) -> int:
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {text!r}.") from None
