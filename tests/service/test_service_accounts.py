"""Accounts: sign up, sign in and out, passwords, sessions, roles, suspension.
Every refusal is checked to leave the database exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Protocol

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, select

from cardroom.config import PasswordHashing
from cardroom.service import accounts, money
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    AccountSuspended,
    AuthenticationFailed,
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    ServiceError,
    TooManyAttempts,
)
from cardroom.service.users import UserInfo
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import AdminAction, Role, User, UserSession

Unchanged = Callable[[], AbstractContextManager[None]]


class FakeClock(Protocol):  # the conftest fixture ``clock``
    def advance(self, delta: timedelta) -> None: ...


PASSWORD = "correct horse"


def test_sign_up_makes_a_player_with_the_starting_balance(ctx: ServiceContext) -> None:
    alice = accounts.sign_up(ctx, "Alice_99", PASSWORD)
    assert (alice.name, alice.role, alice.suspended) == ("Alice_99", Role.PLAYER, False)
    assert alice.created_at == ctx.now()
    assert money.balance(ctx, alice.id) == ctx.settings.starting_balance_cents == 10_000
    (line,) = money.statement(ctx, alice.id).lines
    assert (line.kind.value, line.amount_cents, line.reason) == (
        "grant",
        10_000,
        "Starting balance",
    )


def test_password_is_stored_as_an_argon2id_hash(ctx: ServiceContext, db: Engine) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    with make_sessionmaker(db)() as session:
        stored = session.scalars(select(User.password_hash)).one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert PasswordHasher().verify(stored, PASSWORD)


def test_the_starting_balance_is_configurable(ctx: ServiceContext) -> None:
    from dataclasses import replace

    rich = replace(ctx, settings=replace(ctx.settings, starting_balance_cents=250_00))
    broke = replace(ctx, settings=replace(ctx.settings, starting_balance_cents=0))
    assert money.balance(rich, accounts.sign_up(rich, "rich", PASSWORD).id) == 250_00
    poor = accounts.sign_up(broke, "broke", PASSWORD)
    assert money.balance(broke, poor.id) == 0
    assert money.statement(broke, poor.id).lines == ()


@pytest.mark.parametrize(
    "name",
    ["ab", "a" * 21, "has space", "émile", "semi;colon", "", "tab\t1", "al\u0131ce", "x.y"],
)
def test_bad_names_are_refused(ctx: ServiceContext, unchanged: Unchanged, name: str) -> None:
    with unchanged(), pytest.raises(InvalidInput, match="3 to 20 characters"):
        accounts.sign_up(ctx, name, PASSWORD)


@pytest.mark.parametrize("name", ["abc", "a" * 20, "Big-Slick_42", "---", "007"])
def test_good_names_are_accepted(ctx: ServiceContext, name: str) -> None:
    assert accounts.sign_up(ctx, name, PASSWORD).name == name


@pytest.mark.parametrize("password", ["", "short", "7chars!", "x" * 257])
def test_bad_passwords_are_refused(
    ctx: ServiceContext, unchanged: Unchanged, password: str
) -> None:
    with unchanged(), pytest.raises(InvalidInput, match="password"):
        accounts.sign_up(ctx, "alice", password)


def test_a_taken_name_is_refused_whatever_its_case(
    ctx: ServiceContext, unchanged: Unchanged
) -> None:
    accounts.sign_up(ctx, "Alice", PASSWORD)
    for name in ("Alice", "alice", "ALICE"):
        with unchanged(), pytest.raises(Conflict, match="taken"):
            accounts.sign_up(ctx, name, PASSWORD)


def test_reserved_names_are_for_the_console_only(ctx: ServiceContext, unchanged: Unchanged) -> None:
    with unchanged(), pytest.raises(InvalidInput, match="reserved"):
        accounts.sign_up(ctx, "Admin", PASSWORD)
    admin = accounts.create_user(ctx, CONSOLE, "admin", PASSWORD, role=Role.ADMIN)
    assert admin.is_admin


def test_sign_in_returns_a_token_that_identifies_the_user(ctx: ServiceContext) -> None:
    alice = accounts.sign_up(ctx, "Alice", PASSWORD)
    signed_in = accounts.sign_in(ctx, "aLiCe", PASSWORD)  # names are case-insensitive
    assert signed_in.user == alice
    assert signed_in.expires_at == ctx.now() + ctx.settings.session_lifetime
    assert len(signed_in.token) >= 40
    assert accounts.user_for_token(ctx, signed_in.token) == alice


def test_only_a_hash_of_the_token_is_stored(ctx: ServiceContext, db: Engine) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    token = accounts.sign_in(ctx, "alice", PASSWORD).token
    with make_sessionmaker(db)() as session:
        stored = session.scalars(select(UserSession.token_hash)).one()
    assert stored == accounts.token_hash(token) and token not in stored


def test_each_sign_in_is_its_own_session(ctx: ServiceContext) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    first = accounts.sign_in(ctx, "alice", PASSWORD).token
    second = accounts.sign_in(ctx, "alice", PASSWORD).token
    assert first != second
    accounts.sign_out(ctx, first)
    assert accounts.user_for_token(ctx, second).name == "alice"


@pytest.mark.parametrize(
    ("name", "password"),
    [("alice", "wrong password"), ("nobody", PASSWORD), ("alice", ""), ("alice", "x" * 10_000)],
)
def test_a_wrong_name_or_password_is_refused_alike(
    ctx: ServiceContext, unchanged: Unchanged, name: str, password: str
) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    with unchanged(), pytest.raises(AuthenticationFailed) as refused:
        accounts.sign_in(ctx, name, password)
    # One sentence for both, so the answer does not tell which names exist.
    assert refused.value.sentence == "That name and password do not match."


@pytest.mark.parametrize("token", ["", "made-up", "x" * 5000])
def test_an_unknown_token_is_refused(ctx: ServiceContext, token: str) -> None:
    with pytest.raises(AuthenticationFailed, match="sign in again"):
        accounts.user_for_token(ctx, token)


def test_a_session_expires(ctx: ServiceContext, clock: FakeClock, unchanged: Unchanged) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    token = accounts.sign_in(ctx, "alice", PASSWORD).token
    clock.advance(ctx.settings.session_lifetime - timedelta(seconds=1))
    assert accounts.user_for_token(ctx, token).name == "alice"
    clock.advance(timedelta(seconds=1))
    with unchanged(), pytest.raises(AuthenticationFailed, match="expired"):
        accounts.user_for_token(ctx, token)


def test_sign_out_revokes_the_session(ctx: ServiceContext, unchanged: Unchanged) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    token = accounts.sign_in(ctx, "alice", PASSWORD).token
    accounts.sign_out(ctx, token)
    with unchanged(), pytest.raises(AuthenticationFailed, match="sign in again"):
        accounts.user_for_token(ctx, token)
    # Signing out again, or of nothing, is harmless and changes nothing.
    with unchanged():
        accounts.sign_out(ctx, token)
        accounts.sign_out(ctx, "never-issued")


def test_change_password_needs_the_old_one_and_ends_other_sessions(
    ctx: ServiceContext, unchanged: Unchanged
) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    here = accounts.sign_in(ctx, "alice", PASSWORD).token
    elsewhere = accounts.sign_in(ctx, "alice", PASSWORD).token

    with unchanged(), pytest.raises(AuthenticationFailed, match="current password"):
        accounts.change_password(ctx, here, "not my password", "new password 1")
    with unchanged(), pytest.raises(InvalidInput, match="at least 8"):
        accounts.change_password(ctx, here, PASSWORD, "short")
    with unchanged(), pytest.raises(InvalidInput, match="different"):
        accounts.change_password(ctx, here, PASSWORD, PASSWORD)
    with unchanged(), pytest.raises(AuthenticationFailed):
        accounts.change_password(ctx, "stolen?", PASSWORD, "new password 1")

    accounts.change_password(ctx, here, PASSWORD, "new password 1")

    assert accounts.user_for_token(ctx, here).name == "alice"
    with pytest.raises(AuthenticationFailed):
        accounts.user_for_token(ctx, elsewhere)
    with pytest.raises(AuthenticationFailed):
        accounts.sign_in(ctx, "alice", PASSWORD)
    assert accounts.sign_in(ctx, "alice", "new password 1").user.name == "alice"


def test_a_suspended_user_can_neither_sign_in_nor_act(
    ctx: ServiceContext, unchanged: Unchanged
) -> None:
    accounts.sign_up(ctx, "alice", PASSWORD)
    token = accounts.sign_in(ctx, "alice", PASSWORD).token
    suspended = accounts.suspend(ctx, CONSOLE, "alice", "chip dumping")
    assert suspended.suspended

    with unchanged(), pytest.raises(AccountSuspended, match="suspended"):
        accounts.sign_in(ctx, "alice", PASSWORD)
    with unchanged(), pytest.raises(AccountSuspended):
        accounts.user_for_token(ctx, token)  # the old session says why it stopped
    with unchanged(), pytest.raises(AccountSuspended):
        money.statement(ctx, suspended.id)

    accounts.reinstate(ctx, CONSOLE, "alice", "appeal upheld")
    fresh = accounts.sign_in(ctx, "alice", PASSWORD).token
    assert accounts.user_for_token(ctx, fresh).suspended is False


def test_a_session_of_a_user_suspended_meanwhile_is_refused(
    ctx: ServiceContext, db: Engine, unchanged: Unchanged
) -> None:
    # Even if a session row survived the suspension (say, written by an older
    # version), user_for_token checks the user too.
    accounts.sign_up(ctx, "alice", PASSWORD)
    token = accounts.sign_in(ctx, "alice", PASSWORD).token
    with make_sessionmaker(db).begin() as session:
        session.scalars(select(User)).one().suspended = True
    with unchanged(), pytest.raises(AccountSuspended):
        accounts.user_for_token(ctx, token)


def test_suspension_refusals(ctx: ServiceContext, unchanged: Unchanged) -> None:
    boss = accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN)
    accounts.sign_up(ctx, "alice", PASSWORD)
    bob = accounts.sign_up(ctx, "bob", PASSWORD)
    with unchanged(), pytest.raises(Forbidden, match="Only an admin"):
        accounts.suspend(ctx, bob.id, "alice", "I do not like her")
    with unchanged(), pytest.raises(Conflict, match="yourself"):
        accounts.suspend(ctx, boss.id, "boss", "testing")
    with unchanged(), pytest.raises(Conflict, match="at least one admin"):
        accounts.suspend(ctx, CONSOLE, "boss", "testing")
    with unchanged(), pytest.raises(InvalidInput, match="reason"):
        accounts.suspend(ctx, boss.id, "alice", "   ")
    with unchanged(), pytest.raises(NotFound, match="no user called 'carol'"):
        accounts.suspend(ctx, boss.id, "carol", "who?")
    accounts.suspend(ctx, boss.id, "alice", "collusion")
    with unchanged(), pytest.raises(Conflict, match="already suspended"):
        accounts.suspend(ctx, boss.id, "alice", "again")
    with unchanged(), pytest.raises(Conflict, match="not suspended"):
        accounts.reinstate(ctx, boss.id, "bob", "never was")


def test_admin_actions_are_recorded(ctx: ServiceContext, db: Engine) -> None:
    boss = accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN, reason="first")
    accounts.sign_up(ctx, "alice", PASSWORD)
    accounts.suspend(ctx, boss.id, "alice", "collusion")
    accounts.set_role(ctx, boss.id, "alice", Role.ADMIN, "trusted")
    with make_sessionmaker(db)() as session:
        log = session.scalars(select(AdminAction).order_by(AdminAction.id)).all()
        rows = [(a.admin_id, a.action, a.reason, a.before, a.after) for a in log]
    assert rows == [
        (None, "create_user", "first", {}, {"name": "boss", "role": "admin"}),
        (
            boss.id,
            "suspend",
            "collusion",
            {"suspended": False},
            {"suspended": True, "sessions_ended": 0},
        ),
        (boss.id, "set_role", "trusted", {"role": "player"}, {"role": "admin"}),
    ]
    assert all(a.created_at == ctx.now() for a in log)


def test_roles(ctx: ServiceContext, unchanged: Unchanged) -> None:
    boss = accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN)
    alice = accounts.sign_up(ctx, "alice", PASSWORD)
    with unchanged(), pytest.raises(Forbidden):
        accounts.set_role(ctx, alice.id, "alice", Role.ADMIN, "promote myself")
    with unchanged(), pytest.raises(Forbidden):
        accounts.create_user(ctx, alice.id, "sock_puppet", PASSWORD)
    with unchanged(), pytest.raises(Conflict, match="at least one admin"):
        accounts.set_role(ctx, boss.id, "boss", Role.PLAYER, "step down")
    with unchanged(), pytest.raises(Conflict, match="already a player"):
        accounts.set_role(ctx, boss.id, "alice", Role.PLAYER, "no-op")

    assert accounts.set_role(ctx, boss.id, "alice", Role.ADMIN, "trusted").is_admin
    accounts.set_role(ctx, alice.id, "boss", Role.PLAYER, "handover")
    with unchanged(), pytest.raises(Forbidden):
        # A demoted admin loses the power at once.
        accounts.suspend(ctx, boss.id, "alice", "revenge")
    assert accounts.find_user(ctx, "BOSS").role is Role.PLAYER


def test_an_admin_creates_users_of_any_role(ctx: ServiceContext, unchanged: Unchanged) -> None:
    boss = accounts.create_user(ctx, CONSOLE, "boss", PASSWORD, role=Role.ADMIN)
    helper = accounts.create_user(ctx, boss.id, "helper", PASSWORD, role=Role.ADMIN)
    assert helper.is_admin
    assert money.balance(ctx, helper.id) == ctx.settings.starting_balance_cents
    with unchanged(), pytest.raises(Conflict):
        accounts.create_user(ctx, boss.id, "HELPER", PASSWORD)


class CountingThrottle:
    """Refuses a name after two failures; records what sign_in told it."""

    def __init__(self) -> None:
        self.failures: dict[str, int] = {}
        self.successes: list[str] = []

    def before_attempt(
        self, name_key: str, now: datetime, *, address: str | None = None, device: str | None = None
    ) -> None:
        if self.failures.get(name_key, 0) >= 2:
            raise TooManyAttempts("Too many attempts; wait a minute and try again.")

    def after_failure(
        self, name_key: str, now: datetime, *, address: str | None = None, device: str | None = None
    ) -> None:
        self.failures[name_key] = self.failures.get(name_key, 0) + 1

    def after_success(
        self, name_key: str, now: datetime, *, address: str | None = None, device: str | None = None
    ) -> None:
        self.successes.append(name_key)


def test_sign_in_consults_the_login_throttle(ctx: ServiceContext) -> None:
    from dataclasses import replace

    throttle = CountingThrottle()
    guarded = replace(ctx, login_throttle=throttle)
    accounts.sign_up(guarded, "alice", PASSWORD)
    accounts.sign_in(guarded, "Alice", PASSWORD)
    assert throttle.successes == ["alice"]
    for _ in range(2):
        with pytest.raises(AuthenticationFailed):
            accounts.sign_in(guarded, "alice", "guess guess")
    with pytest.raises(TooManyAttempts):
        accounts.sign_in(guarded, "alice", PASSWORD)  # even the right password waits
    assert throttle.failures == {"alice": 2}


def test_a_password_hashed_with_old_costs_is_rehashed_at_sign_in(
    ctx: ServiceContext, db: Engine
) -> None:
    from dataclasses import replace

    accounts.sign_up(ctx, "alice", PASSWORD)
    stronger = replace(
        ctx,
        settings=replace(
            ctx.settings,
            password_hashing=PasswordHashing(time_cost=2, memory_cost_kib=16, parallelism=1),
        ),
    )
    accounts.sign_in(stronger, "alice", PASSWORD)
    with make_sessionmaker(db)() as session:
        stored = session.scalars(select(User.password_hash)).one()
    assert "m=16,t=2,p=1" in stored
    assert accounts.sign_in(stronger, "alice", PASSWORD).user.name == "alice"


def test_every_refusal_is_a_value_error_with_a_sentence() -> None:
    for error in (InvalidInput, NotFound, Conflict, Forbidden, AuthenticationFailed):
        refusal = error("Something is wrong.")
        assert isinstance(refusal, ServiceError) and isinstance(refusal, ValueError)
        assert str(refusal) == refusal.sentence == "Something is wrong."


def _kinds_of_tokens(ctx: ServiceContext, clock: FakeClock) -> list[str]:
    """One token of each kind a batch may bring: expired, live, signed out, of a
    suspended user, a second live one, never issued."""
    accounts.sign_up(ctx, "early", PASSWORD)
    expired = accounts.sign_in(ctx, "early", PASSWORD).token
    clock.advance(ctx.settings.session_lifetime)
    for name in ("alice", "bob", "carol", "dave"):
        accounts.sign_up(ctx, name, PASSWORD)
    live, gone, suspended, other = (
        accounts.sign_in(ctx, name, PASSWORD).token for name in ("alice", "bob", "carol", "dave")
    )
    accounts.sign_out(ctx, gone)
    with make_sessionmaker(ctx.engine).begin() as session:  # the session row survives
        session.scalars(select(User).where(User.name == "carol")).one().suspended = True
    return [expired, live, gone, suspended, other, "never-issued"]


@pytest.mark.parametrize("count", [1, 2, 3, 5, 6, 9, 17])
def test_users_in_answers_each_token_as_user_for_token_does(
    ctx: ServiceContext, clock: FakeClock, count: int
) -> None:
    """The batch's proof (one prepared statement for all its senders, its ``IN``
    list padded to a power of two) gives each token what ``user_for_token`` gives
    it alone, and what the session's row read through the ORM says: the same user,
    or the same refusal with the same sentence."""
    kinds = _kinds_of_tokens(ctx, clock)
    tokens = [kinds[i % len(kinds)] for i in range(count)]
    if count > len(kinds):  # more sessions than kinds: more live ones of the same user
        tokens[len(kinds) :] = [
            accounts.sign_in(ctx, "alice", PASSWORD).token for _ in range(count - len(kinds))
        ]

    def alone(token: str) -> object:
        try:
            return accounts.user_for_token(ctx, token)
        except ServiceError as refused:
            return (type(refused), refused.sentence)

    def through_the_orm(token: str) -> object:
        try:
            with ctx.transaction() as session:
                user = accounts._session_for_token(ctx, session, token).user
                return UserInfo.of(user)
        except ServiceError as refused:
            return (type(refused), refused.sentence)

    with ctx.transaction() as session:
        proofs = accounts.users_in(ctx, session, tokens)
    assert set(proofs) == set(tokens)
    for token, proof in proofs.items():
        answer = proof if not isinstance(proof, ServiceError) else (type(proof), proof.sentence)
        assert answer == alone(token) == through_the_orm(token), token
