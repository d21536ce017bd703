"""The two commands of play over a table's socket: ``act`` and ``continue``.

A player at a table holds its socket anyway; sending an action there instead of an
HTTP request spares the server a keep-alive connection (28 KB) and, per command, the
HTTP parsing, routing, dependencies and validation (about 1.2 ms of CPU per command
under load, 5.3 ms against 4.1; docs/benchmarks.md). The semantics are the HTTP
routes' (``POST /api/games/{id}/actions`` and ``/continue``,
``cardroom.web.routes.games``), to the status, code and sentence of a refusal:

- the message is ``ActionIn`` or ``CommandIn`` with a ``type`` and a ``ref``
  (``WsActIn``, ``WsContinueIn``); a message of the wrong shape is a 422 with the
  sentence the route gives (``cardroom.web.errors.validation_message``), unless the
  session is over (read first, as the route's dependencies read it);
- the command goes to the process's committer (``cardroom.web.committer``), which
  runs the commands queued on every table's sockets in one transaction, each in a
  savepoint: the sender's session is proved there, read from the database and never
  trusted from this process's memory (a signed-out or suspended session is refused
  with the route's 401 or 403, and the socket is then closed as its own check would
  close it: 4401 or 4403), then the command goes down the one road
  (``cardroom.service.game.together``). After the commit the committer announces
  each change to every socket of its table (``Live.announce``) and makes the answer
  from the same committed rows, on its own thread: the database is never touched on
  the event loop;
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
hold more than one place in the committer's queue, however fast it sends. Meanwhile the table's
changes still go out (the socket's pump is a task of its own): the ``events`` of the
command itself may reach the sender before or after its ``result``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlalchemy.exc import OperationalError

from cardroom.service.errors import AccountSuspended, AuthenticationFailed, ServiceError
from cardroom.service.game import commands
from cardroom.service.game.commands import Command
from cardroom.service.game.together import Done, Queued
from cardroom.web import commands as web_commands
from cardroom.web.errors import (
    DATABASE_UNAVAILABLE,
    service_error_status,
    session_refusal,
    validation_message,
)
from cardroom.web.game_answers import result_text
from cardroom.web.live import Live
from cardroom.web.schemas import ErrorCode, ErrorDetail
from cardroom.web.schemas_games import WS_REF_MAX_LENGTH, WsActIn, WsContinueIn, WsRefused

log = logging.getLogger(__name__)

COMMANDS: dict[str, type[WsActIn] | type[WsContinueIn]] = {
    "act": WsActIn,
    "continue": WsContinueIn,
}
# Each command's pydantic validator, called straight: ``model_validate`` is the same
# call with its six keyword arguments, all left as they are, which cost a third of
# the validation of a message of play. The same model, or the same ValidationError.
_VALIDATORS = {kind: model.__pydantic_validator__ for kind, model in COMMANDS.items()}


@dataclass(frozen=True)
class Answer:
    """What to send the client; ``ended``: the session's refusal, when it is over."""

    message: str | WsRefused  # a result: its JSON (``game_answers.result_text``)
    ended: AuthenticationFailed | AccountSuspended | None = None


def is_command(kind: Any) -> bool:
    return isinstance(kind, str) and kind in COMMANDS


async def run_command(live: Live, token: str, game_id: int, data: dict[str, Any]) -> Answer:
    """Answer one command message (``data["type"]`` is ``act`` or ``continue``), in
    the route's order: the session, then the message, then the command. (One
    coroutine: it is awaited, and woken with the answer, once per command.)"""
    ref = _ref_of(data)
    try:
        try:
            sent: WsActIn | WsContinueIn = _VALIDATORS[data["type"]].validate_python(data)
        except ValidationError as invalid:
            return await _invalid(live, token, ref, invalid)
        queued = Queued(game_id, token, _command_of(sent), sent.version, sent.idempotency_key)

        def finish(done: Done) -> Answer:
            """On the committer's thread, after the commit: announce, then answer."""
            refused = done.refused
            if isinstance(refused, AuthenticationFailed | AccountSuspended):
                return Answer(_refusal(sent.ref, refused), ended=refused)
            if refused is not None:
                return Answer(_refusal(sent.ref, refused))
            assert done.result is not None and done.user is not None
            answered = web_commands.answer_events(live, done.result, done.user.id)
            return Answer(result_text(sent.ref, done.result, answered.events, answered.views))

        return await live.committer.run(queued, finish)
    except OperationalError as gone:
        log.error("database unavailable: %s", gone)
        return Answer(_refused(ref, 503, ErrorCode.UNAVAILABLE, DATABASE_UNAVAILABLE))


async def _invalid(live: Live, token: str, ref: str | None, invalid: ValidationError) -> Answer:
    """A message of the wrong shape: the session first, as the route's dependencies
    prove it before the body is read (a signed-out sender of a malformed message
    hears that they are out), then the route's 422."""
    ended = await session_refusal(live.ctx, token)
    if ended is not None:
        return Answer(_refusal(ref, ended), ended=ended)
    # The route's sentence: its locations start with "body", ours with "message";
    # validation_message drops that first part.
    errors = [{**e, "loc": ("message", *e["loc"])} for e in invalid.errors()]
    return Answer(_refused(ref, 422, ErrorCode.INVALID_INPUT, validation_message(errors)))


def _command_of(sent: WsActIn | WsContinueIn) -> Callable[[int], Command]:
    """The command, once the batch has proved whose session sent it."""
    if isinstance(sent, WsActIn):
        return lambda user_id: commands.act(user_id, sent.kind, sent.amount)
    return commands.press_continue


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
