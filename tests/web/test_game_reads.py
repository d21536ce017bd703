"""A change costs one read per process, however many sockets watch the game: the
first socket woken reads, the others filter that read for their own viewer."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.service.change_views import ChangeViews, Sealed
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import StoredEvent
from cardroom.service.game_views import GameChange, change_after, seated_players
from cardroom.web import game_reads
from cardroom.web import live as live_module
from cardroom.web.game_reads import SharedRead
from cardroom.web.live import live_of
from cardroom.web.routes import ws as ws_routes
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

    _in_a_thread(scenario)


@dataclass(frozen=True)
class _Moment:
    last_seq: int


_CHECK = {"seat": 0, "action": "check", "amount": 0, "bet": 0, "all_in": False}


def _change(after_seq: int, last_seq: int, hand: int = 1) -> GameChange:
    at = datetime(2026, 12, 2, tzinfo=UTC)
    events = tuple(
        StoredEvent(seq, "PlayerActed", _CHECK, hand, seq, at)
        for seq in range(after_seq + 1, last_seq + 1)
    )
    return GameChange(after_seq, events, {hand: {7: 0}}, _Moment(last_seq))  # type: ignore[arg-type]


def _in_a_thread(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``scenario`` on an event loop of its own thread: an earlier test in the run
    may leave an event loop running in this one (asyncio.run refuses to nest)."""
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


def test_a_socket_behind_two_seeded_changes_reads_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under load the next command of a table may be committed before the event loop
    has woken every socket for the one before: the second change, seeded, reaches
    back over the first, so a socket still short of both filters them without a
    read. A gap between them, or more than ``JOINED_EVENTS_MAX`` events, is read."""
    made: list[int] = []

    def read(_ctx: Any, _game: int, after_seq: int) -> Any:
        made.append(after_seq)
        return _change(after_seq, after_seq + 1)

    monkeypatch.setattr(game_reads, "change_after", read)
    shared = SharedRead()

    async def scenario() -> None:
        shared.invalidate()
        shared.seed(ChangeViews(_change(5, 8)))
        shared.invalidate()
        shared.seed(ChangeViews(_change(8, 10)))
        views = await shared.after(None, 1, 5, lambda: 5)  # type: ignore[arg-type]
        assert made == []
        assert [e.seq for e in views.events(7, 5)] == [6, 7, 8, 9, 10]
        assert views.change.after_seq == 5 and views.change.moment.last_seq == 10
        shared.invalidate()
        shared.seed(ChangeViews(_change(11, 12)))  # event 11 never seeded here
        await shared.after(None, 1, 10, lambda: 10)  # type: ignore[arg-type]
        assert made == [10]
        shared.invalidate()
        shared.seed(ChangeViews(_change(100, 100 + game_reads.JOINED_EVENTS_MAX)))
        shared.invalidate()
        shared.seed(ChangeViews(_change(100 + game_reads.JOINED_EVENTS_MAX, 170)))
        await shared.after(None, 1, 100, lambda: 100)  # type: ignore[arg-type]
        assert made == [10, 100]

    _in_a_thread(scenario)


def test_a_fresh_read_is_what_after_would_answer_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``SharedRead.fresh``, the sockets' way without awaiting: the views ``after``
    would answer without reading, else nothing (a wake since, older events needed,
    a read under way)."""
    made: list[int] = []

    def read(_ctx: Any, _game: int, after_seq: int) -> Any:
        made.append(after_seq)
        return _change(after_seq, after_seq + 1)

    monkeypatch.setattr(game_reads, "change_after", read)
    shared = SharedRead()

    async def scenario() -> None:
        assert shared.fresh(5) is None  # nothing read yet
        shared.invalidate()
        seeded = ChangeViews(_change(5, 8))
        shared.seed(seeded)
        assert shared.fresh(5) is seeded and shared.fresh(7) is seeded
        assert await shared.after(None, 1, 5, lambda: 5) is seeded  # type: ignore[arg-type]
        assert shared.fresh(4) is None  # events before the change: a read
        async with shared.lock:  # a read under way may be older than a wake
            assert shared.fresh(5) is None
        shared.invalidate()  # a wake since: this read may be older than its change
        assert shared.fresh(5) is None
        read_again = await shared.after(None, 1, 5, lambda: 5)  # type: ignore[arg-type]
        assert made == [5] and shared.fresh(5) is read_again

    _in_a_thread(scenario)


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


# -- tables kept between commands: sealed views ------------------------------------


def _caught_up(w: Any, seq: int) -> dict[str, Any]:
    """The socket's first snapshot at ``seq`` or later, read if not had yet."""
    while True:
        for message in w.messages:
            if message["type"] == "snapshot" and message["seq"] >= seq:
                return message  # type: ignore[no-any-return]
        w.next()


def _socket_moves(
    client: TestClient,
    ctx: ServiceContext,
    moves: int,
    at_the_end: Callable[[int], None] = lambda _game: None,
) -> list[dict[str, Any]]:
    """Play ``moves`` calls or checks over the players' sockets; each socket's
    snapshot of the last move. ``at_the_end(game)`` runs with the sockets still open."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    players: list[Player] = [alice, bob]
    with watching(client, game, alice) as a, watching(client, game, bob) as b:
        sockets = {alice.name: a, bob.name: b}
        for _ in range(moves):
            mover = to_act(client, game, players)
            assert mover is not None
            seen = detail(client, game, mover)
            kind = "call" if "call" in seen["hand"]["legal"]["actions"] else "check"
            message = {"type": "act", "kind": kind, "version": seen["version"], "ref": "r"}
            sockets[mover.name].ws.send_json(message)
            while sockets[mover.name].next()["type"] != "result":
                pass
            seq = last_seq(ctx, game)
            snapshots = [_caught_up(a, seq), _caught_up(b, seq)]
        at_the_end(game)
        return snapshots


def test_the_committer_keeps_the_table_and_the_sockets_need_no_read(
    client: TestClient, ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Socket commands take the table the committer kept; the views of each change
    are made for both sockets before the next command changes that table, so neither
    socket reads (once the first change taught them the names)."""
    fallbacks: list[int] = []
    real = ws_routes.update_for

    def counting(ctx: ServiceContext, game_id: int, viewer: int | None, after: int) -> Any:
        fallbacks.append(after)
        return real(ctx, game_id, viewer, after)

    monkeypatch.setattr(ws_routes, "update_for", counting)
    live = live_of(client.app)  # type: ignore[arg-type]

    def sealed(game: int) -> None:
        # The change the sockets hold was sealed when announced: made for its two
        # viewers, and for nobody else from the table the committer kept.
        views = live.reads[game].views
        assert views is not None
        with pytest.raises(Sealed):
            views.detail(None, ctx.now())

    snapshots = _socket_moves(client, ctx, 5, sealed)
    assert live.committer.kept.hits >= 3, (live.committer.kept.hits, live.committer.kept.misses)
    assert fallbacks == []
    assert snapshots[0]["version"] == snapshots[1]["version"]


def test_a_socket_whose_view_was_not_made_in_time_reads_it(
    client: TestClient, ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket that opened after a change's views were sealed has no view of it:
    it reads the game (``update_for``), and sees what the others see."""
    fallbacks: list[int] = []
    real = ws_routes.update_for

    def counting(ctx: ServiceContext, game_id: int, viewer: int | None, after: int) -> Any:
        fallbacks.append(after)
        return real(ctx, game_id, viewer, after)

    def seal_for_nobody(self: ChangeViews, viewers: Any, now: datetime) -> None:
        real_seal(self, (), now)

    real_seal = ChangeViews.seal
    monkeypatch.setattr(ws_routes, "update_for", counting)
    monkeypatch.setattr(ChangeViews, "seal", seal_for_nobody)
    first, second = _socket_moves(client, ctx, 4)
    assert len(fallbacks) >= 4
    assert first["version"] == second["version"] and first["seq"] == second["seq"]
    assert first["game"]["hand"]["my_cards"] != second["game"]["hand"]["my_cards"]


def test_sealed_views_keep_what_they_made_and_refuse_the_rest(ctx: ServiceContext) -> None:
    from tests.service.gamekit import heads_up as service_heads_up

    game, alice, bob = service_heads_up(ctx)
    now = ctx.now()
    change = change_after(ctx, game, 0)
    unsealed = ChangeViews(change).detail(alice, now)
    views = ChangeViews(change)
    views.seal([alice], now)
    assert views.detail(alice, now) == unsealed
    with pytest.raises(Sealed):
        views.detail(bob, now)
    joined = views.joined_to(change, {})
    with pytest.raises(Sealed):
        joined.detail(bob, now)  # one seal for both
    # The next command changes the table itself: the sealed view does not change.
    change.moment.table.held = not change.moment.table.held
    change.moment.table.seats.clear()
    assert views.detail(alice, now) == unsealed
    assert ChangeViews(change).detail(alice, now) != unsealed  # unsealed: it would have
