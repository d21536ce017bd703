"""Closing the sockets of sessions that ended, in every server process.

A signed-out or suspended session's table socket kept receiving for up to a minute
(its own recheck), snapshots with the player's hole cards included, and another
process trusted the session it had proved a moment before (issue 17, finding 6). So
what ends sessions (sign-out: one; a password change: all but the one that changed
it; a suspension: all) publishes a ``session_ended`` message to the user through the
fan-out (``cardroom.web.fanout``: this process, and on PostgreSQL every process, by
``NOTIFY``). Each process that hears it forgets the user's recently proven sessions
and closes the matching sockets at once (``Live.push_user``). The message carries
session digests (``open_sockets.session_key``), never a token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.service.accounts import SIGN_IN_AGAIN
from cardroom.service.users import SUSPENDED_SENTENCE
from cardroom.web.open_sockets import session_key

SESSION_ENDED = "session_ended"
CLOSE_SIGNED_OUT = 4401
CLOSE_SUSPENDED = 4403


def signed_out(token: str) -> dict[str, Any]:
    return _message(session=session_key(token), keep=None, code=CLOSE_SIGNED_OUT)


def password_changed(kept_token: str) -> dict[str, Any]:
    return _message(session=None, keep=session_key(kept_token), code=CLOSE_SIGNED_OUT)


def suspended() -> dict[str, Any]:
    return _message(session=None, keep=None, code=CLOSE_SUSPENDED, sentence=SUSPENDED_SENTENCE)


def _message(
    *, session: str | None, keep: str | None, code: int, sentence: str = SIGN_IN_AGAIN
) -> dict[str, Any]:
    return {
        "type": SESSION_ENDED,
        "session": session,
        "keep": keep,
        "code": code,
        "message": sentence,
    }


def is_session_end(message: Mapping[str, Any]) -> bool:
    return message.get("type") == SESSION_ENDED


def close_of(message: Mapping[str, Any]) -> tuple[int, str]:
    """The close code and sentence a message asks for (a bad one: sign in again)."""
    code, sentence = message.get("code"), message.get("message")
    if code not in (CLOSE_SIGNED_OUT, CLOSE_SUSPENDED) or not isinstance(sentence, str):
        return CLOSE_SIGNED_OUT, SIGN_IN_AGAIN
    return int(code), sentence[:200]


def sessions_of(message: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(the session to close, or None for all; the session to keep, if any)."""
    session, keep = message.get("session"), message.get("keep")
    return (
        session if isinstance(session, str) else None,
        keep if isinstance(keep, str) else None,
    )
