"""Where the button and the blinds go each hand.

Seats are numbered 1 to ``seat_count`` clockwise. ``dealt`` is the set of seats dealt
into the next hand; ``last`` is where the button and blinds were the hand before.

- **Moving big blind** (``house`` cash games): the big blind moves to the next player
  clockwise, so nobody posts it twice in a row or skips it; the small blind is the
  player before the big blind and the button the player before that. When the last
  big blind has left, the player before the new big blind is the last small blind: the
  button and the small blind stay where they were for one hand. When the last small
  blind's player has left too, nobody posts the small blind that hand (its seat is
  empty) and the button still stays where it was, unless players who came in at
  once after a pause for lack of players sit between that seat and the new big
  blind: then the blinds are the players before the big blind, as usual.
- **Dead button** (WSOP rule 49, ``house`` and ``legacy`` tournaments): the big blind
  moves to the next player; the small blind goes on the seat of the last big blind and
  the button on the seat of the last small blind, even when those seats are empty (a
  dead small blind is not posted; a dead button deals from an empty seat).
- **Simple rotation** (``standard``, ``legacy`` cash, ``arena``): the button moves to
  the next player dealt in, the blinds are the next two players.

Heads-up, the button posts the small blind. Under the moving big blind and the dead
button, the big blind of a heads-up hand is the next player after the last big blind,
so when play goes from three to two nobody posts it twice in a row and the other
player has the button.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from cardroom.rules import ButtonRule

# The rules ``next_positions`` compares with at each deal, read once (see
# ``cardroom.table.table``).
_SIMPLE_ROTATION, _MOVING_BIG_BLIND = ButtonRule.SIMPLE_ROTATION, ButtonRule.MOVING_BIG_BLIND


@dataclass(frozen=True, slots=True)
class Positions:
    """Seats of the button and the blinds. Under the dead button the button and the
    small blind may name seats that nobody dealt in occupies."""

    button: int
    small_blind: int
    big_blind: int

    def posted_small_blind(self, dealt: Collection[int]) -> int | None:
        """The seat that posts the small blind, None for a dead small blind."""
        return self.small_blind if self.small_blind in dealt else None

    def to_dict(self) -> dict[str, Any]:
        return {"button": self.button, "small_blind": self.small_blind, "big_blind": self.big_blind}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Positions:
        return cls(data["button"], data["small_blind"], data["big_blind"])


def clockwise_after(seat: int, seat_count: int) -> list[int]:
    """Every seat in clockwise order starting just after ``seat``, ``seat`` last."""
    return [(seat + k - 1) % seat_count + 1 for k in range(1, seat_count + 1)]


def next_seat(seat: int, among: Collection[int], seat_count: int) -> int:
    """The first seat of ``among`` clockwise after ``seat`` (``seat`` itself last)."""
    for s in clockwise_after(seat, seat_count):
        if s in among:
            return s
    raise ValueError("No seat to move to.")


def previous_seat(seat: int, among: Collection[int], seat_count: int) -> int:
    """The first seat of ``among`` counter-clockwise before ``seat``."""
    for s in reversed(clockwise_after(seat, seat_count)[:-1]):
        if s in among:
            return s
    raise ValueError("No seat to move to.")


def first_positions(button: int, dealt: Collection[int], seat_count: int) -> Positions:
    """The first hand: the button on ``button`` (a seat dealt in), the blinds after it."""
    if len(dealt) == 2:
        return Positions(button, button, next_seat(button, dealt, seat_count))
    small = next_seat(button, dealt, seat_count)
    return Positions(button, small, next_seat(small, dealt, seat_count))


def next_positions(
    rule: ButtonRule, last: Positions, dealt: Collection[int], seat_count: int
) -> Positions:
    """Where the button and blinds go for a hand dealt to ``dealt`` (two or more seats)."""
    if len(dealt) < 2:
        raise ValueError("A hand needs two players.")
    if rule is _SIMPLE_ROTATION:
        return first_positions(next_seat(last.button, dealt, seat_count), dealt, seat_count)
    big = next_seat(last.big_blind, dealt, seat_count)
    if len(dealt) == 2:  # heads-up: the other player has the button and posts the small blind
        other = next_seat(big, dealt, seat_count)
        return Positions(other, other, big)
    heads_up_before = last.button == last.small_blind
    if (
        rule is _MOVING_BIG_BLIND
        and not heads_up_before
        and last.small_blind not in dealt
        and last.big_blind not in dealt
        and next_seat(last.small_blind, dealt, seat_count) == big
    ):
        # Both blinds' players have left: were the button to follow the big blind
        # back, the player before the button would get it out of turn. So the
        # button and the (now empty) small blind's seat stay where they were.
        # Unless players came in at once after a pause for lack of players and sit
        # between that seat and the big blind: nobody is dealt in between the
        # blinds, so the blinds go to the players before the big blind as usual.
        return Positions(last.button, last.small_blind, big)
    if rule is _MOVING_BIG_BLIND or heads_up_before:
        small = previous_seat(big, dealt, seat_count)
        return Positions(previous_seat(small, dealt, seat_count), small, big)
    # the dead button: positions follow the seats, occupied or not
    return Positions(last.small_blind, last.big_blind, big)


def admit_waiting(
    rule: ButtonRule,
    last: Positions | None,
    dealt: Collection[int],
    waiting: Iterable[int],
    seat_count: int,
) -> set[int]:
    """Who is dealt in, given players waiting for the big blind: a waiting player comes
    in at the first hand where, counted in, they post the big blind. Under the moving
    big blind that is when the big blind reaches their seat, so nobody skips it. With
    fewer than two others to play (a paused table) every waiting player comes in."""
    seats = set(dealt)
    waiting = set(waiting)
    if len(seats) < 2 or last is None:
        return seats | waiting
    for seat in clockwise_after(last.big_blind, seat_count):
        if (
            seat in waiting
            and next_positions(rule, last, seats | {seat}, seat_count).big_blind == seat
        ):
            return seats | {seat}
    return seats
