"""A game's row carries the number of its last event (``games.last_seq``): after play
through every kind of command it is each game's ``max(seq)``, the reads give it
back, and neither a command nor a read of the table asks the events for it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from sqlalchemy import event, func, select

from cardroom.service import deadlines, game_views, lobby, play, table_admin
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Game, GameEvent, GameStatus
from tests.conftest import FakeClock
from tests.service.gamekit import (
    detail,
    everyone_continues,
    folder,
    passive,
    play_hand,
    players,
    source,
    to_act,
    tournament_to_its_winner,
)


def stored(ctx: ServiceContext) -> dict[int, tuple[int, int]]:
    """Each game's ``last_seq`` and the highest ``seq`` of its events (0: none)."""
    with make_sessionmaker(ctx.engine)() as session:
        highest = dict(
            session.execute(
                select(GameEvent.game_id, func.max(GameEvent.seq)).group_by(GameEvent.game_id)
            ).all()
        )
        rows = session.execute(select(Game.id, Game.last_seq)).all()
        return {game: (last, highest.get(game, 0)) for game, last in rows}


@contextmanager
def statements(ctx: ServiceContext) -> Iterator[list[str]]:
    seen: list[str] = []

    def record(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        seen.append(" ".join(sql.split()))

    event.listen(ctx.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(ctx.engine, "before_cursor_execute", record)


def test_every_game_keeps_its_last_event_number_through_play(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    alice, bob, carol, dave = players(ctx, "alice", "bob", "carol", "dave")
    # A cash table: hands, Continue, a repeated idempotency key, a pause, the turn
    # clock, a cash-out.
    cash = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00, seats=3)).game_id
    lobby.join(ctx, cash, bob)
    lobby.start(ctx, cash, alice, source=source())
    play_hand(ctx, cash, passive)
    everyone_continues(ctx, cash, source(2))
    turn = to_act(ctx, cash)
    assert turn is not None
    first = play.act(ctx, cash, turn[0], "call", idempotency_key="k1")
    again = play.act(ctx, cash, turn[0], "call", idempotency_key="k1")
    assert again.replayed and again.events == first.events
    table_admin.pause(ctx, CONSOLE, cash, "dinner")
    clock.advance(timedelta(seconds=121))  # past the turn clock
    assert [f.game_id for f in deadlines.fire_due(ctx)] == [cash]
    play_hand(ctx, cash, folder)
    lobby.cash_out(ctx, cash, bob)
    tournament = tournament_to_its_winner(ctx, carol, dave, alice)
    assert detail(ctx, tournament).summary.status is GameStatus.FINISHED
    # A game cancelled before it started, and one only created.
    cancelled = lobby.create_game(ctx, dave, GameOptions(buy_in=5_00)).game_id
    lobby.cancel_game(ctx, dave, cancelled, "nobody came")
    waiting = lobby.create_game(ctx, carol, GameOptions(buy_in=5_00), sit=False).game_id

    rows = stored(ctx)
    assert set(rows) == {cash, tournament, cancelled, waiting}
    for game, (last, highest) in rows.items():
        assert last == highest, f"game {game}: last_seq {last}, events up to {highest}"
        assert detail(ctx, game).last_seq == last
        assert game_views.events_page(ctx, game, None).last_seq == last
        assert game_views.change_after(ctx, game, 0).moment.last_seq == last
    assert rows[waiting] == (1, 1)  # GameCreated
    assert min(rows[game][0] for game in (cash, tournament, cancelled)) > 1


def test_neither_a_command_nor_a_read_asks_for_the_highest_event_number(
    ctx: ServiceContext,
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, bob)
    with statements(ctx) as sent:
        started = lobby.start(ctx, game, alice, source=source())
        turn = to_act(ctx, game)
        assert turn is not None
        acted = play.act(ctx, game, turn[0], "call", expected_version=turn[2])
        shown = detail(ctx, game, bob)
        page = game_views.events_page(ctx, game, bob)
        change = game_views.change_after(ctx, game, started.events[-1].seq)
    assert not [s for s in sent if "max(game_events.seq)" in s]
    last = acted.events[-1].seq
    assert shown.last_seq == page.last_seq == change.moment.last_seq == last
    assert page.events[-1].seq == last
    assert stored(ctx)[game] == (last, last)
