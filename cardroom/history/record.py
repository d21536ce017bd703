"""The record of one finished hand, as the server stores it, and its replay.

A record is plain data: the table's name, the hand's number, when it began, the
rules (``Rules.to_dict()``), the ``HandSetup``, who sat in each seat, the whole deck
in dealing order and every player action with its time. Everything else (the cards
each player held, the board, the pots, the final stacks) follows from these by
playing the actions again through the engine, so ``replay(record)`` gives a ``Hand``
whose ``events`` and ``stacks`` are those of the original.

The record may also carry the deck's commitment (``deck_root``, published before
the first card was dealt) and the 52 salts behind it (``deck_salts``, secret until a
leaf is revealed): see ``cardroom.history.fairness``. The whole record is for the
server's eyes; what leaves it for a player goes through ``cardroom.history.privacy``.

>>> from datetime import UTC, datetime
>>> from cardroom.actions import Action
>>> from cardroom.hand import Hand, HandSetup
>>> from cardroom.rules import STANDARD
>>> hand = Hand.start(STANDARD, HandSetup.simple([1000, 1000], 5, 10), list(range(52)))
>>> hand.act(Action.fold())
>>> at = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
>>> record = record_of(hand, {1: "ann", 2: "bob"}, [at], table="Oak", hand_number=7,
...                    started_at=at)
>>> replay(record).events == hand.events
True
>>> HandRecord.from_dict(record.to_dict()) == record
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardroom.actions import Action, IllegalAction
from cardroom.cards import CardError, card_text, parse_card
from cardroom.events import PlayerActed
from cardroom.hand import Hand, HandSetup, SetupError
from cardroom.rules import Rules, RulesError

RECORD_VERSION = 1
ACTION_KINDS = ("fold", "check", "call", "bet", "raise")


class RecordError(ValueError):
    """A record that is incomplete, inconsistent or does not replay."""


@dataclass(frozen=True, slots=True)
class RecordedAction:
    """One player action. ``amount`` is the player's total bet in the betting round
    after the action (the "raise to" amount) for a call, bet or raise, and 0 for a
    fold or check. ``timed_out`` marks the clock acting for the player; a fold the
    player could not have made (out of turn, or when checking is free) is the host's
    or an admin's fold of an inactive player (see ``_folded_for_them``)."""

    seat: int
    kind: str
    amount: int
    at: datetime
    timed_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "kind": self.kind,
            "amount": self.amount,
            "at": self.at.isoformat(),
        }
        if self.timed_out:
            data["timed_out"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordedAction:
        return cls(
            seat=int(data["seat"]),
            kind=str(data["kind"]),
            amount=int(data["amount"]),
            at=_time(data["at"]),
            timed_out=bool(data.get("timed_out", False)),
        )


@dataclass(frozen=True, slots=True)
class HandRecord:
    """Everything needed to replay one finished hand, and to name it in exports.

    ``hand_number`` names the hand in PokerStars text, where tracking tools tell
    hands apart by it: give each hand of the room its own number (the store's id).
    ``seat_count`` is the table's size (``6-max``). ``deck`` is in dealing order,
    card numbers as in ``cardroom.cards``."""

    table: str
    hand_number: int
    started_at: datetime
    rules: Rules
    setup: HandSetup
    names: Mapping[int, str]
    deck: tuple[int, ...]
    actions: tuple[RecordedAction, ...]
    seat_count: int = 10
    deck_root: bytes | None = None
    deck_salts: tuple[bytes, ...] | None = None

    def __post_init__(self) -> None:
        missing = [s for s in self.setup.seats if s not in self.names]
        if missing:
            raise RecordError(f"Seat {missing[0]} has no player name.")
        if self.started_at.tzinfo is None:
            raise RecordError("Times must carry a time zone (use UTC).")
        if not 2 <= self.seat_count <= 10 or max(self.setup.seats) > self.seat_count:
            raise RecordError("The seats must fit a table of 2 to 10 seats.")

    def name(self, seat: int) -> str:
        return self.names[seat]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data. ``deck_salts`` are secret: store, never send."""
        data: dict[str, Any] = {
            "version": RECORD_VERSION,
            "table": self.table,
            "hand_number": self.hand_number,
            "started_at": self.started_at.isoformat(),
            "seat_count": self.seat_count,
            "rules": self.rules.to_dict(),
            "setup": self.setup.to_dict(),
            "names": {str(seat): name for seat, name in sorted(self.names.items())},
            "deck": [card_text(c) for c in self.deck],
            "actions": [a.to_dict() for a in self.actions],
        }
        if self.deck_root is not None:
            data["deck_root"] = self.deck_root.hex()
        if self.deck_salts is not None:
            data["deck_salts"] = [salt.hex() for salt in self.deck_salts]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandRecord:
        try:
            if data.get("version") != RECORD_VERSION:
                raise RecordError(f"Only version {RECORD_VERSION} hand records can be read.")
            setup_data = dict(data["setup"])
            setup_data["seats"] = tuple(int(x) for x in setup_data["seats"])
            setup_data["stacks"] = tuple(int(x) for x in setup_data["stacks"])
            salts = data.get("deck_salts")
            root = data.get("deck_root")
            return cls(
                table=str(data["table"]),
                hand_number=int(data["hand_number"]),
                started_at=_time(data["started_at"]),
                rules=Rules.from_dict(dict(data["rules"])),
                setup=HandSetup(**setup_data),
                names={int(seat): str(name) for seat, name in dict(data["names"]).items()},
                deck=tuple(parse_card(str(c)) for c in data["deck"]),
                actions=tuple(RecordedAction.from_dict(a) for a in data["actions"]),
                seat_count=int(data.get("seat_count", 10)),
                deck_root=None if root is None else bytes.fromhex(str(root)),
                deck_salts=None if salts is None else tuple(bytes.fromhex(str(x)) for x in salts),
            )
        except RecordError:
            raise
        except KeyError as exc:
            raise RecordError(f"The hand record has no {exc.args[0]!r} field.") from None
        except (SetupError, RulesError, CardError) as exc:
            raise RecordError(f"The hand record is not valid: {exc}") from None
        except (TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"The hand record is not valid: {exc}.") from None


def _time(value: Any) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    if moment.tzinfo is None:
        raise RecordError("Times must carry a time zone (use UTC).")
    return moment


def record_of(
    hand: Hand,
    names: Mapping[int, str],
    times: Sequence[datetime],
    *,
    table: str,
    hand_number: int,
    started_at: datetime,
    seat_count: int = 10,
    deck_root: bytes | None = None,
    deck_salts: Sequence[bytes] | None = None,
) -> HandRecord:
    """The record of a hand: ``names`` maps each seat dealt in to its player's name,
    ``times`` gives the time of each player action, in order."""
    acted = [e for e in hand.events if isinstance(e, PlayerActed)]
    if len(times) != len(acted):
        raise RecordError(f"Give one time per action: {len(acted)} actions, {len(times)} times.")
    actions = tuple(
        RecordedAction(
            seat=e.seat,
            kind=e.action,
            amount=0 if e.action in ("fold", "check") else e.bet,
            at=_time(at),
            timed_out=e.timed_out,
        )
        for e, at in zip(acted, times, strict=True)
    )
    return HandRecord(
        table=table,
        hand_number=hand_number,
        started_at=_time(started_at),
        rules=hand.rules,
        setup=hand.setup,
        names=dict(names),
        deck=tuple(hand.deck),
        actions=actions,
        seat_count=seat_count,
        deck_root=deck_root,
        deck_salts=None if deck_salts is None else tuple(deck_salts),
    )


def replay(record: HandRecord) -> Hand:
    """Deal the recorded deck and play the recorded actions: the same hand, event for
    event. A record whose actions the engine refuses raises ``RecordError``."""
    try:
        hand = Hand.start(record.rules, record.setup, record.deck)
    except (SetupError, CardError) as exc:
        raise RecordError(f"The recorded hand cannot be dealt: {exc}") from None
    for number, action in enumerate(record.actions, 1):
        try:
            _apply(hand, action)
        except IllegalAction as exc:
            raise RecordError(
                f"Action {number} (seat {action.seat} {action.kind}): {exc}"
            ) from None
    return hand


def _folded_for_them(hand: Hand, seat: int) -> bool:
    """Was this fold the host's or an admin's (``Table.fold_inactive``), not the
    player's own? The record does not say, and needs not: a player folds only on
    their turn and only when checking is not free, so a fold that breaks either rule
    can only have been ``Hand.fold_out_of_turn``. A fold that breaks neither is the
    same step in the engine whoever made it. Records stored before this reading
    (issue 17) read back by the same rule."""
    return seat != hand.seat_to_act or not hand.legal_actions().can_fold


def _apply(hand: Hand, recorded: RecordedAction) -> None:
    kind, seat = recorded.kind, recorded.seat
    if kind not in ACTION_KINDS:
        raise RecordError(f"{kind!r} is not a recorded action (use {', '.join(ACTION_KINDS)}).")
    if kind == "fold" and not recorded.timed_out and _folded_for_them(hand, seat):
        hand.fold_out_of_turn(seat)
        return
    action: Action
    if kind == "fold":
        action = Action.fold()
    elif kind == "check":
        action = Action.check()
    else:
        legal = hand.legal_actions()
        if kind == "call":
            action = Action.call()
            if legal.can_call and legal.bet + legal.call_amount != recorded.amount:
                raise RecordError(
                    f"A call by seat {seat} makes their bet {legal.bet + legal.call_amount}, "
                    f"not {recorded.amount} as recorded."
                )
        elif kind == "bet":
            action = Action.bet(recorded.amount)
        else:
            action = Action.raise_to(recorded.amount)
    hand.act(action, seat=seat, timed_out=recorded.timed_out)
