"""Notices decided and recorded in the command's own transaction, on both databases:
each command returns what it recorded on its ``PlayResult`` (``notices``), with no
second transaction, no second read of the game, and nothing recorded twice."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, func, select

from cardroom.notify.settings import NotifySettings
from cardroom.service import deadlines, play
from cardroom.service.context import ServiceContext
from cardroom.service.notices import decide, inbox
from cardroom.service.notices import record as outbox
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.store.notify_models import NoticeKind
from tests.conftest import FakeClock
from tests.service.gamekit import heads_up, to_act


def version(ctx: ServiceContext, game: int) -> int:
    turn = to_act(ctx, game)
    assert turn is not None
    return turn[2]


def notice_rows(ctx: ServiceContext) -> int:
    with ctx.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(NoticeRow)) or 0)


@dataclass
class Traffic:
    begins: int = 0
    commits: int = 0
    statements: list[str] = field(default_factory=list)


@contextmanager
def traffic(ctx: ServiceContext) -> Iterator[Traffic]:
    """The transactions, commits and statements on the context's engine meanwhile."""
    seen = Traffic()
    engine = ctx.engine

    def began(*args: Any) -> None:
        seen.begins += 1

    def committed(*args: Any) -> None:
        seen.commits += 1

    def statement(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        seen.statements.append(" ".join(sql.split()))

    event.listen(engine, "begin", began)
    event.listen(engine, "commit", committed)
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "begin", began)
        event.remove(engine, "commit", committed)
        event.remove(engine, "before_cursor_execute", statement)


def test_a_command_returns_the_next_players_turn(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, bob = heads_up(ctx, seed=1)
    acted = play.act(ctx, game, alice, "call", expected_version=version(ctx, game))
    [turn] = acted.notices
    assert (turn.kind, turn.user_id, turn.game_id) == (NoticeKind.YOUR_TURN, bob, game)
    assert turn.title == f"Your turn in game {game}"
    assert turn.data["street"] == "preflop" and turn.data["to_call"] == 0
    assert turn.live and turn.deliver_at is None  # Web Push and email off by default
    # It is the recorded notice, and the only one of this turn.
    [listed, _started] = inbox.list_notices(ctx, bob, notify=notify).notices
    assert listed.id == turn.id and listed.to_wire() == turn.to_wire()
    # The turn is keyed by the event that began it, one of the command's own.
    with ctx.transaction() as session:
        row = session.get(NoticeRow, turn.id)
        assert row is not None
        assert row.turn_seq == max(e.seq for e in acted.events if e.kind == "PlayerActed")


def test_a_replayed_command_carries_no_notices(ctx: ServiceContext, notify: NotifySettings) -> None:
    game, alice, bob = heads_up(ctx, seed=1)
    seen = version(ctx, game)
    first = play.act(ctx, game, alice, "call", expected_version=seen, idempotency_key="k1")
    assert [n.user_id for n in first.notices] == [bob]
    again = play.act(ctx, game, alice, "call", expected_version=seen, idempotency_key="k1")
    assert again.replayed and again.events == first.events
    assert again.notices == ()
    assert notice_rows(ctx) == 3  # bob's start, alice's turn, bob's turn: no more


def test_a_command_that_moves_no_turn_records_nothing(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, _bob = heads_up(ctx, seed=1)
    play.act(ctx, game, alice, "call", expected_version=version(ctx, game))  # bob's turn
    before = notice_rows(ctx)
    # alice sits out from the next hand while bob thinks: a change, not a new turn.
    sat_out = play.sit_out(ctx, game, alice)
    assert sat_out.events and sat_out.notices == ()
    assert notice_rows(ctx) == before
    # Asked after the fact, as the server did before: nothing either.
    assert outbox.on_game_change(ctx, game, sat_out.events, actor_id=alice, notify=notify) == []


def test_the_clock_timing_out_a_player_tells_the_next(
    ctx: ServiceContext, notify: NotifySettings, clock: FakeClock
) -> None:
    game, alice, bob = heads_up(ctx, seed=1)
    play.act(ctx, game, alice, "call", expected_version=version(ctx, game))
    play.act(ctx, game, bob, "check", expected_version=version(ctx, game))  # the flop: bob
    clock.advance(timedelta(seconds=121))  # past bob's 120-second clock
    [fired] = [f for f in deadlines.fire_due(ctx) if f.game_id == game]
    assert "PlayerActed" in [e.kind for e in fired.result.events]  # bob checked by the clock
    [turn] = fired.result.notices
    assert (turn.kind, turn.user_id) == (NoticeKind.YOUR_TURN, alice)
    assert turn.data["street"] == "flop"
    assert turn.data["due_at"] == (clock.moment + timedelta(seconds=120)).isoformat()


def test_a_command_is_one_transaction_with_its_notices(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, bob = heads_up(ctx, seed=1)
    seen = version(ctx, game)
    with traffic(ctx) as sent:
        acted = play.act(ctx, game, alice, "call", expected_version=seen)
    assert [n.user_id for n in acted.notices] == [bob]
    assert (sent.begins, sent.commits) == (1, 1)
    games = [s for s in sent.statements if " FROM games " in f"{s} "]
    assert len(games) == 1, games  # the locked read; the table is not read again
    hands = [s for s in sent.statements if "FROM hands" in s]
    assert hands == []  # the hand's row id comes with the game's (games.hand_id)
    # The turn began with this command's call: no read of what was told already,
    # and no search of the stored events for the turn's first.
    assert not [s for s in sent.statements if s.startswith("SELECT") and "FROM notices" in s]
    assert not [s for s in sent.statements if "game_events.kind IN" in s]
    # The server's old second step finds everything told.
    with traffic(ctx) as after:
        assert outbox.on_game_change(ctx, game, acted.events, actor_id=alice, notify=notify) == []
    assert after.commits == 1 and not [s for s in after.statements if "INSERT" in s]


def test_on_postgresql_a_turn_notice_waits_with_the_commands_queued_writes(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notice's insert answers what the command returns (its id, the player's
    channels), yet on PostgreSQL it waits for no round trip of its own: it goes onto
    the pipeline behind the command's queued writes (the events, the game's row, the
    deadlines) and comes back with their answers. Only the game's locked read is sent
    on its own (the dialect's ``do_execute``), and what is returned is what is
    stored."""
    game, alice, bob = heads_up(ctx, seed=1)
    seen = version(ctx, game)
    dialect = ctx.engine.dialect
    sent_alone: list[str] = []
    execute = dialect.do_execute

    def alone(cursor: Any, statement: str, *args: Any) -> None:
        sent_alone.append(" ".join(statement.split()))
        execute(cursor, statement, *args)

    monkeypatch.setattr(dialect, "do_execute", alone)
    acted = play.act(ctx, game, alice, "call", expected_version=seen)
    monkeypatch.undo()
    [turn] = acted.notices
    assert (turn.kind, turn.user_id) == (NoticeKind.YOUR_TURN, bob)
    notices_alone = [s for s in sent_alone if "INTO notices" in s]
    if dialect.name == "postgresql":
        assert notices_alone == [], notices_alone
    else:  # SQLite: each statement is sent and answered at once
        assert len(notices_alone) == 1
    [listed, _started] = inbox.list_notices(ctx, bob, notify=notify).notices
    assert listed.id == turn.id and listed.to_wire() == turn.to_wire()


def test_a_failure_to_decide_a_notice_never_fails_the_move(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, alice, _bob = heads_up(ctx, seed=1)
    seen = version(ctx, game)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the wording")

    monkeypatch.setattr(decide, "_your_turn", broken)
    acted = play.act(ctx, game, alice, "call", expected_version=seen)
    assert acted.version == seen + 1 and acted.notices == ()
    assert version(ctx, game) == seen + 1  # committed
