"""One command on one game, inside the use case's transaction.

``GameTx.open`` locks the game's row (``SELECT ... FOR UPDATE`` on PostgreSQL;
SQLite's ``BEGIN IMMEDIATE`` has already serialised the transaction) and loads its
``Table``. ``run`` applies a table command and, in the same transaction, everything
that follows from it:

- the table's money records move money through the ledger (buy-ins, rebuys, refunds,
  cash-outs, per-hand buy-ins and settlements, prizes: ``game_money``);
- a newly dealt hand gets its ``hands`` row (deck, setup, the deck's commitment and
  its secret salts), whose id the game's row keeps (``games.hand_id``), and a
  ``hand_players`` row per player dealt in, and a ``DeckCommitted`` record with the
  commitment's root goes out right after ``HandDealt``, before any card; a command on
  the running hand takes its row's id from the game's row, not from a read of
  ``hands``; a finished hand gets its final state (``hand_rows``);
- the table's records and the hand's engine records are numbered and stored in the
  order they happened.

The game's row is locked, read and written through Core (``game_rows``). On a table
this process kept (``kept_tables``) at the row's version, only the version is read:
the row, the table and the pending deadlines are the ones kept (``pending``, which
the reactions hand to ``schedule.store_deadlines`` and replace with what it
returns). ``save``
writes the table back, bumps the version, numbers the events on from the
row's ``last_seq`` and moves it to the last one stored, keeps ``game_players`` in step
and returns the events it stored. What follows from them (the game's deadlines, the
notices) is not the unit of work's business: the command pipeline's reactions
(``cardroom.service.game.reactions``) record it in the same transaction, onto
``next_due`` and ``notices``, which ``result`` returns. Requests carry the version
they saw and an optional idempotency key (``check_request`` / ``remember``).

Table times are seconds since the game was created (``schedule.seconds_of``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter, itemgetter
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.actions import IllegalAction
from cardroom.deck import RandomSource, shuffled_deck
from cardroom.events import Event, event_to_dict
from cardroom.hand import Hand
from cardroom.rules import Format
from cardroom.service.errors import Conflict, InvalidInput
from cardroom.service.game_errors import (
    IdempotencyKeyReused,
    StaleVersion,
    TooManyWaitingGames,
    translated,
)
from cardroom.service.game_money import move_money
from cardroom.service.game_records import (
    AfterCommit,
    GameRow,
    Notice,
    Pending,
    PlayResult,
    StoredEvent,
)
from cardroom.service.game_rows import (
    game_of,
    game_row,
    kept_row,
    lock_game,
    lock_version,
    seldom_changed,
    status_of,
    write_game,
)
from cardroom.service.hand_rows import (
    DECK_COMMITTED,
    RunningHand,
    finish_hand,
    hand_row,
    new_hand_row,
)
from cardroom.service.kept_tables import KeptTables, check_kept
from cardroom.service.schedule import seconds_of
from cardroom.store import ledger
from cardroom.store.models import (
    IDEMPOTENCY_KEY_MAX_LENGTH,
    WAITING_GAMES_PER_PLAYER,
    DeadlineKind,
    Game,
    GameEvent,
    GamePlayer,
    GameStatus,
    HandRecord,
    IdempotencyKey,
    LedgerAccount,
)
from cardroom.store.prepared import Prepared
from cardroom.table import (
    Table,
    TableError,
    TableEvent,
    TableStatus,
    table_from_dict,
)
from cardroom.table.codec import hand_json, table_json
from cardroom.table.events import HandDealt, HandFinished, PlayerLeft, table_event_to_dict

log = logging.getLogger(__name__)

_EVENTS = cast(SqlTable, GameEvent.__table__)
_EVENT_COLUMNS = ("game_id", "seq", "kind", "payload", "hand_id", "version", "created_at")
# A command's events go in as one INSERT of that many rows (a deal makes a dozen, an
# action two or three), not an executemany of one row each: about half the driver's
# time on SQLite for three rows, and one statement for PostgreSQL to run. Each row's
# parameters are named for its place (``seq_2``); past ``_EVENTS_AT_ONCE`` rows, the
# rest go in a statement of their own.
_EVENTS_AT_ONCE = 32
_EVENT_KEYS = tuple(tuple(f"{name}_{i}" for name in _EVENT_COLUMNS) for i in range(_EVENTS_AT_ONCE))
_INSERTS_OF: dict[int, Prepared] = {}


def _insert_events(count: int) -> Prepared:
    """The INSERT of ``count`` events (1 to ``_EVENTS_AT_ONCE``), built once."""
    found = _INSERTS_OF.get(count)
    if found is None:
        rows = [
            {
                name: bindparam(key, type_=_EVENTS.c[name].type)
                for name, key in zip(_EVENT_COLUMNS, _EVENT_KEYS[i], strict=True)
            }
            for i in range(count)
        ]
        found = _INSERTS_OF[count] = Prepared(insert(_EVENTS).values(rows))
    return found


# Every row's parameter names in order, a row after another: a command's values,
# laid out the same way, are named by one ``zip`` (not one a row).
_EVENT_NAMES = tuple(key for keys in _EVENT_KEYS for key in keys)
_ROW_WIDTH = len(_EVENT_COLUMNS)


def _write_events(session: Session, values: Sequence[Any]) -> None:
    """Insert the events' rows, in order: ``values`` holds each row's values in
    ``_EVENT_COLUMNS``' order, a row after another."""
    at_once = _ROW_WIDTH * _EVENTS_AT_ONCE
    for start in range(0, len(values), at_once):
        chunk = values if len(values) <= at_once else values[start : start + at_once]
        insert_rows = _insert_events(len(chunk) // _ROW_WIDTH)
        insert_rows.write(session, dict(zip(_EVENT_NAMES, chunk, strict=False)))


_PLAYER_AND_SEAT = attrgetter("player", "number")
# The row's columns ``save`` reads, from the instance's dict at once.
_SAVE_READS = itemgetter("id", "version", "last_seq", "started_at", "ended_at")


def _final_state(hand: Hand, row: HandRecord | RunningHand) -> dict[str, Any]:
    """What a finished hand's row keeps (``hands.final_state``): ``Hand.to_dict``'s
    data. Written by one UPDATE (a ``RunningHand``), as its JSON text from the texts
    the hand keeps for the save (``codec.hand_json``): the same bytes, without a
    copy of the hand's lists and events and their writing, about 60k instructions a
    hand. A ``HandRecord`` is the unit of work's object, whose attribute may be read
    back in the transaction: it gets the data."""
    if isinstance(row, HandRecord):
        return hand.to_dict()
    # The column's serializer writes a ``Fragment`` as it is (``store.json_text``);
    # ``finish_hand`` only passes it to the UPDATE.
    return cast(dict[str, Any], hand_json(hand))


@dataclass
class _Record:
    kind: str
    payload: dict[str, Any]
    hand: HandRecord | RunningHand | None


@dataclass
class GameTx:
    session: Session
    game: Game
    table: Table
    now: datetime
    actor_id: int | None = None  # who asked, for the ledger's created_by
    fresh: bool = False  # a game row just inserted at version 1: the first save keeps it
    records: list[_Record] = field(default_factory=list)
    changed: bool = False
    stored: list[StoredEvent] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)  # recorded by the reactions
    _account: LedgerAccount | None = None
    # The row of the hand last dealt or played in this transaction.
    _hand: HandRecord | RunningHand | None = None
    next_due: datetime | None = None  # the soonest deadline stored after the last save
    # Who sat where (and whether the game was waiting) when game_players last matched
    # the table: None until known (a game created in this transaction).
    _seating: tuple[frozenset[tuple[int, int]], bool] | None = None
    # The game's row lacked the running hand's id and ``_hand_row`` found it: ``save``
    # writes the row even if nothing else changed.
    _hand_id_found: bool = False
    # What the lobby lists of the game as it was before this command (None: a game
    # created in this transaction), and whether a save changed it: the reactions
    # compare (``reactions.listing``), and ``result`` says so to the web layer.
    listed: tuple[object, ...] | None = None
    lobby_changed: bool = False
    # The game's pending deadline rows as this process knows them (kept with the
    # table, or returned by the last ``store_deadlines``); None: not known, read.
    pending: Pending | None = None
    _t: tuple[datetime, float] | None = None  # ``now`` and its table time (``t``)
    # The row's seldom changed columns as stored (``game_rows.seldom_changed``: read,
    # kept or last written), for ``write_game`` to leave out when they stay; None:
    # not known (a game created in this transaction), every column written.
    _stored: tuple[Any, ...] | None = None
    # The game's row as the last save wrote it (``game_row``): what the reactions read
    # of the game (plain attributes, where each of the ``Game``'s is an ORM
    # descriptor's call) and what ``result`` answers with. None before a save, and
    # after ``reread``.
    saved_row: GameRow | None = None

    def __post_init__(self) -> None:
        if self.fresh and self.game in self.session:
            # A row just inserted through the ORM: from here on ``save`` writes it,
            # through Core, like a row ``lock_game`` locked; left in the session, the
            # unit of work would write the same changes a second time.
            self.session.expunge(self.game)

    # The table came from this process's kept tables and goes back there once
    # committed (``kept_tables``): ``result`` says so.
    kept: bool = False

    @classmethod
    def open(
        cls,
        session: Session,
        game_id: int,
        now: datetime,
        actor_id: int | None = None,
        *,
        kept: KeptTables | None = None,
        locked: int | None = None,
    ) -> GameTx:
        """Lock the game's row and load its table: from ``kept`` if it holds the
        game at the row's version (then only the version is read: the row's columns,
        the table and the pending deadlines are the ones kept), else read and
        decoded from the stored row. ``locked``: the row's version as the caller
        read it under the row's lock in this transaction, with nothing written to
        the row since (``together``: the batch's games locked in one statement,
        ``game_rows.lock_versions``), so it is not read again."""
        taken = None
        if kept is not None:
            version = lock_version(session, game_id) if locked is None else locked
            taken = kept.at(game_id, version)
            if taken is not None and kept.checked:
                check_kept(session, game_id, taken)
        if taken is not None:
            # The row and the deadlines as copies: what a refused command changes
            # in its own must not reach what is kept (the table is taken out).
            game, table = game_of(taken.row), taken.table
            pending = None if taken.deadlines is None else dict(taken.deadlines)
        else:
            game = lock_game(session, game_id)
            table, pending = table_from_dict(game.state), None
        tx = cls(session, game, table, now, actor_id, kept=kept is not None, pending=pending)
        tx._seating = tx._seating_now()  # every save left game_players matching it
        tx._stored = seldom_changed(game)
        return tx

    def reread(self) -> None:
        """The game's row as stored now, for a savepoint that undid this command's
        writes (the clock reports a refused deadline with the game as it still is).
        What this command knew of the deadlines may have been undone with them: the
        next command reads them."""
        self.game = lock_game(self.session, self.game.id)
        self._stored = seldom_changed(self.game)
        self.saved_row = None
        self.pending = None

    def deadline_claimed(self, kind: DeadlineKind) -> None:
        """The clock claimed the game's pending ``kind`` deadline in this transaction
        (``clock_commands.Claim``): no longer pending, and no version moves for it if
        its work changes nothing. A reminder's firing may write the next one
        (``schedule.store_reminder``): after it the deadlines are read."""
        if self.pending is None:
            return
        if kind is DeadlineKind.REMINDER:
            self.pending = None
        else:
            self.pending = {k: w for k, w in self.pending.items() if k is not kind}

    @property
    def t(self) -> float:
        """Now, in table time: worked out once for ``now`` (the command, the deal's
        checks and the reactions each ask; the game's creation never moves)."""
        known = self._t
        if known is None or known[0] is not self.now:
            known = self._t = (self.now, seconds_of(self.game, self.now))
        return known[1]

    # -------------------------------------------------------------- requests

    def check_request(
        self,
        user_id: int | None,
        expected_version: int | None,
        key: str | None,
        request: dict[str, Any],
    ) -> PlayResult | None:
        """The stored answer if ``key`` was seen before from this player at this game;
        otherwise check the version the request saw and return None. (The operator's
        console, ``user_id`` None, sends no keys.)"""
        if key is not None:
            if type(key) is not str or not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX_LENGTH:
                raise InvalidInput(
                    f"An idempotency key is 1 to {IDEMPOTENCY_KEY_MAX_LENGTH} characters."
                )
            if user_id is None:
                raise InvalidInput("Requests from the console carry no idempotency key.")
            row = self.session.scalar(
                select(IdempotencyKey).where(
                    IdempotencyKey.game_id == self.game.id,
                    IdempotencyKey.user_id == user_id,
                    IdempotencyKey.key == key,
                )
            )
            if row is not None:
                if row.request != request:
                    raise IdempotencyKeyReused(
                        "This idempotency key was already used for another request."
                    )
                return self._replay(row.response)
        self.check_version(expected_version)
        return None

    def check_version(self, expected_version: int | None) -> None:
        if expected_version is None:
            return
        if type(expected_version) is not int:
            raise InvalidInput("A table version is a whole number.")
        if expected_version != self.game.version:
            raise StaleVersion(
                f"The table has changed since you saw it (you saw version "
                f"{expected_version}, it is at {self.game.version}): look again.",
                expected=expected_version,
                current=self.game.version,
            )

    def remember(self, key: str | None, request: dict[str, Any], result: PlayResult) -> None:
        """Keep the answer for ``key`` (a player's; the console sends none), so the
        same request again gets it back with no second effect."""
        user_id = self.actor_id
        if key is None or user_id is None:
            return
        self.session.add(
            IdempotencyKey(
                game_id=self.game.id,
                user_id=user_id,
                key=key,
                request=request,
                response=result.to_response(),
                created_at=self.now,
            )
        )
        self.session.flush()

    def result(self) -> PlayResult:
        row = self.saved_row
        if row is None:
            row = game_row(self.game)
        return PlayResult(
            row.id,
            row.version,
            row.status,
            tuple(self.stored),
            notices=tuple(self.notices),
            lobby_changed=self.lobby_changed,
            after=AfterCommit(
                row,
                self.table,
                None if self._hand is None else self._hand.id,
                self.stored[-1].seq if self.stored else 0,
                self.next_due,
                self.kept,
                kept_row(self.game) if self.kept else None,
                self.pending,
            ),
        )

    def _replay(self, response: dict[str, Any]) -> PlayResult:
        events: tuple[StoredEvent, ...] = ()
        first, last = response["first_seq"], response["last_seq"]
        if first is not None:
            rows = self.session.scalars(
                select(GameEvent)
                .where(GameEvent.game_id == self.game.id, GameEvent.seq.between(first, last))
                .order_by(GameEvent.seq)
            )
            events = tuple(StoredEvent.of(row) for row in rows)
        return PlayResult(
            self.game.id,
            response["version"],
            GameStatus(response["status"]),
            events,
            replayed=True,
        )

    # -------------------------------------------------------------- commands

    def run(
        self, command: Callable[[], list[TableEvent]], *, deck: Sequence[int] | None = None
    ) -> list[TableEvent]:
        """Apply a table command and everything that follows from it; a refusal
        becomes the matching ``ServiceError`` (the table is unchanged)."""
        table = self.table
        before = table.hand
        was_running = table.hand_running
        seen = len(before.events) if before is not None else 0
        try:
            events = command()
        except (TableError, IllegalAction) as refused:
            raise translated(refused) from None
        hand = table.hand
        row: HandRecord | RunningHand | None = None
        hand_events: list[Event] = []
        ordered: list[TableEvent | Event] = []
        if hand is not None and hand is not before:  # a new hand was dealt
            dealt = next((e for e in events if isinstance(e, HandDealt)), None)
            row = new_hand_row(self.session, self.game, table, hand, deck, dealt, self.now)
            hand_events = list(hand.events)
            split = next(
                (i + 1 for i, e in enumerate(events) if isinstance(e, HandDealt)), len(events)
            )
            ordered = [*events[:split], *hand_events, *events[split:]]
        else:
            if hand is not None and was_running:
                row, found = hand_row(self.session, self.game, table, table.hands_dealt)
                self._hand_id_found = self._hand_id_found or found
                hand_events = list(hand.events[seen:])
            ordered = [*hand_events, *events]
        if row is not None:
            self._hand = row
        reasons = {e.player: e.reason for e in events if isinstance(e, PlayerLeft)}
        for event in events:
            move_money(
                self.session,
                self.account,
                event,
                row,
                reasons,
                game_id=self.game.id,
                now=self.now,
                actor_id=self.actor_id,
            )
        for item in ordered:
            if isinstance(item, TableEvent):
                data = table_event_to_dict(item)
            else:
                data = event_to_dict(item)
            kind = data.pop("type")
            self.records.append(_Record(kind, data, row))
            if isinstance(item, HandDealt) and row is not None and row.deck_root is not None:
                # The deck's commitment, public, before the first card leaves the deck.
                payload = {"number": item.number, "root": row.deck_root}
                self.records.append(_Record(DECK_COMMITTED, payload, row))
        finished = any(isinstance(e, HandFinished) for e in events)
        if row is not None and hand is not None and hand.is_over and finished:
            finish_hand(self.session, row, self.now, _final_state(hand, row))
        if ordered:
            self.changed = True
        return events

    def note(self, kind: str, payload: dict[str, Any]) -> None:
        """A record of the room's own (``GameCreated``, ``GameCancelled``...)."""
        self.records.append(_Record(kind, payload, None))
        self.changed = True

    def touch(self) -> None:
        """Count as activity and as a change even if no record was made."""
        self.changed = True

    def deal_if_due(self, source: RandomSource, *, force: bool = False) -> None:
        """Deal the next hand if the table is ready for one: the first hand right
        after the start, the next once everyone pressed Continue or the review time
        is over (``force``: at once, for "Skip waiting and deal" and the clock)."""
        table = self.table
        if table.status is not TableStatus.PLAYING or table.hand_running or table.held:
            return
        if not force:
            due = table.deal_due()
            if not (table.everyone_continued() or (due is not None and due <= self.t)):
                return
        self.deal(source)

    def deal(self, source: RandomSource) -> None:
        table = self.table
        balances = self.balances(table.players()) if table.format is Format.PER_HAND else None
        deck = shuffled_deck(source)
        self.run(lambda: table.deal(self.t, deck, balances=balances), deck=deck)

    # ----------------------------------------------------------------- money

    def account(self) -> LedgerAccount:
        if self._account is None:
            self._account = ledger.game_account(self.session, self.game.id)
        return self._account

    def balances(self, players: Iterable[int]) -> dict[int, int]:
        """The players' balances, their ledger rows locked until the transaction ends
        (in id order, like the ledger's own locks)."""
        ids = sorted(set(players))
        if not ids:
            return {}
        rows = self.session.scalars(
            select(LedgerAccount)
            .where(LedgerAccount.user_id.in_(ids))
            .order_by(LedgerAccount.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).all()
        return {row.user_id: row.balance_cents for row in rows if row.user_id is not None}

    def balance(self, player: int) -> int:
        return self.balances([player]).get(player, 0)

    # ------------------------------------------------------------------ save

    def save(self) -> tuple[StoredEvent, ...] | None:
        """Write the table back with everything this transaction did, and return the
        events it stored; nothing, and None, if nothing changed (the pipeline's
        reactions then have nothing to react to)."""
        game, table = self.game, self.table
        if not self.changed:
            if self._hand_id_found:
                self._stored = write_game(self.session, game, self._stored)
                self._hand_id_found = False
            return None
        self._hand_id_found = False
        # The row's columns read and set in the instance's dict itself: the ``Game``
        # is outside the session and only ``write_game`` writes it, so the ORM's
        # descriptors (about 1 us a read) and change tracking on each set would do
        # work nobody uses. Through the attributes for a game this transaction
        # inserted through the ORM, whose dict may lack a column.
        columns = game.__dict__
        try:
            game_id, version, seq, started_at, ended_at = _SAVE_READS(columns)
        except KeyError:
            game_id, version, seq = game.id, game.version, game.last_seq
            started_at, ended_at = game.started_at, game.ended_at
        if self.fresh:
            self.fresh = False
        else:
            version += 1
            columns["version"] = version
        # The state as its JSON text, written with what did not change since the last
        # save reused (``table_json``): no one reads ``game.state`` after a save (a
        # read in the transaction loads the row afresh: ``game_rows``).
        columns["state"] = table_json(table)
        status = status_of(table)
        now = self.now
        if started_at is None and status not in (GameStatus.WAITING, GameStatus.CANCELLED):
            columns["started_at"] = now
        if status in (GameStatus.FINISHED, GameStatus.CANCELLED) and ended_at is None:
            columns["ended_at"] = now
        columns["status"] = status
        columns["last_activity_at"] = now
        first = len(self.stored)
        # The events are numbered on from the row's ``last_seq`` (locked and loaded by
        # ``open``): no read of the events' highest number. Inserted without a flush
        # first (``Session.no_autoflush``, its flag set here without the context
        # manager's generator): the unit of work's pending rows go before the row's
        # UPDATE.
        session = self.session
        autoflush = session.autoflush
        session.autoflush = False
        try:
            values: list[Any] = []
            for record in self.records:
                seq += 1
                hand_id = None if record.hand is None else record.hand.id
                values += (game_id, seq, record.kind, record.payload, hand_id, version, now)
                self.stored.append(
                    StoredEvent(seq, record.kind, record.payload, hand_id, version, now)
                )
            if values:
                # Through Core: the ORM's unit of work would add an object, an
                # identity and a RETURNING per event (most commands make several),
                # and nothing here reads the rows back.
                _write_events(session, values)
                columns["last_seq"] = seq
        finally:
            session.autoflush = autoflush
        self._stored = write_game(self.session, game, self._stored)
        self.saved_row = game_row(game)
        self.records = []
        self.changed = False
        seating = self._seating_now()
        if seating != self._seating:  # most commands (every action) seat nobody
            self._sync_players()
            self._seating = seating
        return tuple(self.stored[first:])

    def _seating_now(self) -> tuple[frozenset[tuple[int, int]], bool]:
        """Who sits where, as (player, seat) pairs, and whether the game waits: made
        at every command's open and save, by ``attrgetter`` (no Python step a seat)."""
        table = self.table
        return frozenset(map(_PLAYER_AND_SEAT, table.seats.values())), (
            table.status is TableStatus.WAITING
        )

    def _sync_players(self) -> None:
        """``game_players`` after the change: a row per player who ever sat here, the
        seat of those seated, a waiting slot (1 to 3) for each game waiting to start."""
        session, game, table = self.session, self.game, self.table
        rows = {
            row.user_id: row
            for row in session.scalars(select(GamePlayer).where(GamePlayer.game_id == game.id))
        }
        seated = {seat.player: seat.number for seat in table.seats.values()}
        waiting = table.status is TableStatus.WAITING
        moved = False
        # Free every seat that changes first, so no two rows ever hold one seat.
        for user_id, row in rows.items():
            if row.seat != seated.get(user_id):
                row.seat = None
                moved = True
            if not waiting or user_id not in seated:
                row.waiting_slot = None
        if moved:
            session.flush()
        for user_id, number in seated.items():
            known = rows.get(user_id)
            if known is None:
                row = GamePlayer(game_id=game.id, user_id=user_id, joined_at=self.now)
                session.add(row)
            else:
                row = known
            row.seat = number
            if waiting and row.waiting_slot is None:
                row.waiting_slot = self._free_waiting_slot(user_id)
        try:
            session.flush()
        except IntegrityError:
            # Another transaction took the last waiting slot or the seat meanwhile.
            raise Conflict(
                "Someone else changed this at the same moment: look again and retry."
            ) from None

    def _free_waiting_slot(self, user_id: int) -> int:
        used = set(
            self.session.scalars(
                select(GamePlayer.waiting_slot).where(
                    GamePlayer.user_id == user_id, GamePlayer.waiting_slot.is_not(None)
                )
            )
        )
        for slot in range(1, WAITING_GAMES_PER_PLAYER + 1):
            if slot not in used:
                return slot
        raise TooManyWaitingGames(
            f"You already have {WAITING_GAMES_PER_PLAYER} games waiting to start: "
            "leave one or wait for one to start."
        )
