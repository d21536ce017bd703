"""The room's background loops, apart from any request: each does its work in a
worker thread (it touches the database), then sleeps until its next work is due, a
bound at most, or until woken. The web layer starts them in the app's lifespan (the
clock's work there also tells the sockets what it fired); nothing here knows a
socket."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from cardroom.service.context import ServiceContext
from cardroom.service.notices import deliver

log = logging.getLogger(__name__)

# The delivery loop sleeps at most this long: a bound on how late a push or an email
# goes out if a wake is missed (another process recorded the notice).
DELIVERIES_MAX_SLEEP = 5.0


async def every_due(
    what: str,
    wake: asyncio.Event,
    work: Callable[[], object],
    next_time: Callable[[], datetime | None],
    ctx: ServiceContext,
    longest: float,
    planned: Callable[[datetime | None], None] | None = None,
) -> None:
    """Do ``work`` (in a worker thread: it touches the database), then sleep until
    ``next_time()``, at most ``longest`` seconds, or until woken; forever.
    ``planned`` is told when the next look is due while sleeping (None while
    working: a deadline set then must wake it)."""
    while True:
        delay = longest
        if planned is not None:
            planned(None)
        try:
            await asyncio.to_thread(work)
            due = await asyncio.to_thread(next_time)
            if due is not None:
                ahead = (due - ctx.now()).total_seconds()
                delay = min(longest, max(0.0, ahead))
        except asyncio.CancelledError:
            raise
        except Exception:
            # The database may be down for a moment; the rows wait for us. Try again
            # after the longest sleep.
            log.exception("%s could not run", what)
        if planned is not None:
            planned(ctx.now() + timedelta(seconds=delay))
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
        # cancellation that arrives as the event is set, and the server would then
        # never finish shutting down.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(delay):
                await wake.wait()
        wake.clear()


async def deliver_notices(ctx_of: Callable[[], ServiceContext], wake: asyncio.Event) -> None:
    """Web Push and email, apart from the clock: a slow mail server must not hold up
    a turn clock. ``wake`` is set when a command records a notice with a delivery."""
    await every_due(
        "notice delivery",
        wake,
        lambda: deliver.deliver_due(ctx_of()),
        lambda: deliver.next_delivery_due(ctx_of()),
        ctx_of(),
        DELIVERIES_MAX_SLEEP,
    )
