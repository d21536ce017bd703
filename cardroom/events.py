"""The steps of a hand as small immutable records.

The same records are the hand's log, what the server streams (filtered per viewer),
what replays read and what exports write. Players are named by their table seat.
Named tuples keep them immutable and cheap: a hand emits a few dozen.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias


class BlindPosted(NamedTuple):
    seat: int
    blind: str  # "small_blind", "big_blind" or "ante"
    amount: int
    all_in: bool


class HoleCardDealt(NamedTuple):
    seat: int
    card: int


class CardBurned(NamedTuple):
    card: int


class BoardDealt(NamedTuple):
    street: str  # "flop", "turn" or "river"
    cards: tuple[int, ...]


class PlayerActed(NamedTuple):
    seat: int
    action: str  # "fold", "check", "call", "bet", "raise"
    amount: int  # chips put in by this action
    bet: int  # the player's total bet in this round after it
    all_in: bool
    timed_out: bool = False


class BetReturned(NamedTuple):
    seat: int
    amount: int


class HandShown(NamedTuple):
    seat: int
    cards: tuple[int, ...]
    rank: int
    name: str


class HandMucked(NamedTuple):
    seat: int


class PotAwarded(NamedTuple):
    pot: int  # 0 is the main pot
    amount: int
    winners: tuple[int, ...]  # seats
    shares: tuple[int, ...]  # chips each winner takes, odd chips included
    hand_name: str  # "" when won without a showdown


class HandEnded(NamedTuple):
    stacks: tuple[int, ...]  # final stacks in the hand's seat order


Event: TypeAlias = (
    BlindPosted
    | HoleCardDealt
    | CardBurned
    | BoardDealt
    | PlayerActed
    | BetReturned
    | HandShown
    | HandMucked
    | PotAwarded
    | HandEnded
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        BlindPosted,
        HoleCardDealt,
        CardBurned,
        BoardDealt,
        PlayerActed,
        BetReturned,
        HandShown,
        HandMucked,
        PotAwarded,
        HandEnded,
    )
}


def event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type(event).__name__}
    for key, value in event._asdict().items():
        data[key] = list(value) if isinstance(value, tuple) else value
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("type")]
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    event: Event = cls(**values)
    return event
