"""Games: the lobby, a table for its viewer, its events, and every player command.

Each player's command route is one line: the command
(``cardroom.service.game.commands``) queued on the process's committer and answered by
``cardroom.web.commands.commit_and_answer``, which proves the session in the batch,
commits it with the commands queued beside it, announces the committed change to the
table's sockets and answers with the same committed state: the version and the
command's events, through the per-viewer filter for the one who asked. Refusals are
the service's, with their sentences (docs/games.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Body, Path, Query, Response, status
from pydantic import BaseModel, ConfigDict, Field

from cardroom.service import game_details, game_options, game_views, invites, lobby, table_players
from cardroom.service.game import commands
from cardroom.service.game.commands import Command
from cardroom.web.commands import answer, commit_and_answer
from cardroom.web.deps import CommandSender, ContextDep, CurrentUser
from cardroom.web.errors import documented
from cardroom.web.game_answers import event_out, game_out, lobby_out, my_games_out
from cardroom.web.live import LiveDep
from cardroom.web.schemas import MAX_ROW_ID, QueryInt
from cardroom.web.schemas_games import (
    EVENTS_PAGE_MAX,
    LOBBY_PAGE_DEFAULT,
    LOBBY_PAGE_MAX,
    ActionIn,
    CommandIn,
    CommandOut,
    CreateGameIn,
    EventsOut,
    GameOut,
    JoinIn,
    LobbyOut,
    MyGamesOut,
    StandingsOut,
)

router = APIRouter(tags=["games"])

READ = documented(401, 403, 404, 422)
COMMAND = documented(401, 403, 404, 409, 413, 415, 422)

GameId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="The game's id.")]
# The body may be left out (no version check, no key): an empty command.
OptionalCommand = Annotated[CommandIn, Body(default_factory=CommandIn)]


# -- the lobby -------------------------------------------------------------------------


@router.get("/api/games", responses=READ)
def list_games(
    ctx: ContextDep,
    user: CurrentUser,
    limit: Annotated[QueryInt, Query(ge=1, le=LOBBY_PAGE_MAX)] = LOBBY_PAGE_DEFAULT,
) -> LobbyOut:
    """Games waiting to start, then games being played, most recently active first,
    each with what a seat there costs the viewer (``viewer_cost``)."""
    return lobby_out(lobby.lobby_for(ctx, user.id, limit=limit))


@router.get("/api/me/games", responses=READ)
def my_games(ctx: ContextDep, user: CurrentUser) -> MyGamesOut:
    """The games the viewer has a seat at now, most recently active first, each
    saying whether it waits for the viewer's action and when their clock acts."""
    return my_games_out(lobby.my_games(ctx, user.id))


@router.post(
    "/api/games", response_model=CommandOut, status_code=status.HTTP_201_CREATED, responses=COMMAND
)
def create_game(body: CreateGameIn, ctx: ContextDep, user: CurrentUser, live: LiveDep) -> Response:
    """A new game hosted by the viewer, who sits down at once (paying the buy-in)
    unless ``sit`` is false."""
    options = game_options.GameOptions(
        preset=body.preset,
        format=None if body.format is None else body.format.value,
        seats=body.seats,
        buy_in=body.buy_in,
        small_blind=body.small_blind,
        big_blind=body.big_blind,
        blinds_every_hands=body.blinds_every_hands,
        blinds_every_minutes=body.blinds_every_minutes,
        blinds_rate_percent=body.blinds_rate_percent,
        payouts=body.payouts,
        rules={} if body.rules is None else body.rules.overrides(),
        private=body.private,
        spectators=body.spectators,
        spectators_chat=body.spectators_chat,
    )
    result = lobby.create_game(ctx, user.id, options, sit=body.sit, seat=body.seat)
    return answer(live, result, user.id, status.HTTP_201_CREATED)


# -- a table ---------------------------------------------------------------------------


@router.get("/api/games/{game_id}", responses=READ)
def game(ctx: ContextDep, user: CurrentUser, game_id: GameId) -> GameOut:
    """The table as the viewer may see it: seats, the hand with their own cards and,
    on their turn, what they may do; ``version`` to send back with a command and
    ``last_seq`` to follow the events from."""
    return game_out(game_details.game_detail(ctx, game_id, user.id))


@router.get("/api/games/{game_id}/standings", responses=READ)
def standings(ctx: ContextDep, user: CurrentUser, game_id: GameId) -> StandingsOut:
    """A tournament's finishing places so far, best first, with each player's name,
    last seat and prize: the winner and every place at the end, and an eliminated
    player's own result while the others play on. Empty for a cash table."""
    invites.check_may_see_game(ctx, game_id, user.id)
    return StandingsOut.of(game_views.standings(ctx, game_id))


class TablePlayerOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    user_id: int
    name: str


class TablePlayersOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: int
    players: list[TablePlayerOut] = Field(
        description="Everyone who has sat at the table, now or before, first seated first."
    )


@router.get("/api/games/{game_id}/players", responses=READ)
def players(ctx: ContextDep, user: CurrentUser, game_id: GameId) -> TablePlayersOut:
    """The names of everyone who has sat at the table, for anyone who may open it:
    the events and hands name players by id, and the snapshot names only who sits
    there now. Names only: the money is in the ledger, for the table's players."""
    found = table_players.players_of(ctx, game_id, user.id)
    return TablePlayersOut(
        game_id=game_id,
        players=[TablePlayerOut(user_id=p.user_id, name=p.name) for p in found],
    )


@router.get("/api/games/{game_id}/events", responses=READ)
def events(
    ctx: ContextDep,
    user: CurrentUser,
    game_id: GameId,
    after: Annotated[
        QueryInt, Query(ge=0, le=2**62, description="The last seq the client has.")
    ] = 0,
    limit: Annotated[QueryInt, Query(ge=1, le=EVENTS_PAGE_MAX)] = EVENTS_PAGE_MAX,
) -> EventsOut:
    """The events numbered above ``after``, as the viewer may see them."""
    invites.check_may_see_game(ctx, game_id, user.id)
    page = game_views.events_page(ctx, game_id, user.id, after, limit=limit)
    return EventsOut(events=[event_out(e) for e in page.events], last_seq=page.last_seq)


# -- player commands -----------------------------------------------------------------------


@router.post("/api/games/{game_id}/join", response_model=CommandOut, responses=COMMAND)
async def join(
    token: CommandSender,
    live: LiveDep,
    game_id: GameId,
    body: Annotated[JoinIn, Body(default_factory=JoinIn)],
) -> Response:
    """Sit down (paying the buy-in where it is paid at the seat): the seat asked for
    or the first free one. A waiting game that fills up starts by itself."""
    seat = body.seat
    return await commit_and_answer(
        live,
        token,
        game_id,
        lambda user_id: commands.join(user_id, seat),
        version=body.version,
        key=body.idempotency_key,
    )


# -- a player's commands that carry nothing but the seat's player ------------------------
# One line each: the address, the operation's name, the command, what it does (the
# operation's description). Registered by ``_seat_route`` below.
SEAT_COMMANDS: tuple[tuple[str, str, Callable[[int], Command], str], ...] = (
    ("leave", "leave", commands.leave, "Leave: refunded before the start; cashed out at a "
     "running cash table (at once, or when nothing of yours is left in a pot)."),
    ("cash-out", "cash_out", commands.leave,
     "Cash out of a running cash table: the same as leaving."),
    ("start", "start", commands.start,
     "The host (or an admin) starts the game; the first hand is dealt."),
    ("continue", "press_continue", commands.press_continue,
     "Done reviewing the last hand; the next is dealt once everyone has."),
    ("skip-waiting", "skip_waiting", commands.skip_waiting_and_deal,
     "The host (or an admin) deals the next hand without waiting for Continue."),
    ("rebuy", "rebuy", commands.rebuy,
     "Buy in again at a cash table, at zero chips, for exactly the buy-in."),
    ("sit-out", "sit_out", commands.sit_out,
     "Sit out from the next hand on, keeping the seat."),
    ("sit-in", "sit_in", commands.sit_in, "Come back after sitting out."),
)  # fmt: skip


def _seat_route(command: Callable[[int], Command]) -> Callable[..., Awaitable[Response]]:
    async def route(
        token: CommandSender, live: LiveDep, game_id: GameId, body: OptionalCommand
    ) -> Response:
        return await commit_and_answer(
            live, token, game_id, command, version=body.version, key=body.idempotency_key
        )

    return route


for path, name, command, description in SEAT_COMMANDS:
    router.add_api_route(
        f"/api/games/{{game_id}}/{path}",
        _seat_route(command),
        methods=["POST"],
        name=name,
        description=description,
        response_model=CommandOut,
        responses=COMMAND,
    )


@router.post("/api/games/{game_id}/actions", response_model=CommandOut, responses=COMMAND)
async def act(body: ActionIn, token: CommandSender, live: LiveDep, game_id: GameId) -> Response:
    """Fold, check, call, bet, raise or go all in, on your turn and within the range
    the table shows (``hand.legal``); ``amount`` is the total bet in the round. Out of
    turn, out of range or against an older ``version``: 409, and nothing changes."""
    kind, amount = body.kind, body.amount
    return await commit_and_answer(
        live,
        token,
        game_id,
        lambda user_id: commands.act(user_id, kind, amount),
        version=body.version,
        key=body.idempotency_key,
    )
