"""A hand's and a game's history as files (PHH, PokerStars text) and the deck
proofs, each as one viewer may see it (``cardroom.service.stored_hands``)."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from cardroom.history import fairness, pokerstars
from cardroom.history.privacy import Viewer, phh_export, pokerstars_export
from cardroom.service import invites
from cardroom.service.context import ServiceContext
from cardroom.service.errors import (
    Forbidden,
    InvalidInput,
    NotFound,
)
from cardroom.service.game_errors import GameNotFound
from cardroom.service.stored_hands import (
    NoDeckProof,
    StoredHand,
    UnreadableHand,
    one_hand,
    read_hands,
    reading_hand,
    unreadable_error,
    viewer_of,
)
from cardroom.service.users import UserInfo, user_named
from cardroom.store.db import reading
from cardroom.store.models import Game, HandPlayer
from cardroom.store.models import HandRecord as HandRow


class ExportFormat(enum.StrEnum):
    """The hand-history formats a download can take."""

    PHH = "phh"
    POKERSTARS = "pokerstars"


# ---------------------------------------------------------------------- exports


@dataclass(frozen=True)
class Export:
    """A download: its file name, media type and text, and how many hands it holds."""

    filename: str
    media_type: str
    text: str
    hands: int = 1
    skipped: tuple[int, ...] = ()  # ids of hands left out: their records cannot be read


def _format(fmt: object) -> ExportFormat:
    try:
        return ExportFormat(str(fmt))
    except ValueError:
        raise InvalidInput(
            f"A hand history is exported as phh or pokerstars, not {str(fmt)[:20]!r}."
        ) from None


def _hand_text(stored: StoredHand, viewer: Viewer, fmt: ExportFormat) -> str:
    if fmt is ExportFormat.POKERSTARS:
        return pokerstars_export(stored.record, viewer)
    return phh_export(stored.record, viewer)


def _media(fmt: ExportFormat) -> str:
    # PHH is TOML; PokerStars hand histories are plain text.
    if fmt is ExportFormat.PHH:
        return "application/toml; charset=utf-8"
    return "text/plain; charset=utf-8"


def export_hand(
    ctx: ServiceContext,
    user: UserInfo | None,
    hand_id: int,
    fmt: str,
    *,
    full: bool = False,
) -> Export:
    """One finished hand as PHH or PokerStars text for ``user``: their own cards and
    the hands shown (an observer's view if they were not dealt in); an admin's full
    record with ``full``."""
    chosen = _format(fmt)
    with reading(), ctx.transaction() as session:
        stored = one_hand(session, hand_id)
        if user is not None:  # a private table's hands: as its table (invites.py)
            invites.hand_visible(session, stored.game_id, user.id)
    viewer = viewer_of(stored, user, full)
    suffix = "phh" if chosen is ExportFormat.PHH else "txt"
    with reading_hand(hand_id):
        text = _hand_text(stored, viewer, chosen)
    return Export(f"cardroom-hand-{hand_id}.{suffix}", _media(chosen), text)


def game_export(
    ctx: ServiceContext,
    game_id: int,
    fmt: str,
    *,
    player_id: int | None = None,
    full: bool = False,
    player_name: str | None = None,
) -> Export:
    """A game's finished hands in one file, oldest first. ``player_id``: the hands
    that player was dealt into, as they saw them; ``full``: every hand, every card
    (the caller has checked the right to it); neither: every hand as an observer
    saw it. Refused when there is no such hand."""
    chosen = _format(fmt)
    with reading(), ctx.transaction() as session:
        if type(game_id) is not int or session.get(Game, game_id) is None:
            raise GameNotFound(f"There is no game {game_id}.")
        query = (
            select(HandRow)
            .where(HandRow.game_id == game_id, HandRow.ended_at.is_not(None))
            .order_by(HandRow.number)
        )
        if player_id is not None and not full:
            query = query.join(HandPlayer, HandPlayer.hand_id == HandRow.id).where(
                HandPlayer.user_id == player_id
            )
        found = read_hands(session, session.scalars(query).all(), replayed=True)
    # A hand that cannot be read is left out of the file (and counted in ``skipped``):
    # one damaged hand must not cost a player the download of all the others.
    stored = [s for s in found if isinstance(s, StoredHand)]
    skipped = [s.row_id for s in found if isinstance(s, UnreadableHand)]
    if not stored and skipped:
        raise unreadable_error(skipped[0])
    if not stored:
        if player_id is not None and not full:
            who = "You were" if player_name is None else f"{player_name} was"
            raise NotFound(f"{who} not dealt into any finished hand of game {game_id}.")
        raise NotFound(f"No hand of game {game_id} has finished yet.")
    texts = []
    for s in stored:
        if full:
            viewer = Viewer.administrator()
        else:
            seat = next((k for k, v in s.users.items() if v == player_id), None)
            viewer = Viewer.observer() if seat is None else Viewer.player(seat)
        texts.append(_hand_text(s, viewer, chosen))
    if chosen is ExportFormat.POKERSTARS:
        text = pokerstars.hands_text(texts)
        name = f"cardroom-game-{game_id}.txt"
    else:
        text = "\n".join(f"[{k}]\n{t}" for k, t in enumerate(texts, 1))
        name = f"cardroom-game-{game_id}.phhs"
    return Export(name, _media(chosen), text, len(texts), tuple(skipped))


def player_named(ctx: ServiceContext, name: str) -> int:
    """The id of the user called ``name`` (any case), for the console's exports."""
    with reading(), ctx.transaction() as session:
        return user_named(session, name).id


def export_game(
    ctx: ServiceContext, user: UserInfo, game_id: int, fmt: str, *, full: bool = False
) -> Export:
    """The hands of a game ``user`` was dealt into, as they saw them; with ``full``
    (admins only), every hand with every card."""
    if full and not user.is_admin:
        raise Forbidden("Only an admin can see every card of a hand.")
    return game_export(ctx, game_id, fmt, player_id=user.id, full=full)


# ---------------------------------------------------------------------- proofs


def proof_document(
    ctx: ServiceContext, user: UserInfo | None, hand_id: int, *, full: bool = False
) -> dict[str, Any]:
    """The deck verification file of a finished hand for ``user``: proofs for their
    own hole cards, the board and the hands shown (every position for an admin with
    ``full``). ``cardroom verify`` checks it; docs/fairness.md says how."""
    with reading(), ctx.transaction() as session:
        stored = one_hand(session, hand_id)
        if user is not None:  # a private table's hands: as its table (invites.py)
            invites.hand_visible(session, stored.game_id, user.id)
    if stored.record.deck_root is None:
        raise NoDeckProof(
            f"Hand {hand_id} was dealt before the room committed to its decks: it has no proof."
        )
    viewer = viewer_of(stored, user, full)
    with reading_hand(hand_id):
        document = fairness.proof_document(stored.record, viewer)
    if not document["leaves"]:
        raise NoDeckProof(
            f"You saw no card of hand {hand_id} (it ended before the flop, and you held no "
            "cards in it): there is nothing to prove."
        )
    return document


def proof_file(
    ctx: ServiceContext, user: UserInfo | None, hand_id: int, *, full: bool = False
) -> Export:
    """``proof_document`` as a download (``cardroom-hand-12-proof.json``)."""
    document = proof_document(ctx, user, hand_id, full=full)
    text = json.dumps(document, indent=2) + "\n"
    return Export(f"cardroom-hand-{hand_id}-proof.json", "application/json", text)
