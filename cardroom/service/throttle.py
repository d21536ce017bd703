"""The hook for rate limiting sign-in attempts (issue 9). ``sign_in`` asks the
throttle before checking a password and reports the outcome after; a throttle that
wants to refuse raises ``TooManyAttempts``. The room starts with ``NoThrottle``; a
real one (per name and per client address, kept outside the database transaction so a
refused attempt still counts) is a later increment."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class LoginThrottle(Protocol):
    def before_attempt(self, name_key: str, now: datetime) -> None:
        """Raise ``TooManyAttempts`` to refuse this attempt without checking it."""

    def after_failure(self, name_key: str, now: datetime) -> None: ...

    def after_success(self, name_key: str, now: datetime) -> None: ...


class NoThrottle:
    def before_attempt(self, name_key: str, now: datetime) -> None:
        pass

    def after_failure(self, name_key: str, now: datetime) -> None:
        pass

    def after_success(self, name_key: str, now: datetime) -> None:
        pass
