"""Holding the committer's batch, to see what queues behind it go in one transaction
(the ``gate`` fixture of tests/web/conftest.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from cardroom.service.game import together
from cardroom.service.game.together import Fire, Queued
from cardroom.web.live import Live
from tests.web.games_kit import Player, detail, to_act


class Gate:
    """Once armed, holds the committer's next batch until released, and counts each
    batch's commands: what queues meanwhile goes in the batch after it."""

    def __init__(self) -> None:
        self.armed = False
        self.held = threading.Event()
        self.release = threading.Event()
        self.batches: list[int] = []
        self.clock: list[int] = []  # how many of each batch's commands were the clock's

    def run_together(self, ctx: ServiceContext, queued: Sequence[Queued | Fire], kept: Any) -> Any:
        if not self.armed:  # the tables' set-up: their joins
            return together.run_together(ctx, queued, kept)
        self.batches.append(len(queued))
        self.clock.append(sum(isinstance(item, Fire) for item in queued))
        if len(self.batches) == 1:
            self.held.set()
            assert self.release.wait(10), "the test never opened the gate"
        return together.run_together(ctx, queued, kept)


def queued_on_committer(client: TestClient) -> int:
    live = client.app.state.live  # type: ignore[attr-defined]
    assert isinstance(live, Live)
    return live.committer._queue.qsize()


def together_after(
    client: TestClient, gate: Gate, first: Callable[[], Any], rest: list[Callable[[], Any]]
) -> tuple[Any, list[Any]]:
    """``first`` alone in the held batch, then ``rest`` queued behind it, released."""
    gate.armed = True
    with ThreadPoolExecutor(len(rest) + 1) as pool:
        held: Future[Any] = pool.submit(first)
        assert gate.held.wait(10)
        queued = [pool.submit(send) for send in rest]
        for _ in range(300):
            if queued_on_committer(client) == len(rest):
                break
            threading.Event().wait(0.01)
        assert queued_on_committer(client) == len(rest), "the requests did not reach the committer"
        gate.release.set()
        return held.result(10), [future.result(10) for future in queued]


def check_or_call(client: TestClient, game: int, players: list[Player]) -> Callable[[], Any]:
    """The request of the player to act: check, or call where they cannot check."""
    player = to_act(client, game, players)
    assert player is not None
    seen = detail(client, game, player)
    kind = "check" if "check" in seen["hand"]["legal"]["actions"] else "call"
    body = {"kind": kind, "version": seen["version"]}
    return lambda: client.post(f"/api/games/{game}/actions", json=body, headers=player.auth)
