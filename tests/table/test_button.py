"""Where the button and blinds go: moving big blind, dead button, simple rotation,
heads-up transitions and the random first button."""

from __future__ import annotations

import pytest

from cardroom.deck import SeededRandomSource
from cardroom.rules import ButtonRule
from cardroom.table import Positions, Table, TableConfig, next_positions
from cardroom.table.button import admit_waiting, first_positions
from tests.table.kit import Ledger, blind_seats, play_hand, seated_table

MOVING = ButtonRule.MOVING_BIG_BLIND
DEAD = ButtonRule.DEAD_BUTTON
SIMPLE = ButtonRule.SIMPLE_ROTATION


def test_first_hand_blinds_follow_the_button() -> None:
    assert first_positions(1, {1, 3, 5}, 6) == Positions(1, 3, 5)
    assert first_positions(5, {1, 3, 5}, 6) == Positions(5, 1, 3)
    assert first_positions(3, {1, 3}, 6) == Positions(3, 3, 1)  # heads-up: button posts SB


@pytest.mark.parametrize("rule", [MOVING, DEAD, SIMPLE])
def test_with_nobody_leaving_everything_moves_one_player(rule: ButtonRule) -> None:
    last = Positions(1, 2, 4)
    assert next_positions(rule, last, {1, 2, 4, 6}, 6) == Positions(2, 4, 6)


# --- moving big blind (house cash games) -------------------------------------------


def test_moving_big_blind_last_big_blind_left_button_and_small_blind_stay_put() -> None:
    # "If the player who posted the big blind leaves, the button and the small blind
    # stay where they were for one hand."
    last = Positions(1, 2, 3)
    assert next_positions(MOVING, last, {1, 2, 4, 5}, 6) == Positions(1, 2, 4)


def test_moving_big_blind_last_small_blind_left_big_blind_still_moves_one() -> None:
    # the old BB posts the SB, the button stays with the player who had it
    last = Positions(1, 2, 3)
    assert next_positions(MOVING, last, {1, 3, 4, 5}, 6) == Positions(1, 3, 4)


def test_moving_big_blind_last_big_and_small_blind_both_left() -> None:
    # RULES.md, "button in cash games": the button stays where it was, nobody posts
    # the small blind that hand (its seat is empty), the big blind moves one player on
    last = Positions(2, 3, 4)
    dealt = {1, 2, 5, 6}
    pos = next_positions(MOVING, last, dealt, 6)
    assert pos == Positions(2, 3, 5)
    assert pos.posted_small_blind(dealt) is None
    # the hands after: the big blind goes on one player a hand and the button follows
    # it, so seat 1 never has the button before its turn (it used to get it at once)
    pos = next_positions(MOVING, pos, dealt, 6)
    assert pos == Positions(2, 5, 6)
    assert next_positions(MOVING, pos, dealt, 6) == Positions(5, 6, 1)


def test_moving_big_blind_never_skips_anyone_when_seats_empty() -> None:
    last = Positions(6, 1, 2)
    # seats 3 and 4 emptied: the BB goes to 5, the next player
    assert next_positions(MOVING, last, {1, 2, 5, 6}, 6) == Positions(1, 2, 5)


def test_moving_big_blind_three_to_two_nobody_posts_big_blind_twice() -> None:
    last = Positions(1, 2, 3)
    for gone in (1, 2, 3):
        left = {1, 2, 3} - {gone}
        pos = next_positions(MOVING, last, left, 6)
        assert pos.big_blind != 3 or gone == 3
        assert pos.button == pos.small_blind and pos.button in left
        assert {pos.button, pos.big_blind} == left


def test_moving_big_blind_newcomer_comes_in_when_the_big_blind_reaches_them() -> None:
    last = Positions(1, 2, 3)
    # seat 4 waits; the BB moves from 3 to the next player: seat 4
    assert admit_waiting(MOVING, last, {1, 2, 3, 6}, {4}, 6) == {1, 2, 3, 4, 6}
    # seat 5 waits behind seat 4 (dealt in): it waits one more hand
    assert admit_waiting(MOVING, last, {1, 2, 3, 4, 6}, {5}, 6) == {1, 2, 3, 4, 6}
    # seat 1 waits between the button and the blinds: the BB has just passed it
    assert admit_waiting(MOVING, Positions(6, 2, 3), {2, 3, 4, 6}, {1}, 6) == {2, 3, 4, 6}


def test_two_newcomers_come_in_one_hand_after_the_other() -> None:
    last = Positions(1, 2, 3)
    assert admit_waiting(MOVING, last, {1, 2, 3}, {4, 5}, 6) == {1, 2, 3, 4}
    assert admit_waiting(MOVING, Positions(2, 3, 4), {1, 2, 3, 4}, {5}, 6) == {1, 2, 3, 4, 5}


def test_waiting_players_come_in_at_once_at_a_table_short_of_players() -> None:
    assert admit_waiting(MOVING, Positions(1, 1, 2), {1}, {4, 5}, 6) == {1, 4, 5}


# --- dead button (house and legacy tournaments) ------------------------------------


def test_dead_button_big_blind_busted_small_blind_is_dead() -> None:
    # the SB goes on the last BB's seat (3), now empty: nobody posts it
    last = Positions(1, 2, 3)
    pos = next_positions(DEAD, last, {1, 2, 4, 5}, 6)
    assert pos == Positions(2, 3, 4)
    assert pos.posted_small_blind({1, 2, 4, 5}) is None


def test_dead_button_small_blind_busted_button_sits_on_an_empty_seat() -> None:
    last = Positions(1, 2, 3)
    pos = next_positions(DEAD, last, {1, 3, 4, 5}, 6)
    assert pos == Positions(2, 3, 4)  # the button on empty seat 2


def test_dead_button_both_blinds_busted() -> None:
    last = Positions(1, 2, 3)
    pos = next_positions(DEAD, last, {1, 4, 5}, 6)
    assert pos == Positions(2, 3, 4)
    assert pos.posted_small_blind({1, 4, 5}) is None


@pytest.mark.parametrize("gone", [1, 2, 3])
def test_dead_button_three_to_two_nobody_posts_big_blind_twice(gone: int) -> None:
    # "when play goes from three to two, nobody posts the big blind twice in a row;
    # the other player has the button"
    last = Positions(1, 2, 3)
    left = {1, 2, 3} - {gone}
    pos = next_positions(DEAD, last, left, 6)
    assert pos.big_blind != 3
    other = (left - {pos.big_blind}).pop()
    assert pos.button == pos.small_blind == other


def test_dead_button_three_to_two_from_a_dead_small_blind_hand() -> None:
    # last hand: button 5, dead SB on seat 1, BB seat 3; seat 5 busts
    pos = next_positions(DEAD, Positions(5, 1, 3), {3, 4}, 6)
    assert pos == Positions(3, 3, 4)


# --- simple rotation ---------------------------------------------------------------


def test_simple_rotation_button_moves_to_the_next_player_dealt_in() -> None:
    last = Positions(1, 2, 3)
    assert next_positions(SIMPLE, last, {1, 3, 4, 5}, 6) == Positions(3, 4, 5)
    assert next_positions(SIMPLE, last, {3, 5}, 6) == Positions(3, 3, 5)


def test_simple_rotation_newcomer_waits_until_counted_in_they_post_the_big_blind() -> None:
    last = Positions(1, 2, 3)
    # counted in, seat 5 would be the big blind (button 2, SB 3, BB 5): dealt in
    assert admit_waiting(SIMPLE, last, {1, 2, 3, 6}, {5}, 6) == {1, 2, 3, 5, 6}
    # counted in, seat 6 would not be (button 2, SB 3, BB 4): it waits
    assert admit_waiting(SIMPLE, last, {1, 2, 3, 4}, {6}, 6) == {1, 2, 3, 4}
    # a hand later (button 2, SB 3, BB 4) it would be: dealt in
    assert admit_waiting(SIMPLE, Positions(2, 3, 4), {1, 2, 3, 4}, {6}, 6) == {1, 2, 3, 4, 6}


# --- through a table ----------------------------------------------------------------


def test_arena_first_button_is_drawn_from_the_source() -> None:
    buttons = set()
    for seed in range(30):
        cfg = TableConfig.create("tournament", "arena", buy_in=1000, seat_count=4, blinds=(5, 10))
        ledger = Ledger()
        table = seated_table(cfg, {1: 1, 2: 2, 3: 3, 4: 4}, ledger, seed=seed)
        play_hand(table, SeededRandomSource(seed), 0.0)
        assert table.positions is not None
        buttons.add(table.positions.button)
        # the same seed draws the same button
        again = seated_table(cfg, {1: 1, 2: 2, 3: 3, 4: 4}, Ledger(), seed=seed)
        assert again.first_button == table.first_button
    assert buttons == {1, 2, 3, 4}


def test_house_cash_first_button_is_the_lowest_seat() -> None:
    cfg = TableConfig.create("cash", "house", buy_in=1000, seat_count=6)
    ledger = Ledger({p: 1000 for p in (1, 2, 3)})
    table = seated_table(cfg, {1: 2, 2: 4, 3: 6}, ledger)
    play_hand(table, SeededRandomSource(1), 0.0)
    assert table.positions == Positions(2, 4, 6)
    assert blind_seats(table) == (4, 6)


def test_hand_dealt_with_a_dead_small_blind_posts_no_small_blind() -> None:
    cfg = TableConfig.create("tournament", "house", buy_in=1000, seat_count=6)
    ledger = Ledger({p: 1000 for p in range(1, 5)})
    table: Table = seated_table(cfg, {p: p for p in range(1, 5)}, ledger)
    s0, s1, s2, s3 = sorted(table.seats)  # seats were drawn at random
    table.positions = Positions(s0, s1, s2)
    del table.seats[s2]  # the last big blind is gone
    play_hand(table, SeededRandomSource(2), 0.0)
    assert table.positions == Positions(s1, s2, s3)
    assert blind_seats(table) == (None, s3)
