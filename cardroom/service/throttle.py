"""Rate limiting sign-in attempts (issue 9).

``sign_in`` asks the throttle before checking a password (``before_attempt``, which
raises ``TooManyAttempts`` to refuse) and reports the outcome after. The protocol
names the attempt by the lower-case name and, when the web layer knows it, the
client's address.

``DatabaseThrottle`` is the room's: counters in the database (``login_throttle``), so
that every server process of a room counts the same attempts. Each name and each
address has a window of ``WINDOW`` (15 minutes) from its first attempt:

- **per name**: at most ``NAME_ATTEMPTS`` (10) attempts in a window, from anywhere.
  A successful sign-in clears the name's count. This stops guessing one player's
  password from many addresses; its cost is that someone can keep a name locked for
  a window, which is why the window is short.
- **per address**: at most ``ADDRESS_ATTEMPTS`` (50) failed attempts in a window,
  whatever the names. A successful sign-in gives its attempt back, so a shared
  address (an office, a phone network) where people sign in is not held back. This
  stops trying one password against many names.

An attempt is counted when it begins, in a transaction of its own, under a row lock:
so concurrent attempts cannot slip past the limit, and an attempt whose process dies
mid-check still counts. A refused attempt is not counted: the answer says how long to
wait (``TooManyAttempts.retry_after_seconds``, sent as ``Retry-After``), and after
that wait the next attempt is checked.

**Device cookies** (issue 17, item 7; ``cardroom.service.devices``): an attempt
from a browser that signed in to the name before, with a valid device cookie, is
counted against that device alone, ``NAME_ATTEMPTS`` in a window; the name's and the
address's lockouts do not apply to it. So an attacker who locks a name (or a whole
shared address) does not lock out its owner's browsers.

**Sign-ups** (issue 17, item 5): ``before_sign_up`` counts the accounts made from one
address in a window, at most ``limit``; a sign-up refused for its own reasons (a
taken name) gives its count back (``sign_up_refused``).

``NoThrottle`` refuses nothing (a ``ServiceContext`` built by hand, as tests do).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from cardroom.service.errors import TooManyAttempts
from cardroom.store.throttle_models import THROTTLE_KEY_MAX_LENGTH, LoginThrottleCounter

WINDOW = timedelta(minutes=15)
NAME_ATTEMPTS = 10
ADDRESS_ATTEMPTS = 50

NAME, ADDRESS = "name", "address"
# A device's counter is an address-scope row under this prefix: no address has it
# (the table's check allows only the two scopes, and this needs no migration).
DEVICE_PREFIX = "device "
SIGN_UP_PREFIX = "sign-up "
SIGN_UP_SENTENCE = (
    "Too many accounts were made from your address; please wait {when} and try again."
)


class LoginThrottle(Protocol):
    def before_attempt(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        """Raise ``TooManyAttempts`` to refuse this attempt without checking it.
        ``device``: the nonce of a valid device cookie for this name."""

    def after_failure(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None: ...

    def after_success(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None: ...

    def before_sign_up(self, address: str, now: datetime, *, limit: int) -> None:
        """Raise ``TooManyAttempts`` if ``address`` made ``limit`` accounts already."""

    def sign_up_refused(self, address: str) -> None: ...


class NoThrottle:
    def before_attempt(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        pass

    def after_failure(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        pass

    def after_success(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        pass

    def before_sign_up(self, address: str, now: datetime, *, limit: int) -> None:
        pass

    def sign_up_refused(self, address: str) -> None:
        pass


def _when(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} seconds" if seconds != 1 else "a second"
    return f"{math.ceil(seconds / 60)} minutes"


def wait_sentence(seconds: int) -> str:
    return f"Too many sign-in attempts; please wait {_when(seconds)} and try again."


class DatabaseThrottle:
    """Counters in the ``login_throttle`` table (see the module's description)."""

    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        window: timedelta = WINDOW,
        name_attempts: int = NAME_ATTEMPTS,
        address_attempts: int = ADDRESS_ATTEMPTS,
    ) -> None:
        self.sessions = sessions
        self.window = window
        self.limits = {NAME: name_attempts, ADDRESS: address_attempts}

    def before_attempt(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        with self.sessions.begin() as session:
            # Windows that are over start again from nothing.
            session.execute(
                delete(LoginThrottleCounter).where(
                    LoginThrottleCounter.window_started_at <= now - self.window
                )
            )
            if device is not None:  # a browser that signed in before: its own count
                counters = [self._locked(session, ADDRESS, DEVICE_PREFIX + device, now)]
                limits = [self.limits[NAME]]
            else:
                counters = [self._locked(session, NAME, name_key, now)]
                limits = [self.limits[NAME]]
                if address:
                    counters.append(self._locked(session, ADDRESS, address, now))
                    limits.append(self.limits[ADDRESS])
            for counter, limit in zip(counters, limits, strict=True):
                if counter.attempts >= limit:
                    left = counter.window_started_at + self.window - now
                    seconds = max(1, math.ceil(left.total_seconds()))
                    raise TooManyAttempts(wait_sentence(seconds), retry_after_seconds=seconds)
            for counter in counters:
                counter.attempts += 1

    def after_failure(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        pass  # counted when it began

    def after_success(
        self,
        name_key: str,
        now: datetime,
        *,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        with self.sessions.begin() as session:
            if device is not None:
                session.execute(
                    delete(LoginThrottleCounter).where(
                        LoginThrottleCounter.scope == ADDRESS,
                        LoginThrottleCounter.key == _key(DEVICE_PREFIX + device),
                    )
                )
                return  # the name's and the address's counts were not touched
            session.execute(
                delete(LoginThrottleCounter).where(
                    LoginThrottleCounter.scope == NAME,
                    LoginThrottleCounter.key == _key(name_key),
                )
            )
            if address:
                counter = self._find(session, ADDRESS, address)
                if counter is not None and counter.attempts > 0:
                    counter.attempts -= 1

    def before_sign_up(self, address: str, now: datetime, *, limit: int) -> None:
        with self.sessions.begin() as session:
            session.execute(
                delete(LoginThrottleCounter).where(
                    LoginThrottleCounter.window_started_at <= now - self.window
                )
            )
            counter = self._locked(session, ADDRESS, SIGN_UP_PREFIX + address, now)
            if counter.attempts >= limit:
                left = counter.window_started_at + self.window - now
                seconds = max(1, math.ceil(left.total_seconds()))
                raise TooManyAttempts(
                    SIGN_UP_SENTENCE.format(when=_when(seconds)), retry_after_seconds=seconds
                )
            counter.attempts += 1

    def sign_up_refused(self, address: str) -> None:
        with self.sessions.begin() as session:
            counter = self._find(session, ADDRESS, SIGN_UP_PREFIX + address)
            if counter is not None and counter.attempts > 0:
                counter.attempts -= 1

    # -- the rows -----------------------------------------------------------------

    def _find(self, session: Session, scope: str, key: str) -> LoginThrottleCounter | None:
        return session.scalar(
            select(LoginThrottleCounter)
            .where(LoginThrottleCounter.scope == scope, LoginThrottleCounter.key == _key(key))
            .with_for_update()
            .execution_options(populate_existing=True)
        )

    def _locked(
        self, session: Session, scope: str, key: str, now: datetime
    ) -> LoginThrottleCounter:
        """The counter's row, locked until the transaction ends; made if missing (two
        attempts making it at once: the unique index picks one, the other locks it)."""
        counter = self._find(session, scope, key)
        if counter is not None:
            return counter
        try:
            with session.begin_nested():
                counter = LoginThrottleCounter(
                    scope=scope, key=_key(key), window_started_at=now, attempts=0
                )
                session.add(counter)
        except IntegrityError:
            counter = self._find(session, scope, key)
            assert counter is not None, "the row another attempt made is there"
        return counter


def _key(text: str) -> str:
    return text[:THROTTLE_KEY_MAX_LENGTH]
