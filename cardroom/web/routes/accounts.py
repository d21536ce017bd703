"""Joining and signing in: ``/api/accounts/*`` and ``GET /api/me``.

The routes that hash a password run it on the hashing threads (``cardroom.web.
threads``), not on the pool the tables' commands use."""

from __future__ import annotations

from functools import partial

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from cardroom.service import accounts
from cardroom.service.devices import DEVICE_LIFETIME
from cardroom.web import session_ends
from cardroom.web.deps import (
    ContextDep,
    CurrentSession,
    CurrentUser,
    MaybeCredentials,
    WebSettingsDep,
    came_over_https,
    clear_session_cookies,
    client_address,
    csrf_token_for,
    set_session_cookies,
)
from cardroom.web.errors import documented
from cardroom.web.live import LiveDep
from cardroom.web.schemas import (
    DEVICE_COOKIE,
    PasswordChangeIn,
    SignedInOut,
    SignInIn,
    SignUpIn,
    UserOut,
)
from cardroom.web.threads import hashing

router = APIRouter(prefix="/api", tags=["accounts"])


@router.post(
    "/accounts/sign-up", status_code=201, responses=documented(403, 409, 413, 415, 422, 429)
)
async def sign_up(
    body: SignUpIn, ctx: ContextDep, web: WebSettingsDep, request: Request
) -> UserOut:
    """A new player with the starting balance. Sign in next to get a session. The
    room may need an `invitation` code or make no accounts here (403), and limits the
    accounts one address makes (429, with `Retry-After`)."""
    made = partial(
        accounts.sign_up, address=client_address(request, web), invitation=body.invitation
    )
    return UserOut.of(await hashing(request, made, ctx, body.name, body.password))


@router.post("/accounts/sign-in", responses=documented(401, 403, 413, 415, 422, 429))
async def sign_in(
    body: SignInIn,
    ctx: ContextDep,
    web: WebSettingsDep,
    request: Request,
    response: Response,
) -> SignedInOut:
    """A new session: set as cookies for a browser, and returned as a bearer token for
    API clients. Attempts are limited per name and per client address (429, with
    `Retry-After`); a browser that signed in to the name before (its device cookie)
    is limited on its own instead, so a locked name does not lock out its owner."""
    signed_in = await hashing(
        request,
        partial(
            accounts.sign_in,
            address=client_address(request, web),
            device_cookie=request.cookies.get(DEVICE_COOKIE),
        ),
        ctx,
        body.name,
        body.password,
    )
    set_session_cookies(
        response,
        request,
        web,
        token=signed_in.token,
        expires_at=signed_in.expires_at,
        now=ctx.now(),
    )
    response.set_cookie(
        DEVICE_COOKIE,
        signed_in.device_cookie,
        max_age=int(DEVICE_LIFETIME.total_seconds()),
        path="/api/accounts",  # sign-in is the only reader
        secure=came_over_https(request, web),
        httponly=True,
        samesite="lax",
    )
    return SignedInOut(
        token=signed_in.token,
        expires_at=signed_in.expires_at,
        csrf_token=csrf_token_for(signed_in.token),
        user=UserOut.of(signed_in.user),
    )


@router.post("/accounts/sign-out", status_code=204, responses=documented(401, 403))
def sign_out(
    ctx: ContextDep,
    live: LiveDep,
    creds: MaybeCredentials,
    web: WebSettingsDep,
    request: Request,
    response: Response,
) -> None:
    """End this session and clear its cookies; its sockets close, in every server
    process. Signing out of a session that is already over (or of none) does nothing
    and succeeds."""
    if creds is not None:
        user_id = accounts.sign_out(ctx, creds.token)
        if user_id is not None:
            live.end_sessions(user_id, session_ends.signed_out(creds.token))
    clear_session_cookies(response, request, web)


@router.post("/accounts/password", status_code=204, responses=documented(401, 403, 413, 415, 422))
async def change_password(
    body: PasswordChangeIn,
    ctx: ContextDep,
    live: LiveDep,
    session: CurrentSession,
    request: Request,
) -> None:
    """Set a new password, proving the current one. Every other session of the user
    ends, and their sockets close; this one stays."""
    await hashing(
        request,
        accounts.change_password,
        ctx,
        session.token,
        body.current_password,
        body.new_password,
    )
    ended = session_ends.password_changed(session.token)
    await run_in_threadpool(live.end_sessions, session.user.id, ended)


@router.get("/me", responses=documented(401, 403))
def me(user: CurrentUser) -> UserOut:
    """Who this session belongs to. Read from the session's cache when asked again
    within a moment: every page asks it first, and it costs no statement then."""
    return UserOut.of(user)
