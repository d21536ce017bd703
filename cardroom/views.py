"""What one viewer may see. Every payload about a table or a hand that leaves the
server goes through these functions, so a hole card reaches another player only when
its owner shows it.

A viewer is the seat they hold in the hand (``None`` for a spectator, or for a player
not dealt in). Admins' full views are a separate, explicit call (``full=True``).
Cards are written as text (``"As"``); a hidden card is ``None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from hashlib import sha256
from typing import Any

import numpy as np

from cardroom.actions import LegalActions
from cardroom.cards import card_text
from cardroom.equity import equity_by_street
from cardroom.events import (
    EVENT_TYPES,
    BlindPosted,
    BoardDealt,
    CardBurned,
    Event,
    HandShown,
    HoleCardDealt,
    PlayerActed,
    event_from_dict,
    event_to_dict,
)
from cardroom.hand import STREET_NAMES, Hand
from cardroom.pots import side_pots


def shown_seats(hand: Hand) -> set[int]:
    """Seats whose cards were shown at the showdown."""
    if not hand.is_over:  # cards are shown only at the showdown, which ends the hand
        return set()
    return {e.seat for e in hand.events if isinstance(e, HandShown)}


def visible_hole_cards(
    hand: Hand, viewer: int | None, *, full: bool = False
) -> dict[int, list[str]]:
    """Seat -> the hole cards this viewer may see: their own, and shown hands."""
    shown = shown_seats(hand)
    visible: dict[int, list[str]] = {}
    if not (full or shown) and viewer not in hand.seats:  # a spectator's, mid-hand
        return visible
    for seat, cards in zip(hand.seats, hand.hole, strict=True):
        if full or seat == viewer or seat in shown:
            visible[seat] = [card_text(c) for c in cards]
    return visible


# The one kind of event whose view (without ``full``) depends on the viewer's seat:
# every other event looks the same to every viewer, so a table's sockets may share
# one view of it (``cardroom.service.change_views``).
SEEN_FROM_A_SEAT = frozenset({HoleCardDealt.__name__})


def event_view(event: Event, viewer: int | None, *, full: bool = False) -> dict[str, Any]:
    """One event as this viewer may see it. Other players' hole cards and every burnt
    card are replaced by ``None``: the event still says that a card was dealt. Only
    the kinds named in ``SEEN_FROM_A_SEAT`` may depend on ``viewer``."""
    data = event_to_dict(event)
    if isinstance(event, HoleCardDealt):
        data["card"] = card_text(event.card) if full or event.seat == viewer else None
    elif isinstance(event, CardBurned):
        data["card"] = card_text(event.card) if full else None
    elif isinstance(event, BoardDealt | HandShown):
        data["cards"] = [card_text(c) for c in event.cards]
    return data


# Each hand record's fields in their order, and the defaults of those that have one:
# what ``event_to_dict(event_from_dict(...))`` makes of a stored payload.
_EVENT_FIELDS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    name: (cls._fields, cls._field_defaults) for name, cls in EVENT_TYPES.items()
}


def payload_view(kind: str, payload: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """``event_view`` of the stored hand record ``kind`` whose fields are ``payload``,
    without its ``type``: the same dict, written straight from the payload (every
    socket's every event goes through here; the record itself is not needed). A
    payload that is not the record's fields exactly goes the long way, which refuses
    it."""
    fields, defaults = _EVENT_FIELDS[kind]
    data: dict[str, Any]
    if tuple(payload) == fields:
        # The record's fields exactly, in their order (a payload as the room stored
        # it): copied whole, its sequences as lists, without asking for each field.
        data = dict(payload)
        for name, value in data.items():
            if isinstance(value, _SEQUENCES):
                data[name] = list(value)
    else:
        data = {}
        found = 0
        for name in fields:
            if name in payload:
                value = payload[name]
                found += 1
            elif name in defaults:
                value = defaults[name]
            else:
                return _long_payload_view(kind, payload, viewer)
            data[name] = list(value) if isinstance(value, _SEQUENCES) else value
        if found != len(payload):  # a key that is none of the record's fields
            return _long_payload_view(kind, payload, viewer)
    if kind == "HoleCardDealt":
        data["card"] = card_text(data["card"]) if data["seat"] == viewer else None
    elif kind == "CardBurned":
        data["card"] = None
    elif kind in _SHOWN_CARDS:
        data["cards"] = [card_text(c) for c in data["cards"]]
    return data


_SHOWN_CARDS = frozenset({BoardDealt.__name__, HandShown.__name__})
_SEQUENCES = (list, tuple)


def _long_payload_view(kind: str, payload: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    data = event_view(event_from_dict({"type": kind, **payload}), viewer)
    data.pop("type", None)
    return data


def legal_view(legal: LegalActions) -> dict[str, Any]:
    return {**legal._asdict(), "actions": [str(k) for k in legal.kinds()]}


def hand_view(
    hand: Hand, viewer: int | None, *, full: bool = False, equity: bool = False
) -> dict[str, Any]:
    """The state of a hand for one viewer: stacks, bets, the board, the pots, whose
    turn it is, and the viewer's own legal actions when it is theirs. Each player's
    and each pot's keys are in the order the socket writes them
    (``cardroom.web.game_answers``, which writes them as they are). ``equity``: also
    each shown hand's chance to win by street after an all-in run-out
    (``run_out_equity``; otherwise the key is None)."""
    hole = visible_hole_cards(hand, viewer, full=full)
    seats, stacks, bets, folded = hand.seats, hand.stacks, hand.bets, hand.folded
    collected = [c - b for c, b in zip(hand.contributed, bets, strict=True)]
    live_money = [c - d for c, d in zip(collected, hand.dead, strict=True)]
    pots = (
        _seat_pots(tuple(live_money), tuple(folded), sum(hand.dead), tuple(seats))
        if any(collected)
        else ()
    )
    # Every change's views make one (the spectators'): the players' entries from
    # the hand's lists walked together.
    players = [
        {
            "seat": seat,
            "stack": stack,
            "bet": bet,
            "folded": out,
            "all_in": stack == 0 and not out,
            "has_cards": not out,
            "cards": hole.get(seat),
        }
        for seat, stack, bet, out in zip(seats, stacks, bets, folded, strict=True)
    ]
    to_act = hand.seat_to_act
    setup = hand.setup
    view: dict[str, Any] = {
        "street": STREET_NAMES[hand.street],
        "over": hand.is_over,
        "button_seat": setup.button_seat,
        "small_blind_seat": setup.small_blind_seat,
        "big_blind_seat": setup.big_blind_seat,
        "small_blind": setup.small_blind,
        "big_blind": setup.big_blind,
        "ante": setup.ante,
        "board": [card_text(c) for c in hand.board],
        "players": players,
        "pot": hand.pot,
        "pots": [{"amount": amount, "eligible": list(eligible)} for amount, eligible in pots],
        "to_act": to_act,
        "legal": None,
        "equity": run_out_equity(hand) if equity else None,
    }
    if to_act is not None and (to_act == viewer or full):
        view["legal"] = legal_view(hand.legal_actions())
    return view


@lru_cache(maxsize=1024)
def _seat_pots(
    live_money: tuple[int, ...], folded: tuple[bool, ...], dead: int, seats: tuple[int, ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The pots of a hand's money so far, each with the seats that may win it.
    Cached: every change's spectators' hand asks (``pots.side_pots`` was a third of
    its view), and a table's pots repeat from change to change until the next bet
    is collected; tables with the same stakes share them too."""
    return tuple(
        (pot.amount, tuple(seats[i] for i in pot.eligible))
        for pot in side_pots(live_money, folded, dead)
    )


def seat_hand_view(
    seen: dict[str, Any], hand: Hand, viewer: int | None, legal: LegalActions | None = None
) -> dict[str, Any]:
    """``hand_view(hand, viewer, equity=...)`` made from ``seen``, the same hand's
    ``hand_view(hand, None, equity=...)`` at the same moment: what nobody's seat sees,
    with what the viewer's seat sees more added (its own hole cards, its legal actions
    on its turn). The viewers of a table share the rest (``game_details.detail_of``);
    ``seen`` is not changed, and what of it is kept here must not be either.
    ``legal``: ``hand.legal_actions()``, when the caller made it already."""
    if viewer is None:
        return seen
    view = dict(seen)
    if viewer in hand.seats:
        i = hand.seats.index(viewer)
        players = list(seen["players"])
        players[i] = {**players[i], "cards": [card_text(c) for c in hand.hole[i]]}
        view["players"] = players
    to_act = hand.seat_to_act
    if to_act is not None and to_act == viewer:
        view["legal"] = legal_view(hand.legal_actions() if legal is None else legal)
    return view


# -- equity of a run-out ------------------------------------------------------------

_STREET_OF_BOARD = {0: "preflop", 3: "flop", 4: "turn"}


def run_out_equity(hand: Hand) -> list[dict[str, Any]] | None:
    """Each shown hand's chance to win at each street of an all-in run-out: the board
    was dealt out because nobody could bet any more (``hand.ran_out``), and every live
    hand was shown. Computed from cards every viewer has seen (the shown hands and the
    board), so it is the same for every viewer and leaks nothing: folded hands are
    neither used nor named. None for any other hand.

    ``[{"street", "board", "exact", "players": [{"seat", "percent"}]}]``, one entry per
    street from the all-in up to the turn (the river decides)."""
    if not hand.is_over or not hand.ran_out:
        return None
    shown = [(e.seat, tuple(e.cards)) for e in hand.events if isinstance(e, HandShown)]
    if len(shown) < 2:
        return None
    steps = _run_out_steps(
        tuple(cards for _, cards in shown), tuple(hand.board), _board_at_all_in(hand)
    )
    seats = [seat for seat, _ in shown]
    return [
        {
            "street": _STREET_OF_BOARD[n],
            "board": [card_text(c) for c in hand.board[:n]],
            "exact": exact,
            "players": [
                {"seat": seat, "percent": pct} for seat, pct in zip(seats, percents, strict=True)
            ],
        }
        for n, exact, percents in steps
    ]


def _board_at_all_in(hand: Hand) -> int:
    """How many board cards were out when the last bet was made (the run-out began)."""
    known = board = 0
    for event in hand.events:
        if isinstance(event, BoardDealt):
            board += len(event.cards)
        elif isinstance(event, PlayerActed | BlindPosted):
            known = board
    return known


@lru_cache(maxsize=512)
def _run_out_steps(
    hands: tuple[tuple[int, ...], ...], board: tuple[int, ...], known: int
) -> tuple[tuple[int, bool, tuple[float, ...]], ...]:
    """Cached: every viewer's snapshot of a finished hand asks for the same figures,
    and an exact pre-flop enumeration takes about a tenth of a second. Sampling (only
    on a machine slower than this one: see ``cardroom.equity``) is seeded from the
    cards, so every process shows the same figures."""
    seed = int.from_bytes(sha256(repr((hands, board, known)).encode()).digest()[:8], "big")
    steps = equity_by_street(hands, board, known=known, rng=np.random.default_rng(seed))
    return tuple((n, e.exact, tuple(e.percentages)) for n, e in steps)
