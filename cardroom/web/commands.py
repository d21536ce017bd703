"""One answer to a game command, for HTTP and the socket alike: run it down the
service's pipeline, announce the committed change to this process's sockets and the
others (``Live.announce``), and answer with the command's events as the sender may
see them.

A route is then one line: ``return run_and_answer(live, user.id, game_id,
commands.rebuy(user.id), body)``; the socket writes the same events as its
``result`` message (``socket_commands``).
"""

from __future__ import annotations

from typing import Protocol

from fastapi import Response, status

from cardroom.service import game_views
from cardroom.service.game import pipeline
from cardroom.service.game.commands import Command
from cardroom.service.game_records import PlayResult
from cardroom.service.game_views import ViewedEvent
from cardroom.web.game_answers import command_json
from cardroom.web.live import Live


def run(
    live: Live,
    user_id: int,
    game_id: int,
    command: Command,
    *,
    version: int | None = None,
    key: str | None = None,
) -> tuple[PlayResult, tuple[ViewedEvent, ...]]:
    """Run ``command``, tell everyone, and return the result with its events as
    ``user_id`` may see them."""
    result = pipeline.run(live.ctx, game_id, command, version=version, key=key)
    return result, answer_events(live, result, user_id)


def answer_events(live: Live, result: PlayResult, viewer_id: int) -> tuple[ViewedEvent, ...]:
    """Announce a committed command, then give its events as ``viewer_id`` sees them,
    with who sat where in their hands taken from the change the sockets here got
    when there is one (no read). Filtered apart from the sockets' shared views: an
    answer made after the sockets let those go would keep them alive."""
    views = live.announce(result)
    seats = None if views is None else views.change.hand_seats
    return game_views.result_events(live.ctx, result, viewer_id, seats)


def answer(
    live: Live, result: PlayResult, viewer_id: int, status_code: int = status.HTTP_200_OK
) -> Response:
    """The HTTP answer to a committed command: ``CommandOut`` (each route says so for
    the API's description), written straight to JSON: returned as a model, FastAPI
    would copy it, check it against the model and write it out again."""
    events = answer_events(live, result, viewer_id)
    return Response(command_json(result, events), status_code, media_type="application/json")


class Sent(Protocol):
    """What a command's body says besides the command: the version the sender saw and
    an idempotency key (``CommandIn``, ``ActionIn``, the socket's messages)."""

    @property
    def version(self) -> int | None: ...

    @property
    def idempotency_key(self) -> str | None: ...


def run_and_answer(
    live: Live, user_id: int, game_id: int, command: Command, body: Sent
) -> Response:
    """``run``, answered over HTTP."""
    result = pipeline.run(
        live.ctx, game_id, command, version=body.version, key=body.idempotency_key
    )
    return answer(live, result, user_id)
