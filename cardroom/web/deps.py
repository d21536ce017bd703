"""Request dependencies, as ``Annotated`` types a route names in its signature:
``ContextDep`` (the service context), ``CurrentUser`` and ``AdminUser``.

How a request proves who it is:

- **Bearer**: ``Authorization: Bearer <token>``, for bots, scripts and load tests. A
  cross-site page cannot make a browser send this header without a CORS preflight,
  which the room never grants, so bearer requests need no CSRF token.
- **Cookie**: the ``cardroom_session`` cookie that sign-in sets (HttpOnly,
  SameSite=Lax, Secure over HTTPS), for the browser UI. A browser attaches it to any
  request to the room, so a cookie-authenticated write (POST, PUT, PATCH, DELETE)
  must also carry the ``X-CSRF-Token`` header: the double-submit token that sign-in
  puts in the page-readable ``cardroom_csrf`` cookie. A page on another site can
  neither read that cookie nor set the header.

The CSRF token is an HMAC of the session token, so it is bound to one session (a
token planted from a sibling subdomain does not fit the victim's session), needs no
storage, and works the same on every server process. When a request carries both, the
bearer token wins and cookies are ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Path, Request, Response
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from cardroom.config import ConfigError
from cardroom.service import accounts
from cardroom.service.context import ServiceContext
from cardroom.service.directory import user_by_id
from cardroom.service.errors import AuthenticationFailed, Forbidden
from cardroom.service.users import UserInfo
from cardroom.web.errors import COMMAND_TOKEN, CsrfTokenInvalid, NotJson
from cardroom.web.origins import same_origin
from cardroom.web.proxies import warn_if_untrusted_proxy
from cardroom.web.schemas import (
    CSRF_COOKIE,
    CSRF_HEADER,
    FORWARDED_FOR_HEADER,
    FORWARDED_PROTO_HEADER,
    MAX_ROW_ID,
    SESSION_COOKIE,
)

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

NOT_SIGNED_IN = "Please sign in first."
ONLY_ADMINS = "Only an admin can do that."  # the service layer's sentence too

# -- settings -------------------------------------------------------------------------------

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


SQLITE_WORKER_THREADS = 8
POSTGRESQL_WORKER_THREADS = 40  # anyio's own default
MAX_WORKER_THREADS = 256


@dataclass(frozen=True)
class WebSettings:
    """Settings only the HTTP layer reads.

    ``trust_proxy``: honour ``X-Forwarded-Proto`` from the reverse proxy in front of
    the room, to know that the browser's connection was HTTPS (and so mark cookies
    Secure). Off by default: without a proxy that overwrites the header, any client
    could send it. Set ``CARDROOM_TRUST_PROXY=1`` or ``cardroom serve --trust-proxy``.

    ``worker_threads``: how many requests at once may run their database work on
    the thread pool (``CARDROOM_WORKER_THREADS``; by default 8 on SQLite, 40 on
    PostgreSQL). Python runs one thread at a time and SQLite one writer, so on SQLite
    more threads only queue inside the process, each with its own stack and
    allocator arena: with 40 the busy load test had the same throughput, a slower p99
    and 0.5 MB more per table. On PostgreSQL a thread spends much of a command
    waiting for the server's answers, and two processes with 40 threads each made
    114 commands/s where 8 made 86 (docs/benchmarks.md, "Load test"). Password
    hashing has threads of its own (``cardroom.web.threads``).
    """

    trust_proxy: bool = False
    worker_threads: int | None = None  # None: by the database (above)
    # Writes a second per session and per address (cardroom.web.write_limits); 0: no
    # limit, as an app built by hand (tests) has. A server reads them from the
    # environment, with limits on by default.
    writes_per_second: int = 0
    writes_per_address_per_second: int = 0

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> WebSettings:
        env = os.environ if environ is None else environ
        text = env.get("CARDROOM_TRUST_PROXY", "").strip().lower()
        if text not in _TRUE | _FALSE:
            raise ConfigError(f"CARDROOM_TRUST_PROXY must be 1 or 0, not {text!r}.")
        threads = env.get("CARDROOM_WORKER_THREADS", "").strip()
        if threads and (not threads.isdigit() or not 1 <= int(threads) <= MAX_WORKER_THREADS):
            raise ConfigError(
                f"CARDROOM_WORKER_THREADS must be a whole number from 1 to "
                f"{MAX_WORKER_THREADS}, not {threads!r}."
            )
        return cls(
            trust_proxy=text in _TRUE,
            worker_threads=int(threads) if threads else None,
            writes_per_second=_rate(env, "CARDROOM_WRITES_PER_SECOND", WRITES_PER_SECOND),
            writes_per_address_per_second=_rate(
                env, "CARDROOM_WRITES_PER_ADDRESS_PER_SECOND", WRITES_PER_ADDRESS_PER_SECOND
            ),
        )


WRITES_PER_SECOND = 20  # a player acts a few times a minute; a busy bot a few a second
WRITES_PER_ADDRESS_PER_SECOND = 200  # a shared address: an office, a phone network


def _rate(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) > 100_000:
        raise ConfigError(f"{name} must be a whole number from 0 (no limit), not {text!r}.")
    return int(text)


# -- the room -------------------------------------------------------------------------------

# Dependencies that do no I/O are ``async def``: FastAPI runs a plain ``def``
# dependency in the thread pool, a hop that costs more than the work (a request to
# act went through seven). Only those that touch the database stay ``def``.


async def get_context(request: Request) -> ServiceContext:
    ctx = request.app.state.ctx
    assert isinstance(ctx, ServiceContext), "create_app's lifespan sets the context"
    return ctx


async def get_web_settings(request: Request) -> WebSettings:
    web = request.app.state.web
    assert isinstance(web, WebSettings)
    return web


ContextDep = Annotated[ServiceContext, Depends(get_context)]
WebSettingsDep = Annotated[WebSettings, Depends(get_web_settings)]


async def require_json_body(request: Request) -> None:
    """A body must be declared JSON. Browsers let a page on another site send a form
    (or text/plain) anywhere without asking; refusing those keeps a cross-site form
    from signing a visitor into someone else's account (login CSRF), since sign-in has
    no session yet to check a CSRF token against."""
    if request.method not in UNSAFE_METHODS:
        return
    has_body = request.headers.get("content-length", "0") != "0" or (
        "transfer-encoding" in request.headers
    )
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if has_body and media_type != "application/json":
        raise NotJson("Send the body as JSON, with Content-Type: application/json.")


# -- who is asking ----------------------------------------------------------------------------

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="The `token` from sign-in. Needs no CSRF token.",
)
_session_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    scheme_name="session_cookie",
    description=f"Set by sign-in. Writes also need the `{CSRF_HEADER}` header.",
)


@dataclass(frozen=True)
class Credentials:
    token: str
    by_cookie: bool


def csrf_token_for(session_token: str) -> str:
    """The CSRF token of a session: derived, so nothing is stored, and keyed by the
    session token, so it cannot be computed without it. A distinct derivation from
    the stored token hash, so a copy of the database does not reveal it."""
    return hmac.new(session_token.encode(), b"cardroom csrf token", hashlib.sha256).hexdigest()


async def credentials(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_session_cookie)],
    web: WebSettingsDep,
) -> Credentials | None:
    """The session token the request carries, if any; refuses a cookie-authenticated
    write without the right CSRF token, or from a page of another origin."""
    if bearer is not None:
        return Credentials(token=bearer.credentials, by_cookie=False)
    if "authorization" in request.headers:
        raise AuthenticationFailed("Send the session token as: Authorization: Bearer <token>.")
    if not cookie:
        return None
    if request.method in UNSAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), csrf_token_for(cookie).encode()):
            raise CsrfTokenInvalid(
                f"This request needs the {CSRF_HEADER} header with the value of the "
                f"{CSRF_COOKIE} cookie; reload the page and try again."
            )
        _check_origin(request, web)
    return Credentials(token=cookie, by_cookie=True)


def _check_origin(request: Request, web: WebSettings) -> None:
    """A cookie-signed write must come from the room's own pages: the ``Origin`` the
    browser sends (or, without one, the ``Referer``) must name the room, scheme
    included. The CSRF token already proves it; this is the second lock OWASP
    recommends, for a token leaked or a sibling subdomain's cookie. A request that
    names neither (not a browser's fetch) rests on the token alone."""
    claimed = request.headers.get("origin") or request.headers.get("referer")
    if claimed is None:
        return
    if not same_origin(claimed, https=came_over_https(request, web), host=_host(request)):
        raise CsrfTokenInvalid(
            "This request came from a page that is not the room's; open the room's own "
            "page and try again."
        )


def _host(request: Request) -> str:
    return request.headers.get("host", "")


MaybeCredentials = Annotated[Credentials | None, Depends(credentials)]


@dataclass(frozen=True)
class SignedInSession:
    token: str
    user: UserInfo


async def current_session(
    request: Request, ctx: ContextDep, creds: MaybeCredentials
) -> SignedInSession:
    """The request's session. For a read, a session this process proved a few
    seconds ago is trusted without a read or a thread
    (``cardroom.service.recent_sessions``); any other is read from the database on
    the thread pool. A write always reads it: this process's memory cannot know of a
    sign-out or a suspension another process committed a moment ago, and a write
    must not go through on a session that is over (issue 17, finding 6)."""
    if creds is None:
        raise AuthenticationFailed(NOT_SIGNED_IN)
    if request.method in UNSAFE_METHODS:
        proven = await run_in_threadpool(accounts.user_for_token, ctx, creds.token)
        return SignedInSession(token=creds.token, user=proven)
    user = accounts.recently_proven(ctx, creds.token)
    if user is None:
        user = await run_in_threadpool(accounts.user_for_recent_token, ctx, creds.token)
    return SignedInSession(token=creds.token, user=user)


CurrentSession = Annotated[SignedInSession, Depends(current_session)]


async def current_user(session: CurrentSession) -> UserInfo:
    return session.user


CurrentUser = Annotated[UserInfo, Depends(current_user)]


async def command_sender(request: Request, creds: MaybeCredentials) -> str:
    """The session token of a player's command, not yet proved: the command goes to
    the process's committer, which proves the session inside the batch's transaction
    (``cardroom.service.game.together``), as a write must be proved, in one statement
    for the whole batch instead of a read transaction of its own on the thread pool.
    The CSRF token and the origin are checked here as for any write."""
    if creds is None:
        raise AuthenticationFailed(NOT_SIGNED_IN)
    # For the validation handler to prove before it answers a malformed body.
    setattr(request.state, COMMAND_TOKEN, creds.token)
    return creds.token


CommandSender = Annotated[str, Depends(command_sender)]


async def admin_user(user: CurrentUser) -> UserInfo:
    """An early, uniform refusal for every admin route. The use cases check the role
    again inside their own transaction, which is what actually guards the data."""
    if not user.is_admin:
        raise Forbidden(ONLY_ADMINS)
    return user


AdminUser = Annotated[UserInfo, Depends(admin_user)]


# -- cookies ----------------------------------------------------------------------------------


def came_over_https(request: Request, web: WebSettings) -> bool:
    if web.trust_proxy:
        forwarded = request.headers.get(FORWARDED_PROTO_HEADER)
        if forwarded:
            # "https, http": the first proxy's view, nearest the browser.
            return forwarded.split(",")[0].strip().lower() == "https"
    return request.url.scheme == "https"


def client_address(request: Request, web: WebSettings) -> str | None:
    """The address the request came from, for the sign-in throttle. Behind a trusted
    proxy, the last address of ``X-Forwarded-For``: the one the proxy itself saw (the
    ones before it are the client's word)."""
    if web.trust_proxy:
        forwarded = request.headers.get(FORWARDED_FOR_HEADER, "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    else:
        warn_if_untrusted_proxy(request)
    return request.client.host if request.client is not None else None


def set_session_cookies(
    response: Response,
    request: Request,
    web: WebSettings,
    *,
    token: str,
    expires_at: datetime,
    now: datetime,
) -> None:
    # Max-Age rather than Expires: relative to now, so a client whose clock is wrong
    # (or a test's fake clock) still keeps the cookie for the session's lifetime.
    max_age = max(0, int((expires_at - now).total_seconds()))
    secure = came_over_https(request, web)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=max_age,
        path="/",
        secure=secure,
        httponly=True,
        samesite="lax",
    )
    response.set_cookie(
        CSRF_COOKIE,
        csrf_token_for(token),
        max_age=max_age,
        path="/",
        secure=secure,
        httponly=False,  # the page reads it to echo it in the header
        samesite="lax",
    )


def clear_session_cookies(response: Response, request: Request, web: WebSettings) -> None:
    secure = came_over_https(request, web)
    for name, httponly in ((SESSION_COOKIE, True), (CSRF_COOKIE, False)):
        response.delete_cookie(name, path="/", secure=secure, httponly=httponly, samesite="lax")


# -- the user an admin acts on --------------------------------------------------------------------


UserIdPath = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The user's id.")]


def target_user(ctx: ContextDep, admin: AdminUser, user_id: UserIdPath) -> UserInfo:
    """The user numbered ``{user_id}`` in an admin route's path."""
    return user_by_id(ctx, admin.id, user_id)


TargetUser = Annotated[UserInfo, Depends(target_user)]
