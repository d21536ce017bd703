"""Sessions proven a moment ago are trusted without a read, and whatever ends a
session or changes its user in this process is seen at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

import pytest
from sqlalchemy import Engine, event

from cardroom.service import accounts
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import AccountSuspended, AuthenticationFailed
from cardroom.service.recent_sessions import RECENT_SESSION_SECONDS, RecentSessions
from cardroom.service.users import UserInfo
from cardroom.store.models import Role

PASSWORD = "correct horse"


class FakeClock(Protocol):  # the conftest fixture ``clock``
    def advance(self, delta: timedelta) -> None: ...


class Ticker:
    """A monotonic clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def statements(db: Engine) -> Iterator[list[str]]:
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    event.listen(db, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(db, "before_cursor_execute", count)


@pytest.fixture
def ticker() -> Ticker:
    return Ticker()


@pytest.fixture
def room(ctx: ServiceContext, ticker: Ticker) -> ServiceContext:
    """The test's context with a window whose clock the test moves."""
    return ServiceContext(
        settings=ctx.settings,
        sessions=ctx.sessions,
        clock=ctx.clock,
        recent_sessions=RecentSessions(monotonic=ticker),
    )


def signed_in(room: ServiceContext, name: str = "alice") -> str:
    accounts.sign_up(room, name, PASSWORD)
    return accounts.sign_in(room, name, PASSWORD).token


def test_a_session_proven_a_moment_ago_needs_no_read(room: ServiceContext, db: Engine) -> None:
    token = signed_in(room)
    with statements(db) as first:
        alice = accounts.user_for_recent_token(room, token)
    with statements(db) as again:
        assert accounts.user_for_recent_token(room, token) == alice
        assert accounts.recently_proven(room, token) == alice
    assert first and not again
    assert alice.name == "alice"


def test_the_window_ends_and_the_session_is_read_again(
    room: ServiceContext, db: Engine, ticker: Ticker
) -> None:
    token = signed_in(room)
    accounts.user_for_recent_token(room, token)
    ticker.now += RECENT_SESSION_SECONDS - 0.1
    assert accounts.recently_proven(room, token) is not None
    ticker.now += 0.2
    assert accounts.recently_proven(room, token) is None
    with statements(db) as sent:
        accounts.user_for_recent_token(room, token)
    assert sent


def test_signing_out_here_ends_the_session_at_once(room: ServiceContext) -> None:
    token = signed_in(room)
    accounts.user_for_recent_token(room, token)
    accounts.sign_out(room, token)
    assert accounts.recently_proven(room, token) is None
    with pytest.raises(AuthenticationFailed):
        accounts.user_for_recent_token(room, token)


def test_a_suspension_here_refuses_at_once(room: ServiceContext) -> None:
    token = signed_in(room)
    accounts.user_for_recent_token(room, token)
    accounts.suspend(room, CONSOLE, "alice", "testing the window")
    with pytest.raises(AccountSuspended):
        accounts.user_for_recent_token(room, token)


def test_a_password_change_ends_the_other_sessions_at_once(room: ServiceContext) -> None:
    here = signed_in(room)
    elsewhere = accounts.sign_in(room, "alice", PASSWORD).token
    accounts.user_for_recent_token(room, elsewhere)
    accounts.change_password(room, here, PASSWORD, "a new horse battery")
    with pytest.raises(AuthenticationFailed):
        accounts.user_for_recent_token(room, elsewhere)
    assert accounts.user_for_recent_token(room, here).name == "alice"


def test_a_new_role_is_seen_at_once(room: ServiceContext) -> None:
    token = signed_in(room)
    assert not accounts.user_for_recent_token(room, token).is_admin
    accounts.set_role(room, CONSOLE, "alice", Role.ADMIN, "testing the window")
    assert accounts.user_for_recent_token(room, token).is_admin


def test_another_process_trusts_until_its_window_ends(room: ServiceContext, ticker: Ticker) -> None:
    # Two contexts on one database are two processes: what one forgets, the other
    # learns only when its window ends (the documented price of the saving).
    other = ServiceContext(
        settings=room.settings,
        sessions=room.sessions,
        clock=room.clock,
        recent_sessions=RecentSessions(monotonic=ticker),
    )
    token = signed_in(room)
    accounts.user_for_recent_token(other, token)
    accounts.sign_out(room, token)
    assert accounts.user_for_recent_token(other, token).name == "alice"
    ticker.now += RECENT_SESSION_SECONDS
    with pytest.raises(AuthenticationFailed):
        accounts.user_for_recent_token(other, token)


def test_an_expired_session_is_refused_inside_the_window(
    room: ServiceContext, clock: FakeClock
) -> None:
    token = signed_in(room)
    accounts.user_for_recent_token(room, token)
    clock.advance(room.settings.session_lifetime)
    assert accounts.recently_proven(room, token) is None
    with pytest.raises(AuthenticationFailed):
        accounts.user_for_recent_token(room, token)


FAR = datetime(2099, 1, 1, tzinfo=UTC)
NOW = datetime(2026, 1, 2, tzinfo=UTC)


def a_user(user_id: int = 1) -> UserInfo:
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    return UserInfo(
        id=user_id, name=f"u{user_id}", role=Role.PLAYER, suspended=False, created_at=moment
    )


def test_a_read_begun_before_a_forget_is_not_kept() -> None:
    recent = RecentSessions()
    began = recent.generation
    recent.forget_user(1)  # a sign-out committed while the read was under way
    recent.put("t", a_user(), FAR, began)
    assert recent.get("t", NOW) is None
    recent.put("t", a_user(), FAR, recent.generation)
    assert recent.get("t", NOW) == a_user()


def test_the_least_recently_used_go_first_past_the_capacity() -> None:
    recent = RecentSessions(capacity=2)
    for n in (1, 2):
        recent.put(f"t{n}", a_user(n), FAR, recent.generation)
    assert recent.get("t1", NOW) is not None  # t1 used: t2 is now the oldest
    recent.put("t3", a_user(3), FAR, recent.generation)
    assert len(recent) == 2
    assert recent.get("t2", NOW) is None
    assert recent.get("t1", NOW) is not None and recent.get("t3", NOW) is not None
