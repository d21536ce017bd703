"""The delivery loop (``cardroom.service.runner.deliver_notices``): the server starts
it beside the clock, it runs the delivery worker, sleeps until the next delivery is
due, and a new notice wakes it at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime

import pytest

from cardroom.service import runner
from cardroom.service.context import ServiceContext
from cardroom.service.notices import deliver
from cardroom.web.live import Live


def _until(done: Callable[[], bool], seconds: float) -> bool:
    """Whether ``done()`` comes true within ``seconds`` (polled, without blocking
    the loop the caller runs)."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def _record_runs(monkeypatch: pytest.MonkeyPatch) -> list[ServiceContext]:
    runs: list[ServiceContext] = []

    def deliver_due(ctx: ServiceContext) -> int:
        runs.append(ctx)
        return 0

    def next_delivery_due(ctx: ServiceContext) -> datetime | None:
        return None  # nothing pending: the loop sleeps its longest, unless woken

    monkeypatch.setattr(deliver, "deliver_due", deliver_due)
    monkeypatch.setattr(deliver, "next_delivery_due", next_delivery_due)
    return runs


def test_the_loop_delivers_and_a_wake_cuts_its_sleep_short(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _record_runs(monkeypatch)

    async def scenario() -> tuple[bool, bool]:
        wake = asyncio.Event()
        task = asyncio.create_task(runner.deliver_notices(lambda: ctx, wake))
        first = await asyncio.to_thread(_until, lambda: len(runs) == 1, 2.0)
        wake.set()  # a notice with a delivery: well before DELIVERIES_MAX_SLEEP
        second = await asyncio.to_thread(_until, lambda: len(runs) == 2, 2.0)
        task.cancel()
        return first, second

    assert asyncio.run(scenario()) == (True, True)
    assert runs == [ctx, ctx]
    # Unwoken, the second run would wait DELIVERIES_MAX_SLEEP: the 2 s above tell of
    # the wake only while that is longer.
    assert runner.DELIVERIES_MAX_SLEEP > 2.0


def test_the_server_runs_the_delivery_loop_with_its_clock(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _record_runs(monkeypatch)

    async def scenario(clock: bool) -> bool:
        live = Live(lambda: ctx, clock=clock)
        await live.start()
        try:
            return await asyncio.to_thread(_until, lambda: bool(runs), 1.0)
        finally:
            await live.stop()

    assert asyncio.run(scenario(clock=False)) is False  # a server without its clock
    assert asyncio.run(scenario(clock=True)) is True
    assert runs[0] is ctx
