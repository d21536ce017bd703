"""The bot's input: its own cards and the public state, never another player's cards."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from cardroom.actions import NotYourTurn
from cardroom.bots.policy import decide
from cardroom.bots.view import PlayerView, PublicAction, SeatView, view_for
from cardroom.cards import parse_cards
from cardroom.deck import SeededRandomSource
from tests.handkit import act, deal


def test_a_view_has_no_field_for_other_players_cards() -> None:
    fields = {f.name: f.type for f in dataclasses.fields(SeatView)}
    assert set(fields) == {
        "seat", "hole", "board", "street", "players", "button_seat", "small_blind",
        "big_blind", "legal", "history",
    }  # fmt: skip
    hints = typing.get_type_hints(SeatView)
    assert hints["hole"] == tuple[int, int]  # exactly one hand: its own
    player_fields = {f.name for f in dataclasses.fields(PlayerView)}
    assert player_fields == {"seat", "stack", "bet", "put_in", "folded"}
    action_fields = {f.name for f in dataclasses.fields(PublicAction)}
    assert action_fields == {"street", "seat", "action", "amount", "to", "all_in"}


def test_views_are_frozen() -> None:
    hand = deal([1000, 1000, 1000], hole=["AsAh", "KsKh", "2c7d"])
    view = view_for(hand, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hole = (0, 1)  # type: ignore[misc]


def same_play(hole: list[str | None]) -> SeatView:
    hand = deal([1000, 2000, 3000, 1500], hole=hole, board="Qs 8c 2h 5d 9s")
    act(hand, "r300", "c", "f", "c", "x", "x", "b400", "c")  # seat 3 faces a bet on the flop
    assert hand.seat_to_act == 3
    return view_for(hand, 3)


def test_other_players_cards_do_not_change_the_view() -> None:
    mine = "Jc Jd"
    a = same_play(["AsAh", "KsKh", mine, "2c7d"])
    b = same_play(["3c4c", "Td9d", mine, "AcKc"])
    assert a == b
    assert a.hole == tuple(parse_cards(mine))
    # nor the bot's decision, for the same seed
    for level in ("beginner", "regular", "shark"):
        da = decide(a, level, SeededRandomSource("same"))
        db = decide(b, level, SeededRandomSource("same"))
        assert da == db


def test_the_view_carries_the_public_state() -> None:
    hand = deal([1000, 2000, 3000, 1500], hole=["AsAh", "KsKh", "JcJd", "2c7d"], board="Qs8c2h5d9s")
    act(hand, "r300", "c", "f", "c", "x", "x", "b400", "c")
    view = view_for(hand, 3)
    assert view.board == tuple(parse_cards("Qs 8c 2h"))
    assert view.street == 1
    assert view.pot == 50 + 300 * 3 + 400 * 2
    assert [p.seat for p in view.players] == [1, 2, 3, 4]  # dealing order, button last
    assert view.me.seat == 3 and view.index == 2
    assert [p.folded for p in view.players] == [True, False, False, False]
    assert view.legal.to_call == 400
    assert {p.seat for p in view.opponents} == {2, 4}
    steps = [(s.street, s.seat, s.action, s.to) for s in view.history]
    assert steps == [
        (0, 1, "small_blind", 50), (0, 2, "big_blind", 100), (0, 3, "raise", 300),
        (0, 4, "call", 300), (0, 1, "fold", 50), (0, 2, "call", 300), (1, 2, "check", 0),
        (1, 3, "check", 0), (1, 4, "bet", 400), (1, 2, "call", 400),
    ]  # fmt: skip


def test_only_the_seat_to_act_gets_a_view() -> None:
    hand = deal([1000, 1000, 1000])
    with pytest.raises(NotYourTurn):
        view_for(hand, 1)
