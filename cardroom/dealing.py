"""Which card of the deck goes to whom: dealing order and rigged decks.

A hand deals from the top of its deck: one hole card at a time from the button's
left, two rounds, then a burn and the flop, a burn and the turn, a burn and the river.
So a deck that deals given cards must put player i's cards at positions i and i + n,
counted in dealing order. ``rigged_deck`` does that from table seats, so a caller who
wants to set up a given hand never has to know the layout.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from cardroom.cards import CardError, check_distinct, parse_cards

Cards = str | Sequence[int]  # "AsKd" or card numbers


class SetupError(ValueError):
    """Players, blinds or deck that cannot make a hand."""


def dealing_order(seats: Iterable[int], button_seat: int) -> list[int]:
    """The seats in the order cards are dealt: clockwise from the button's left, the
    button (when its seat is dealt in) last. The button may be an empty seat."""
    return sorted(seats, key=lambda s: (s <= button_seat, s))


def arrange_deck(hole: Sequence[Sequence[int] | None], board: Sequence[int] = ()) -> list[int]:
    """A deck that deals the given cards: ``hole[i]`` to the i-th player in dealing
    order (None or fewer than two cards: any unused cards) and ``board`` as flop,
    turn and river. Burns and unknown cards are the unused cards in deck order.
    Used to replay recorded hands and to set up worked examples."""
    wanted = [c for cards in hole if cards for c in cards] + list(board)
    check_distinct(wanted)
    spare = iter([c for c in range(52) if c not in set(wanted)])
    n = len(hole)
    deck: list[int] = []
    for round_ in range(2):
        for i in range(n):
            cards = hole[i]
            deck.append(cards[round_] if cards and len(cards) > round_ else next(spare))
    for start, count in ((0, 3), (3, 1), (4, 1)):
        deck.append(next(spare))  # the burn
        for k in range(start, start + count):
            deck.append(board[k] if k < len(board) else next(spare))
    deck.extend(spare)
    return deck


def _cards(cards: Cards) -> list[int]:
    if isinstance(cards, str):
        return list(parse_cards(cards))
    if not all(type(c) is int and 0 <= c < 52 for c in cards):
        raise CardError("A card is a number from 0 to 51 or text such as 'As'.")
    return list(cards)


def rigged_deck(
    seats: Iterable[int],
    button_seat: int,
    hole: Mapping[int, Cards],
    board: Cards = (),
) -> list[int]:
    """A deck that deals ``hole[seat]`` to each table seat named there and ``board``
    (up to five cards) as flop, turn and river, for a hand dealt to ``seats`` with the
    button on ``button_seat``. Seats left out, and any board cards not given, get the
    cards nobody asked for. A repeated or unknown card raises ``CardError``, a seat
    not dealt in or too many cards ``SetupError``."""
    order = dealing_order(seats, button_seat)
    unknown = sorted(set(hole) - set(order))
    if unknown:
        raise SetupError(f"Seat {unknown[0]} is not dealt into this hand.")
    board_cards = _cards(board)
    if len(board_cards) > 5:
        raise SetupError("A board has at most five cards.")
    given = [_cards(hole[s]) if s in hole else None for s in order]
    if any(cards is not None and len(cards) > 2 for cards in given):
        raise SetupError("A player is dealt two hole cards, not more.")
    return arrange_deck(given, board_cards)
