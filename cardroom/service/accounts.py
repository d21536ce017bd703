"""Account use cases: sign up, sign in and out, passwords, sessions, roles and
suspension.

A session token is 256 random bits, shown to the client once; the database keeps only
its SHA-256. A fast hash is enough here (unlike for passwords): nobody can guess 256
random bits, so there is nothing for a slow hash to protect.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, cast

from argon2 import PasswordHasher
from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload

from cardroom.service import devices
from cardroom.service.admin import Actor, check_reason, record_admin_action, require_admin
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    AccountSuspended,
    AuthenticationFailed,
    Conflict,
    Forbidden,
    InvalidInput,
)
from cardroom.service.money import open_balance
from cardroom.service.passwords import check_new_password, password_matches
from cardroom.service.users import (
    RESERVED_NAMES,
    SUSPENDED_SENTENCE,
    UserInfo,
    check_new_name,
    name_key,
    user_named,
)
from cardroom.store.db import reading
from cardroom.store.models import Role, User, UserSession
from cardroom.store.prepared import Prepared

TOKEN_BYTES = 32

WRONG_PASSWORD = "That name and password do not match."
SIGN_IN_AGAIN = "Please sign in again."
SESSION_EXPIRED = "Your session has expired; please sign in again."


@dataclass(frozen=True)
class SignedIn:
    token: str  # give this to the client; it is not stored anywhere
    user: UserInfo
    expires_at: datetime
    device_cookie: str = ""  # for the browser: lets it through the name's lockout


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# -- joining -----------------------------------------------------------------------


SIGN_UP_CLOSED = "This room makes no new accounts here; please ask its admins for one."
INVITATION_NEEDED = "Joining this room needs an invitation code; please give the one you got."
WRONG_INVITATION = "That invitation code is not this room's."


def sign_up(
    ctx: ServiceContext,
    name: str,
    password: str,
    *,
    address: str | None = None,
    invitation: str | None = None,
) -> UserInfo:
    """A new player, with the starting balance granted. The room's settings say who
    may (``Settings.sign_up``: open, by invitation code, closed) and how many
    accounts one client ``address`` may make in a window (issue 17, item 5)."""
    settings = ctx.settings
    if settings.sign_up == "closed":
        raise Forbidden(SIGN_UP_CLOSED)
    if settings.sign_up == "invitation":
        code = settings.invitation_code or ""
        if not invitation:
            raise Forbidden(INVITATION_NEEDED)
        if not hmac.compare_digest(invitation.encode(), code.encode()):
            raise Forbidden(WRONG_INVITATION)
    check_new_name(name)
    if name_key(name) in RESERVED_NAMES:
        raise InvalidInput(f"The name {name!r} is reserved; please choose another.")
    check_new_password(password)
    counted = address is not None and settings.sign_ups_per_address > 0
    if counted:
        assert address is not None
        ctx.login_throttle.before_sign_up(address, ctx.now(), limit=settings.sign_ups_per_address)
    try:
        password_hash = ctx.hasher.hash(password)  # slow: before the transaction opens
        with ctx.transaction() as session:
            return UserInfo.of(_add_user(ctx, session, name, password_hash, Role.PLAYER))
    except Conflict:
        if counted:
            assert address is not None
            ctx.login_throttle.sign_up_refused(address)  # a taken name made no account
        raise


def create_user(
    ctx: ServiceContext,
    actor: Actor,
    name: str,
    password: str,
    *,
    role: Role = Role.PLAYER,
    reason: str = "Created by an admin",
) -> UserInfo:
    """A user made by an admin or the console: any role, and reserved names allowed
    (the console's first admin is often called "admin")."""
    check_new_name(name)
    check_new_password(password)
    why = check_reason(reason)
    password_hash = ctx.hasher.hash(password)
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        user = _add_user(ctx, session, name, password_hash, role)
        record_admin_action(
            session,
            admin=admin,
            action="create_user",
            target=user,
            reason=why,
            before={},
            after={"name": user.name, "role": user.role.value},
            now=ctx.now(),
        )
        return UserInfo.of(user)


def _add_user(
    ctx: ServiceContext, session: Session, name: str, password_hash: str, role: Role
) -> User:
    now = ctx.now()
    taken = Conflict(f"The name {name!r} is taken; please choose another.")
    if session.scalar(select(User.id).where(User.name_key == name_key(name))) is not None:
        raise taken
    user = User(
        name=name,
        name_key=name_key(name),
        password_hash=password_hash,
        role=role,
        suspended=False,
        created_at=now,
    )
    session.add(user)
    try:
        session.flush()
    except IntegrityError:
        # Two sign-ups for one name at the same moment: the unique index decides.
        raise taken from None
    open_balance(session, user, starting_cents=ctx.settings.starting_balance_cents, now=now)
    return user


# -- sessions ----------------------------------------------------------------------


@cache
def _decoy_hash(hasher: PasswordHasher) -> str:
    return hasher.hash("not anyone's password")


def sign_in(
    ctx: ServiceContext,
    name: str,
    password: str,
    *,
    address: str | None = None,
    device_cookie: str | None = None,
) -> SignedIn:
    """A new session for the right name and password. ``address``: the client's, for
    the login throttle (``cardroom.service.throttle``), which may refuse the attempt
    before the password is checked. ``device_cookie``: the one the browser was given
    at an earlier sign-in (``cardroom.service.devices``); valid for this name, the
    attempt is throttled per device instead of per name and address. A new one comes
    back in ``SignedIn.device_cookie``.

    The password is checked between two short transactions, so that a slow argon2
    check never holds SQLite's write lock; the second transaction makes sure the
    password it checked is still the user's before opening the session.
    """
    key = name_key(name.strip())
    with ctx.transaction() as session:
        found = session.execute(
            select(User.id, User.password_hash).where(User.name_key == key)
        ).first()
    trusted = (
        None
        if found is None
        else devices.trusted_device(device_cookie, found.password_hash, found.id, ctx.now())
    )
    device = None if trusted is None else trusted.nonce
    throttle = ctx.login_throttle
    throttle.before_attempt(key, ctx.now(), address=address, device=device)
    if found is None:
        # Spend the same time as a real check, so the answer's speed does not tell
        # which names exist.
        password_matches(ctx.hasher, _decoy_hash(ctx.hasher), password)
    if found is None or not password_matches(ctx.hasher, found.password_hash, password):
        throttle.after_failure(key, ctx.now(), address=address, device=device)
        raise AuthenticationFailed(WRONG_PASSWORD)
    rehashed = (
        ctx.hasher.hash(password) if ctx.hasher.check_needs_rehash(found.password_hash) else None
    )
    with ctx.transaction() as session:
        user = session.get(User, found.id)
        if user is None or user.password_hash != found.password_hash:
            raise AuthenticationFailed(WRONG_PASSWORD)  # changed while we checked
        if user.suspended:
            raise AccountSuspended(SUSPENDED_SENTENCE)
        if rehashed is not None:
            # The room's argon2 costs changed since this password was set.
            user.password_hash = rehashed
        now = ctx.now()
        token = secrets.token_urlsafe(TOKEN_BYTES)
        expires_at = now + ctx.settings.session_lifetime
        session.add(
            UserSession(
                user_id=user.id, token_hash=token_hash(token), created_at=now, expires_at=expires_at
            )
        )
        signed_in = SignedIn(
            token=token,
            user=UserInfo.of(user),
            expires_at=expires_at,
            device_cookie=devices.device_cookie(user.password_hash, user.id, now),
        )
    throttle.after_success(key, ctx.now(), address=address, device=device)
    return signed_in


def sign_out(ctx: ServiceContext, token: str) -> int | None:
    """End a session; the user's id, for the web layer to close its sockets.
    Signing out of a session that is already over does nothing (None): the client's
    goal, being signed out, already holds."""
    with ctx.transaction() as session:
        row = session.scalar(select(UserSession).where(UserSession.token_hash == token_hash(token)))
        if row is None or row.revoked_at is not None:
            return None
        row.revoked_at = ctx.now()
        user_id = row.user_id
    ctx.recent_sessions.forget_user(user_id)
    return user_id


def user_for_token(ctx: ServiceContext, token: str) -> UserInfo:
    """The user a session token belongs to; refused if the session is unknown,
    revoked or expired, or the user is suspended."""
    # Every request asks this first: read-only, so on SQLite it waits for no writer
    # (docs/storage.md), and one statement loads the session with its user.
    with reading(), ctx.transaction() as session:
        return _proof(ctx, session, token)[0]


def users_in(
    ctx: ServiceContext, session: Session, tokens: Iterable[str]
) -> dict[str, UserInfo | AuthenticationFailed | AccountSuspended]:
    """``user_for_token`` for several tokens inside a transaction the caller holds,
    in one statement and no transaction of its own: each token's user, or the refusal
    ``user_for_token`` would raise for it. Commands committed together
    (``cardroom.service.game.together``) prove the sessions of a whole batch so, at
    its start."""
    wanted = {_batch_hash(token): token for token in tokens}
    hashes = sorted(wanted)
    statement, names = _proofs_for(len(hashes))
    # The places past the batch's hashes repeat the last one: the same rows found.
    last = hashes[-1]
    if len(_PROOF_ROWS) >= _BATCH_HASHES_MAX:
        _PROOF_ROWS.clear()
    rows = statement.rows(
        session,
        {name: hashes[i] if i < len(hashes) else last for i, name in enumerate(names)},
        _PROOF_ROWS,
    )
    found = {row[0]: row for row in rows}
    now = ctx.now()  # one moment for the batch's proofs, as its statement reads one
    proofs: dict[str, UserInfo | AuthenticationFailed | AccountSuspended] = {}
    for key, token in wanted.items():
        try:
            proofs[token] = _proved(now, found.get(key))
        except (AuthenticationFailed, AccountSuspended) as refused:
            proofs[token] = refused
    return proofs


# Where a ``users_in`` row holds the session's ``expires_at``: after the hash and
# ``revoked_at`` (``_PROOF``'s columns follow the hash).
_EXPIRES_AT = 2


def _proved(now: datetime, row: tuple[Any, ...] | None) -> UserInfo:
    """``_judged`` for a row of ``users_in``'s statement (the hash first). The user
    of a row read before with the same values (each batch reads them afresh) is
    the one made then: a row that passed the checks of its values passes them
    again, all but its expiry, which is checked against this batch's moment."""
    if row is None:
        raise AuthenticationFailed(SIGN_IN_AGAIN)
    user = _PROVED_USERS.get(row)
    if user is None:
        user = _judged(now, row[1:])[0]
        if len(_PROVED_USERS) >= _BATCH_HASHES_MAX:
            _PROVED_USERS.clear()
        _PROVED_USERS[row] = user
    elif row[_EXPIRES_AT] <= now:
        raise AuthenticationFailed(SESSION_EXPIRED)
    return user


def user_for_recent_token(ctx: ServiceContext, token: str) -> UserInfo:
    """``user_for_token``, trusting a session this process proved in the last few
    seconds (``cardroom.service.recent_sessions``: what that trust costs)."""
    key = token_hash(token)
    known = ctx.recent_sessions.get(key, ctx.now())
    if known is not None:
        return known
    generation = ctx.recent_sessions.generation
    with reading(), ctx.transaction() as session:
        user, expires_at = _proof(ctx, session, token)
    ctx.recent_sessions.put(key, user, expires_at, generation)
    return user


def recently_proven(ctx: ServiceContext, token: str) -> UserInfo | None:
    """The user of a session this process proved in the last few seconds, without
    the database; None if it must be read (``user_for_recent_token``)."""
    return ctx.recent_sessions.get(token_hash(token), ctx.now())


# Every request and every command proves its session: one Core statement of the
# columns the proof needs. Through the ORM (the session and its user as objects,
# ``joinedload``) the proof was a fifth of a socket command's CPU under the load test
# (sampled: 20% of the server's time in the committer, against 17% for saving the
# game with its events).
_SESSIONS = cast(SqlTable, UserSession.__table__).c
_USERS = cast(SqlTable, User.__table__).c
# Core columns on the session's connection: an ORM entity's attributes in the select
# would send the rows through the ORM's loading (a third of the proof's time).
_PROOF = (
    select(
        _SESSIONS.revoked_at,
        _SESSIONS.expires_at,
        _USERS.id,
        _USERS.name,
        _USERS.role,
        _USERS.suspended,
        _USERS.created_at,
    )
    .join_from(cast(SqlTable, UserSession.__table__), cast(SqlTable, User.__table__))
    .where(_SESSIONS.token_hash == bindparam("token_hash"))
)
_PREPARED_PROOF = Prepared(_PROOF)


@cache
def _proofs_for(count: int) -> tuple[Prepared, tuple[str, ...]]:
    """``users_in``'s statement for ``count`` sessions and its hashes' names:
    ``count`` rounded up to a power of two, so that a batch (up to 32 commands)
    meets one of six statements, each compiled once for each database and sent as
    ``Prepared`` sends it (an ``IN`` list expanded at each execution cannot be)."""
    places = 1 << max(count - 1, 0).bit_length()
    hashed = _SESSIONS.token_hash
    names = tuple(f"h{i}" for i in range(places))
    statement = (
        select(hashed, *_PROOF.selected_columns)
        .join_from(cast(SqlTable, UserSession.__table__), cast(SqlTable, User.__table__))
        .where(hashed.in_([bindparam(name, type_=hashed.type) for name in names]))
    )
    return Prepared(statement), names


# The hashes of the tokens the committer's batches proved lately: a player's every
# command carries the same token, hashed (SHA-256 and its hex) again each time.
# Only the hash is remembered, never the proof: each batch still reads every
# sender's session and user in its own transaction (``users_in``), so a session
# signed out or a player suspended is refused at their next command. At most
# ``_BATCH_HASHES_MAX`` tokens, forgotten all at once past that.
_BATCH_HASHES: dict[str, str] = {}
_BATCH_HASHES_MAX = 4096


# The batches' proof rows as the driver answered them, each converted once
# (``Prepared.rows``' ``seen``), and the user of each that passed the proof: the
# values are read every batch and only their conversion is remembered.
_PROOF_ROWS: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_PROVED_USERS: dict[tuple[Any, ...], UserInfo] = {}


def _batch_hash(token: str) -> str:
    found = _BATCH_HASHES.get(token)
    if found is None:
        if len(_BATCH_HASHES) >= _BATCH_HASHES_MAX:
            _BATCH_HASHES.clear()
        found = _BATCH_HASHES[token] = token_hash(token)
    return found


def _proof(ctx: ServiceContext, session: Session, token: str) -> tuple[UserInfo, datetime]:
    """The session's user and when the session ends, or the refusal
    ``_session_for_token`` gives, in the same order of checks."""
    row = _PREPARED_PROOF.first(session, {"token_hash": token_hash(token)})
    return _judged(ctx.now(), row)


def _judged(now: datetime, row: Sequence[Any] | None) -> tuple[UserInfo, datetime]:
    """The user of a proof's row, ``_PROOF``'s columns in order (None: no such
    session), or its refusal."""
    if row is None:
        raise AuthenticationFailed(SIGN_IN_AGAIN)
    revoked_at, expires_at, user_id, name, role, suspended, created_at = row
    if suspended:
        raise AccountSuspended(SUSPENDED_SENTENCE)
    if revoked_at is not None:
        raise AuthenticationFailed(SIGN_IN_AGAIN)
    if expires_at <= now:
        raise AuthenticationFailed(SESSION_EXPIRED)
    user = UserInfo(id=user_id, name=name, role=role, suspended=suspended, created_at=created_at)
    return user, expires_at


def _session_for_token(ctx: ServiceContext, session: Session, token: str) -> UserSession:
    row = session.scalar(
        select(UserSession)
        .where(UserSession.token_hash == token_hash(token))
        .options(joinedload(UserSession.user))
    )
    if row is None:
        raise AuthenticationFailed(SIGN_IN_AGAIN)
    # Suspending revokes every session: say why the token stopped working.
    if row.user.suspended:
        raise AccountSuspended(SUSPENDED_SENTENCE)
    if row.revoked_at is not None:
        raise AuthenticationFailed(SIGN_IN_AGAIN)
    if row.expires_at <= ctx.now():
        raise AuthenticationFailed(SESSION_EXPIRED)
    return row


def change_password(ctx: ServiceContext, token: str, old_password: str, new_password: str) -> None:
    """Set a new password, proving the old one. Every other session of the user ends
    (a stolen session must not survive a password change); this one stays."""
    check_new_password(new_password)
    if new_password == old_password:
        raise InvalidInput("Choose a new password different from the current one.")
    new_hash = ctx.hasher.hash(new_password)
    with ctx.transaction() as session:
        current = _session_for_token(ctx, session, token)
        user = current.user
        if not password_matches(ctx.hasher, user.password_hash, old_password):
            raise AuthenticationFailed("Your current password is not right.")
        user.password_hash = new_hash
        _revoke_sessions(session, user.id, ctx.now(), keep=current.id)
    ctx.recent_sessions.forget_user(user.id)


def _revoke_sessions(session: Session, user_id: int, now: datetime, keep: int | None) -> int:
    query = update(UserSession).where(
        UserSession.user_id == user_id, UserSession.revoked_at.is_(None)
    )
    if keep is not None:
        query = query.where(UserSession.id != keep)
    result = session.execute(
        query.values(revoked_at=now), execution_options={"synchronize_session": "fetch"}
    )
    return int(getattr(result, "rowcount", 0))


# -- admin work ----------------------------------------------------------------------


def set_role(ctx: ServiceContext, actor: Actor, name: str, role: Role, reason: str) -> UserInfo:
    why = check_reason(reason)
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        user = user_named(session, name)
        if user.role is role:
            raise Conflict(f"{user.name} is already a {role.value}.")
        if user.role is Role.ADMIN and _active_admins(session) <= 1 and not user.suspended:
            raise Conflict("The room needs at least one admin; make another admin first.")
        before = user.role
        user.role = role
        record_admin_action(
            session,
            admin=admin,
            action="set_role",
            target=user,
            reason=why,
            before={"role": before.value},
            after={"role": role.value},
            now=ctx.now(),
        )
        changed = UserInfo.of(user)
    ctx.recent_sessions.forget_user(changed.id)
    return changed


def suspend(ctx: ServiceContext, actor: Actor, name: str, reason: str) -> UserInfo:
    """Stop a user from signing in or acting, and end their sessions. Their money
    stays where it is."""
    why = check_reason(reason)
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        user = user_named(session, name)
        if admin is not None and admin.id == user.id:
            raise Conflict("You cannot suspend yourself.")
        if user.suspended:
            raise Conflict(f"{user.name} is already suspended.")
        if user.role is Role.ADMIN and _active_admins(session) <= 1:
            raise Conflict("The room needs at least one admin; make another admin first.")
        user.suspended = True
        ended = _revoke_sessions(session, user.id, ctx.now(), keep=None)
        record_admin_action(
            session,
            admin=admin,
            action="suspend",
            target=user,
            reason=why,
            before={"suspended": False},
            after={"suspended": True, "sessions_ended": ended},
            now=ctx.now(),
        )
        suspended = UserInfo.of(user)
    ctx.recent_sessions.forget_user(suspended.id)
    return suspended


def reinstate(ctx: ServiceContext, actor: Actor, name: str, reason: str) -> UserInfo:
    why = check_reason(reason)
    with ctx.transaction() as session:
        admin = require_admin(session, actor)
        user = user_named(session, name)
        if not user.suspended:
            raise Conflict(f"{user.name} is not suspended.")
        user.suspended = False
        record_admin_action(
            session,
            admin=admin,
            action="reinstate",
            target=user,
            reason=why,
            before={"suspended": True},
            after={"suspended": False},
            now=ctx.now(),
        )
        return UserInfo.of(user)


def find_user(ctx: ServiceContext, name: str) -> UserInfo:
    with ctx.transaction() as session:
        return UserInfo.of(user_named(session, name))


def _active_admins(session: Session) -> int:
    count = session.scalar(
        select(func.count(User.id)).where(User.role == Role.ADMIN, User.suspended.is_(False))
    )
    return int(count or 0)
