"""A change costs one read per process, however many sockets watch the game: the
first socket woken reads, the others filter that read for their own viewer."""

from __future__ import annotations

import asyncio
import threading
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.service.context import ServiceContext
from cardroom.service.game_views import GameChange, change_after, seated_players
from cardroom.web import game_reads
from cardroom.web import live as live_module
from cardroom.web.game_reads import SharedRead
from tests.web.games_kit import (
    Player,
    act,
    detail,
    heads_up,
    last_seq,
    listening,
    new_player,
    receive,
    to_act,
    watching,
)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ``after_seq`` of every shared read made."""
    made: list[int] = []

    def counting(ctx: ServiceContext, game_id: int, after_seq: int) -> GameChange:
        made.append(after_seq)
        return change_after(ctx, game_id, after_seq)

    monkeypatch.setattr(game_reads, "change_after", counting)
    return made


def test_three_sockets_share_one_read_per_change(
    client: TestClient, ctx: ServiceContext, reads: list[int]
) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    carol = new_player(client, "carol")  # a spectator
    game = heads_up(client, alice, bob)
    with ExitStack() as stack:
        watchers = [stack.enter_context(watching(client, game, p)) for p in (alice, bob, carol)]
        before = len(reads)
        mover = to_act(client, game, [alice, bob])
        assert mover is not None
        assert act(client, game, mover, "call").status_code == 200
        seq = last_seq(ctx, game)
        snapshots = [w.settle(seq) for w in watchers]
        assert len(reads) - before == 1, reads
        # Each still got their own view: their own cards, nobody else's.
        mine = {
            w.who.name: s["game"]["hand"]["my_cards"]
            for w, s in zip(watchers, snapshots, strict=True)
            if w.who
        }
        assert len(mine["alice"]) == 2 and len(mine["bob"]) == 2 and mine["carol"] == []
        assert mine["alice"] != mine["bob"]


class _Change:
    def __init__(self, after_seq: int) -> None:
        self.after_seq = after_seq


def test_a_wake_during_a_read_reads_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A socket woken while a read is under way must not take that read, which may
    have begun before the change it was woken for."""
    made: list[int] = []

    def slow_read(_ctx: Any, _game: int, after_seq: int) -> Any:
        made.append(after_seq)
        return _Change(after_seq)

    monkeypatch.setattr(game_reads, "change_after", slow_read)
    shared = SharedRead()

    async def scenario() -> None:
        first = await shared.after(None, 1, 5, lambda: 5)  # type: ignore[arg-type]
        again = await shared.after(None, 1, 5, lambda: 5)  # type: ignore[arg-type]
        assert again is first and made == [5]  # no wake in between: the same read
        shared.invalidate()
        third = await shared.after(None, 1, 7, lambda: 5)  # type: ignore[arg-type]
        assert third is not first and made == [5, 5]  # from the oldest socket's need
        fourth = await shared.after(None, 1, 3, lambda: 3)  # type: ignore[arg-type]
        assert fourth is not third and made == [5, 5, 3]  # needs older events

    # In a thread of its own: an earlier test in the run may leave an event loop
    # running in this one (asyncio.run refuses to nest).
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as error:  # reported below, in the test's own thread
            failure.append(error)

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(timeout=30)
    assert not runner.is_alive()
    if failure:
        raise failure[0]


def test_every_socket_sees_the_same_moment(client: TestClient, ctx: ServiceContext) -> None:
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    players: list[Player] = [alice, bob]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        for _ in range(4):
            mover = to_act(client, game, players)
            if mover is None:
                break
            kinds = detail(client, game, mover)["hand"]["legal"]["actions"]
            kind = "call" if "call" in kinds else "check"
            assert act(client, game, mover, kind).status_code == 200
            seq = last_seq(ctx, game)
            sa, sb = a.settle(seq), b.settle(seq)
            assert sa["version"] == sb["version"] and sa["seq"] == sb["seq"] == seq


def test_the_committing_process_reads_nothing_after_the_first_change(
    client: TestClient, ctx: ServiceContext, reads: list[int]
) -> None:
    """The command's transaction hands its change to the sockets here: once the
    game's sockets have read once (and so know the players' names), a move costs
    them no read at all."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    players: list[Player] = [alice, bob]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        moves = 0
        for _ in range(6):
            mover = to_act(client, game, players)
            if mover is None:
                break
            kinds = detail(client, game, mover)["hand"]["legal"]["actions"]
            assert (
                act(client, game, mover, "call" if "call" in kinds else "check").status_code == 200
            )
            moves += 1
            seq = last_seq(ctx, game)
            a.settle(seq), b.settle(seq)
        assert moves >= 3
        assert len(reads) == 1, reads  # the first change only


def test_hints_to_the_players_streams_need_no_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seated players' ``/ws/me`` get ``games_changed`` after a move; who sits
    there comes from the command's transaction, not from a read."""
    asked: list[int] = []

    def counting(ctx: ServiceContext, game_id: int) -> tuple[int, ...]:
        asked.append(game_id)
        return seated_players(ctx, game_id)

    monkeypatch.setattr(live_module, "seated_players", counting)
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    with client.websocket_connect(f"/ws/me?token={bob.token}") as me:
        listening(me)
        mover = to_act(client, game, [alice, bob])
        assert mover is not None
        kinds = detail(client, game, mover)["hand"]["legal"]["actions"]
        assert act(client, game, mover, "call" if "call" in kinds else "check").status_code == 200
        seen = [receive(me)]
        while seen[-1].get("type") != "games_changed":
            seen.append(receive(me))
        assert seen[-1] == {"type": "games_changed", "game_id": game}
    assert asked == []
