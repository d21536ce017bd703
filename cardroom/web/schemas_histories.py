"""The wire shapes of hand histories: a player's hands, one hand for its street-by-street
replay, and the deck proof. Built from ``cardroom.service.histories`` records, which
have already applied the privacy rule: a card the viewer may not see is ``null``.

Cards are text, rank then suit (``"As"``); amounts are chips (cents at money tables,
points at ``arena`` tables); times are ISO 8601 in UTC.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, RootModel

from cardroom.cards import card_text
from cardroom.service.histories import (
    GameHands,
    HandHistory,
    HandsPage,
    HandSummary,
    HistoryPage,
)

Card = str


def _cards(cards: Iterable[int]) -> list[Card]:
    return [card_text(c) for c in cards]


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class HandSummaryOut(_Out):
    """One finished hand in the viewer's list."""

    id: int = Field(description="The hand's id: its number in exports and proofs.")
    game_id: int
    number: int = Field(description="The hand's number at its table, 1 for the first.")
    preset: str
    pays_money: bool = Field(description="Amounts are cents; false: arena points.")
    started_at: datetime
    ended_at: datetime | None
    seat: int = Field(description="Where the viewer sat.")
    cards: list[Card] = Field(description="The viewer's own hole cards.")
    board: list[Card]
    players: int = Field(description="How many were dealt in.")
    pot: int = Field(description="Everything put in by everyone.")
    net: int = Field(description="The viewer's result: finishing minus starting stack.")
    won: bool = Field(description="The viewer took chips from a pot.")
    showdown: bool = Field(description="Hands were shown.")
    deck_root: str | None = Field(
        description="The deck commitment published before the first card (64 hex digits); "
        "null for hands dealt before the room committed to its decks."
    )
    unreadable: bool = Field(
        default=False,
        description="This hand's record cannot be read: its cards, board and figures are "
        "left empty, and opening it answers 500 (record_unreadable).",
    )

    @classmethod
    def of(cls, hand: HandSummary) -> HandSummaryOut:
        return cls(
            id=hand.id,
            game_id=hand.game_id,
            number=hand.number,
            preset=hand.preset,
            pays_money=hand.pays_money,
            started_at=hand.started_at,
            ended_at=hand.ended_at,
            seat=hand.seat,
            cards=_cards(hand.cards),
            board=_cards(hand.board),
            players=hand.players,
            pot=hand.pot,
            net=hand.net,
            won=hand.won,
            showdown=hand.showdown,
            deck_root=hand.deck_root,
            unreadable=hand.unreadable,
        )


class HandsOut(_Out):
    """A page of the viewer's hands, newest first."""

    hands: list[HandSummaryOut]
    next_before: int | None = Field(
        description="Pass as `before` for the next (older) page; null: no more."
    )

    @classmethod
    def of(cls, page: HandsPage) -> HandsOut:
        return cls(hands=[HandSummaryOut.of(h) for h in page.hands], next_before=page.next_before)


class GameHandsOut(_Out):
    """A game the viewer was dealt into, with their latest hands there."""

    game_id: int
    preset: str
    status: str
    pays_money: bool
    hands_played: int = Field(description="Finished hands the viewer was dealt into.")
    last_played_at: datetime
    hands: list[HandSummaryOut] = Field(description="The latest, newest first.")

    @classmethod
    def of(cls, game: GameHands) -> GameHandsOut:
        return cls(
            game_id=game.game_id,
            preset=game.preset,
            status=game.status,
            pays_money=game.pays_money,
            hands_played=game.hands_played,
            last_played_at=game.last_played_at,
            hands=[HandSummaryOut.of(h) for h in game.hands],
        )


class HistoryOut(_Out):
    """Every game the viewer was dealt into, the most recently played first, each with
    its latest hands."""

    games: list[GameHandsOut]
    next_before: int | None = Field(
        description="Pass as `before` for the next page of (older) games; null: no more."
    )

    @classmethod
    def of(cls, page: HistoryPage) -> HistoryOut:
        return cls(
            games=[GameHandsOut.of(g) for g in page.games], next_before=page.next_before_game
        )


class HandPlayerOut(_Out):
    seat: int
    user_id: int | None
    name: str
    starting_stack: int
    final_stack: int
    net: int
    cards: list[Card] | None = Field(
        description="The hole cards, when the viewer may see them (their own, a hand "
        "shown at the showdown, or every hand in an admin's full record); otherwise null."
    )
    shown: bool = Field(description="Shown at the showdown.")
    folded: bool


class HandActionOut(_Out):
    """One player action: ``amount`` is the player's total bet in the betting round
    after it (the "raise to") for a call, bet or raise, 0 for a fold or check."""

    seat: int
    kind: str = Field(description="fold, check, call, bet or raise")
    amount: int
    at: datetime
    timed_out: bool = Field(description="The clock acted for the player.")


class HandEventOut(_Out):
    """One step of the hand as the viewer may see it (the events of the live table:
    ``BlindPosted``, ``HoleCardDealt`` (``card`` null unless the viewer may see it),
    ``CardBurned`` (``card`` null), ``PlayerActed``, ``BoardDealt``, ``BetReturned``,
    ``HandShown``, ``HandMucked``, ``PotAwarded``, ``HandEnded``), with its time."""

    type: str
    at: datetime
    data: dict[str, Any]


class PotOut(_Out):
    pot: int = Field(description="0: the main pot; 1, 2...: side pots.")
    amount: int
    winners: list[int] = Field(description="Seats.")
    shares: list[int] = Field(description="What each winner took, odd chips included.")
    hand_name: str = Field(description="The winning hand; empty when won without a showdown.")


class HandHistoryOut(_Out):
    """A finished hand as the viewer may see it: the setup, who sat where with what,
    every action with its time, the board, the hands shown and the pots. Replay it
    street by street by walking ``events``."""

    id: int
    game_id: int
    number: int
    table: str
    preset: str
    pays_money: bool
    seat_count: int
    started_at: datetime
    ended_at: datetime | None
    viewer: str = Field(description='"seat 3 (ann)", "observer" or "admin".')
    viewer_seat: int | None
    full: bool = Field(description="An admin's full record: every card.")
    deck_root: str | None = Field(
        description="The deck commitment published (as `DeckCommitted`) before the first "
        "card; check it with GET /api/hands/{id}/proof."
    )
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    players: list[HandPlayerOut] = Field(description="In dealing order; the button last.")
    board: list[Card]
    streets: list[str] = Field(description="The streets dealt: flop, turn, river.")
    actions: list[HandActionOut]
    events: list[HandEventOut]
    pots: list[PotOut]

    @classmethod
    def of(cls, hand: HandHistory) -> HandHistoryOut:
        return cls(
            id=hand.id,
            game_id=hand.game_id,
            number=hand.number,
            table=hand.table,
            preset=hand.preset,
            pays_money=hand.pays_money,
            seat_count=hand.seat_count,
            started_at=hand.started_at,
            ended_at=hand.ended_at,
            viewer=hand.viewer,
            viewer_seat=hand.viewer_seat,
            full=hand.full,
            deck_root=hand.deck_root,
            button_seat=hand.button_seat,
            small_blind_seat=hand.small_blind_seat,
            big_blind_seat=hand.big_blind_seat,
            small_blind=hand.small_blind,
            big_blind=hand.big_blind,
            ante=hand.ante,
            big_blind_ante=hand.big_blind_ante,
            players=[
                HandPlayerOut(
                    seat=p.seat,
                    user_id=p.user_id,
                    name=p.name,
                    starting_stack=p.starting_stack,
                    final_stack=p.final_stack,
                    net=p.net,
                    cards=None if p.cards is None else _cards(p.cards),
                    shown=p.shown,
                    folded=p.folded,
                )
                for p in hand.players
            ],
            board=_cards(hand.board),
            streets=list(hand.streets),
            actions=[
                HandActionOut(
                    seat=a["seat"],
                    kind=a["kind"],
                    amount=a["amount"],
                    at=a["at"],
                    timed_out=a.get("timed_out", False),
                )
                for a in hand.actions
            ],
            events=[HandEventOut(type=e.type, at=e.at, data=e.data) for e in hand.events],
            pots=[PotOut(**p) for p in hand.pots],
        )


class ExportText(RootModel[str]):
    """A hand-history file: PHH (TOML; several hands as ``.phhs``) or PokerStars text,
    sent as an attachment (``Content-Disposition``)."""


class ProofStepOut(_Out):
    side: str = Field(description="Where the sibling hash sits: left or right.")
    hash: str = Field(description="64 hex digits.")


class ProofLeafOut(_Out):
    position: int = Field(description="The card's place in the deck, 0 to 51.")
    card: Card
    salt: str = Field(description="The position's secret salt, 64 hex digits.")
    dealt_as: dict[str, Any] = Field(
        description="kind: hole (seat, number), board (street, number), burn or undealt."
    )
    meaning: str = Field(description='In words: "seat 6 (fay), hole card 1".')
    proof: list[ProofStepOut] = Field(description="Sibling hashes from the leaf up to the root.")


class ProofDealingOut(_Out):
    seats: list[int] = Field(description="In dealing order, first left of the button.")
    names: dict[str, str]
    streets: list[str]


class ProofOut(_Out):
    """A deck verification file (docs/fairness.md): for each card the viewer may see
    (their own, the board, the hands shown; every position for an admin's full
    record), its salt and Merkle proof up to ``root``, the commitment published before
    the first card. Check it with `cardroom verify FILE`, or by hand with SHA-256."""

    format: str = Field(description="cardroom-deck-proof")
    version: int
    scheme: str
    table: str
    hand_number: int
    started_at: str
    viewer: str
    deck_size: int
    root: str
    dealing: ProofDealingOut
    leaves: list[ProofLeafOut]
