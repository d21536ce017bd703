"""The tables, as SQLAlchemy 2 typed models. The migrations in ``migrations/versions``
must build exactly this schema (``cardroom.store.schema`` gathers every model
module's tables); a test compares the two.

Money columns are integer cents (``BigInteger``) named ``*_cents``. Times are UTC and
come from the service layer's clock, never from a server default, so that tests and
replays control them.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from cardroom.store.base import Base, enum_column

NAME_MAX_LENGTH = 20
REASON_MAX_LENGTH = 200
INVITE_TOKEN_MAX_LENGTH = 32  # 16 random bytes are 22 URL-safe characters


class Role(enum.StrEnum):
    PLAYER = "player"
    ADMIN = "admin"


class AccountKind(enum.StrEnum):
    """Who holds the money in a ledger account."""

    HOUSE = "house"  # the source of all play money: its balance is minus what exists
    USER = "user"  # a player's balance
    GAME = "game"  # chips on a table (one chip per cent at money tables)


class TransferKind(enum.StrEnum):
    """Why money moved. The direction each kind takes is in ``cardroom.store.ledger``."""

    GRANT = "grant"  # house -> user: starting balance, admin grant
    REMOVAL = "removal"  # user -> house: admin removal
    BUY_IN = "buy_in"  # user -> game
    REFUND = "refund"  # game -> user: leaving or cancellation before the start
    REBUY = "rebuy"  # user -> game
    CASH_OUT = "cash_out"  # game -> user
    SETTLEMENT = "settlement"  # either way: a per-hand game's result
    PRIZE = "prize"  # game -> user: a tournament's payout


class User(Base):
    __tablename__ = "users"
    __table_args__ = (
        # name_key is the case-folded name that makes "Alice" and "alice" one user;
        # the check keeps a bug from storing a key that disagrees with the name.
        CheckConstraint("name_key = lower(name)", name="name_key_folded"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(enum_column(Role, "role"))
    suspended: Mapped[bool]
    created_at: Mapped[datetime]


class UserSession(Base):
    """A signed-in browser or client. Only a hash of the token is kept, so a copy of
    the database does not let anyone act as a player."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()


class LedgerAccount(Base):
    """One balance. ``balance_cents`` is a running total kept in step with the
    entries; ``cardroom audit`` proves that it is."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (
        # The last line of defence behind the service's InsufficientBalance check.
        CheckConstraint("kind = 'house' OR balance_cents >= 0", name="balance_not_negative"),
        CheckConstraint(
            "(kind = 'user' AND user_id IS NOT NULL OR kind <> 'user' AND user_id IS NULL)"
            " AND (kind = 'game' AND game_id IS NOT NULL OR kind <> 'game' AND game_id IS NULL)",
            name="owner_matches_kind",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)  # house, user:7, game:3
    kind: Mapped[AccountKind] = mapped_column(enum_column(AccountKind, "account_kind"))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True)
    # A foreign key to games arrives with the games table.
    game_id: Mapped[int | None] = mapped_column(Integer, unique=True)
    balance_cents: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime]


class LedgerTransfer(Base):
    """One movement of money: why, on whose word, about which game or hand. Its
    entries (two today) sum to zero."""

    __tablename__ = "ledger_transfers"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[TransferKind] = mapped_column(enum_column(TransferKind, "transfer_kind"))
    reason: Mapped[str] = mapped_column(String(REASON_MAX_LENGTH))
    # Foreign keys to games and hands arrive with those tables.
    game_id: Mapped[int | None] = mapped_column(Integer, index=True)
    hand_id: Mapped[int | None] = mapped_column(Integer, index=True)
    # NULL: the room itself (a sign-up grant, the clock) or the operator's console.
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    created_at: Mapped[datetime]

    entries: Mapped[list[LedgerEntry]] = relationship(back_populates="transfer")


class LedgerEntry(Base):
    """One side of a transfer: a signed amount on one account, and that account's
    balance just after it (what a player's statement shows)."""

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount_cents <> 0", name="amount_not_zero"),
        # A player's statement pages through their account newest first.
        Index("ix_ledger_entries_account_id_id", "account_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("ledger_transfers.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    balance_after_cents: Mapped[int] = mapped_column(BigInteger)

    transfer: Mapped[LedgerTransfer] = relationship(back_populates="entries")
    account: Mapped[LedgerAccount] = relationship()


class AdminAction(Base):
    """What an admin (or the operator's console) changed, why, and the values before
    and after, so a dispute can be settled from the record."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    # NULL: the operator at the command line, who already holds the database.
    admin_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    action: Mapped[str] = mapped_column(String(40))
    target_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    reason: Mapped[str] = mapped_column(String(REASON_MAX_LENGTH))
    before: Mapped[dict[str, Any]]
    after: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


# ---------------------------------------------------------------------- games


class GameStatus(enum.StrEnum):
    """Where a game is in its life, as the lobby shows it."""

    WAITING = "waiting"  # not started: players join and leave freely
    RUNNING = "running"
    PAUSED = "paused"  # by the host or an admin, or for lack of players
    FINISHED = "finished"  # a tournament with a winner
    CANCELLED = "cancelled"  # never started; every buy-in refunded


class GameFormat(enum.StrEnum):
    CASH = "cash"
    PER_HAND = "per_hand"
    TOURNAMENT = "tournament"


class DeadlineKind(enum.StrEnum):
    """What the clock does when a deadline comes (``cardroom.service.deadlines``)."""

    TURN = "turn"  # the player to act timed out: check if free, else fold
    CONTINUE = "continue"  # the review between hands is over: deal
    CANCEL_WAITING = "cancel_waiting"  # 72 hours without activity before the start
    BLIND_LEVEL = "blind_level"  # a blind level by minutes begins (the next hand plays it)
    REMINDER = "reminder"  # remind the player to act on a long clock (migration 0011)


MAX_SEAT = 10
WAITING_GAMES_PER_PLAYER = 3
IDEMPOTENCY_KEY_MAX_LENGTH = 100


class Game(Base):
    """One table: its rules, where it is in its life and the whole ``Table`` state as
    JSON (``cardroom.table.codec``). ``version`` goes up by one with every change, so a
    request that saw an older version is refused rather than applied to a table its
    sender never saw."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("version >= 1", name="version_positive"),
        Index("ix_games_status_last_activity_at", "status", "last_activity_at"),
        Index("ix_games_invite_token", "invite_token", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    preset: Mapped[str] = mapped_column(String(20))
    format: Mapped[GameFormat] = mapped_column(enum_column(GameFormat, "game_format"))
    # TableConfig.to_dict(): format, rules, seats, buy-in, blinds, schedule, payouts
    config: Mapped[dict[str, Any]]
    status: Mapped[GameStatus] = mapped_column(enum_column(GameStatus, "game_status"))
    version: Mapped[int]
    created_at: Mapped[datetime]
    last_activity_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    ended_at: Mapped[datetime | None]
    # table_to_dict(); its times are seconds since ``created_at``
    state: Mapped[dict[str, Any]]
    # The ``seq`` of the game's last ``game_events`` row (0: none yet), kept in step by
    # ``GameTx.save``, the only writer of events, under the row lock it already holds
    # (migration 0007). A command numbers its events on from here and a read of the
    # table says where its log ends without a ``max(seq)`` over the events: one
    # statement fewer per command and per read of a change. The Python default fills
    # it in at the insert, so a new game's row needs no read back.
    last_seq: Mapped[int] = mapped_column(default=0, server_default="0")
    # The id of the game's latest ``hands`` row, the hand ``hands_dealt`` numbers (NULL
    # before the first), set by ``GameTx`` in the transaction that deals the hand
    # (migration 0008): a command on the running hand has the row's id from the game's
    # row, which it locks and loads anyway, instead of looking the hand up by number.
    # A plain integer, not a foreign key: ``hands.game_id`` already points here, and
    # with keys both ways a table-by-table delete or copy in the metadata's order (the
    # tests make both) needs ON DELETE SET NULL or a deferred check on this one. SQLite
    # could only declare those on the column (it cannot add a constraint to ``games``
    # nor rebuild it while other tables point at it), where SQLAlchemy does not read
    # them back: the schema would no longer match the models. The server never deletes
    # a hand, and writes this id in the transaction that writes the hand's row.
    hand_id: Mapped[int | None]
    # The invite link's secret (``/invite/<token>``, ``service/invites.py``): random,
    # never the id, so a private table is found only through its link. Every game has
    # one; the column may be NULL only because SQLite cannot add a NOT NULL column
    # without a default to ``games`` (migration 0009 fills the games before it).
    invite_token: Mapped[str | None] = mapped_column(String(INVITE_TOKEN_MAX_LENGTH))
    # Not listed in the lobby; seen and joined only by its host, its players, an admin
    # and whoever opened its invite link (``GameInvitee``).
    private: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The table's chat and its watchers (migration 0010, ``service/chat.py``): whether
    # users without a seat may open the table once it has started, whether they may
    # also write in its chat, and whether the chat is on (the host turns it off).
    spectators: Mapped[bool] = mapped_column(default=True, server_default=true())
    spectators_chat: Mapped[bool] = mapped_column(default=False, server_default=false())
    chat_on: Mapped[bool] = mapped_column(default=True, server_default=true())


class GameInvitee(Base):
    """Someone who opened a private game's invite link: from then on they may see the
    table and sit down at it as its players may, without the link in every address."""

    __tablename__ = "game_invitees"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True, index=True)
    created_at: Mapped[datetime]


class GamePlayer(Base):
    """A player's place at a game. The seat is also in the table state; this row lets
    the database itself refuse a second seat for one player at one table
    (``game_id, user_id``), two players in one seat (``game_id, seat``), and a fourth
    game waiting to start (``user_id, waiting_slot``: a player's waiting games hold
    slots 1 to 3). ``seat`` is NULL once the player has left; the row stays, so a
    player's games can be listed and a rejoin reuses it."""

    __tablename__ = "game_players"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_game_players_game_id_user_id"),
        UniqueConstraint("game_id", "seat", name="uq_game_players_game_id_seat"),
        UniqueConstraint("user_id", "waiting_slot", name="uq_game_players_user_id_waiting_slot"),
        CheckConstraint(f"seat IS NULL OR seat BETWEEN 1 AND {MAX_SEAT}", name="seat_range"),
        CheckConstraint(
            f"waiting_slot IS NULL OR waiting_slot BETWEEN 1 AND {WAITING_GAMES_PER_PLAYER}",
            name="waiting_slot_range",
        ),
        CheckConstraint("waiting_slot IS NULL OR seat IS NOT NULL", name="waiting_needs_seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    seat: Mapped[int | None]
    waiting_slot: Mapped[int | None]
    joined_at: Mapped[datetime]


class HandRecord(Base):
    """One hand dealt at a game: the deck in dealing order (so the hand can be replayed
    card for card), who was dealt in with what, and the engine's final state."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_hands_game_id_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    number: Mapped[int]  # 1 for the first hand of the game
    deck: Mapped[list[int]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any]]
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    final_state: Mapped[dict[str, Any] | None]  # Hand.to_dict() once the hand is over
    # The deck commitment (migration 0004): the Merkle root published before the first
    # card (64 hex digits) and the 52 secret salts behind it (hex), one per position.
    # NULL for hands dealt before commitments existed. The salts are as secret as the
    # deck: they leave the server only inside a viewer's proof (docs/fairness.md).
    deck_root: Mapped[str | None] = mapped_column(String(64))
    deck_salts: Mapped[list[str] | None] = mapped_column(JSON)


class HandPlayer(Base):
    """A player dealt into a hand, and the seat they held: what lists a player's hands
    (newest first, or one game's) without reading every hand's events. Written with
    the hand's row; filled in for older hands from their ``HandDealt`` records."""

    __tablename__ = "hand_players"
    __table_args__ = (
        Index("ix_hand_players_user_id_hand_id", "user_id", "hand_id"),
        Index("ix_hand_players_user_id_game_id_hand_id", "user_id", "game_id", "hand_id"),
    )

    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seat: Mapped[int]


class GameEvent(Base):
    """One step of a game, in order: the table's records and each hand's engine
    records, numbered per game from 1 with no gaps, written in the transaction of the
    command that caused them."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_game_events_game_id_seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    seq: Mapped[int]
    kind: Mapped[str] = mapped_column(String(40))  # the record's class: PlayerActed, HandDealt
    payload: Mapped[dict[str, Any]]
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), index=True)
    version: Mapped[int]  # the game's version once the command was applied
    created_at: Mapped[datetime]


class Deadline(Base):
    """A moment at which the clock acts on a game. At most one pending (unfired) row
    per game and kind; firing sets ``fired_at`` and ``claimed_by`` with a conditional
    update, in the transaction that does the work, so each fires once."""

    __tablename__ = "deadlines"
    __table_args__ = (
        Index("ix_deadlines_fired_at_due_at", "fired_at", "due_at"),
        Index(
            "uq_deadlines_pending",
            "game_id",
            "kind",
            unique=True,
            sqlite_where=text("fired_at IS NULL"),
            postgresql_where=text("fired_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    kind: Mapped[DeadlineKind] = mapped_column(enum_column(DeadlineKind, "deadline_kind"))
    due_at: Mapped[datetime]
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    fired_at: Mapped[datetime | None]
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    outcome: Mapped[str | None] = mapped_column(String(REASON_MAX_LENGTH))


class IdempotencyKey(Base):
    """The answer given to a request that carried an idempotency key: the same key
    again from the same player at the same game gets this answer, and no second
    effect."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (
        UniqueConstraint(
            "game_id", "user_id", "key", name="uq_idempotency_keys_game_id_user_id_key"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    key: Mapped[str] = mapped_column(String(IDEMPOTENCY_KEY_MAX_LENGTH))
    request: Mapped[dict[str, Any]]  # what was asked, to refuse the key for another request
    response: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
