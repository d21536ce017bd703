"""Stored hands: every hand played through the service is kept with its deck, setup,
commitment and the time of every action, and its record replays to exactly what was
stored as it happened (events, stacks, pots); the root is published before the
first card; a player's hands are listed newest first, per game too."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.events import EVENT_TYPES, HandShown, PlayerActed, PotAwarded
from cardroom.events import event_from_dict as engine_event
from cardroom.hand import Hand
from cardroom.history import fairness
from cardroom.history.record import HandRecord, replay
from cardroom.service import game_views, histories, stored_hands
from cardroom.service.context import ServiceContext
from cardroom.service.errors import InvalidInput
from cardroom.service.game_errors import GameNotFound
from cardroom.service.hand_rows import DECK_COMMITTED
from cardroom.store.models import AdminAction, GameEvent, HandPlayer
from cardroom.store.models import HandRecord as HandRow
from tests.history.storedkit import Room, stored_room

__all__ = ["stored_room"]

Played = tuple[ServiceContext, Room]


def rows_of(ctx: ServiceContext, hand_id: int) -> tuple[HandRow, list[GameEvent]]:
    with ctx.transaction() as session:
        row = session.get(HandRow, hand_id)
        assert row is not None
        events = list(
            session.scalars(
                select(GameEvent).where(GameEvent.game_id == row.game_id).order_by(GameEvent.seq)
            )
        )
        session.expunge_all()
        return row, events


def test_the_room_played_enough_hands_of_every_kind(stored_room: Played) -> None:
    ctx, room = stored_room
    seen: Counter[str] = Counter()
    for hand_id in room.hands:
        hand = replay(stored_hands.hand_record(ctx, hand_id))
        seen[hand.rules.name] += 1
        seen["showdown"] += any(isinstance(e, HandShown) for e in hand.events)
        seen["side pots"] += sum(isinstance(e, PotAwarded) for e in hand.events) > 1
        seen["all-in"] += any(getattr(e, "all_in", False) for e in hand.events)
        seen["clock"] += any(isinstance(e, PlayerActed) and e.timed_out for e in hand.events)
    with ctx.transaction() as session:
        folds = session.scalars(
            select(AdminAction).where(AdminAction.action == "fold_inactive")
        ).all()
    assert len(room.hands) >= 30
    assert all(seen[name] >= 5 for name in ("house", "standard", "arena", "legacy")), seen
    assert seen["showdown"] >= 5 and seen["all-in"] >= 3 and seen["clock"] >= 2, seen
    assert seen["side pots"] >= 1, seen
    assert folds, "an admin folded an inactive player at least once"


def test_every_stored_hand_replays_to_what_was_stored_as_it_happened(stored_room: Played) -> None:
    ctx, room = stored_room
    for hand_id in room.hands:
        record = stored_hands.hand_record(ctx, hand_id)
        row, events = rows_of(ctx, hand_id)
        replayed = replay(record)
        # the engine records stored during play, in order, are the replay's events
        stored = [
            engine_event({"type": e.kind, **e.payload})
            for e in events
            if e.hand_id == hand_id and e.kind in EVENT_TYPES
        ]
        assert replayed.events == stored, hand_id
        # and the whole engine state at the end: stacks, pots, board, folds...
        assert row.final_state is not None
        assert replayed.to_dict() == row.final_state, hand_id
        assert replayed.stacks == Hand.from_dict(row.final_state).stacks
        finished = next(e for e in events if e.hand_id == hand_id and e.kind == "HandFinished")
        assert finished.payload["number"] == row.number
        # the record is plain JSON and reads back the same
        again = HandRecord.from_dict(json.loads(json.dumps(record.to_dict())))
        assert again == record
        assert list(record.deck) == row.deck and record.hand_number == hand_id


def test_every_action_keeps_its_time(stored_room: Played) -> None:
    ctx, room = stored_room
    for hand_id in room.hands:
        record = stored_hands.hand_record(ctx, hand_id)
        row, events = rows_of(ctx, hand_id)
        acted = [e for e in events if e.hand_id == hand_id and e.kind == "PlayerActed"]
        assert [a.at for a in record.actions] == [e.created_at for e in acted]
        assert [a.seat for a in record.actions] == [e.payload["seat"] for e in acted]
        assert [a.timed_out for a in record.actions] == [
            e.payload.get("timed_out", False) for e in acted
        ]
        dealt = next(e for e in events if e.hand_id == hand_id and e.kind == "HandDealt")
        assert record.started_at == row.started_at == dealt.created_at
        times = [record.started_at, *(a.at for a in record.actions)]
        assert times == sorted(times)


def test_the_root_is_published_before_the_first_card(stored_room: Played) -> None:
    ctx, room = stored_room
    roots = set()
    for hand_id in room.hands:
        record = stored_hands.hand_record(ctx, hand_id)
        row, events = rows_of(ctx, hand_id)
        mine = [e for e in events if e.hand_id == hand_id]
        kinds = [e.kind for e in mine]
        committed = mine[kinds.index(DECK_COMMITTED)]
        assert kinds.count(DECK_COMMITTED) == 1
        # right after HandDealt, before any blind or card
        assert kinds.index("HandDealt") + 1 == kinds.index(DECK_COMMITTED)
        assert kinds.index(DECK_COMMITTED) < kinds.index("HoleCardDealt")
        assert committed.payload == {"number": row.number, "root": row.deck_root}
        # the root is the commitment to the stored deck with its stored salts
        assert record.deck_root is not None and record.deck_salts is not None
        root, _ = fairness.commit(record.deck, record.deck_salts)
        assert root == record.deck_root and root.hex() == row.deck_root
        assert len(record.deck_salts) == 52 and len(set(record.deck_salts)) == 52
        roots.add(root)
    assert len(roots) == len(room.hands)  # fresh salts every hand


def test_every_viewer_gets_the_root_and_nobody_the_salts(stored_room: Played) -> None:
    ctx, room = stored_room
    for game in room.games:
        with ctx.transaction() as session:
            rows = session.scalars(select(HandRow).where(HandRow.game_id == game)).all()
            roots = {row.number: row.deck_root for row in rows}
            salts = [s for row in rows for s in row.deck_salts or ()]
            players = session.scalars(
                select(HandPlayer.user_id).where(HandPlayer.game_id == game)
            ).all()
        for viewer in (None, min(players), room.admin):  # a spectator, a player, an admin
            seen = game_views.events_for(ctx, game, viewer)
            published = {e.data["number"]: e.data["root"] for e in seen if e.kind == DECK_COMMITTED}
            assert published == roots
            assert all(set(e.data) == {"number", "root"} for e in seen if e.kind == DECK_COMMITTED)
            text = json.dumps([e.data for e in seen])
            assert not any(salt in text for salt in salts)


def test_a_players_hands_newest_first_paged_and_by_game(stored_room: Played) -> None:
    ctx, room = stored_room
    with ctx.transaction() as session:
        dealt = [(p.user_id, p.hand_id, p.game_id) for p in session.scalars(select(HandPlayer))]
    for name, user in room.users.items():
        expected = sorted((h for u, h, _g in dealt if u == user and h in room.hands), reverse=True)
        got: list[int] = []
        before = None
        while True:
            page = histories.my_hands(ctx, user, limit=4, before=before)
            got.extend(h.id for h in page.hands)
            if page.next_before is None:
                break
            before = page.next_before
        assert got == expected, name
        for game in room.games:
            in_game = [h for u, h, g in dealt if u == user and g == game and h in room.hands]
            listed = histories.my_hands(ctx, user, game_id=game, limit=100).hands
            assert [h.id for h in listed] == sorted(in_game, reverse=True)
            assert all(h.game_id == game for h in listed)


def test_a_summary_says_what_the_player_held_and_won(stored_room: Played) -> None:
    ctx, room = stored_room
    user = room.users["ann"]
    for summary in histories.my_hands(ctx, user, limit=100).hands:
        record = stored_hands.hand_record(ctx, summary.id)
        hand = replay(record)
        i = hand.seats.index(summary.seat)
        assert record.names[summary.seat] == "ann"
        assert summary.cards == tuple(hand.hole[i]) and summary.board == tuple(hand.board)
        assert summary.net == hand.stacks[i] - hand.starting_stacks[i]
        assert summary.deck_root == record.deck_root.hex()  # type: ignore[union-attr]


def test_every_game_a_player_played_with_its_last_ten_hands(stored_room: Played) -> None:
    ctx, room = stored_room
    for name, user in room.users.items():
        history = histories.my_history(ctx, user)
        listed = [g.game_id for g in history.games]
        played = {h.game_id for h in histories.my_hands(ctx, user, limit=100).hands}
        assert set(listed) == played, name
        for game in history.games:
            everything = histories.my_hands(ctx, user, game_id=game.game_id, limit=100).hands
            assert game.hands == everything[:10]
            assert game.hands_played == len(everything)
        # paged one game at a time: the same games in the same order
        paged: list[int] = []
        before = None
        while True:
            page = histories.my_history(ctx, user, games=1, per_game=1, before=before)
            paged.extend(g.game_id for g in page.games)
            if page.next_before_game is None:
                break
            before = page.next_before_game
        assert paged == listed


@pytest.mark.parametrize(
    ("call", "refusal", "sentence"),
    [
        ({"limit": 0}, InvalidInput, "A page holds 1 to 100 hands."),
        ({"limit": 101}, InvalidInput, "A page holds 1 to 100 hands."),
        ({"before": 0}, InvalidInput, "'before' is a hand's number"),
        ({"game_id": 999_999}, GameNotFound, "There is no game 999999."),
    ],
)
def test_bad_listing_requests_are_refused_with_a_sentence(
    stored_room: Played, call: dict[str, Any], refusal: type[Exception], sentence: str
) -> None:
    ctx, room = stored_room
    with pytest.raises(refusal, match=re.escape(sentence)):
        histories.my_hands(ctx, room.users["ann"], **call)


def test_a_hand_still_being_played_has_no_history_yet(stored_room: Played) -> None:
    ctx, room = stored_room
    assert room.running
    for hand_id in room.running:
        with pytest.raises(stored_hands.HandNotOver, match="still being played"):
            stored_hands.hand_record(ctx, hand_id)
        assert hand_id not in {
            h.id for u in room.users.values() for h in histories.my_hands(ctx, u, limit=100).hands
        }


def test_unknown_hands_are_refused(stored_room: Played) -> None:
    ctx, _room = stored_room
    with pytest.raises(stored_hands.HandNotFound, match=r"There is no hand 999999\."):
        stored_hands.hand_record(ctx, 999_999)
    with pytest.raises(stored_hands.HandNotFound, match="whole number"):
        stored_hands.hand_record(ctx, 0)
