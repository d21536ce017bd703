"""The steps of a hand as small immutable records.

The same records are the hand's log, what the server streams (filtered per viewer),
what replays read and what exports write. Players are named by their table seat.
Named tuples keep them immutable and cheap: a hand emits a few dozen.

Each record writes itself as plain data (``to_dict``: its type's name, then its
fields in order, tuples as lists) and reads itself back (``from_dict``): one small
function per type, because the table's state holds the hand's whole log and every
command writes it (the generic way, ``_asdict`` and a test of every value, cost
about three times as much). ``tests/test_event_codec.py`` holds them to the generic
way for every type.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias


class BlindPosted(NamedTuple):
    seat: int
    blind: str  # "small_blind", "big_blind" or "ante"
    amount: int
    all_in: bool

    def to_dict(self) -> dict[str, Any]:
        seat, blind, amount, all_in = self
        return {
            "type": "BlindPosted", "seat": seat, "blind": blind, "amount": amount,
            "all_in": all_in,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlindPosted:
        return _new(cls, (data["seat"], data["blind"], data["amount"], data["all_in"]))


class HoleCardDealt(NamedTuple):
    seat: int
    card: int

    def to_dict(self) -> dict[str, Any]:
        seat, card = self
        return {"type": "HoleCardDealt", "seat": seat, "card": card}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HoleCardDealt:
        return _new(cls, (data["seat"], data["card"]))


class CardBurned(NamedTuple):
    card: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "CardBurned", "card": self[0]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardBurned:
        return _new(cls, (data["card"],))


class BoardDealt(NamedTuple):
    street: str  # "flop", "turn" or "river"
    cards: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        street, cards = self
        return {"type": "BoardDealt", "street": street, "cards": list(cards)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BoardDealt:
        return _new(cls, (data["street"], _tuple(data["cards"])))


class PlayerActed(NamedTuple):
    seat: int
    action: str  # "fold", "check", "call", "bet", "raise"
    amount: int  # chips put in by this action
    bet: int  # the player's total bet in this round after it
    all_in: bool
    timed_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        seat, action, amount, bet, all_in, timed_out = self
        return {
            "type": "PlayerActed", "seat": seat, "action": action, "amount": amount,
            "bet": bet, "all_in": all_in, "timed_out": timed_out,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerActed:
        return _new(
            cls,
            (
                data["seat"], data["action"], data["amount"], data["bet"], data["all_in"],
                data["timed_out"],
            ),
        )  # fmt: skip


class BetReturned(NamedTuple):
    seat: int
    amount: int

    def to_dict(self) -> dict[str, Any]:
        seat, amount = self
        return {"type": "BetReturned", "seat": seat, "amount": amount}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BetReturned:
        return _new(cls, (data["seat"], data["amount"]))


class HandShown(NamedTuple):
    seat: int
    cards: tuple[int, ...]
    rank: int
    name: str

    def to_dict(self) -> dict[str, Any]:
        seat, cards, rank, name = self
        return {"type": "HandShown", "seat": seat, "cards": list(cards), "rank": rank, "name": name}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandShown:
        return _new(cls, (data["seat"], _tuple(data["cards"]), data["rank"], data["name"]))


class HandMucked(NamedTuple):
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "HandMucked", "seat": self[0]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandMucked:
        return _new(cls, (data["seat"],))


class PotAwarded(NamedTuple):
    pot: int  # 0 is the main pot
    amount: int
    winners: tuple[int, ...]  # seats
    shares: tuple[int, ...]  # chips each winner takes, odd chips included
    hand_name: str  # "" when won without a showdown

    def to_dict(self) -> dict[str, Any]:
        pot, amount, winners, shares, hand_name = self
        return {
            "type": "PotAwarded", "pot": pot, "amount": amount, "winners": list(winners),
            "shares": list(shares), "hand_name": hand_name,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PotAwarded:
        return _new(
            cls,
            (
                data["pot"], data["amount"], _tuple(data["winners"]), _tuple(data["shares"]),
                data["hand_name"],
            ),
        )  # fmt: skip


class HandEnded(NamedTuple):
    stacks: tuple[int, ...]  # final stacks in the hand's seat order

    def to_dict(self) -> dict[str, Any]:
        return {"type": "HandEnded", "stacks": list(self[0])}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandEnded:
        return _new(cls, (_tuple(data["stacks"]),))


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

# A record of each type read by its own ``from_dict`` when the data holds its type
# and every field (what ``to_dict`` writes), else the generic way, which fills in a
# field added since the data was written (``timed_out``) and refuses what is not a
# record with the errors it always raised.
_READERS: dict[str, tuple[int, Any]] = {
    name: (len(cls._fields) + 1, cls.from_dict) for name, cls in EVENT_TYPES.items()
}

# The tuple's own constructor: a named tuple's ``__new__`` is a Python function that
# only passes its arguments on to this.
_new = tuple.__new__


def event_to_dict(event: Event) -> dict[str, Any]:
    """The record as plain data: a new dict, the caller's to change."""
    return event.to_dict()


def event_from_dict(data: dict[str, Any]) -> Event:
    reader = _READERS.get(data.get("type"))  # type: ignore[arg-type]
    if reader is not None and len(data) == reader[0]:
        try:
            event: Event = reader[1](data)
            return event
        except KeyError:
            pass  # a field of another name: the generic way says which
    return _event_from_fields(data)


def _event_from_fields(data: dict[str, Any]) -> Event:
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("type")]
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    event: Event = cls(**values)
    return event


def _tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value
