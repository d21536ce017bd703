"""The two commands of play over a table's socket: ``act`` and ``continue``.

A player at a table holds its socket anyway; sending an action there instead of an
HTTP request spares the server a keep-alive connection (28 KB) and, per command, the
HTTP parsing, routing, dependencies and validation (about 1.2 ms of CPU per command
under load, 5.3 ms against 4.1; docs/benchmarks.md). The semantics are the HTTP
routes' (``POST /api/games/{id}/actions`` and ``/continue``,
``cardroom.web.routes.games``), to the status, code and sentence of a refusal:

- the session is proved first, as the route's dependencies prove a write's before
  its body is read (``cardroom.web.deps.current_session``: read from the database
  on a worker thread, never trusted from this process's memory), not only by
  the socket's own check once a minute: a signed-out or suspended session is
  refused with the route's 401 or 403, and the socket is then closed as its own
  check would close it (4401 or 4403);
- the message is ``ActionIn`` or ``CommandIn`` with a ``type`` and a ``ref``
  (``WsActIn``, ``WsContinueIn``); a message of the wrong shape is a 422 with the
  sentence the route gives (``cardroom.web.errors.validation_message``);
- the service call, the announcement to every socket of the table
  (``Live.committed``) and the answer built from the same committed rows run
  together on a worker thread, as the route runs (``routes.games.answer``): the
  database is never touched on the event loop. The thread is one of the event
  loop's default executor (``asyncio.to_thread``: cores + 4, at most 32), as for
  the socket's reads, not one of the HTTP routes' pool (40 on PostgreSQL): with
  players acting at once on PostgreSQL with two processes the socket commands made
  154 actions/s on the former against 89 on the latter, back to back
  (``benchmarks/load.py pg2-busy --via socket``), the many threads only taking
  turns for the GIL and the connection pool;
- the answer is ``{"type": "result", "ref", "result": <CommandOut>}``, or
  ``{"type": "refused", "ref", "status", "error": {"code", "message"}}`` for a
  refusal of the room's rules (``cardroom.web.errors.service_error_status``). A
  database gone away is refused as HTTP refuses it: 503, the same sentence, and the
  socket stays open for the client to try again (nothing was committed). Any other
  unexpected error is left to the socket: logged, then 1011.

The game is the socket's; the player is the socket's signed-in user, so a spectator
gets the refusal the route gives anyone not seated.

**One at a time.** A socket's commands run one after the other, in the order sent:
the socket's reading loop awaits each before it reads the next message. A player's
next action depends on the answer to the last one anyway (its ``version``), so
running them side by side would gain nothing but 409s; and one socket can then never
hold more than one worker thread, however fast it sends. Meanwhile the table's
changes still go out (the socket's pump is a task of its own): the ``events`` of the
command itself may reach the sender before or after its ``result``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import OperationalError

from cardroom.service import accounts
from cardroom.service.errors import AccountSuspended, AuthenticationFailed, ServiceError
from cardroom.service.game import commands
from cardroom.web import commands as web_commands
from cardroom.web.errors import DATABASE_UNAVAILABLE, service_error_status, validation_message
from cardroom.web.game_answers import result_text
from cardroom.web.live import Live
from cardroom.web.schemas import ErrorCode, ErrorDetail
from cardroom.web.schemas_games import WS_REF_MAX_LENGTH, WsActIn, WsContinueIn, WsRefused

log = logging.getLogger(__name__)

COMMANDS: dict[str, type[WsActIn] | type[WsContinueIn]] = {
    "act": WsActIn,
    "continue": WsContinueIn,
}


@dataclass(frozen=True)
class Answer:
    """What to send the client; ``ended``: the session's refusal, when it is over."""

    message: str | WsRefused  # a result: its JSON (``game_answers.result_text``)
    ended: AuthenticationFailed | AccountSuspended | None = None


def is_command(kind: Any) -> bool:
    return isinstance(kind, str) and kind in COMMANDS


async def run_command(live: Live, token: str, game_id: int, data: dict[str, Any]) -> Answer:
    """Answer one command message (``data["type"]`` is ``act`` or ``continue``), in
    the route's order: the session, then the message, then the command."""
    ref = _ref_of(data)
    try:
        return await _answer(live, token, game_id, data, ref)
    except OperationalError as gone:
        log.error("database unavailable: %s", gone)
        return Answer(_refused(ref, 503, ErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE))


async def _answer(
    live: Live, token: str, game_id: int, data: dict[str, Any], ref: str | None
) -> Answer:
    ctx = live.ctx
    try:
        # Read, never trusted from memory: a command is a write, and another process
        # may have ended the session a moment ago (cardroom.web.deps.current_session).
        user = await asyncio.to_thread(accounts.user_for_token, ctx, token)
    except (AuthenticationFailed, AccountSuspended) as refused:
        return Answer(_refusal(ref, refused), ended=refused)
    try:
        command = COMMANDS[data["type"]].model_validate(data)
    except ValidationError as invalid:
        # The route's sentence: its locations start with "body", ours with "message";
        # validation_message drops that first part.
        errors = [{**e, "loc": ("message", *e["loc"])} for e in invalid.errors()]
        return Answer(_refused(ref, 422, ErrorCode.INVALID_INPUT, validation_message(errors)))
    try:
        text = await asyncio.to_thread(_run, live, user.id, game_id, command)
    except ServiceError as refused:
        return Answer(_refusal(command.ref, refused))
    return Answer(text)


def _run(live: Live, user_id: int, game_id: int, sent: WsActIn | WsContinueIn) -> str:
    """On a worker thread: the command run and its events as this player may see
    them, as the HTTP route makes them (``cardroom.web.commands.run``), written as the
    ``result`` message's JSON (``game_answers.result_text``)."""
    if isinstance(sent, WsActIn):
        command = commands.act(user_id, sent.kind, sent.amount)
    else:
        command = commands.press_continue(user_id)
    key = sent.idempotency_key
    result, events = web_commands.run(
        live, user_id, game_id, command, version=sent.version, key=key
    )
    return result_text(sent.ref, result, events)


def _ref_of(data: dict[str, Any]) -> str | None:
    """The client's ``ref`` if it is one, to echo even when the rest is refused."""
    ref = data.get("ref")
    if isinstance(ref, str) and 1 <= len(ref) <= WS_REF_MAX_LENGTH:
        return ref
    return None


def _refusal(ref: str | None, refused: ServiceError) -> WsRefused:
    status, code = service_error_status(refused)
    return _refused(ref, status, code, refused.sentence)


def _refused(ref: str | None, status: int, code: ErrorCode, sentence: str) -> WsRefused:
    return WsRefused(ref=ref, status=status, error=ErrorDetail(code=code, message=sentence))
