"""What a change sends a table's sockets, and the command's sender, is written without
the pydantic models and shared between the viewers of one change
(``change_views.ChangeViews``, ``game_answers.snapshot_text`` and the others): every
viewer must still get the very bytes they got before, and no card they may not see.

The reference is fixed in ``broadcast_golden.json``: the SHA-256 of every message of
``broadcast_kit.play_table`` as the models made them one viewer at a time, captured
from main at c3db9da (before this change) with ``broadcast_kit.py`` run by that
checkout's interpreter, and made again (``python -m tests.web.broadcast_kit OUT``)
when every summary gained ``waiting_for_players``: before that field, the kit still
made the old file byte for byte. The same messages are also compared in full with the models'
in this checkout (``ModelMessages``), which says where a difference is."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardroom.cards import card_text
from cardroom.service import change_views, game_details, game_views
from cardroom.service.change_views import ChangeViews
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import PlayResult, StoredEvent
from cardroom.service.game_views import GameChange
from cardroom.views import SEEN_FROM_A_SEAT
from cardroom.web import game_answers
from cardroom.web.game_answers import events_text, result_text, snapshot_text
from cardroom.web.live import live_of
from tests.web.broadcast_kit import ModelMessages, Played, digests, play_table
from tests.web.games_kit import Json, act, heads_up, last_seq, new_player, to_act, watching

GOLDEN = Path(__file__).with_name("broadcast_golden.json")


class FeedMessages:
    """The server's way: one ``ChangeViews`` per change, sealed for its viewers as
    the committer seals it, shared by the answer and every socket (``Live.announce``,
    ``GameFeed.catch_up``), and the text writers putting together what the views
    wrote once for several viewers. ``only``: the viewers watching in this process
    (the others are not sent anything, nor are their views made)."""

    def __init__(self, only: frozenset[str] | None = None) -> None:
        self.only = only

    def on_connect(self, ctx: ServiceContext, game: int, viewer: int | None) -> str:
        return snapshot_text(game_details.game_detail(ctx, game, viewer))

    def after_change(
        self,
        ctx: ServiceContext,
        result: PlayResult,
        change: GameChange,
        actor: int,
        sent: dict[str, int],
        viewers: dict[str, int | None],
    ) -> list[tuple[str, str]]:
        if self.only is not None:
            viewers = {name: v for name, v in viewers.items() if name in self.only}
        views = ChangeViews(change)
        views.seal(set(viewers.values()), ctx.now())
        answer = views.events(actor, change.after_seq)
        out = [("actor", result_text("r1", result, answer, views))]
        for name, viewer in viewers.items():
            update = views.update(viewer, sent[name], ctx.now())
            if update.events:
                version = update.events[-1].version
                out.append((name, events_text(version, update.events, views)))
            out.append((name, snapshot_text(update.detail, views)))
            sent[name] = update.detail.last_seq
        return out


@pytest.fixture(scope="module")
def played() -> Played:
    return play_table(FeedMessages())


def test_every_message_is_the_one_sent_before(played: Played) -> None:
    assert digests(played) == json.loads(GOLDEN.read_text())


def test_every_message_is_the_models_own(played: Played, reference: Played) -> None:
    """The same messages in full, against the models in this checkout: a difference
    shows where it is."""
    assert len(played.messages) == len(reference.messages)
    for ours, theirs in zip(played.messages, reference.messages, strict=True):
        assert ours == theirs


@pytest.fixture(scope="module")
def reference() -> Played:
    return play_table(ModelMessages())


@pytest.mark.parametrize(
    "watching",
    [("alice", "bob"), ("carol", "spectator"), ("spectator",), ("bob", "carol")],
    ids="+".join,
)
def test_every_message_is_the_models_own_whoever_watches(
    reference: Played, watching: tuple[str, ...]
) -> None:
    """With only the players watching in this process (no spectator's view made),
    only spectators, or some of each, every viewer still gets the same bytes."""
    ours = play_table(FeedMessages(frozenset(watching)))
    wanted = {"actor", *watching}
    theirs = [m for m in reference.messages if m[0] == 0 or m[1] in wanted]
    assert len(ours.messages) == len(theirs)
    for mine, model in zip(ours.messages, theirs, strict=True):
        assert mine == model


class DetailsCompared:
    """Every viewer's detail of every change from one ``MomentDetails``, against
    ``detail_of`` made for them alone; also for a player who is nowhere."""

    def __init__(self) -> None:
        self.compared = 0

    def on_connect(self, ctx: ServiceContext, game: int, viewer: int | None) -> str:
        return snapshot_text(game_details.game_detail(ctx, game, viewer))

    def after_change(
        self,
        ctx: ServiceContext,
        result: PlayResult,
        change: GameChange,
        actor: int,
        sent: dict[str, int],
        viewers: dict[str, int | None],
    ) -> list[tuple[str, str]]:
        moment, now = change.moment, ctx.now()
        for order in (list(viewers.values()), list(reversed(viewers.values()))):
            details = game_details.MomentDetails(moment, now)
            for viewer in [*order, 10_000, None]:
                made = details.detail(viewer, now)
                assert made == game_details.detail_of(moment, viewer, now), viewer
                self.compared += 1
        return []


def test_a_moments_details_are_each_viewers_own() -> None:
    compared = DetailsCompared()
    play_table(compared)
    assert compared.compared > 200


def test_the_plan_shows_what_it_must(played: Played) -> None:
    """The played hands hold what the comparison must cover: a showdown with a hand
    mucked, an all-in run-out's equity, a fold, a viewer's legal actions and what
    sitting down costs one who is not seated."""
    kinds = {e.kind for e in played.stored}
    assert {"HandShown", "HandMucked", "BetReturned", "HoleCardDealt", "CardBurned"} <= kinds
    games = [json.loads(t)["game"] for _, _, t in played.messages if '"snapshot"' in t[:20]]
    assert any(g["hand"] and g["hand"]["equity"] for g in games)
    assert any(g["hand"] and g["hand"]["legal"] for g in games)
    assert any(g["viewer_cost"] for g in games)


def test_only_a_hole_card_is_seen_from_a_seat(played: Played) -> None:
    """A change's sockets share one view of every event but a hole card
    (``views.SEEN_FROM_A_SEAT``): every other event of the played hands looks the
    same from every seat and from none."""
    for event in played.stored:
        seen = {
            json.dumps(game_views.view_event(event, seat).data, sort_keys=True)
            for seat in (None, 0, 1, 2)
        }
        if event.kind in SEEN_FROM_A_SEAT:
            assert len(seen) == 2, event  # the owner's card, and everyone else's None
        else:
            assert len(seen) == 1, event


# -- hidden cards ---------------------------------------------------------------------


class Hands:
    """The truth of the played hands, from the complete log."""

    def __init__(self, stored: list[StoredEvent]) -> None:
        self.seats: dict[int, dict[int, int]] = {}  # hand -> player -> seat
        self.hole: dict[int, dict[int, list[str]]] = {}  # hand -> seat -> cards
        self.shown_at: dict[tuple[int, int], int] = {}  # (hand, seat) -> seq
        self.dealt: list[tuple[int, int]] = []  # (seq, hand) of every HandDealt
        for e in stored:
            if e.hand_id is None:
                continue
            if e.kind == "HandDealt":
                self.seats[e.hand_id] = {p: s for s, p, _ in e.payload["players"]}
                self.dealt.append((e.seq, e.hand_id))
            elif e.kind == "HoleCardDealt":
                cards = self.hole.setdefault(e.hand_id, {}).setdefault(e.payload["seat"], [])
                cards.append(card_text(e.payload["card"]))
            elif e.kind == "HandShown":
                self.shown_at[e.hand_id, e.payload["seat"]] = e.seq

    def hand_at(self, seq: int) -> int:
        return max(hand for at, hand in self.dealt if at <= seq)

    def seat(self, hand: int, viewer: int | None) -> int | None:
        return None if viewer is None else self.seats[hand].get(viewer)

    def hidden(self, hand: int, viewer: int | None, seq: int) -> Iterator[tuple[int, str]]:
        """(seat, card) of every hole card the viewer may not see at ``seq``."""
        mine = self.seat(hand, viewer)
        for seat, cards in self.hole.get(hand, {}).items():
            shown = self.shown_at.get((hand, seat))
            if seat != mine and (shown is None or shown > seq):
                yield from ((seat, card) for card in cards)


def _check_events(hands: Hands, events: list[Json], viewer: int | None) -> None:
    for event in events:
        data = event["data"]
        if event["type"] == "HoleCardDealt":
            own = data["seat"] == hands.seat(event["hand_id"], viewer)
            assert (data["card"] is not None) == own, (viewer, event)
        elif event["type"] == "CardBurned":
            assert data["card"] is None, event


def _check_snapshot(hands: Hands, text: str, viewer: int | None) -> None:
    message = json.loads(text)
    hand = message["game"]["hand"]
    if hand is None:
        return
    seq = message["seq"]
    number = hands.hand_at(seq)
    mine = hands.seat(number, viewer)
    secret = dict(hands.hidden(number, viewer, seq))
    for player in hand["players"]:
        if player["seat"] in secret:
            assert player["cards"] is None, (viewer, player)
    own = hands.hole[number].get(mine, []) if mine is not None else []
    assert hand["my_cards"] == own
    for card in secret.values():  # nowhere else in the message either
        assert not re.search(f'"{card}"', text), (viewer, card)


def test_nobody_sees_a_card_they_may_not(played: Played) -> None:
    hands = Hands(played.stored)
    checked = 0
    for command, whom, text in played.messages:
        viewer = played.actors[command] if whom == "actor" else played.viewers[whom]
        message = json.loads(text)
        if message["type"] == "snapshot":
            _check_snapshot(hands, text, viewer)
        elif message["type"] == "events":
            _check_events(hands, message["events"], viewer)
        else:
            _check_events(hands, message["result"]["events"], viewer)
        checked += 1
    assert checked == len(played.messages) > 100


# -- shared work ----------------------------------------------------------------------


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often ``ChangeViews`` makes its shared parts and its events' views."""
    calls = {"MomentDetails": 0, "spectators_hand": 0, "view_event": 0}

    def counting(real: Any, name: str) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)

        return wrapper

    for name in calls:
        # The part of the game every viewer sees alike (``MomentDetails``) is made
        # for ``change_views``, the spectators' hand inside it (``game_details``).
        module = game_details if name == "spectators_hand" else change_views
        real = getattr(module, name)
        monkeypatch.setattr(module, name, counting(real, name))
    return calls


def test_viewers_of_a_change_share_its_views(
    ctx: ServiceContext, counted: dict[str, int], client: TestClient
) -> None:
    """N viewers of one change: the public part of the table made once, the
    spectators' hand once, a hole card's view once per seat it is seen from, every
    other event's once."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    others = [new_player(client, f"kibitzer{i}") for i in range(3)]
    game = heads_up(client, alice, bob)
    first = game_views.change_after(ctx, game, 0)
    counted.update(dict.fromkeys(counted, 0))  # the table's setup is not counted
    views = ChangeViews(first)
    viewers: list[int | None] = [alice.id, bob.id, None, None, *(p.id for p in others)]
    updates = [views.update(v, 0, ctx.now()) for v in viewers]
    assert counted["MomentDetails"] == 1 and counted["spectators_hand"] == 1
    # A hole card seen from alice's seat, bob's, and no seat (every spectator
    # alike); every other event seen alike by all.
    hole_cards = sum(1 for e in first.events if e.kind == "HoleCardDealt")
    assert hole_cards == 4
    assert counted["view_event"] == 3 * hole_cards + len(first.events) - hole_cards
    for viewer, update in zip(viewers, updates, strict=True):
        assert update == game_views.update_from(first, viewer, 0, ctx.now())
    # The spectators' detail is one record, shared by every anonymous spectator.
    assert updates[2].detail is updates[3].detail


def test_a_spectators_detail_is_made_for_spectators_only(
    ctx: ServiceContext, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change watched by its players alone makes their two details and no
    spectator's; with spectators, theirs once however many they are."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    first = game_views.change_after(ctx, game, 0)
    made: list[int | None] = []
    real = game_details._with_hand

    def counting(public: Any, hand: Any, seat: int | None, cost: int | None) -> Any:
        made.append(seat)
        return real(public, hand, seat, cost)

    monkeypatch.setattr(game_details, "_with_hand", counting)
    ChangeViews(first).seal([alice.id, bob.id], ctx.now())
    assert len(made) == 2 and None not in made
    made.clear()
    ChangeViews(first).seal([alice.id, None, bob.id, None], ctx.now())
    assert len(made) == 3 and made.count(None) == 1


def test_what_the_viewers_of_a_change_share_is_written_once(
    ctx: ServiceContext, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each event's view is written to JSON once for every socket sent it, the part
    of the game every viewer sees alike once, and a snapshot once per viewer however
    many sockets they have (two each here, the spectators being one viewer)."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    first = game_views.change_after(ctx, game, 0)
    calls = {"_event_text": 0, "_public_text": 0, "_shared_snapshot_text": 0}
    for name in calls:
        real = getattr(game_answers, name)

        def counting(*args: Any, real: Any = real, name: str = name) -> Any:
            calls[name] += 1
            return real(*args)

        monkeypatch.setattr(game_answers, name, counting)
    views = ChangeViews(first)
    viewers: list[int | None] = [alice.id, bob.id, None]
    views.seal(viewers, ctx.now())
    for viewer in viewers * 2:
        update = views.update(viewer, 0, ctx.now())
        assert events_text(1, update.events, views) == events_text(1, update.events)
        assert snapshot_text(update.detail, views) == snapshot_text(update.detail)
    hole_cards = sum(1 for e in first.events if e.kind == "HoleCardDealt")
    assert calls["_event_text"] == 3 * hole_cards + len(first.events) - hole_cards
    assert calls["_public_text"] == 1
    assert calls["_shared_snapshot_text"] == len(viewers)


def test_sockets_of_a_table_share_one_public_detail_per_change(
    ctx: ServiceContext,
    counted: dict[str, int],
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """And the command's answer shares the sockets' views of its events."""
    real_view_event = game_views.view_event

    def view_event(*args: Any) -> Any:  # the views made outside ChangeViews
        counted["view_event"] += 1
        return real_view_event(*args)

    monkeypatch.setattr(game_views, "view_event", view_event)
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    carol, dave = new_player(client, "carol"), new_player(client, "dave")
    game = heads_up(client, alice, bob)
    with ExitStack() as stack:
        watchers = [
            stack.enter_context(watching(client, game, p)) for p in (alice, bob, carol, dave)
        ]
        for moves in range(1, 4):
            mover = to_act(client, game, [alice, bob])
            assert mover is not None
            before, seq_before = dict(counted), last_seq(ctx, game)
            assert act(client, game, mover, "call" if moves == 1 else "check").status_code == 200
            seq = last_seq(ctx, game)
            for w in watchers:
                w.settle(seq)
            # No hole card is dealt by a call or a check: each event is seen alike by
            # the answer and the four sockets, and made into its view once (from the
            # second change on: the first is read, its names not known here yet).
            if moves > 1:
                made = counted["view_event"] - before["view_event"]
                assert made == seq - seq_before, (moves, made)
            assert counted["MomentDetails"] - before["MomentDetails"] == 1, (moves, counted, before)
            # carol and dave, neither seated nor dealt in, share the spectators' hand.
            assert counted["spectators_hand"] - before["spectators_hand"] == 1, moves
            # Once every socket has had its messages, the views are let go: a
            # watched table keeps only the change itself until the next one.
            read = live_of(client.app).reads[game]
            assert read.views is not None
            deadline = time.monotonic() + 5
            while read.views.kept() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert not read.views.kept()


def test_events_seen_alike_are_one_tuple_written_once(
    ctx: ServiceContext, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change without a hole card is seen alike from every seat: its viewers (and
    the command's answer) share one tuple of its events, and the socket's message of
    them is written once. A change with hole cards is seen from each seat."""
    alice, bob = new_player(client, "alice"), new_player(client, "bob")
    game = heads_up(client, alice, bob)
    dealt = game_views.change_after(ctx, game, 0)
    mover = to_act(client, game, [alice, bob])
    assert mover is not None
    seq = last_seq(ctx, game)
    assert act(client, game, mover, "call").status_code == 200
    acted = game_views.change_after(ctx, game, seq)
    written: list[int] = []
    real = game_answers._events_text

    def counting(*args: Any) -> str:
        written.append(1)
        return real(*args)

    monkeypatch.setattr(game_answers, "_events_text", counting)
    views = ChangeViews(acted)
    seen = [views.events(v, seq) for v in (alice.id, bob.id, None)]
    assert seen[0] is seen[1] is seen[2] and seen[0]
    texts = [events_text(seen[0][-1].version, s, views) for s in seen]
    assert texts == [events_text(seen[0][-1].version, seen[0])] * 3 and len(written) == 1
    views = ChangeViews(dealt)
    mine, theirs = views.events(alice.id, 0), views.events(bob.id, 0)
    assert mine is not theirs and mine != theirs
