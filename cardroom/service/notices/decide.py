"""Deciding: which notices a saved change calls for, and their words. Nothing here
writes; ``cardroom.service.notices.record`` records what this decides.

- *your turn*, when action rests on a player: keyed by game, hand and the seq of the
  event that started the turn (the last blind, hole card, board card or action), so
  one turn makes one notice however many commands, retries or server processes look
  at it. The turn is the table's as it is at the end of the command;
- *game started*, for the players of a ``GameStarted``;
- *game ended*, for a tournament's players (their place and prize) and for the
  players refunded by a cancellation (the reason and the refund);
- a *reminder* of a turn on a long clock (``reminder``: the clock's reminder
  deadline asks for it, no event occasions it): a "your turn" notice again, keyed by
  the turn and the point, with the time left.

**Adding a notice** is one function in this file: a ``Decider`` that turns the
events of one kind into ``Draft``s (its words go in ``cardroom.notify.messages``, a
new kind in ``NoticeKind``), and its row in ``BY_EVENT``. Recording, delivering and
the player's choices need no change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

import orjson
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from cardroom.hand import STREET_NAMES
from cardroom.notify import messages
from cardroom.notify.messages import Text
from cardroom.service.game_records import GameRow, StoredEvent
from cardroom.service.schedule import at
from cardroom.store.models import Game, GameEvent, GameStatus, HandRecord, User
from cardroom.store.notify_models import (
    NoticeKind,
)
from cardroom.table import Table
from cardroom.table.durations import spoken

# The events after which the player to act may have changed: the deal (blinds, hole
# cards), a street, an action. The last of them in a hand started the current turn.
TURN_STARTERS = ("BlindPosted", "HoleCardDealt", "BoardDealt", "PlayerActed")
_TURN_STARTERS = frozenset(TURN_STARTERS)


# A named tuple, not a frozen dataclass: made on nearly every command, and a frozen
# dataclass's ``__init__`` sets each field through ``object.__setattr__``.
class Turn(NamedTuple):
    user_id: int
    hand_id: int
    turn_seq: int


def current_turn(
    session: Session,
    game: Game | GameRow,
    table: Table,
    *,
    hand_id: int | None = None,
    events: Sequence[StoredEvent] = (),
) -> Turn | None:
    """Whose turn it is at ``game`` now, and the event that started it; None while
    no one is to act (between hands, all in, paused, over). A caller in the
    command's transaction saves the two reads: ``hand_id`` is the running hand's id
    (``table.hands_dealt``'s row), and ``events`` the events it has just stored,
    whose last turn starter of that hand, if any, started the turn."""
    hand = table.hand
    if game.status is not GameStatus.RUNNING or hand is None or hand.is_over:
        return None
    seat = hand.seat_to_act
    player = None if seat is None else table.hand_players.get(seat)
    if player is None:
        return None
    if hand_id is None:
        hand_id = session.scalar(
            select(HandRecord.id).where(
                HandRecord.game_id == game.id, HandRecord.number == table.hands_dealt
            )
        )
        if hand_id is None:
            return None
    # Events are numbered in the order they happen: the stored ones of this command
    # come after every other, so the last starter among them is the hand's last.
    turn_seq = _last_starter(events, hand_id)
    if turn_seq is None:  # nothing here moved the turn (a resume, a sit out...)
        turn_seq = session.scalar(
            select(func.max(GameEvent.seq)).where(
                GameEvent.game_id == game.id,
                GameEvent.hand_id == hand_id,
                GameEvent.kind.in_(TURN_STARTERS),
            )
        )
        if turn_seq is None:
            return None
    return Turn(player, hand_id, int(turn_seq))


def _last_starter(events: Sequence[StoredEvent], hand_id: int) -> int | None:
    """The seq of the last turn starter of ``hand_id`` among ``events`` (the
    highest), if any: one pass, no list."""
    found = None
    for event in events:
        if event.kind in _TURN_STARTERS and event.hand_id == hand_id:
            seq = event.seq
            if found is None or seq > found:
                found = seq
    return found


# Not frozen: built once by a decider and only read after (``_store``), and a frozen
# dataclass's ``__init__`` sets its eight fields at three times the cost, on nearly
# every command.
@dataclass(slots=True)
class Draft:
    user_id: int
    kind: NoticeKind
    dedupe_key: str
    text: Text
    data: dict[str, Any] = field(default_factory=dict)
    hand_id: int | None = None
    turn_seq: int | None = None
    due_at: datetime | None = None  # a turn's clock: delivery should beat it


# A notice that events occasion: from the game, its table as the command left it and
# the command's stored events (all of them: a decider picks its own), its drafts.
Decider = Callable[[Session, Game | GameRow, Table, Sequence[StoredEvent]], list[Draft]]


def occasioned(
    session: Session,
    game: Game | GameRow,
    table: Table,
    events: Sequence[StoredEvent],
    *,
    actor_id: int | None = None,
) -> list[Draft]:
    """The notices ``events`` occasion by themselves (a start, an end), in
    ``BY_EVENT``'s order; none for ``actor_id``, the player whose command caused
    them."""
    kinds = {event.kind for event in events}
    if kinds.isdisjoint(_OCCASIONING):  # the usual command: a bet, a deal
        return []
    drafts: list[Draft] = []
    for kind, decider in BY_EVENT:
        if kind in kinds:
            drafts += decider(session, game, table, events)
    if actor_id is not None:
        drafts = [d for d in drafts if d.user_id != actor_id]
    return drafts


def turn_notice(
    session: Session,
    game: Game | GameRow,
    table: Table,
    *,
    hand_id: int | None = None,
    events: Sequence[StoredEvent] = (),
) -> Draft | None:
    """*Your turn* for whoever is to act now, if anyone is (``current_turn``)."""
    turn = current_turn(session, game, table, hand_id=hand_id, events=events)
    return None if turn is None else _your_turn(game, table, turn)


def _started(
    session: Session, game: Game | GameRow, table: Table, events: Sequence[StoredEvent]
) -> list[Draft]:
    out: list[Draft] = []
    for event in events:
        if event.kind != "GameStarted":
            continue
        players = [int(p) for p in event.payload.get("players", ())]
        text = messages.game_started(
            game.id,
            players=len(players),
            small_blind=table.small_blind,
            big_blind=table.big_blind,
            pays_money=table.config.pays_money,
        )
        out += [
            Draft(player, NoticeKind.GAME_STARTED, f"started:{game.id}", text) for player in players
        ]
    return out


def _tournament_finished(
    session: Session, game: Game | GameRow, table: Table, events: Sequence[StoredEvent]
) -> list[Draft]:
    prizes: dict[int, int] = {}
    for event in events:
        if event.kind == "PrizePaid":
            player = int(event.payload["player"])
            prizes[player] = prizes.get(player, 0) + int(event.payload["amount"])
    out: list[Draft] = []
    for event in events:
        if event.kind != "TournamentFinished":
            continue
        winner = int(event.payload["winner"])
        places = {int(p): int(place) for p, place in event.payload.get("places", ())}
        winner_row = session.get(User, winner)
        for player, place in places.items():
            text = messages.tournament_finished(
                game.id,
                place=place,
                players=len(places),
                prize=prizes.get(player, 0),
                winner_name="Another player" if winner_row is None else winner_row.name,
                you_won=player == winner,
                pays_money=table.config.pays_money,
            )
            data = {"result": "finished", "place": place, "prize": prizes.get(player, 0)}
            out.append(Draft(player, NoticeKind.GAME_ENDED, f"ended:{game.id}", text, data))
    return out


def _cancelled(
    session: Session, game: Game | GameRow, table: Table, events: Sequence[StoredEvent]
) -> list[Draft]:
    refunds: dict[int, int] = {}
    for event in events:
        if event.kind == "BuyInRefunded":
            player = int(event.payload["player"])
            refunds[player] = refunds.get(player, 0) + int(event.payload["amount"])
    reason = next(
        (str(e.payload.get("reason", "")) for e in events if e.kind == "GameCancelled"), ""
    )
    out: list[Draft] = []
    for player, refund in refunds.items():
        text = messages.game_cancelled(
            game.id, reason=reason, refund=refund, pays_money=table.config.pays_money
        )
        data = {"result": "cancelled", "reason": reason, "refund": refund}
        out.append(Draft(player, NoticeKind.GAME_ENDED, f"ended:{game.id}", text, data))
    return out


# What each event kind occasions, in the order the notices are recorded. A new
# notice is its decider above and its row here.
BY_EVENT: tuple[tuple[str, Decider], ...] = (
    ("GameStarted", _started),
    ("TournamentFinished", _tournament_finished),
    ("GameCancelled", _cancelled),
)
_OCCASIONING = frozenset(kind for kind, _ in BY_EVENT)


def iso_text(moment: datetime) -> str:
    """``moment.isoformat()``: for a UTC moment (every one the room makes) as orjson
    writes it, the same text (RFC 3339, the microseconds when there are some, the
    offset ``+00:00``) at a third of the cost (nearly every command's turn notice
    says when its clock runs out)."""
    if moment.tzinfo is UTC and type(moment) is datetime:
        return orjson.dumps(moment)[1:-1].decode()
    return moment.isoformat()


def _your_turn(game: Game | GameRow, table: Table, turn: Turn) -> Draft:
    # Nearly every command writes one: each fact is read once (``game.id`` is an ORM
    # attribute, ``hand.pot`` a sum), the legal actions are the hand's, asked once.
    hand = table.hand
    assert hand is not None
    game_id = game.id
    deadline = table.turn_deadline()
    due_at = None if deadline is None else at(game, deadline)
    to_call = hand.legal_actions().to_call
    pot = hand.pot
    number = table.hands_dealt
    street = STREET_NAMES[hand.street]
    text = messages.your_turn(
        game_id,
        hand_number=number,
        street=street,
        to_call=to_call,
        pot=pot,
        pays_money=table.config.pays_money,
        due_at=due_at,
    )
    data = {
        "hand": number,
        "street": street,
        "to_call": to_call,
        "pot": pot,
        "due_at": None if due_at is None else iso_text(due_at),
    }
    return Draft(
        turn.user_id,
        NoticeKind.YOUR_TURN,
        f"turn:{game_id}:{turn.hand_id}:{turn.turn_seq}",
        text,
        data,
        turn.hand_id,
        turn.turn_seq,
        due_at,
    )


def reminder(
    session: Session,
    game: Game,
    table: Table,
    point: str,
    *,
    now: datetime,
    hand_id: int | None = None,
) -> Draft | None:
    """A reminder of the turn under way at ``point`` ("50%", "1h"), at ``now``: the
    your-turn notice's words and facts, titled with the time left, and keyed by the
    turn and the point, so each point of a turn is told once however often it is
    asked."""
    turn = current_turn(session, game, table, hand_id=hand_id)
    deadline = table.turn_deadline()
    if turn is None or deadline is None:
        return None
    draft = _your_turn(game, table, turn)
    # Said in whole minutes: a clock that fires a second late still says "1 hour".
    left = max(60, round((at(game, deadline) - now).total_seconds() / 60) * 60)
    text = Text(f"Reminder: {spoken(left)} left in game {game.id}", draft.text.body)
    return Draft(
        draft.user_id,
        NoticeKind.YOUR_TURN,
        f"remind:{game.id}:{turn.hand_id}:{turn.turn_seq}:{point}",
        text,
        {**draft.data, "reminder": point, "left_seconds": left},
        hand_id=turn.hand_id,
        turn_seq=turn.turn_seq,
        due_at=draft.due_at,
    )
