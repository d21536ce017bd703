"""A batch's answers reach their event loop in one callback (``committer._Answers``):
each sender of the batch still gets their own answer, in the batch's order, and one
who has gone (their future cancelled) is skipped without the others' being lost."""

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


class _Gated:
    """``run_together`` for the test: each command done once the gate opens, the
    batches as the committer made them."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.batches: list[list[int]] = []

    def __call__(self, _ctx: Any, queued: Sequence[Queued], _kept: Any) -> list[Done]:
        self.gate.wait(10)
        self.batches.append([q.game_id for q in queued])
        return [Done(None) for _ in queued]


def _queued(game_id: int) -> Queued:
    return Queued(game_id, "token", lambda _user: None)  # type: ignore[arg-type,return-value]


def test_one_callback_answers_the_batch_and_skips_a_sender_gone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gated = _Gated()
    monkeypatch.setattr(committer_module, "run_together", gated)
    committer = Committer(lambda: None)  # type: ignore[arg-type,return-value]
    finished: list[int] = []
    callbacks: list[int] = []

    def finish(game_id: int) -> Callable[[Done], int]:
        def made(_done: Done) -> int:
            finished.append(game_id)  # announced even for the sender who has gone
            if game_id == 4:
                raise LookupError("no such seat")
            return game_id

        return made

    async def scenario() -> list[Any]:
        loop = asyncio.get_running_loop()
        threadsafe = loop.call_soon_threadsafe

        def counted(callback: Any, *args: Any) -> Any:
            if callback is committer_module._settle_all_on_loop:
                callbacks.append(len(args[0]))
            return threadsafe(callback, *args)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign,assignment]
        first = committer.run(_queued(1), finish(1))  # its batch waits at the gate
        await asyncio.sleep(0.05)
        waiting = [asyncio.ensure_future(committer.run(_queued(g), finish(g))) for g in (2, 3, 4)]
        await asyncio.sleep(0)
        waiting[1].cancel()  # game 3's sender has gone
        gated.gate.set()
        answers: list[Any] = [await first]
        for future in waiting:
            try:
                answers.append(await future)
            except (asyncio.CancelledError, LookupError) as outcome:
                answers.append(type(outcome).__name__)
        return answers

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        try:
            answers = pool.submit(asyncio.run, scenario()).result(timeout=30)
        finally:
            committer.stop()
    assert gated.batches == [[1], [2, 3, 4]]
    assert answers == [1, 2, "CancelledError", "LookupError"]
    assert finished == [1, 2, 3, 4]
    assert callbacks == [1, 3]  # one callback a batch, each with all its answers
