"""A game's row carries the id of its latest hand (``games.hand_id``): after play it
is each game's hand with the highest number, and an action on the running hand never
reads the ``hands`` table for it (the hand's end writes its row, nothing else)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, select, update

from cardroom.service import lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Game, GameEvent, GameStatus, HandRecord
from tests.service.gamekit import (
    detail,
    everyone_continues,
    passive,
    play_hand,
    players,
    source,
    to_act,
    tournament_to_its_winner,
)

_NAMES_HANDS = re.compile(r"\bhands\b", re.IGNORECASE)  # not hand_players


@contextmanager
def on_hands(ctx: ServiceContext) -> Iterator[list[str]]:
    """The statements sent meanwhile that name the ``hands`` table."""
    sent: list[str] = []

    def record(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        if _NAMES_HANDS.search(sql):
            sent.append(" ".join(sql.split()))

    event.listen(ctx.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(ctx.engine, "before_cursor_execute", record)


def latest_hands(ctx: ServiceContext) -> dict[int, tuple[int | None, int | None]]:
    """Each game's ``hand_id`` and the id of its hand with the highest number (None:
    no hand)."""
    with make_sessionmaker(ctx.engine)() as session:
        latest: dict[int, int] = {}
        for game_id, hand_id in session.execute(
            select(HandRecord.game_id, HandRecord.id).order_by(HandRecord.number)
        ):
            latest[game_id] = hand_id
        rows = session.execute(select(Game.id, Game.hand_id)).all()
        return {game: (hand_id, latest.get(game)) for game, hand_id in rows}


def hand_row(ctx: ServiceContext, hand_id: int) -> dict[str, Any]:
    with make_sessionmaker(ctx.engine)() as session:
        row = session.execute(select(HandRecord.__table__).where(HandRecord.id == hand_id))
        return dict(row.one()._mapping)


def test_every_game_points_at_its_latest_hand(ctx: ServiceContext) -> None:
    alice, bob, carol, dave = players(ctx, "alice", "bob", "carol", "dave")
    # A cash table: two hands played, the third dealt and running.
    cash = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00, seats=3)).game_id
    lobby.join(ctx, cash, bob)
    lobby.start(ctx, cash, alice, source=source())
    for hand in range(2):
        play_hand(ctx, cash, passive)
        everyone_continues(ctx, cash, source(2 + hand))
    assert to_act(ctx, cash) is not None
    tournament = tournament_to_its_winner(ctx, carol, dave, alice)
    assert detail(ctx, tournament).summary.status is GameStatus.FINISHED
    waiting = lobby.create_game(ctx, carol, GameOptions(buy_in=5_00), sit=False).game_id

    rows = latest_hands(ctx)
    assert set(rows) == {cash, tournament, waiting}
    for game, (hand_id, latest) in rows.items():
        assert hand_id == latest, f"game {game}: hand_id {hand_id}, latest hand {latest}"
    assert rows[waiting] == (None, None)
    with make_sessionmaker(ctx.engine)() as session:
        hands = {row.id: row for row in session.scalars(select(HandRecord))}
        # Each hand's end was recorded under its own row, and written to that row.
        ends = session.execute(
            select(GameEvent.hand_id, GameEvent.payload).where(GameEvent.kind == "HandFinished")
        ).all()
    assert len(ends) == len(hands) - 1  # all but the cash table's running hand
    for hand_id, payload in ends:
        assert hand_id is not None
        row = hands[hand_id]
        assert payload["number"] == row.number
        assert row.ended_at is not None and row.final_state is not None
    running_id = rows[cash][0]
    assert running_id is not None
    running = hands[running_id]
    assert running.number == 3 and running.ended_at is None and running.final_state is None


def heads_up_dealt(ctx: ServiceContext) -> tuple[int, int]:
    """A heads-up cash game with its first hand dealt: the game's and the hand's ids."""
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source())
    hand_id = latest_hands(ctx)[game][0]
    assert hand_id is not None
    return game, hand_id


def test_an_action_reads_no_hand_row(ctx: ServiceContext) -> None:
    game, hand_id = heads_up_dealt(ctx)
    dealt = hand_row(ctx, hand_id)
    sent: list[list[str]] = []
    while (turn := to_act(ctx, game)) is not None:  # calls and checks to the showdown
        player, legal, version = turn
        with on_hands(ctx) as statements:
            play.act(ctx, game, player, passive(legal)[0], expected_version=version)
        sent.append(statements)
    assert len(sent) >= 7  # heads-up: call, check, and two checks on each street
    *during, last = sent
    assert during == [[]] * len(during)
    # The action that ends the hand writes the row's end and final state, and reads
    # nothing.
    assert len(last) == 1 and last[0].startswith("UPDATE hands SET ended_at="), last
    ended = hand_row(ctx, hand_id)
    assert ended["ended_at"] is not None and ended["final_state"] is not None
    unchanged = {k: v for k, v in ended.items() if k not in ("ended_at", "final_state")}
    assert unchanged == {k: v for k, v in dealt.items() if k not in ("ended_at", "final_state")}


def test_a_game_row_without_its_hand_finds_it_once(ctx: ServiceContext) -> None:
    # Not a state play leaves (the migration filled in the games that had hands), but
    # the command still finds the hand by its number, and keeps its id for the next.
    game, hand_id = heads_up_dealt(ctx)
    with ctx.transaction() as session:
        session.execute(update(Game).where(Game.id == game).values(hand_id=None))
    turn = to_act(ctx, game)
    assert turn is not None
    with on_hands(ctx) as first:
        acted = play.act(ctx, game, turn[0], "call", expected_version=turn[2])
    assert len(first) == 1 and first[0].startswith("SELECT hands.id"), first
    assert {e.hand_id for e in acted.events} == {hand_id}
    assert latest_hands(ctx)[game] == (hand_id, hand_id)
    turn = to_act(ctx, game)
    assert turn is not None
    with on_hands(ctx) as second:
        play.act(ctx, game, turn[0], "check", expected_version=turn[2])
    assert second == []
