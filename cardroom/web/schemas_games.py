"""The wire vocabulary of games: what clients send to play and what they get back,
over HTTP and over the WebSockets. Layered like ``cardroom.web.schemas``: ``*In``
models refuse unknown fields and loose types; ``*Out`` models are built from the
service layer's records, after the per-viewer filter (``cardroom.views``).

Cards are text, rank then suit: ``"As"``, ``"Td"``, ``"2c"``. A card the viewer may
not see is ``null``. Amounts are integer cents at money tables and points at
``arena`` tables (one chip per cent).

Routes (``cardroom.web.routes.games`` and ``cardroom.web.routes.table_admin``),
``{id}`` being a game's id; every command answers ``CommandOut``:

- ``GET /api/games?limit=``: ``LobbyOut``; ``GET /api/me/games``: ``MyGamesOut``, the
  games the viewer has a seat at, each saying whether it waits for their action.
- ``POST /api/games`` ``CreateGameIn``: 201.
- ``GET /api/games/{id}``: ``GameOut`` for the viewer.
- ``GET /api/games/{id}/events?after=&limit=``: ``EventsOut`` for the viewer.
- ``GET /api/games/{id}/standings``: ``StandingsOut``, a tournament's places so far.
- ``POST /api/games/{id}/join`` ``JoinIn``.
- ``POST /api/games/{id}/leave``, ``cash-out``, ``start``, ``continue``,
  ``skip-waiting``, ``rebuy``, ``sit-out``, ``sit-in``: ``CommandIn`` or no body.
- ``POST /api/games/{id}/actions`` ``ActionIn``.
- ``POST /api/games/{id}/pause``, ``resume`` ``ReasonCommandIn`` and ``cancel``
  ``ReasonIn`` (a game that has not started): the host or an admin; ``fold``,
  ``remove-seat`` ``SeatReasonIn``: an admin, or the host where the table's rules
  allow it.
- ``POST /api/admin/games/{id}/fold``, ``remove-seat``, ``pause``, ``resume``,
  ``cancel``: the same bodies, refused to anyone but an admin.

WebSockets (messages are JSON objects with a ``type``):

- ``/ws/games/{id}`` (session cookie, or ``?token=``; spectators welcome). Server:
  ``snapshot`` on connect, then after every committed change ``events`` followed by
  a fresh ``snapshot``; ``pong``; ``error``. Client: ``resync`` (answered with the
  missed ``events`` and a ``snapshot``), ``ping``; and the two commands of play,
  ``act`` (``WsActIn``) and ``continue`` (``WsContinueIn``), answered with
  ``result`` (``WsResult``) or ``refused`` (``WsRefused``), matched by their ``ref``.
- ``/ws/me`` (signed in; ``?lobby=1`` from the lobby page). Server:
  ``notification``, ``games_changed``, ``notices_read``, ``lobby_changed`` (with
  ``?lobby=1`` only), ``pong``, ``error``. Client: ``ping``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from cardroom.rules import MinRaise, Showdown
from cardroom.service.game_views import Standings
from cardroom.store.models import (
    IDEMPOTENCY_KEY_MAX_LENGTH,
    MAX_SEAT,
    REASON_MAX_LENGTH,
    GameFormat,
    GameStatus,
)
from cardroom.web.schemas import MAX_ROW_ID, ErrorDetail

# The largest amount a client may name: the largest integer a JavaScript number holds
# exactly. Anything above can only be a mistake or an attack; the table refuses
# amounts above the player's stack anyway, but a 422 here says so before any lock.
MAX_AMOUNT = 2**53 - 1
MAX_BUY_IN = 100_000_000  # cardroom.service.game_options.MAX_BUY_IN, repeated for the schema
DAY = 24 * 3600
LOBBY_PAGE_MAX = 500
LOBBY_PAGE_DEFAULT = 100
EVENTS_PAGE_MAX = 1000  # cardroom.service.play.EVENTS_PAGE_MAX
# A WebSocket message from a client is a small JSON object; anything longer is refused
# with an error message (and the socket stays open).
WS_MESSAGE_MAX_CHARS = 4096
# The largest frame the server reads at all (``cardroom serve --ws-max-size``): a
# 4,096-character message is at most 16 KiB of UTF-8 (4 bytes a character), and a
# command is under 1 KB. uvicorn's default, 16 MiB, let forty sockets take 1.3 GB
# (issue 17, finding 4); a larger frame is closed with 1009 before it is read.
WS_MAX_FRAME_BYTES = 16 * 1024
WS_REF_MAX_LENGTH = 64

_NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"

# -- shared field types ------------------------------------------------------------

Version = Annotated[
    StrictInt,
    Field(
        ge=1,
        le=MAX_ROW_ID,
        description="The table version the client saw (`version` of the game); a newer "
        "table refuses the request with 409.",
    ),
]
IdempotencyKey = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=IDEMPOTENCY_KEY_MAX_LENGTH,
        pattern=_NO_CONTROL_CHARACTERS,
        description="Any text, unique per request: sending it again returns the first "
        "answer with no second effect.",
        examples=["3f0c9a52-7d1e-4c36-9a44-0b8c1e2d6f11"],
    ),
]
Amount = Annotated[
    StrictInt,
    Field(
        ge=1,
        le=MAX_AMOUNT,
        description="The total bet in this betting round after a bet or a raise, in chips.",
    ),
]
SeatNumber = Annotated[StrictInt, Field(ge=1, le=MAX_SEAT, description="A seat, 1 to 10.")]
PlayerId = Annotated[StrictInt, Field(ge=1, le=MAX_ROW_ID, description="A user's id.")]
Reason = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=REASON_MAX_LENGTH,
        pattern=_NO_CONTROL_CHARACTERS,
        description="Why: kept in the admin log.",
        examples=["Away for two days"],
    ),
]
Card = Annotated[str, Field(description='Rank and suit, like "As" or "Td".')]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


# -- requests ----------------------------------------------------------------------


class RuleOptionsIn(_In):
    """Single rule options a game may set for itself; the rest is fixed by the preset.
    A field left out keeps the preset's value. For the options that can be off
    (``turn_clock_seconds``, ``inactive_fold_after_seconds``, ``raise_cap``,
    ``cash_timeouts_to_cash_out``, ``rejoin_window_seconds``) ``null`` turns them off;
    for the others ``null`` is the same as leaving them out."""

    turn_clock_seconds: Annotated[StrictInt, Field(ge=5, le=14 * DAY)] | None = Field(
        default=None, description="5 s to 14 days; null: no turn clock."
    )
    between_hands_seconds: Annotated[StrictInt, Field(ge=5, le=DAY)] | None = Field(
        default=None, description="Time to review a hand and press Continue: 5 s to a day."
    )
    inactive_fold_after_seconds: Annotated[StrictInt, Field(ge=60, le=30 * DAY)] | None = None
    raise_cap: Annotated[StrictInt, Field(ge=1, le=10)] | None = None
    cash_timeouts_to_cash_out: Annotated[StrictInt, Field(ge=1, le=100)] | None = None
    rejoin_window_seconds: Annotated[StrictInt, Field(ge=0, le=7 * DAY)] | None = None
    full_big_blind_call: StrictBool | None = None
    short_all_ins_add_up: StrictBool | None = None
    cash_rebuy: StrictBool | None = None
    idle_seats_removable: StrictBool | None = None
    min_raise: MinRaise | None = Field(default=None, strict=False)
    showdown: Showdown | None = Field(default=None, strict=False)

    def overrides(self) -> dict[str, Any]:
        """The options the client named; the others keep the preset's value."""
        out: dict[str, Any] = {}
        for name in sorted(self.model_fields_set):
            value = getattr(self, name)
            if value is not None or name in _MAY_BE_OFF:
                out[name] = value
        return out


_MAY_BE_OFF = frozenset(
    {
        "turn_clock_seconds",
        "inactive_fold_after_seconds",
        "raise_cap",
        "cash_timeouts_to_cash_out",
        "rejoin_window_seconds",
    }
)


class CreateGameIn(_In):
    """A new game. Anything left out takes the preset's default (docs/games.md)."""

    preset: Literal["house", "standard", "arena", "legacy"] = "house"
    format: GameFormat | None = Field(
        default=None, strict=False, description="cash, per_hand or tournament."
    )
    seats: Annotated[StrictInt, Field(ge=2, le=MAX_SEAT)] = 9
    buy_in: Annotated[StrictInt, Field(ge=1, le=MAX_BUY_IN)] = Field(
        default=1000, description="Cents (points at arena tables)."
    )
    small_blind: Annotated[StrictInt, Field(ge=1, le=MAX_BUY_IN)] | None = None
    big_blind: Annotated[StrictInt, Field(ge=1, le=MAX_BUY_IN)] | None = None
    blinds_every_hands: Annotated[StrictInt, Field(ge=1, le=10_000)] | None = None
    blinds_every_minutes: Annotated[StrictInt, Field(ge=1, le=7 * 24 * 60)] | None = None
    blinds_rate_percent: Annotated[StrictInt, Field(ge=1, le=1000)] | None = None
    payouts: (
        Annotated[list[Annotated[StrictInt, Field(ge=1, le=100)]], Field(max_length=MAX_SEAT)]
        | None
    ) = Field(default=None, description="Percent per place, first place first.")
    rules: RuleOptionsIn | None = None
    sit: StrictBool = Field(default=True, description="The host takes a seat (paying the buy-in).")
    seat: SeatNumber | None = None
    private: StrictBool = Field(
        default=False,
        description="Left out of the lobby: found only through its invite link "
        "(GET /api/games/{id}/invite).",
    )
    spectators: StrictBool = Field(
        default=True,
        description="Users without a seat may watch the table once it has started.",
    )
    spectators_chat: StrictBool = Field(
        default=False, description="Spectators may write in the table's chat too."
    )


class CommandIn(_In):
    """The body of a player command; may be left out entirely."""

    version: Version | None = None
    idempotency_key: IdempotencyKey | None = None


class JoinIn(CommandIn):
    seat: SeatNumber | None = Field(default=None, description="null: the first free seat.")


class ActionIn(_In):
    kind: Literal["fold", "check", "call", "bet", "raise", "all_in"]
    amount: Amount | None = Field(default=None, description="For a bet or a raise only.")
    version: Version
    idempotency_key: IdempotencyKey | None = None


class ReasonCommandIn(_In):
    reason: Reason
    version: Version | None = None


class SeatReasonIn(_In):
    """Whom to fold or remove: their ``seat`` or their ``player_id`` (one of the two)."""

    seat: SeatNumber | None = None
    player_id: PlayerId | None = None
    reason: Reason
    version: Version | None = None


# -- responses ---------------------------------------------------------------------


class EventOut(_Out):
    """One numbered step of a game, as this viewer may see it. ``type`` is the
    record's class (``PlayerActed``, ``HandDealt``, ``HoleCardDealt``...) and ``data``
    its fields; another player's ``HoleCardDealt`` has ``card: null``."""

    seq: int
    type: str
    hand_id: int | None
    version: int = Field(description="The game's version once this event's command was applied.")
    created_at: datetime
    data: dict[str, Any]


class CommandOut(_Out):
    """The answer to every command: the version the table is at now and the events
    the command added, filtered for the one who asked. ``replayed``: an idempotency
    key matched an earlier request, and this is the answer it got."""

    game_id: int
    version: int
    status: GameStatus
    replayed: bool
    events: list[EventOut]


class EventsOut(_Out):
    events: list[EventOut] = Field(description="In order; at most `limit`.")
    last_seq: int = Field(description="The game's last event number now.")


class GameSummaryOut(_Out):
    id: int
    host_id: int
    host_name: str
    preset: str
    format: GameFormat
    status: GameStatus
    version: int
    pays_money: bool = Field(description="False at arena tables: points, not money.")
    buy_in: int
    small_blind: int
    big_blind: int
    blinds_every_hands: int | None
    blinds_every_minutes: int | None
    blinds_rate_percent: int
    payouts: list[int]
    seats_taken: int
    seat_count: int
    turn_clock_seconds: int | None
    between_hands_seconds: int
    hands_dealt: int
    created_at: datetime
    last_activity_at: datetime
    waiting_for_players: bool = Field(
        description="A started cash table paused because fewer than two players can play"
        " (status `paused`, not by its host): it deals again when a second one sits down"
        " or comes back."
    )


class ListedGameOut(GameSummaryOut):
    """A game of the lobby: a summary, and what a seat there costs the viewer."""

    viewer_cost: int | None = Field(
        description="What sitting down costs the viewer now, in cents: the buy-in, or on"
        " rejoining a cash table within two hours the larger of the buy-in and what they"
        " cashed out with; 0 at arena tables (points); null where the viewer sits already."
    )


class LobbyOut(_Out):
    games: list[ListedGameOut]


class SeatedGameOut(GameSummaryOut):
    """A game of the viewer's own list: a summary, and whether it waits for them."""

    your_turn: bool = Field(description="The running hand waits for the viewer's action.")
    turn_due_at: datetime | None = Field(
        description="When the viewer's turn clock acts for them; null: no clock, or not their turn."
    )


class MyGamesOut(_Out):
    games: list[SeatedGameOut]


class SeatOut(_Out):
    seat: int
    user_id: int
    name: str
    stack: int = Field(description="Chips behind, not counting the bet in front.")
    sitting_out: bool
    waiting_for_big_blind: bool
    leaving: str | None = Field(description='"left" or "timed_out": cashed out after the hand.')
    timeouts_in_a_row: int
    in_hand: bool
    folded: bool
    bet: int
    all_in: bool
    continued: bool


class LegalOut(_Out):
    """What the viewer may do now (on their turn): the query beside an action."""

    actions: list[str] = Field(description="Some of fold, check, call, bet, raise, all_in.")
    to_call: int
    call_amount: int
    min_to: int = Field(description="Least total bet of a bet or raise; 0 if neither.")
    max_to: int
    all_in_to: int


class HandPlayerOut(_Out):
    seat: int
    stack: int
    bet: int
    folded: bool
    all_in: bool
    has_cards: bool
    cards: list[Card] | None = Field(
        description="The hole cards, when the viewer may see them: their own, or shown."
    )


class PotOut(_Out):
    amount: int
    eligible: list[int] = Field(description="Seats that can win it.")


class SeatEquityOut(_Out):
    seat: int
    percent: float = Field(description="The chance to win at this street, 0 to 100.")


class StreetEquityOut(_Out):
    """Each shown hand's chance to win at one street of an all-in run-out."""

    street: Literal["preflop", "flop", "turn"]
    board: list[Card] = Field(description="The board at that street.")
    exact: bool = Field(description="Counted over every board (false: sampled).")
    players: list[SeatEquityOut]


class HandOut(_Out):
    number: int
    running: bool
    street: str
    board: list[Card]
    pot: int
    pots: list[PotOut]
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    small_blind: int
    big_blind: int
    seat_to_act: int | None
    players: list[HandPlayerOut]
    my_cards: list[Card] = Field(description="The viewer's own hole cards; empty if none.")
    legal: LegalOut | None = Field(description="Set on the viewer's turn only.")
    equity: list[StreetEquityOut] | None = Field(
        default=None,
        description="After an all-in run-out: each shown hand's chance to win at each "
        "street from the all-in to the turn, from cards every viewer has seen.",
    )


class DeadlinesOut(_Out):
    turn_due_at: datetime | None = Field(description="When the clock acts for the player to act.")
    deal_due_at: datetime | None = Field(description="When the next hand is dealt anyway.")
    cancel_due_at: datetime | None = Field(description="A waiting game's 72-hour cancellation.")
    next_level_at: datetime | None = Field(description="The next blind level (by minutes).")


class FinishOut(_Out):
    user_id: int
    place: int


class StandingOut(_Out):
    place: int
    user_id: int
    name: str
    seat: int | None = Field(
        description="Where they last sat: the winner's seat, or the one they left."
    )
    prize: int = Field(description="Paid for the place when the game ended; 0 if none (yet).")


class StandingsOut(_Out):
    """``GET /api/games/{id}/standings``: a tournament's finishing places so far."""

    finished: bool = Field(description="The tournament has its winner (every place is known).")
    places: list[StandingOut] = Field(
        description="Best place first; players still playing are not listed."
    )

    @classmethod
    def of(cls, standings: Standings) -> StandingsOut:
        return cls(
            finished=standings.finished,
            places=[
                StandingOut(
                    place=s.place, user_id=s.user_id, name=s.name, seat=s.seat, prize=s.prize
                )
                for s in standings.places
            ],
        )


class GameOut(_Out):
    """A game as one viewer may see it. ``version`` goes back with every command;
    ``last_seq`` is where to follow the events from."""

    summary: GameSummaryOut
    version: int
    last_seq: int
    seats: list[SeatOut]
    hand: HandOut | None
    level: int
    viewer_seat: int | None
    viewer_cost: int | None = Field(description="What sitting down costs the viewer now.")
    deadlines: DeadlinesOut
    finishes: list[FinishOut]


# -- WebSocket messages -------------------------------------------------------------


class WsSnapshot(_Out):
    type: Literal["snapshot"] = "snapshot"
    version: int
    seq: int = Field(description="The last event number the snapshot includes.")
    game: GameOut


class WsEvents(_Out):
    type: Literal["events"] = "events"
    version: int
    events: list[EventOut]


class WsPong(_Out):
    type: Literal["pong"] = "pong"


class WsError(_Out):
    type: Literal["error"] = "error"
    message: str


class WsGamesChanged(_Out):
    type: Literal["games_changed"] = "games_changed"
    game_id: int | None = None


class WsLobbyChanged(_Out):
    """A listed game was created, joined, left, started, finished...: read the lobby
    (``GET /api/games``) again."""

    type: Literal["lobby_changed"] = "lobby_changed"


class WsResyncIn(_In):
    type: Literal["resync"]
    after: Annotated[StrictInt, Field(ge=0, le=2**62)]


class WsPingIn(_In):
    type: Literal["ping"]


# A command over a table's socket: the HTTP route's body, its ``type``, and a ``ref``
# the answer echoes (cardroom.web.socket_commands).
SocketRef = Annotated[
    StrictStr,
    Field(
        min_length=1,
        max_length=WS_REF_MAX_LENGTH,
        description="Chosen by the client; the answer (`result` or `refused`) echoes it.",
    ),
]


class WsActIn(ActionIn):
    """``POST /api/games/{id}/actions`` over the table's socket."""

    type: Literal["act"]
    ref: SocketRef


class WsContinueIn(CommandIn):
    """``POST /api/games/{id}/continue`` over the table's socket."""

    type: Literal["continue"]
    ref: SocketRef


class WsResult(_Out):
    """A command done: ``result`` is what the HTTP route answers."""

    type: Literal["result"] = "result"
    ref: str
    result: CommandOut


class WsRefused(_Out):
    """A command refused, with the HTTP route's status and error body; ``ref`` is
    null when the message had no usable one."""

    type: Literal["refused"] = "refused"
    ref: str | None
    status: int
    error: ErrorDetail
