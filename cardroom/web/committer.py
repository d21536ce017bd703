"""This process's committer: one thread that takes every command queued on the
process's tables (the players' over their sockets and over HTTP, the clock's), runs
them in order in one transaction and commits them together
(``cardroom.service.game.together``), then announces and answers each.

The shape is the stack floor's "commands committed together" (docs/benchmarks.md):
no timer, no waiting for a batch to fill. The thread takes what is queued when it
is free, so one command alone is committed at once, and under load the commands
that arrived while the last batch ran go together. At most ``BATCH_MAX`` go in one
transaction, so a burst never holds SQLite's writer lock (or a PostgreSQL row lock)
for long.

Order: a table's commands are applied, committed, announced and answered in the
order the sockets queued them, and each change is announced before the next batch
starts, so the sockets see a table's changes in order. A batch takes one command a
table (``first_per_table``): a table's later commands wait at the head of the next
batch, so each finds the table its predecessor left kept, decoded
(``kept_tables``: a table is kept only once committed, and its change's views are
sealed by ``finish`` before the next command changes it). Without that, both
players' Continue after a hand, queued together, had the second read and decode the
table afresh. The answers are made here,
after the commit, from the batch's own results (no read), as a command alone makes
them on its worker thread.

A batch that fails as a whole (anything but a refusal: the database gone, a
deadlock on PostgreSQL) was rolled back entirely, so nothing of it was committed:
each of its commands is then run alone, and only one that fails again gets the
error. ``CARDROOM_DIE_AFTER_COMMIT`` (tests only, tests/reliability) ends the
process with SIGKILL right after the n-th commit, before any of its answers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import queue
import signal
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from cardroom.service.game.together import Done, Fire, Queued, run_each, run_together
from cardroom.service.kept_tables import KeptTables

if TYPE_CHECKING:
    from cardroom.service.context import ServiceContext

log = logging.getLogger(__name__)
# The server's own log (uvicorn's general channel, at INFO): the committer's count at
# shutdown goes where the operator reads "Started server process".
server_log = logging.getLogger("uvicorn.error")

BATCH_MAX = 32
STOP_SECONDS = 5.0
# How long the clock waits for its commands' batch: long past any batch's time, short
# enough that a stuck committer shows in the clock's log instead of hanging it.
FIRE_WAIT_SECONDS = 30.0
DIE_AFTER_COMMIT = "CARDROOM_DIE_AFTER_COMMIT"

T = TypeVar("T")
T_contra = TypeVar("T_contra", contravariant=True)


class _Settles(Protocol[T_contra]):
    """Where a command's outcome goes: a thread's future (the clock's), or the event
    loop's (``_Answer``)."""

    def set_result(self, result: T_contra) -> None: ...

    def set_exception(self, exception: BaseException | None) -> None: ...


@dataclass
class _Waiting(Generic[T]):
    queued: Queued | Fire
    finish: Callable[[Done], T]  # on the committer's thread, after the commit
    future: _Settles[T]


class _Answer(Generic[T]):
    """A command's outcome for the event loop: a future of the loop's own, settled
    from the committer's thread by a callback on the loop (``_Answers``: one for the
    whole batch). ``asyncio.wrap_future`` over a thread's future took a future of
    each kind, their locks and two callbacks, 16-19 µs of the loop's time per
    command against 5-6."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.future: asyncio.Future[T] = loop.create_future()

    def set_result(self, result: T) -> None:
        self._settle(result, None)

    def set_exception(self, exception: BaseException | None) -> None:
        self._settle(None, exception)

    def _settle(self, result: T | None, exception: BaseException | None) -> None:
        _to_loop(self.loop, [(self.future, result, exception)])


# A loop's future and what settles it: the value, or the exception (not None).
_Settled = tuple["asyncio.Future[Any]", Any, BaseException | None]


class _Answers:
    """A batch's outcomes for the event loops that wait for them, handed over with
    one callback a loop (``_settle_all_on_loop``) once the batch's answers are all
    made: each ``call_soon_threadsafe`` took the loop's lock, a handle and a write
    to its wake-up socket on the committer's thread, and a wake-up on the loop's,
    for every command. Another future (the clock's thread's) is settled at once.
    The answers reach the loop in the batch's order, after every change of the
    batch is announced: a table has one command a batch (``first_per_table``), so
    each sender still has their table's change before their answer."""

    __slots__ = ("_by_loop",)

    def __init__(self) -> None:
        self._by_loop: dict[asyncio.AbstractEventLoop, list[_Settled]] = {}

    def settle(self, future: _Settles[object], value: object, failed: BaseException | None) -> None:
        if isinstance(future, _Answer):
            settled = self._by_loop.get(future.loop)
            if settled is None:
                settled = self._by_loop[future.loop] = []
            settled.append((future.future, value, failed))
            return
        _settle(future, value, failed)

    def send(self) -> None:
        for loop, settled in self._by_loop.items():
            _to_loop(loop, settled)
        self._by_loop.clear()


def _to_loop(loop: asyncio.AbstractEventLoop, settled: list[_Settled]) -> None:
    # try, not ``contextlib.suppress``: its object and two calls, on the
    # committer's thread, for every batch.
    try:  # noqa: SIM105
        loop.call_soon_threadsafe(_settle_all_on_loop, settled)
    except RuntimeError:  # the loop has closed: nobody waits
        pass


def _settle_all_on_loop(settled: list[_Settled]) -> None:
    for future, result, exception in settled:
        if future.done():  # cancelled: the sender has gone
            continue
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)


class Committer:
    """Started on the first command, stopped with the process's ``Live``."""

    def __init__(
        self,
        ctx_of: Callable[[], ServiceContext],
        answering: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
    ) -> None:
        """``answering``: the context a batch's answers run in, after its commit (the
        process's fan-out gathers their notifications there, to send them at once)."""
        self._ctx_of = ctx_of
        self._answering = answering
        self._queue: queue.SimpleQueue[_Waiting[object] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._stopping: threading.Thread | None = None  # the thread the last stop let go
        self._commits = 0
        self.commands = 0  # committed together or alone, refusals included
        self.largest_batch = 0
        # The tables this committer saved, decoded, for their next command here
        # (``kept_tables``): touched by the committer's thread only.
        self.kept = KeptTables()
        die = os.environ.get(DIE_AFTER_COMMIT, "")
        self._die_after = int(die) if die.isdigit() else None

    def run(self, queued: Queued, finish: Callable[[Done], T]) -> asyncio.Future[T]:
        """Queue ``queued`` now; the future to await is settled with ``finish`` of
        its outcome, made after the commit, or with what the batch raised for this
        command alone. (A future, not a coroutine: one frame less to wake per
        command.)"""
        answer: _Answer[T] = _Answer(asyncio.get_running_loop())
        self._queue_up([_Waiting(queued, finish, answer)])
        return answer.future

    def fire_all(self, fires: Sequence[Fire], finish: Callable[[Done], T]) -> list[T]:
        """The clock's commands, queued at once and waited for on the caller's thread
        (the clock's worker thread, never the event loop): ``finish`` of each outcome,
        made after its commit; raises the first failure once every command is done."""
        futures: list[concurrent.futures.Future[T]] = [concurrent.futures.Future() for _ in fires]
        self._queue_up(
            [_Waiting(fire, finish, future) for fire, future in zip(fires, futures, strict=True)]
        )
        concurrent.futures.wait(futures, FIRE_WAIT_SECONDS)
        return [future.result(0) for future in futures]

    def stop(self) -> None:
        with self._start_lock:
            thread, self._thread = self._thread, None
            if thread is None:
                return
            self._queue.put(None)  # after everything queued so far
            self._stopping = thread
        thread.join(STOP_SECONDS)
        if thread.is_alive():
            log.error("the committer did not stop within %s s", STOP_SECONDS)
        server_log.info(
            "committer: %d commands in %d transactions, the largest %d; "
            "kept tables %d taken, %d read",
            self.commands,
            self._commits,
            self.largest_batch,
            self.kept.hits,
            self.kept.misses,
        )

    def _queue_up(self, items: Sequence[_Waiting[T]]) -> None:
        """Queue ``items`` for the running thread, starting one if none runs. Under the
        start lock with ``stop``: what is queued goes either before a stop's end mark,
        for the thread it stops, or to the queue of a thread started after it (the
        clock's worker may still queue work while the process stops), which waits
        for the stopped one to finish first, so one thread at a time touches the
        kept tables."""
        with self._start_lock:
            if self._thread is None:
                self._queue = queue.SimpleQueue()
                thread = threading.Thread(
                    target=self._loop,
                    args=(self._queue, self._stopping),
                    name="committer",
                    daemon=True,
                )
                thread.start()  # before it is stored: ``stop`` joins only a begun thread
                self._thread = thread
            for item in items:
                self._queue.put(item)  # type: ignore[arg-type]

    def _loop(
        self, work: queue.SimpleQueue[_Waiting[object] | None], previous: threading.Thread | None
    ) -> None:
        if previous is not None:
            previous.join()
        # A table's commands that wait for its earlier one's commit: they head the next
        # batch, before anything queued since (stop's end mark included).
        later: list[_Waiting[object]] = []
        while True:
            if later:
                batch = later
            else:
                first = work.get()
                if first is None:
                    return
                batch = [first]
            while len(batch) < BATCH_MAX:
                try:
                    more = work.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    work.put(None)  # stop after this batch (and what it leaves for later)
                    break
                batch.append(more)
            # Stable: in order per table, the waiting ones first.
            batch.sort(key=_game_of)
            batch, later = first_per_table(batch, _game_of)
            self._commit(batch)

    def _commit(self, batch: list[_Waiting[object]]) -> None:
        ctx = self._ctx_of()
        queued = [waiting.queued for waiting in batch]
        outcomes: list[Done | Exception]
        try:
            outcomes = list(run_together(ctx, queued, self.kept))
        except Exception:
            if len(batch) > 1:
                log.warning("a batch of %d commands failed: each runs alone", len(batch))
            outcomes = run_each(ctx, queued, self.kept)
        self._commits += 1
        self.commands += len(batch)
        self.largest_batch = max(self.largest_batch, len(batch))
        if self._die_after is not None and self._commits >= self._die_after:
            os.kill(os.getpid(), signal.SIGKILL)  # tests: committed, answered to nobody
        answers = _Answers()
        with self._answering():
            try:
                for waiting, outcome in zip(batch, outcomes, strict=True):
                    # ``finish`` announces the change: it runs even for a sender who
                    # has gone (their future cancelled), since the change is committed.
                    if isinstance(outcome, Exception):
                        answers.settle(waiting.future, None, outcome)
                        continue
                    try:
                        value = waiting.finish(outcome)
                    except Exception as failed:
                        answers.settle(waiting.future, None, failed)
                    else:
                        answers.settle(waiting.future, value, None)
            finally:
                answers.send()  # inside: before the fan-out sends what it gathered


W = TypeVar("W")


def first_per_table(items: Sequence[W], game_of: Callable[[W], int]) -> tuple[list[W], list[W]]:
    """``items`` (a batch, in order per table) split into each table's first command,
    for this batch, and its later ones, for the next, in their order. A table is kept
    decoded only once its command has committed, so a second command of the same
    batch would find it gone and read it back; the next batch finds it kept."""
    now: list[W] = []
    later: list[W] = []
    seen: set[int] = set()
    for item in items:
        game_id = game_of(item)
        if game_id in seen:
            later.append(item)
        else:
            seen.add(game_id)
            now.append(item)
    return now, later


def _game_of(waiting: _Waiting[object]) -> int:
    return waiting.queued.game_id


def _settle(future: _Settles[T], value: T | None, failed: BaseException | None) -> None:
    try:  # every command's: no ``contextlib.suppress`` (``_Answer._settle``)
        if failed is not None:
            future.set_exception(failed)
        else:
            future.set_result(value)  # type: ignore[arg-type]
    except concurrent.futures.InvalidStateError:  # cancelled: gone
        pass
