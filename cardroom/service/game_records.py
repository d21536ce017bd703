"""What the game use cases return: plain frozen records, never ORM objects, built
inside the use case's transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from cardroom.store.models import DeadlineKind, Game, GameEvent, GameFormat, GameStatus
from cardroom.store.notify_models import NoticeKind
from cardroom.table import Table

if TYPE_CHECKING:
    from sqlalchemy import Row


_Record = TypeVar("_Record")


def quick_init(cls: type[_Record]) -> type[_Record]:
    """A frozen dataclass whose ``__init__`` fills the instance's dict straight
    (``_d["name"] = name``) instead of through ``object.__setattr__`` field by field,
    as ``dataclass(frozen=True)`` writes it: 2 against 6 microseconds for a dozen
    fields. The views of every change build several of these records per viewer
    (``game_details``), on the committer's thread. Everything else is the
    dataclass's own: the fields, their defaults, equality, hashing, and no setting
    an attribute afterwards. Only for plain records: no slots, every field set by
    ``__init__`` and nothing after it (``__post_init__``)."""
    assert "__slots__" not in cls.__dict__ and not hasattr(cls, "__post_init__"), cls
    params, lines = [], []
    defaults: dict[str, object] = {"_MISSING": MISSING}
    for f in fields(cls):  # type: ignore[arg-type]
        # No field's name is the init's own (its dict, the defaults it is given).
        assert f.init and not f.kw_only and not f.name.startswith("_"), (cls, f.name)
        name = f.name
        if f.default is not MISSING:
            defaults[f"_default_{name}"] = f.default
            params.append(f"{name}=_default_{name}")
            lines.append(f"    _d[{name!r}] = {name}")
        elif f.default_factory is not MISSING:
            defaults[f"_factory_{name}"] = f.default_factory
            params.append(f"{name}=_MISSING")
            lines.append(f"    _d[{name!r}] = _factory_{name}() if {name} is _MISSING else {name}")
        else:
            params.append(name)
            lines.append(f"    _d[{name!r}] = {name}")
    source = "def __init__(self, {}):\n    _d = self.__dict__\n{}\n".format(
        ", ".join(params), "\n".join(lines)
    )
    made: dict[str, Any] = {}
    exec(source, defaults, made)  # the source holds only the class's field names
    init: Callable[..., None] = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@quick_init
@dataclass(frozen=True)
class Wanted:
    """A deadline a game wants: when it is due, and what it carries."""

    due_at: datetime
    payload: dict[str, Any]


# A game's pending deadline rows, kind by kind (at most one pending row per game and
# kind: ``uq_deadlines_pending``), as this process last wrote or read them: what
# ``store_deadlines`` returns and, kept beside the table (``kept_tables``), may take
# instead of reading them. Never changed in place: each store builds a new one.
Pending = dict[DeadlineKind, Wanted]


# ``quick_init`` on the records every command makes: its events, its answer and
# what it hands to the sockets (``AfterCommit``), its wanted deadlines.
@quick_init
@dataclass(frozen=True)
class StoredEvent:
    """One numbered step of a game. ``kind`` is the record's class (``PlayerActed``,
    ``HandDealt``, ``BoughtIn``...) and ``payload`` its fields. Hand records name
    players by seat; ``HoleCardDealt`` and ``CardBurned`` are secret and must go
    through the per-viewer filter before they leave the server."""

    seq: int
    kind: str
    payload: dict[str, Any]
    hand_id: int | None
    version: int  # the game's version once the command that made it was applied
    created_at: datetime

    @classmethod
    def of(cls, row: GameEvent) -> StoredEvent:
        return cls(row.seq, row.kind, row.payload, row.hand_id, row.version, row.created_at)


@dataclass(frozen=True, slots=True)
class GameRow:
    """The columns of a game's row that its views read (``game_details.detail_of``: the
    summary, the table times), copied out of the ORM row. What outlives the
    transaction holds this, not the row: a watched game's last change is kept for
    as long as its sockets are open, and the row would keep its instance state and
    ``state``, the whole table as decoded JSON, beside the decoded ``Table``."""

    id: int
    host_id: int
    preset: str
    format: GameFormat
    status: GameStatus
    version: int
    created_at: datetime  # table times count from here (``schedule.seconds_of``)
    last_activity_at: datetime

    @classmethod
    def of(cls, game: Game | Row[Any]) -> GameRow:
        """From the ORM's row, or a Core row with the same column names."""
        return cls(
            game.id,
            game.host_id,
            game.preset,
            game.format,
            game.status,
            game.version,
            game.created_at,
            game.last_activity_at,
        )


@quick_init
@dataclass(frozen=True)
class AfterCommit:
    """The table as a command left it, handed from its transaction to the sockets of
    the process that committed it (``game_views.change_of``), which then need not
    read back what was just written. Read-only from the commit on."""

    game: GameRow  # the game's row as saved
    table: Table  # as saved
    hand_id: int | None  # the row id of ``table.hand``, if this command touched it
    last_seq: int  # the game's last event number
    next_due: datetime | None = None  # the game's soonest deadline now, if any
    # The committer keeps ``table`` decoded for the game's next command, which will
    # change it: the views made of it are sealed before then (``change_views``).
    kept: bool = False
    # Kept beside it (``kept_tables``): the row's columns as saved
    # (``game_rows.kept_row``) and the pending deadlines as stored (None: not known).
    row: Mapping[str, Any] | None = None
    deadlines: Pending | None = None


@quick_init
@dataclass(frozen=True)
class PlayResult:
    """The answer to every command on a game: the version the table is at now and
    the events the command added, in order. ``replayed`` is true when an idempotency
    key matched an earlier request: nothing was done again, and this is the answer
    that request got. ``notices``: what the command recorded for players to be told
    (your turn, a start, an end), in its own transaction; for the server to push to
    their ``/ws/me`` sockets. A replayed answer carries none (they went out with the
    first). ``lobby_changed``: the command changed what the lobby lists of the game
    (it was created, a seat was taken or left, it started, paused, finished or was
    cancelled, its blinds rose), so open lobby pages should look again."""

    game_id: int
    version: int
    status: GameStatus
    events: tuple[StoredEvent, ...]
    replayed: bool = False
    notices: tuple[Notice, ...] = ()
    lobby_changed: bool = False
    after: AfterCommit | None = field(default=None, compare=False, repr=False)

    def to_response(self) -> dict[str, Any]:
        """What is kept under an idempotency key (the events are re-read by number)."""
        seqs = [e.seq for e in self.events]
        return {
            "version": self.version,
            "status": self.status.value,
            "first_seq": min(seqs) if seqs else None,
            "last_seq": max(seqs) if seqs else None,
        }


@quick_init
@dataclass(frozen=True)
class GameSummary:
    """A game as the lobby lists it, with its rules summarised."""

    id: int
    host_id: int
    host_name: str
    preset: str
    format: GameFormat
    status: GameStatus
    version: int
    pays_money: bool  # False at ``arena`` tables: points, no money
    buy_in: int  # cents at money tables, points at ``arena``
    small_blind: int  # in force now (the starting blinds before the first hand)
    big_blind: int
    blinds_every_hands: int | None
    blinds_every_minutes: int | None
    blinds_rate_percent: int
    payouts: tuple[int, ...]  # percent per place, first place first
    seats_taken: int
    seat_count: int
    turn_clock_seconds: int | None  # None: no automatic clock (``legacy``)
    between_hands_seconds: int
    hands_dealt: int
    created_at: datetime
    last_activity_at: datetime
    # Paused because fewer than two can play (a cash table left with one player), not
    # by its host: what the lobby and the table say instead of "Paused".
    waiting_for_players: bool = False


@dataclass(frozen=True)
class ListedGame:
    """A game as the lobby lists it to one viewer: the summary, and what a seat
    there costs the viewer now (None: they sit there already, or nobody signed in; 0
    at ``arena`` tables, where no money is paid)."""

    summary: GameSummary
    viewer_cost: int | None


@dataclass(frozen=True)
class SeatedGame:
    """A game the viewer sits at, as their own list shows it: whether the hand waits
    for them, and when their turn's clock acts for them (None: no clock, or not
    their turn)."""

    summary: GameSummary
    your_turn: bool
    turn_due_at: datetime | None


@quick_init
@dataclass(frozen=True)
class SeatView:
    seat: int
    user_id: int
    name: str
    stack: int  # in front of the player between hands; in the hand, behind their bet
    sitting_out: bool
    waiting_for_big_blind: bool
    leaving: str | None  # "left" or "timed_out": cashed out once the hand ends
    timeouts_in_a_row: int
    in_hand: bool
    folded: bool
    bet: int  # in front of them in this betting round
    all_in: bool
    continued: bool  # pressed Continue since the last hand


@quick_init
@dataclass(frozen=True)
class LegalActionsView:
    """What the viewer may do now: the query beside ``act``."""

    kinds: tuple[str, ...]
    to_call: int
    call_amount: int
    min_to: int  # bounds of a bet or raise (total bet in the round); 0 if neither
    max_to: int
    all_in_to: int


@quick_init
@dataclass(frozen=True)
class HandView:
    """The public state of the running (or last) hand, plus the viewer's own cards."""

    number: int
    running: bool
    street: str
    board: tuple[int, ...]  # cards 0..51 (``cardroom.cards.card_text`` names them)
    pot: int
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    seat_to_act: int | None
    my_cards: tuple[int, ...]  # empty for spectators and players not dealt in
    legal: LegalActionsView | None  # when it is the viewer's turn
    # ``cardroom.views.hand_view`` for this viewer: players with the hole cards the
    # viewer may see (their own, and hands shown), pots. The one place that decides
    # what a viewer sees of a hand; what leaves the server is built from this.
    view: dict[str, Any] = field(default_factory=dict)


@quick_init
@dataclass(frozen=True)
class GameDetail:
    summary: GameSummary
    seats: tuple[SeatView, ...]
    hand: HandView | None
    level: int
    viewer_seat: int | None
    viewer_cost: int | None  # what sitting down costs the viewer now (None if seated)
    turn_due_at: datetime | None
    deal_due_at: datetime | None
    cancel_due_at: datetime | None  # a waiting game's 72-hour cancellation
    next_level_at: datetime | None
    finishes: tuple[tuple[int, int], ...]  # tournament (user id, place) so far
    last_seq: int


@quick_init
@dataclass(frozen=True)
class Notice:
    """A notice as the player sees it, and as the server pushes it over the
    player's WebSocket (``to_wire``) when ``live`` says so."""

    id: int
    user_id: int
    kind: NoticeKind
    game_id: int
    hand_id: int | None
    title: str
    body: str
    url: str  # the game's page, as a path: the page and service worker add their origin
    data: dict[str, Any]
    created_at: datetime
    read_at: datetime | None
    in_app: bool = True  # the player wants it shown in the page
    browser: bool = True  # and, when the page is hidden, as a system notification
    deliver_at: datetime | None = None  # when Web Push or email is due; None: neither

    @property
    def live(self) -> bool:
        """Whether to send it over the player's WebSocket now: the page needs it for
        an in-app notice and for the browser's own notification alike."""
        return self.in_app or self.browser

    def to_wire(self) -> dict[str, Any]:
        """The JSON object a client gets, over the socket and from the API."""
        return {
            "id": self.id,
            "kind": self.kind.value,
            "game_id": self.game_id,
            "title": self.title,
            "body": self.body,
            "url": self.url,
            "data": self.data,
            "created_at": self.created_at.isoformat(),
            "read": self.read_at is not None,
            "in_app": self.in_app,
            "browser": self.browser,
        }
