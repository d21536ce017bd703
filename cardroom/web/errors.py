"""Refusals to HTTP: every error leaves as ``{"error": {"code": ..., "message": ...}}``
with one sentence a player can read, and never as a traceback.

The service layer's refusals map by class (the most specific class that matches):

| refusal | status | code |
|---|---|---|
| ``InvalidInput`` (and a body or parameter of the wrong shape) | 422 | ``invalid_input`` |
| ``AuthenticationFailed`` | 401 | ``not_signed_in`` |
| ``AccountSuspended`` | 403 | ``account_suspended`` |
| ``Forbidden`` | 403 | ``forbidden`` |
| ``NotFound`` | 404 | ``not_found`` |
| ``Conflict`` | 409 | ``conflict`` |
| ``InsufficientBalance`` | 409 | ``insufficient_balance`` |
| ``TooManyAttempts`` | 429 | ``too_many_attempts`` |
| ``RecordUnreadable`` | 500 | ``record_unreadable`` |

``InsufficientBalance`` is a 409, not a 422: the request is well formed and would be
accepted against another balance; it clashes with the state of the ledger, like a
taken name. ``InvalidInput`` is a 422 like a body that fails validation, so a client
sees one status for "this value can never work".

Request validation messages are written here from the error's type and field name;
the offending input is never echoed back (it may be a password, or text that cannot
even be encoded as UTF-8).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardroom.service import accounts
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    AccountSuspended,
    AuthenticationFailed,
    Conflict,
    Forbidden,
    InsufficientBalance,
    InvalidInput,
    NotFound,
    RecordUnreadable,
    ServiceError,
    TooManyAttempts,
)
from cardroom.web.schemas import ErrorCode, ErrorDetail, ErrorOut

log = logging.getLogger(__name__)

# Most specific first: AccountSuspended is a Forbidden.
SERVICE_ERRORS: tuple[tuple[type[ServiceError], int, ErrorCode], ...] = (
    (AccountSuspended, 403, ErrorCode.ACCOUNT_SUSPENDED),
    (Forbidden, 403, ErrorCode.FORBIDDEN),
    (AuthenticationFailed, 401, ErrorCode.NOT_SIGNED_IN),
    (NotFound, 404, ErrorCode.NOT_FOUND),
    (InsufficientBalance, 409, ErrorCode.INSUFFICIENT_BALANCE),
    (Conflict, 409, ErrorCode.CONFLICT),
    (InvalidInput, 422, ErrorCode.INVALID_INPUT),
    (TooManyAttempts, 429, ErrorCode.TOO_MANY_ATTEMPTS),
    # The room's own fault, one hand's: answered here, so the connection stays open
    # (an exception that reaches uvicorn closes it after the 500).
    (RecordUnreadable, 500, ErrorCode.RECORD_UNREADABLE),
)

# What each status means in the OpenAPI document.
DESCRIPTIONS = {
    400: "The body could not be read.",
    401: "Not signed in: no session, or one that is unknown, revoked or expired.",
    403: "Signed in, but not allowed: not an admin, a suspended account, or a cookie-"
    "authenticated write without the CSRF token.",
    404: "No such user.",
    409: "Clashes with the room's state: a taken name, a balance that does not cover it.",
    413: "The body is too large.",
    415: "The body is not JSON.",
    422: "A value of the wrong type or shape, an unknown field, or one the room's rules refuse.",
    429: "Too many sign-in attempts; `Retry-After` says how many seconds to wait.",
    500: "The room's own fault; `record_unreadable`: one hand's stored record cannot be read.",
    503: "The database is unreachable or not up to date.",
}


class WebRefusal(Exception):
    """A refusal that belongs to HTTP itself, not to the room's rules."""

    status = 400
    code = ErrorCode.BAD_REQUEST

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class CsrfTokenInvalid(WebRefusal):
    status = 403
    code = ErrorCode.CSRF_TOKEN_INVALID


class NotJson(WebRefusal):
    status = 415
    code = ErrorCode.UNSUPPORTED_MEDIA_TYPE


class Unavailable(WebRefusal):
    status = 503
    code = ErrorCode.UNAVAILABLE


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each status it can refuse with, with the error
    body's schema. 413 and 415 can come from every route that takes a body, and so can
    400 (a body that cannot be read at all: invalid UTF-8, a number of thousands of
    digits), which is added wherever 415 is listed."""
    wanted = set(statuses)
    if 415 in wanted:
        wanted.add(400)
    return {
        status: {"model": ErrorOut, "description": DESCRIPTIONS[status], **HEADERS.get(status, {})}
        for status in sorted(wanted)
    }


# Headers a refusal carries, for the OpenAPI document.
HEADERS: dict[int, dict[str, Any]] = {
    429: {
        "headers": {
            "Retry-After": {
                "description": "Seconds to wait before the next attempt is checked.",
                "schema": {"type": "integer", "minimum": 1},
            }
        }
    }
}


def error_response(
    status: int, code: ErrorCode, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = ErrorOut(error=ErrorDetail(code=code, message=message))
    sent = dict(headers or {})
    if status == 401:
        sent["WWW-Authenticate"] = "Bearer"  # RFC 9110: a 401 names a scheme that works
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=sent)


def service_error_status(error: ServiceError) -> tuple[int, ErrorCode]:
    for kind, status, code in SERVICE_ERRORS:
        if isinstance(error, kind):
            return status, code
    return 400, ErrorCode.BAD_REQUEST  # a refusal class the web layer does not know yet


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(WebRefusal, _web_refusal)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(OperationalError, _database_unavailable)
    app.add_exception_handler(Exception, _unexpected)


async def _service_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    status, code = service_error_status(exc)
    headers = {}
    if isinstance(exc, TooManyAttempts) and exc.retry_after_seconds is not None:
        headers["Retry-After"] = str(exc.retry_after_seconds)  # RFC 9110: seconds
    return error_response(status, code, exc.sentence, headers)


async def _web_refusal(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, WebRefusal)
    return error_response(exc.status, exc.code, exc.sentence)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    refused = await _session_refusal(request)
    if refused is not None:
        return await _service_error(request, refused)
    return error_response(422, ErrorCode.INVALID_INPUT, validation_message(exc.errors()))


# Where a player's command route leaves the token it did not prove
# (``cardroom.web.deps.command_sender``).
COMMAND_TOKEN = "command_token"


async def _session_refusal(request: Request) -> ServiceError | None:
    """A player's command proves its session in the committer's batch, after the
    body is read; a malformed body never gets there. Its session is proved here
    first, so a sender whose session is over hears that (401, 403), as every other
    write's dependencies tell them before the body is looked at."""
    token = getattr(request.state, COMMAND_TOKEN, None)
    if not isinstance(token, str):
        return None
    return await session_refusal(request.app.state.ctx, token)


async def session_refusal(
    ctx: ServiceContext, token: str
) -> AuthenticationFailed | AccountSuspended | None:
    """Why a session can no longer send anything, read on a worker thread; None
    while it can. For a command whose message was refused before its batch, over
    HTTP and over the socket (``cardroom.web.socket_commands``)."""
    try:
        await run_in_threadpool(accounts.user_for_token, ctx, token)
    except (AuthenticationFailed, AccountSuspended) as refused:
        return refused
    return None


_HTTP_CODES = {
    400: (ErrorCode.BAD_REQUEST, "The request body could not be read as JSON."),
    404: (ErrorCode.NOT_FOUND, "There is nothing at this address."),
    405: (ErrorCode.METHOD_NOT_ALLOWED, "This address does not take that method."),
    413: (ErrorCode.BODY_TOO_LARGE, "The request body is too large."),
}


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    # Starlette's own refusals: an unknown address, a wrong method, a body that is not
    # JSON at all or too large.
    assert isinstance(exc, StarletteHTTPException)
    code, message = _HTTP_CODES.get(
        exc.status_code, (ErrorCode.BAD_REQUEST, "The request could not be handled.")
    )
    return error_response(exc.status_code, code, message, headers=exc.headers)


# A request (or a socket's command, cardroom.web.socket_commands) that finds the
# database gone: 503, and the client may try again.
DATABASE_UNAVAILABLE = "The room's database is unavailable; please try again soon."


async def _database_unavailable(_request: Request, exc: Exception) -> JSONResponse:
    log.error("database unavailable: %s", exc)
    return error_response(503, ErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE)


async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
    # Starlette logs the traceback and re-raises after this response is sent; the
    # client gets a sentence, never the traceback.
    return error_response(
        500, ErrorCode.INTERNAL_ERROR, "Something went wrong in the room; please try again."
    )


# -- validation messages --------------------------------------------------------------------


def validation_message(errors: Sequence[Any]) -> str:
    """One or more sentences for pydantic's errors, without echoing any input."""
    sentences: list[str] = []
    for error in errors:
        sentence = _sentence(error)
        if sentence not in sentences:
            sentences.append(sentence)
    return " ".join(sentences[:3]) or "The request is not valid."


def _field(location: Sequence[Any]) -> str:
    # ("body", "amount_cents") -> "amount_cents"; ("query", "limit") -> "limit".
    parts = [str(part) for part in location[1:]]
    return ".".join(parts)


def _sentence(error: Any) -> str:
    kind = str(error.get("type", ""))
    location = tuple(error.get("loc", ()))
    context = error.get("ctx") or {}
    field = _field(location)
    if kind == "json_invalid":
        return "The body is not valid JSON."
    if not field:
        # The body itself: missing, a list, a string...
        return "The body must be a JSON object."
    named = f"'{field}'"
    if kind == "missing":
        return f"{named} is required."
    if kind == "extra_forbidden":
        return f"{named} is not a field of this request."
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        if field.endswith("_cents"):
            return f"{named} must be a whole number of cents, like 1250 for $12.50."
        return f"{named} must be a whole number."
    if kind in {"string_type", "string_unicode"}:
        return f"{named} must be text."
    if kind == "string_too_short":
        return f"{named} must not be empty."
    if kind == "string_too_long":
        return f"{named} can have at most {context.get('max_length')} characters."
    if kind == "string_pattern_mismatch":
        return f"{named} must not contain control characters such as newlines."
    if kind in {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}:
        bound = {
            "greater_than": ("more than", "gt"),
            "greater_than_equal": ("at least", "ge"),
            "less_than": ("less than", "lt"),
            "less_than_equal": ("at most", "le"),
        }[kind]
        return f"{named} must be {bound[0]} {context.get(bound[1])}."
    if kind in {"enum", "literal_error"}:
        return f"{named} must be {context.get('expected')}."
    if kind in {"bool_type", "bool_parsing"}:
        return f"{named} must be true or false."
    message = str(error.get("msg", "is not valid")).rstrip(".")
    return f"{named}: {message}."
