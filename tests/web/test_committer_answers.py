"""The committer hands each command's outcome to the event loop that waits for it in
one callback (``committer._Answer``), as ``asyncio.wrap_future`` did: the value
``finish`` made, or what it raised; a sender who has gone is skipped, the command
committed and announced all the same; and a loop that has closed meanwhile does not
stop the committer."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from cardroom.service.game.together import Done, Queued
from cardroom.web import committer as committer_module
from cardroom.web.committer import Committer


class _Held:
    """``run_together`` for the tests: each command done, once the gate opens."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.ran: list[int] = []

    def __call__(self, _ctx: Any, queued: Sequence[Queued], _kept: Any) -> list[Done]:
        self.gate.wait(10)
        self.ran.extend(q.game_id for q in queued)
        return [Done(None) for _ in queued]


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> _Held:
    held = _Held()
    monkeypatch.setattr(committer_module, "run_together", held)
    return held


def _queued(game_id: int) -> Queued:
    return Queued(game_id, "token", lambda _user: None)  # type: ignore[arg-type,return-value]


def _on_a_loop(scenario: Callable[[], Any]) -> Any:
    # In a thread of its own: an earlier test may leave a loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, scenario()).result(timeout=30)


def test_the_answer_is_what_finish_made_or_raised(held: _Held) -> None:
    committer = Committer(lambda: None)  # type: ignore[arg-type,return-value]

    async def scenario() -> tuple[Any, str]:
        answer = await committer.run(_queued(1), lambda done: ("answered", done.user))

        def fails(_done: Done) -> None:
            raise LookupError("no such seat")

        try:
            await committer.run(_queued(2), fails)
        except LookupError as raised:
            return answer, str(raised)
        return answer, "not raised"

    try:
        assert _on_a_loop(scenario) == (("answered", None), "no such seat")
    finally:
        committer.stop()
    assert held.ran == [1, 2]


def test_a_sender_who_has_gone_is_skipped_and_the_next_answered(held: _Held) -> None:
    committer = Committer(lambda: None)  # type: ignore[arg-type,return-value]
    finished: list[int] = []

    def finish(game_id: int) -> Callable[[Done], int]:
        def made(_done: Done) -> int:
            finished.append(game_id)  # the change is announced even for one gone
            return game_id

        return made

    async def scenario() -> int:
        held.gate.clear()
        gone = asyncio.ensure_future(committer.run(_queued(1), finish(1)))
        await asyncio.sleep(0.05)
        gone.cancel()
        held.gate.set()
        with pytest.raises(asyncio.CancelledError):
            await gone
        return await committer.run(_queued(2), finish(2))

    try:
        assert _on_a_loop(scenario) == 2
    finally:
        committer.stop()
    assert finished == [1, 2]


def test_an_answer_for_a_closed_loop_does_not_stop_the_committer(held: _Held) -> None:
    committer = Committer(lambda: None)  # type: ignore[arg-type,return-value]

    async def left_waiting() -> None:
        held.gate.clear()
        waiting = asyncio.ensure_future(committer.run(_queued(1), lambda _done: 1))
        await asyncio.sleep(0.05)
        waiting.cancel()  # the loop ends with the command still in the batch

    async def next_one() -> int:  # bounded: a committer that died answers nobody
        return await asyncio.wait_for(committer.run(_queued(2), lambda _done: 2), 10)

    try:
        _on_a_loop(left_waiting)
        held.gate.set()  # the first batch is answered to a closed loop
        assert _on_a_loop(next_one) == 2
    finally:
        committer.stop()
    assert held.ran == [1, 2]
