"""``change_after``: what every other server process reads once per commit to update
its sockets. Two statements inside one read-only transaction (the game's row with
the names at the table; the events with who sat where in their hands), the same
change as the committing process's ``change_of``, and never the state of one commit
with the events of another."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event, update

from cardroom.service import game_details, game_options, game_views, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_details import GameMoment
from cardroom.service.game_errors import GameNotFound
from cardroom.service.game_records import PlayResult
from cardroom.service.game_views import GameChange
from cardroom.store.db import reading
from cardroom.store.models import GamePlayer
from cardroom.table import table_to_dict
from tests.service.gamekit import players, source, to_act

REPEATABLE_READ = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"


@contextlib.contextmanager
def statements(ctx: ServiceContext) -> Iterator[list[str]]:
    """Every statement sent, each SELECT as just "SELECT"."""
    seen: list[str] = []

    def record(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        sql = " ".join(sql.split())
        seen.append("SELECT" if sql.startswith("SELECT") else sql)

    event.listen(ctx.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(ctx.engine, "before_cursor_execute", record)


def in_a_transaction(ctx: ServiceContext, *reads: str) -> list[str]:
    """What a read-only transaction of these statements sends: SQLite's BEGIN and
    COMMIT around them; PostgreSQL's isolation level before them."""
    if ctx.engine.dialect.name == "sqlite":
        return ["BEGIN", *reads, "COMMIT"]
    return [REPEATABLE_READ, *reads]


def act(ctx: ServiceContext, game: int) -> PlayResult:
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    kind = "check" if "check" in legal.kinds else "call"
    return play.act(ctx, game, player, kind, expected_version=version)


def heads_up(ctx: ServiceContext) -> tuple[int, int, int]:
    """A two-seat game with its first hand running: (game, alice, bob)."""
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, game_options.GameOptions(seats=2, buy_in=1000)).game_id
    lobby.join(ctx, game, bob, source=source(5))
    assert to_act(ctx, game) is not None
    return game, alice, bob


def same_moment(one: GameMoment, other: GameMoment) -> None:
    """Equal moments (a decoded ``Table`` holds objects that compare by identity)."""
    assert (one.game, one.host_name, dict(one.names), one.last_seq) == (
        other.game,
        other.host_name,
        dict(other.names),
        other.last_seq,
    )
    assert table_to_dict(one.table) == table_to_dict(other.table)


def same_for_everyone(
    ctx: ServiceContext, one: GameChange, other: GameChange, viewers: tuple[int | None, ...]
) -> None:
    now = ctx.now()
    for viewer in viewers:
        assert game_views.update_from(one, viewer, one.after_seq, now) == (
            game_views.update_from(other, viewer, one.after_seq, now)
        ), viewer


def test_one_commands_change_is_two_statements(ctx: ServiceContext) -> None:
    game, alice, bob = heads_up(ctx)
    acted = act(ctx, game)  # in a hand dealt before: its seats come from earlier events
    assert acted.events and all(e.kind != "HandDealt" for e in acted.events)
    with statements(ctx) as sent:
        change = game_views.change_after(ctx, game, acted.events[0].seq - 1)
    assert sent == in_a_transaction(ctx, "SELECT", "SELECT")
    assert change.events == acted.events
    hand = acted.events[0].hand_id
    assert hand is not None
    assert set(change.hand_seats) == {hand}
    assert set(change.hand_seats[hand]) == {alice, bob}
    # Nothing new: the game's row alone.
    with statements(ctx) as sent:
        still = game_views.change_after(ctx, game, change.moment.last_seq)
    assert sent == in_a_transaction(ctx, "SELECT")
    assert still.events == ()
    same_moment(still.moment, change.moment)


def test_a_game_that_does_not_exist_is_not_found(ctx: ServiceContext) -> None:
    game, _alice, _bob = heads_up(ctx)
    for missing in (game + 1000, -1):
        with pytest.raises(GameNotFound):
            game_views.change_after(ctx, missing, 0)
    with statements(ctx) as sent, pytest.raises(GameNotFound):
        game_views.change_after(ctx, str(game), 0)  # type: ignore[arg-type]
    assert sent == []  # not a game's id: no database
    game_views.change_after(ctx, game, 0)  # the one that does


def test_the_change_read_is_the_change_of_the_command(ctx: ServiceContext) -> None:
    """A host who does not play, three players, one who leaves and one who joins
    later, hands folded, raised and called down: for every command, the change read
    back is ``change_of`` for every viewer, and its parts are what ``moment_in`` and
    the seats of the events' hands read on their own."""
    host, alice, bob, carol, dave = players(ctx, "host", "alice", "bob", "carol", "dave")
    names = {host: "host", alice: "alice", bob: "bob", carol: "carol", dave: "dave"}
    viewers = (host, alice, bob, carol, dave, None)
    compared = 0

    def check(result: PlayResult) -> None:
        nonlocal compared
        made = game_views.change_of(result, names)
        assert made is not None, [e.kind for e in result.events]
        read = game_views.change_after(ctx, game, made.after_seq)
        assert read.events == made.events
        same_for_everyone(ctx, made, read, viewers)
        with reading(), ctx.transaction() as session:
            same_moment(read.moment, game_details.moment_in(session, game))
            hands = (e.hand_id for e in read.events)
            assert read.hand_seats == game_views._hand_seats(session, game, hands)
        compared += 1

    rng = source(9)
    options = game_options.GameOptions(seats=4, buy_in=1000)
    game = lobby.create_game(ctx, host, options, sit=False).game_id
    for user in (alice, bob, carol):
        check(lobby.join(ctx, game, user, source=rng))
    check(lobby.start(ctx, game, host, source=rng))
    for step in range(80):
        if step == 25:
            check(lobby.leave(ctx, game, carol))
        if step == 40:
            check(lobby.join(ctx, game, dave, source=rng))
        turn = to_act(ctx, game)
        if turn is None:
            seated = [s.user_id for s in game_details.game_detail(ctx, game).seats]
            check(play.press_continue(ctx, game, seated[step % len(seated)], source=rng))
            continue
        player, legal, version = turn
        if step % 5 == 1 and "fold" in legal.kinds:
            kind, amount = "fold", None
        elif step % 4 == 2 and "raise" in legal.kinds:
            kind, amount = "raise", legal.min_to
        else:
            kind, amount = ("check" if "check" in legal.kinds else "call"), None
        check(play.act(ctx, game, player, kind, amount, expected_version=version, source=rng))
    assert compared >= 85, compared


def test_a_long_log_is_read_page_by_page(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, alice, _bob = heads_up(ctx)
    for _ in range(6):
        act(ctx, game)
    whole = game_views.change_after(ctx, game, 0)
    last = whole.moment.last_seq
    assert [e.seq for e in whole.events] == list(range(1, last + 1))
    starts = (0, 1, 3, last - 5, last - 4, last - 1)
    unpaged = {after: game_views.change_after(ctx, game, after) for after in starts}
    monkeypatch.setattr(game_views, "EVENTS_PAGE_MAX", 4)
    for after in starts:
        with statements(ctx) as sent:
            paged = game_views.change_after(ctx, game, after)
        pages = -(-(last - after) // 4)
        assert sent == in_a_transaction(ctx, *["SELECT"] * (1 + pages)), after
        assert [e.seq for e in paged.events] == list(range(after + 1, last + 1))
        same_moment(paged.moment, whole.moment)
        assert paged.hand_seats == unpaged[after].hand_seats
        same_for_everyone(ctx, unpaged[after], paged, (alice, None))


def test_names_come_from_the_table_when_its_rows_are_out_of_step(ctx: ServiceContext) -> None:
    """``game_players`` only narrows the names read: a player the table seats but
    the rows do not is still named, and one seated by the rows alone is not."""
    game, alice, bob = heads_up(ctx)
    (carol,) = players(ctx, "carol")
    with ctx.transaction() as session:
        session.execute(
            update(GamePlayer)
            .where(GamePlayer.game_id == game, GamePlayer.user_id == bob)
            .values(seat=None)
        )
        session.add(GamePlayer(game_id=game, user_id=carol, seat=9, joined_at=ctx.now()))
    change = game_views.change_after(ctx, game, 0)
    assert change.moment.names == {alice: "alice", bob: "bob"}
    with reading(), ctx.transaction() as session:
        same_moment(change.moment, game_details.moment_in(session, game))


def test_a_command_committed_between_the_two_reads_is_not_half_read(
    ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process commits a command after the game's row is read and before the
    events are. As shipped each read sees one snapshot; and were each statement to see
    the latest commit (PostgreSQL's READ COMMITTED, without ``reading``; SQLite has no
    such level), the events still stop at the row's ``last_seq``: the change is the
    one from before the command."""
    game, alice, bob = heads_up(ctx)
    commit_between_the_reads(ctx, game, (alice, bob, None))
    if ctx.engine.dialect.name == "postgresql":
        monkeypatch.setattr(game_views, "reading", contextlib.nullcontext)
        commit_between_the_reads(ctx, game, (alice, bob, None))


def commit_between_the_reads(
    ctx: ServiceContext, game: int, viewers: tuple[int | None, ...]
) -> None:
    first = act(ctx, game)
    before = game_views.change_after(ctx, game, first.events[0].seq - 1)
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    kind = "check" if "check" in legal.kinds else "call"
    committed: list[PlayResult] = []

    def commit_elsewhere() -> None:
        committed.append(play.act(ctx, game, player, kind, expected_version=version))

    def between(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        if not committed and sql.lstrip().startswith("SELECT games.id") and "user_id" in sql:
            thread = threading.Thread(target=commit_elsewhere)
            thread.start()
            thread.join(timeout=30)

    event.listen(ctx.engine, "after_cursor_execute", between)
    try:
        read = game_views.change_after(ctx, game, before.after_seq)
    finally:
        event.remove(ctx.engine, "after_cursor_execute", between)
    assert committed and committed[0].events, "the command did not land between the reads"
    assert read.events == before.events
    same_moment(read.moment, before.moment)
    same_for_everyone(ctx, before, read, viewers)
    after = game_views.change_after(ctx, game, before.after_seq)
    assert after.events == before.events + committed[0].events
    assert after.moment.last_seq == committed[0].events[-1].seq
