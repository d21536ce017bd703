"""What one viewer may see. Every payload about a table or a hand that leaves the
server goes through these functions, so a hole card reaches another player only when
its owner shows it.

A viewer is the seat they hold in the hand (``None`` for a spectator, or for a player
not dealt in). Admins' full views are a separate, explicit call (``full=True``).
Cards are written as text (``"As"``); a hidden card is ``None``.
"""

from __future__ import annotations

from typing import Any

from cardroom.actions import LegalActions
from cardroom.cards import card_text
from cardroom.events import (
    BoardDealt,
    CardBurned,
    Event,
    HandShown,
    HoleCardDealt,
    event_to_dict,
)
from cardroom.hand import STREET_NAMES, Hand
from cardroom.pots import side_pots


def shown_seats(hand: Hand) -> set[int]:
    """Seats whose cards were shown at the showdown."""
    return {e.seat for e in hand.events if isinstance(e, HandShown)}


def visible_hole_cards(
    hand: Hand, viewer: int | None, *, full: bool = False
) -> dict[int, list[str]]:
    """Seat -> the hole cards this viewer may see: their own, and shown hands."""
    shown = shown_seats(hand)
    visible: dict[int, list[str]] = {}
    for seat, cards in zip(hand.seats, hand.hole, strict=True):
        if full or seat == viewer or seat in shown:
            visible[seat] = [card_text(c) for c in cards]
    return visible


def event_view(event: Event, viewer: int | None, *, full: bool = False) -> dict[str, Any]:
    """One event as this viewer may see it. Other players' hole cards and every burnt
    card are replaced by ``None``: the event still says that a card was dealt."""
    data = event_to_dict(event)
    if isinstance(event, HoleCardDealt):
        data["card"] = card_text(event.card) if full or event.seat == viewer else None
    elif isinstance(event, CardBurned):
        data["card"] = card_text(event.card) if full else None
    elif isinstance(event, BoardDealt | HandShown):
        data["cards"] = [card_text(c) for c in event.cards]
    return data


def legal_view(legal: LegalActions) -> dict[str, Any]:
    return {**legal._asdict(), "actions": [str(k) for k in legal.kinds()]}


def hand_view(hand: Hand, viewer: int | None, *, full: bool = False) -> dict[str, Any]:
    """The state of a hand for one viewer: stacks, bets, the board, the pots, whose
    turn it is, and the viewer's own legal actions when it is theirs."""
    hole = visible_hole_cards(hand, viewer, full=full)
    collected = [c - b for c, b in zip(hand.contributed, hand.bets, strict=True)]
    live_money = [c - d for c, d in zip(collected, hand.dead, strict=True)]
    pots = side_pots(live_money, hand.folded, sum(hand.dead)) if any(collected) else []
    players = []
    for i, seat in enumerate(hand.seats):
        players.append(
            {
                "seat": seat,
                "stack": hand.stacks[i],
                "bet": hand.bets[i],
                "folded": hand.folded[i],
                "all_in": hand.stacks[i] == 0 and not hand.folded[i],
                "cards": hole.get(seat),
                "has_cards": not hand.folded[i],
            }
        )
    to_act = hand.seat_to_act
    view: dict[str, Any] = {
        "street": STREET_NAMES[hand.street],
        "over": hand.is_over,
        "button_seat": hand.setup.button_seat,
        "small_blind_seat": hand.setup.small_blind_seat,
        "big_blind_seat": hand.setup.big_blind_seat,
        "small_blind": hand.setup.small_blind,
        "big_blind": hand.setup.big_blind,
        "ante": hand.setup.ante,
        "board": [card_text(c) for c in hand.board],
        "players": players,
        "pot": hand.pot,
        "pots": [
            {"amount": p.amount, "eligible": [hand.seats[i] for i in p.eligible]} for p in pots
        ],
        "to_act": to_act,
        "legal": None,
    }
    if to_act is not None and (to_act == viewer or full):
        view["legal"] = legal_view(hand.legal_actions())
    return view
