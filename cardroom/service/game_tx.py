"""One command on one game, inside the use case's transaction.

``GameTx.open`` locks the game's row (``SELECT ... FOR UPDATE`` on PostgreSQL;
SQLite's ``BEGIN IMMEDIATE`` has already serialised the transaction) and loads its
``Table``. ``run`` applies a table command and, in the same transaction, everything
that follows from it:

- the table's money records move money through the ledger (buy-ins, rebuys, refunds,
  cash-outs, per-hand buy-ins and settlements, prizes);
- a newly dealt hand gets its ``hands`` row (deck, setup, the deck's commitment and
  its secret salts), whose id the game's row keeps (``games.hand_id``), and a
  ``hand_players`` row per player dealt in, and a ``DeckCommitted`` record with the
  commitment's root goes out right after ``HandDealt``, before any card; a command on
  the running hand takes its row's id from the game's row, not from a read of
  ``hands``; a finished hand gets its final state;
- the table's records and the hand's engine records are numbered and stored in the
  order they happened.

``save`` writes the table back, bumps the version, numbers the events on from the
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
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, load_only, make_transient_to_detached
from sqlalchemy.orm.util import identity_key

from cardroom.actions import IllegalAction
from cardroom.deck import RandomSource, shuffled_deck
from cardroom.events import Event, event_to_dict
from cardroom.hand import Hand
from cardroom.history import fairness
from cardroom.rules import Format
from cardroom.service.errors import Conflict, InvalidInput
from cardroom.service.game_errors import (
    GameNotFound,
    IdempotencyKeyReused,
    StaleVersion,
    TooManyWaitingGames,
    translated,
)
from cardroom.service.game_records import AfterCommit, GameRow, Notice, PlayResult, StoredEvent
from cardroom.service.money import pay
from cardroom.service.schedule import seconds_of
from cardroom.store import ledger
from cardroom.store.models import (
    IDEMPOTENCY_KEY_MAX_LENGTH,
    WAITING_GAMES_PER_PLAYER,
    Game,
    GameEvent,
    GamePlayer,
    GameStatus,
    HandPlayer,
    HandRecord,
    IdempotencyKey,
    LedgerAccount,
    TransferKind,
)
from cardroom.table import (
    Table,
    TableError,
    TableEvent,
    TableStatus,
    table_from_dict,
    table_to_dict,
)
from cardroom.table.events import (
    BoughtIn,
    BuyInRefunded,
    CashedOut,
    HandBoughtIn,
    HandDealt,
    HandFinished,
    HandSettled,
    PlayerLeft,
    PrizePaid,
    Rebought,
    table_event_to_dict,
)

log = logging.getLogger(__name__)

# Which transfer each money record makes (the sign of its balance_change says which
# way: a debit goes from the player to the game).
_TRANSFER_KINDS: dict[type[TableEvent], TransferKind] = {
    BoughtIn: TransferKind.BUY_IN,
    Rebought: TransferKind.REBUY,
    HandBoughtIn: TransferKind.SETTLEMENT,
    BuyInRefunded: TransferKind.REFUND,
    CashedOut: TransferKind.CASH_OUT,
    HandSettled: TransferKind.SETTLEMENT,
    PrizePaid: TransferKind.PRIZE,
}


_INSERT_EVENTS = cast(SqlTable, GameEvent.__table__).insert()

# The room's record of a hand's deck commitment: ``{"number": n, "root": hex}``. It
# follows ``HandDealt`` and comes before the hand's first card; every viewer gets it.
DECK_COMMITTED = "DeckCommitted"


def status_of(table: Table) -> GameStatus:
    if table.status is TableStatus.WAITING:
        return GameStatus.WAITING
    if table.status is TableStatus.FINISHED:
        return GameStatus.FINISHED
    if table.status is TableStatus.CANCELLED:
        return GameStatus.CANCELLED
    if table.held or table.short_of_players:
        return GameStatus.PAUSED
    return GameStatus.RUNNING


# The game's row goes through Core, not the unit of work: read under the lock by one
# pre-built statement, written back by ``save`` with one pre-built UPDATE. Through
# the ORM the row cost every command an identity-map refresh (``populate_existing``),
# change tracking and a unit-of-work flush of its own: a command's CPU went from 6.6
# to 5.5 ms without them (benchmarks/command_path.py, SQLite). The columns' types are
# the model's, so ``state`` is decoded and encoded exactly as the ORM did (the same
# stored JSON).
#
# ``GameTx.game`` stays a ``Game``, the type its callers (the lobby, the clock, the
# notices, ``host_or_admin``) already take, but one the session never holds: built
# from the locked row and detached, so setting its attributes writes nothing and only
# ``save``'s UPDATE does. A ``session.get(Game, id)`` later in the transaction loads
# the row afresh, after that UPDATE; ``session.refresh`` cannot reach it (see
# ``GameTx.reread``).
_GAMES = cast(SqlTable, Game.__table__)
# ``FOR UPDATE`` serialises commands on PostgreSQL; SQLite's dialect leaves it out
# (``BEGIN IMMEDIATE`` has serialised the whole transaction already).
_LOCK_GAME = select(_GAMES).where(_GAMES.c.id == bindparam("game_id")).with_for_update()
# Every column a command may change, always all of them: one statement the cache
# compiles once, and the rarely changed ones (started_at, ended_at, hand_id) cost
# next to nothing beside ``state``.
_SAVE_GAME = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"))
    .values(
        version=bindparam("new_version", type_=_GAMES.c.version.type),
        state=bindparam("new_state", type_=_GAMES.c.state.type),
        status=bindparam("new_status", type_=_GAMES.c.status.type),
        started_at=bindparam("new_started_at", type_=_GAMES.c.started_at.type),
        ended_at=bindparam("new_ended_at", type_=_GAMES.c.ended_at.type),
        last_activity_at=bindparam("new_last_activity_at", type_=_GAMES.c.last_activity_at.type),
        last_seq=bindparam("new_last_seq", type_=_GAMES.c.last_seq.type),
        hand_id=bindparam("new_hand_id", type_=_GAMES.c.hand_id.type),
    )
)


def lock_game(session: Session, game_id: int) -> Game:
    """The game's row, locked until the transaction ends, as a ``Game`` outside the
    session's unit of work (written back only by ``write_game``)."""
    if type(game_id) is not int:
        raise GameNotFound("There is no such game.")
    row = session.execute(_LOCK_GAME, {"game_id": game_id}).first()
    if row is None:
        raise GameNotFound(f"There is no game {game_id}.")
    game = Game(**row._mapping)
    make_transient_to_detached(game)  # a stored row, not a new one to insert
    return game


def write_game(session: Session, game: Game) -> None:
    """Write back the columns a command changes on a row ``lock_game`` locked."""
    written = session.execute(
        _SAVE_GAME,
        {
            "game_id": game.id,
            "new_version": game.version,
            "new_state": game.state,
            "new_status": game.status,
            "new_started_at": game.started_at,
            "new_ended_at": game.ended_at,
            "new_last_activity_at": game.last_activity_at,
            "new_last_seq": game.last_seq,
            "new_hand_id": game.hand_id,
        },
    )
    # The row is locked and games are never deleted: anything else is a bug.
    assert written.rowcount == 1, f"game {game.id}: {written.rowcount} rows written"  # type: ignore[attr-defined]


@dataclass
class _Record:
    kind: str
    payload: dict[str, Any]
    hand: HandRecord | None


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
    _hand: HandRecord | None = None
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

    def __post_init__(self) -> None:
        if self.fresh and self.game in self.session:
            # A row just inserted through the ORM: from here on ``save`` writes it,
            # through Core, like a row ``lock_game`` locked; left in the session, the
            # unit of work would write the same changes a second time.
            self.session.expunge(self.game)

    @classmethod
    def open(
        cls, session: Session, game_id: int, now: datetime, actor_id: int | None = None
    ) -> GameTx:
        game = lock_game(session, game_id)
        tx = cls(session, game, table_from_dict(game.state), now, actor_id)
        tx._seating = tx._seating_now()  # every save left game_players matching it
        return tx

    def reread(self) -> None:
        """The game's row as stored now, for a savepoint that undid this command's
        writes (the clock reports a refused deadline with the game as it still is)."""
        self.game = lock_game(self.session, self.game.id)

    @property
    def t(self) -> float:
        """Now, in table time."""
        return seconds_of(self.game, self.now)

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
        return PlayResult(
            self.game.id,
            self.game.version,
            self.game.status,
            tuple(self.stored),
            notices=tuple(self.notices),
            lobby_changed=self.lobby_changed,
            after=AfterCommit(
                GameRow.of(self.game),
                self.table,
                None if self._hand is None else self._hand.id,
                self.stored[-1].seq if self.stored else 0,
                self.next_due,
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
        row: HandRecord | None = None
        hand_events: list[Event] = []
        ordered: list[TableEvent | Event] = []
        if hand is not None and hand is not before:  # a new hand was dealt
            dealt = next((e for e in events if isinstance(e, HandDealt)), None)
            row = self._new_hand_row(hand, deck, dealt)
            hand_events = list(hand.events)
            split = next(
                (i + 1 for i, e in enumerate(events) if isinstance(e, HandDealt)), len(events)
            )
            ordered = [*events[:split], *hand_events, *events[split:]]
        else:
            if hand is not None and was_running:
                row = self._hand_row(table.hands_dealt)
                hand_events = list(hand.events[seen:])
            ordered = [*hand_events, *events]
        if row is not None:
            self._hand = row
        reasons = {e.player: e.reason for e in events if isinstance(e, PlayerLeft)}
        for event in events:
            self._move_money(event, row, reasons)
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
            row.ended_at = self.now
            row.final_state = hand.to_dict()
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

    def _move_money(
        self, event: TableEvent, row: HandRecord | None, reasons: dict[int, str]
    ) -> None:
        kind = _TRANSFER_KINDS.get(type(event))
        change = event.balance_change
        if kind is None or change == 0:
            return
        player: int = getattr(event, "player")  # noqa: B009
        user = ledger.user_account(self.session, player)
        game = self.account()
        source, destination = (user, game) if change < 0 else (game, user)
        pay(
            self.session,
            source=source,
            destination=destination,
            amount_cents=abs(change),
            kind=kind,
            reason=self._reason(event, row, reasons),
            now=self.now,
            created_by_id=self.actor_id,
            game_id=self.game.id,
            hand_id=None if row is None else row.id,
        )

    def _reason(self, event: TableEvent, row: HandRecord | None, reasons: dict[int, str]) -> str:
        where = f"game {self.game.id}"
        hand = f"hand {row.number} of {where}" if row is not None else where
        if isinstance(event, BoughtIn):
            return f"Buy-in, {where}"
        if isinstance(event, Rebought):
            return f"Rebuy, {where}"
        if isinstance(event, HandBoughtIn):
            return f"Buy-in for {hand}"
        if isinstance(event, HandSettled):
            return f"Result of {hand}"
        if isinstance(event, BuyInRefunded):
            why = reasons.get(event.player, "left")
            return f"Refund, {where} " + (
                "cancelled" if why == "cancelled" else "left before the start"
            )
        if isinstance(event, CashedOut):
            return f"Cash-out, {where}"
        assert isinstance(event, PrizePaid)
        return f"Prize for place {event.place}, {where}"

    # ----------------------------------------------------------------- hands

    def _new_hand_row(
        self, hand: Hand, deck: Sequence[int] | None, dealt: HandDealt | None
    ) -> HandRecord:
        """The hand's row, with a commitment to its deck: 52 fresh salts from the
        operating system's CSPRNG (never the game's random source, which tests seed)
        and the Merkle root over them (docs/fairness.md); and one ``hand_players``
        row per player dealt in."""
        setup = hand.to_dict()["setup"]
        cards = list(deck if deck is not None else hand.deck)
        salts = fairness.new_salts(secrets.token_bytes)
        root, _tree = fairness.commit(cards, salts)
        row = HandRecord(
            game_id=self.game.id,
            number=self.table.hands_dealt,
            deck=cards,
            setup=setup,
            started_at=self.now,
            deck_root=root.hex(),
            deck_salts=[salt.hex() for salt in salts],
        )
        self.session.add(row)
        self.session.flush()
        self.game.hand_id = row.id  # goes out with the row's other changes in ``save``
        players = {} if dealt is None else {player: seat for seat, player, _ in dealt.players}
        for player, seat in players.items():
            self.session.add(
                HandPlayer(hand_id=row.id, user_id=player, game_id=self.game.id, seat=seat)
            )
        return row

    def _hand_row(self, number: int) -> HandRecord:
        """The row of hand ``number``, with only what a command uses: its id and
        number (``ended_at`` and ``final_state`` are set, not read); the deck, setup
        and salts are JSON not worth decoding on every action."""
        hand_id = self.game.hand_id
        if hand_id is not None and number == self.table.hands_dealt:
            # The latest hand: its id is on the game's row, so no read. A stand-in
            # attached as if loaded (the other columns unloaded) is enough, and what
            # the command sets on it goes out as an UPDATE like any loaded row's.
            known: HandRecord | None = self.session.identity_map.get(
                identity_key(HandRecord, hand_id)
            )
            if known is not None:  # dealt in this session
                return known
            stand_in = HandRecord(id=hand_id, game_id=self.game.id, number=number)
            make_transient_to_detached(stand_in)
            self.session.add(stand_in)
            return stand_in
        row = self.session.scalar(
            select(HandRecord)
            .where(HandRecord.game_id == self.game.id, HandRecord.number == number)
            .options(load_only(HandRecord.id, HandRecord.game_id, HandRecord.number))
        )
        assert row is not None, f"hand {number} of game {self.game.id} has no row"
        if number == self.table.hands_dealt:
            self.game.hand_id = row.id  # a row that lacked it: the next command reads none
            self._hand_id_found = True
        return row

    # ------------------------------------------------------------------ save

    def save(self) -> tuple[StoredEvent, ...] | None:
        """Write the table back with everything this transaction did, and return the
        events it stored; nothing, and None, if nothing changed (the pipeline's
        reactions then have nothing to react to)."""
        game, table = self.game, self.table
        if not self.changed:
            if self._hand_id_found:
                write_game(self.session, game)
                self._hand_id_found = False
            return None
        self._hand_id_found = False
        if self.fresh:
            self.fresh = False
        else:
            game.version += 1
        game.state = table_to_dict(table)
        status = status_of(table)
        if game.started_at is None and status not in (GameStatus.WAITING, GameStatus.CANCELLED):
            game.started_at = self.now
        if status in (GameStatus.FINISHED, GameStatus.CANCELLED) and game.ended_at is None:
            game.ended_at = self.now
        game.status = status
        game.last_activity_at = self.now
        first = len(self.stored)
        # Reads and inserts without flushing (each flush is a unit of work of its
        # own). The events are numbered on from the row's ``last_seq`` (locked and
        # loaded by ``open``): no read of the events' highest number.
        with self.session.no_autoflush:
            seq = game.last_seq
            rows: list[dict[str, Any]] = []
            for record in self.records:
                seq += 1
                hand_id = None if record.hand is None else record.hand.id
                rows.append(
                    {
                        "game_id": game.id,
                        "seq": seq,
                        "kind": record.kind,
                        "payload": record.payload,
                        "hand_id": hand_id,
                        "version": game.version,
                        "created_at": self.now,
                    }
                )
                self.stored.append(
                    StoredEvent(seq, record.kind, record.payload, hand_id, game.version, self.now)
                )
            if rows:
                # One executemany through Core: the ORM's unit of work would add an
                # object, an identity and a RETURNING per event (most commands make
                # several), and nothing here reads the rows back.
                self.session.execute(_INSERT_EVENTS, rows)
                game.last_seq = seq
        write_game(self.session, game)
        self.records = []
        self.changed = False
        seating = self._seating_now()
        if seating != self._seating:  # most commands (every action) seat nobody
            self._sync_players()
            self._seating = seating
        return tuple(self.stored[first:])

    def _seating_now(self) -> tuple[frozenset[tuple[int, int]], bool]:
        table = self.table
        seated = frozenset((seat.player, seat.number) for seat in table.seats.values())
        return seated, table.status is TableStatus.WAITING

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
