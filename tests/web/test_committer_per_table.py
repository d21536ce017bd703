"""A batch takes one command a table (``committer.first_per_table``): a table's later
command queued with it waits at the head of the next batch, after the first's commit
and its ``finish``, and so takes the table kept decoded instead of reading it back."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Sequence
from typing import Any

import pytest

from cardroom.service import accounts, game_options, lobby
from cardroom.service.context import ServiceContext
from cardroom.service.game import commands, together
from cardroom.service.game.together import Done, Fire, Queued
from cardroom.web import committer as committer_module
from cardroom.web.committer import Committer, first_per_table
from tests.service.gamekit import PASSWORD, players, source


class _Gate:
    """``run_together`` that holds the first batch until released, and logs each
    batch's tables and each ``finish`` in the order they ran."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.release = threading.Event()
        self.log: list[tuple[str, Any]] = []

    def __call__(self, ctx: ServiceContext, queued: Sequence[Queued | Fire], kept: Any) -> Any:
        self.log.append(("batch", [item.game_id for item in queued]))
        if not self.held.is_set():
            self.held.set()
            assert self.release.wait(10), "the test never opened the gate"
        return together.run_together(ctx, queued, kept)


def _table(ctx: ServiceContext, number: int) -> tuple[int, dict[str, str]]:
    """A heads-up table, its first hand dealt: (game, each player's token by role);
    the host, on the button, acts first."""
    names = (f"host{number}", f"guest{number}")
    host, guest = players(ctx, *names)
    game = lobby.create_game(ctx, host, game_options.GameOptions()).game_id
    lobby.join(ctx, game, guest)
    lobby.start(ctx, game, host, source=source(number))
    tokens = {
        role: accounts.sign_in(ctx, name, PASSWORD).token
        for role, name in zip(("host", "guest"), names, strict=True)
    }
    return game, tokens


def test_a_tables_second_command_in_a_batch_takes_the_kept_table(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = _Gate()
    monkeypatch.setattr(committer_module, "run_together", gate)
    game, tokens = _table(ctx, 1)
    other, other_tokens = _table(ctx, 2)
    committer = Committer(lambda: ctx)

    def finish(done: Done) -> int:
        assert done.result is not None, done.refused
        gate.log.append(("finish", (done.result.game_id, done.result.version)))
        return done.result.version

    def act(on: int, token: str, kind: str) -> Queued:
        return Queued(on, token, lambda user: commands.act(user, kind))

    async def scenario() -> list[int]:
        held = asyncio.ensure_future(
            committer.run(act(other, other_tokens["host"], "call"), finish)
        )
        while not gate.held.is_set():
            await asyncio.sleep(0.01)
        # Queued behind the held batch: the host calls, then the guest checks.
        call = asyncio.ensure_future(committer.run(act(game, tokens["host"], "call"), finish))
        check = asyncio.ensure_future(committer.run(act(game, tokens["guest"], "check"), finish))
        await asyncio.sleep(0.05)
        gate.release.set()
        return await asyncio.gather(held, call, check)

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            held_version, called, checked = pool.submit(asyncio.run, scenario()).result(30)
    finally:
        committer.stop()
    assert checked == called + 1
    batches = [tables for what, tables in gate.log if what == "batch"]
    assert batches == [[other], [game], [game]]
    # The first command's change was finished (its views sealed) before the second ran.
    assert gate.log[-3:] == [
        ("finish", (game, called)),
        ("batch", [game]),
        ("finish", (game, checked)),
    ]
    # The first read the table (the lobby's start kept nothing); the second took it kept.
    assert (committer.kept.hits, committer.kept.misses) == (1, 2)
    assert held_version > 0


def test_each_tables_later_commands_wait_in_their_order() -> None:
    items = [(1, "a"), (1, "b"), (2, "c"), (1, "d"), (3, "e"), (3, "f")]
    now, later = first_per_table(items, lambda item: item[0])
    assert now == [(1, "a"), (2, "c"), (3, "e")]
    assert later == [(1, "b"), (1, "d"), (3, "f")]
    assert first_per_table(later, lambda item: item[0]) == ([(1, "b"), (3, "f")], [(1, "d")])
