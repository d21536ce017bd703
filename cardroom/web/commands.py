"""One answer to a game command, for HTTP and the socket alike: run it down the
service's pipeline, announce the committed change to this process's sockets and the
others (``Live.announce``), and answer with the command's events as the sender may
see them.

A command route is then one line: ``return await commit_and_answer(live, token,
game_id, commands.rebuy, version=body.version, key=body.idempotency_key)``,
committed together with the commands queued beside it, as the socket's are
(``socket_commands`` writes the same events as its ``result`` message). A new game,
which has no table yet to queue on, runs its own transaction and is answered by
``answer``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Response, status

from cardroom.service import game_views
from cardroom.service.change_views import ChangeViews
from cardroom.service.game.commands import Command
from cardroom.service.game.together import Done, Queued
from cardroom.service.game_records import PlayResult
from cardroom.service.game_views import ViewedEvent
from cardroom.web.game_answers import command_json
from cardroom.web.live import Live


@dataclass(frozen=True)
class AnswerEvents:
    """A command's events as its sender sees them, and the change's views that made
    them when the sockets here got the change (their JSON is then written once for
    the answer and the sender's sockets: ``game_answers.result_text``)."""

    events: tuple[ViewedEvent, ...]
    views: ChangeViews | None


def answer_events(live: Live, result: PlayResult, viewer_id: int) -> AnswerEvents:
    """Announce a committed command, then give its events as ``viewer_id`` sees them:
    the very views the sockets here are sent when they got the change (made during
    the announcement, before the sockets may let them go), else filtered here, the
    seats of their hands read."""
    views = live.announce(result, answering=viewer_id)
    if views is not None:
        return AnswerEvents(views.events(viewer_id, views.change.after_seq), views)
    return AnswerEvents(game_views.result_events(live.ctx, result, viewer_id), None)


def answer(
    live: Live, result: PlayResult, viewer_id: int, status_code: int = status.HTTP_200_OK
) -> Response:
    """The HTTP answer to a committed command: ``CommandOut`` (each route says so for
    the API's description), written straight to JSON: returned as a model, FastAPI
    would copy it, check it against the model and write it out again."""
    answered = answer_events(live, result, viewer_id)
    body = command_json(result, answered.events, answered.views)
    return Response(body, status_code, media_type="application/json")


async def commit_and_answer(
    live: Live,
    token: str,
    game_id: int,
    command: Callable[[int], Command],
    *,
    version: int | None = None,
    key: str | None = None,
    status_code: int = status.HTTP_200_OK,
) -> Response:
    """A command on a table over HTTP, on the process's committer as the sockets' are
    (``cardroom.web.committer``): queued with the session token the request carries,
    proved inside the batch's transaction (``together``), committed with the commands
    queued beside it, then announced and answered on the committer's thread from the
    batch's own results. ``command`` is built once the session's user is known. A
    refusal (the session's or the room's rules') is raised here, for the route's
    error handlers to answer."""
    queued = Queued(game_id, token, command, version, key)

    def finish(done: Done) -> Response:
        if done.refused is not None:
            raise done.refused
        assert done.result is not None and done.user is not None
        return answer(live, done.result, done.user.id, status_code)

    return await live.committer.run(queued, finish)
