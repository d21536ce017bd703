"""Seats and who is dealt in.

A seat holds a player and the chips in front of them between hands. Who plays the next
hand depends on the format:

- cash games: a player with chips who is not sitting out; a player who joined a
  running game, or missed a hand while sitting out or at zero, waits for the big blind;
- per-hand tables: a player who is not sitting out and has the buy-in in their balance;
- tournaments: every player with chips, present or not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cardroom.deck import RandomSource
from cardroom.rules import Format
from cardroom.table.errors import AlreadySeated, SeatUnavailable
from cardroom.table.events import PlayerId

# The formats ``can_play`` compares with, for each seat at each deal, read once
# (see ``cardroom.table.table``).
_PER_HAND, _TOURNAMENT = Format.PER_HAND, Format.TOURNAMENT


class Leaving(StrEnum):
    """Why a player is cashed out as soon as nothing of theirs is in a pot."""

    LEFT = "left"
    TIMED_OUT = "timed_out"


@dataclass(slots=True)
class Seat:
    number: int
    player: PlayerId
    stack: int  # chips in front of the player between hands
    sitting_out: bool = False
    waiting: bool = False  # for the big blind
    timeouts: int = 0  # clock timeouts in a row
    leaving: Leaving | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "player": self.player,
            "stack": self.stack,
            "sitting_out": self.sitting_out,
            "waiting": self.waiting,
            "timeouts": self.timeouts,
            "leaving": None if self.leaving is None else self.leaving.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        leaving = data["leaving"]
        return cls(
            data["number"],
            data["player"],
            data["stack"],
            data["sitting_out"],
            data["waiting"],
            data["timeouts"],
            None if leaving is None else Leaving(leaving),
        )


def choose_seat(
    seats: Mapping[int, Seat],
    player: PlayerId,
    wanted: int | None,
    seat_count: int,
    busy: Iterable[int] = (),
) -> int:
    """The seat a joining player gets: the one asked for, or the first free one. Seats
    of a hand still being played stay busy until it ends."""
    if any(s.player == player for s in seats.values()):
        raise AlreadySeated("You already have a seat at this table.")
    blocked = set(seats) | set(busy)
    if wanted is None:
        for number in range(1, seat_count + 1):
            if number not in blocked:
                return number
        raise SeatUnavailable("The table is full.")
    if not 1 <= wanted <= seat_count:
        raise SeatUnavailable(f"There is no seat {wanted}: seats are 1 to {seat_count}.")
    if wanted in seats:
        raise SeatUnavailable(f"Seat {wanted} is taken.")
    if wanted in blocked:
        raise SeatUnavailable(f"Seat {wanted} is free once the hand being played ends.")
    return wanted


def draw_seats(seats: Mapping[int, Seat], seat_count: int, source: RandomSource) -> dict[int, Seat]:
    """Seat the players at random (a tournament's seat draw): a Fisher-Yates shuffle of
    every seat number from ``source``, the players in seat order taking the first ones."""
    numbers = list(range(1, seat_count + 1))
    for i in range(len(numbers) - 1, 0, -1):
        j = source.randbelow(i + 1)
        numbers[i], numbers[j] = numbers[j], numbers[i]
    drawn: dict[int, Seat] = {}
    for seat, number in zip((seats[n] for n in sorted(seats)), numbers, strict=False):
        seat.number = number
        drawn[number] = seat
    return drawn


def can_play(seat: Seat, fmt: Format, balance: int | None = None, buy_in: int = 0) -> bool:
    """Could this player be dealt into the next hand (waiting for the big blind aside)?"""
    if fmt is _TOURNAMENT:
        return seat.stack > 0
    if seat.sitting_out or seat.leaving is not None:
        return False
    if fmt is _PER_HAND:
        return balance is not None and balance >= buy_in
    return seat.stack > 0


def ready_and_waiting(
    seats: Mapping[int, Seat],
    fmt: Format,
    balances: Mapping[PlayerId, int] | None = None,
    buy_in: int = 0,
) -> tuple[set[int], set[int]]:
    """Seats that can play the next hand: those ready at once and those waiting for
    the big blind."""
    ready: set[int] = set()
    waiting: set[int] = set()
    for number, seat in seats.items():
        balance = None if balances is None else balances.get(seat.player, 0)
        if can_play(seat, fmt, balance, buy_in):
            (waiting if seat.waiting else ready).add(number)
    return ready, waiting
