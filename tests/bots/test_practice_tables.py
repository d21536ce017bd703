"""Bots at practice tables, through the service: a host seats them, the clock lets
them act (a deadline row after a short think), they play a whole game with the audit
clean, and what a bot decides from holds no card it may not see."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from cardroom import bots as bot_policy
from cardroom.bots import SeatView
from cardroom.deck import RandomSource, SeededRandomSource
from cardroom.service import bots, deadlines, lobby, play
from cardroom.service.accounts import sign_in
from cardroom.service.context import ServiceContext
from cardroom.service.errors import AuthenticationFailed, InvalidInput
from cardroom.service.game import clock_commands
from cardroom.service.game_errors import NotAllowedNow, NotHostOrAdmin, SeatUnavailable
from cardroom.service.game_options import GameOptions
from cardroom.service.schedule import BOT_THINK_SECONDS
from cardroom.store.bot_models import BotAccount
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Deadline, DeadlineKind, GameStatus
from tests.conftest import FakeClock
from tests.service.gamekit import assert_audit_clean, detail, passive, players, source

THINK = timedelta(seconds=BOT_THINK_SECONDS)
ARENA = GameOptions(
    preset="arena",
    seats=3,
    buy_in=300,
    small_blind=10,
    big_blind=20,
    blinds_every_hands=4,
    rules={"between_hands_seconds": 5},
)


def practice(
    ctx: ServiceContext, host: int, *levels: str, sit: bool = False, options: GameOptions = ARENA
) -> int:
    game = lobby.create_game(ctx, host, options, sit=sit).game_id
    for level in levels:
        bots.add_bots(ctx, game, host, level, source=source(len(level)))
    return game


def run_clock(
    ctx: ServiceContext,
    clock: FakeClock,
    game: int,
    rng: RandomSource,
    *,
    limit: int = 5000,
    must_end: bool = True,
) -> Iterator[deadlines.Fired]:
    """Advance the clock one think at a time and fire what is due, until the game is
    over or a person must act."""
    running = True
    for _ in range(limit):
        clock.advance(THINK)
        fired = deadlines.fire_due(ctx, source=rng)
        yield from fired
        if fired:
            running = fired[-1].result.status is GameStatus.RUNNING
        if not running:
            return
        if not fired:
            seen = detail(ctx, game)
            if seen.summary.status is not GameStatus.RUNNING:
                return
            if seen.hand is not None and seen.hand.running:
                return  # nobody's deadline is due: a person's turn
    assert not must_end, "the game did not end"


def all_events(ctx: ServiceContext, game: int) -> list[Any]:
    events: list[Any] = []
    while page := play.events_since(ctx, game, events[-1].seq if events else 0):
        events.extend(page)
    return events


def test_three_bots_play_a_whole_game_with_the_audit_clean(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    (host,) = players(ctx, "host")
    game = practice(ctx, host, "beginner", "regular", "shark")
    seated = detail(ctx, game)
    assert seated.summary.status is GameStatus.RUNNING, "a table the bots fill starts"
    names = sorted(seat.name for seat in seated.seats)
    assert names == ["bot-beginner-1", "bot-regular-1", "bot-shark-1"]

    fired = list(run_clock(ctx, clock, game, SeededRandomSource(11)))
    final = detail(ctx, game)
    assert final.summary.status is GameStatus.FINISHED
    assert sorted(place for _, place in final.finishes) == [1, 2, 3]
    bot_turns = [f for f in fired if f.kind is DeadlineKind.TURN]
    assert len(bot_turns) > 20
    assert all(" bot in seat " in f.outcome for f in bot_turns), {f.outcome for f in bot_turns}
    assert final.summary.hands_dealt >= 2
    assert_audit_clean(ctx)

    with make_sessionmaker(ctx.engine)() as session:
        # every bot turn was one deadline row, fired once
        fired_rows = session.scalar(
            select(func.count())
            .select_from(Deadline)
            .where(Deadline.game_id == game, Deadline.kind == DeadlineKind.TURN)
        )
        assert fired_rows == len(bot_turns)
        assert session.scalar(select(func.count()).select_from(BotAccount)) == 3


def test_a_bot_decides_from_its_own_cards_and_the_public_state_only(
    ctx: ServiceContext, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[SeatView] = []
    real = bot_policy.decide

    def spy(view: Any, level: Any, rng: Any) -> Any:
        seen.append(view)
        return real(view, level, rng)

    monkeypatch.setattr(clock_commands, "decide", spy)
    (host,) = players(ctx, "host")
    game = practice(ctx, host, "shark", "regular", "beginner")
    for _ in run_clock(ctx, clock, game, SeededRandomSource(5), limit=60, must_end=False):
        pass
    assert len(seen) > 20
    # The log holds every hole card dealt: who got which.
    dealt: dict[int | None, dict[int, list[int]]] = {}
    for event in all_events(ctx, game):
        if event.kind == "HoleCardDealt":
            seat, card = event.payload["seat"], event.payload["card"]
            dealt.setdefault(event.hand_id, {}).setdefault(seat, []).append(card)
    owners: dict[tuple[int, ...], set[int]] = {}
    for by_seat in dealt.values():
        for seat, cards in by_seat.items():
            owners.setdefault(tuple(sorted(cards)), set()).add(seat)
    for view in seen:
        assert isinstance(view, SeatView)
        # The view's cards are the bot's own two and the board: SeatView has no
        # field that could hold anyone else's (tests/bots/test_view.py).
        assert len(view.hole) == 2 and not set(view.hole) & set(view.board)
        assert view.seat in owners[tuple(sorted(view.hole))], "a view holds someone's cards"


def test_a_person_plays_against_bots_and_the_bot_turn_survives_a_restart(
    ctx: ServiceContext, clock: FakeClock
) -> None:
    (host,) = players(ctx, "alice")
    deep = replace(ARENA, buy_in=5000, blinds_every_hands=1000)  # nobody busts
    game = practice(ctx, host, "regular", "regular", sit=True, options=deep)
    table = detail(ctx, game, host)
    assert table.summary.status is GameStatus.RUNNING
    rng = SeededRandomSource(3)
    acted = 0
    for _ in range(400):
        mine = detail(ctx, game, host)
        if mine.summary.status is not GameStatus.RUNNING or acted >= 12:
            break
        hand = mine.hand
        if hand is not None and hand.running and hand.legal is not None:
            kind, amount = passive(hand.legal)
            play.act(ctx, game, host, kind, amount, expected_version=mine.summary.version)
            acted += 1
            continue
        if hand is not None and not hand.running and not _continued(mine, host):
            play.press_continue(ctx, game, host, source=rng)
            continue
        # A bot's turn: its deadline is a row, due a think after the turn began.
        with make_sessionmaker(ctx.engine)() as session:
            row = session.scalar(
                select(Deadline).where(
                    Deadline.game_id == game,
                    Deadline.kind == DeadlineKind.TURN,
                    Deadline.fired_at.is_(None),
                )
            )
        assert row is not None and row.payload["bot"] == "regular"
        assert deadlines.fire_due(ctx, row.due_at - timedelta(milliseconds=1)) == []
        clock.moment = max(clock.moment, row.due_at)
        # a fresh context over the same database: what a restarted server would see
        restarted = ServiceContext(settings=ctx.settings, sessions=ctx.sessions, clock=clock)
        first = deadlines.fire_due(restarted, source=rng)
        assert [f.kind for f in first] == [DeadlineKind.TURN]
        assert deadlines.fire_due(ctx, source=rng) == [], "a deadline fires once"
    assert acted >= 12, "the person got turns"
    assert_audit_clean(ctx)


def _continued(table: Any, user: int) -> bool:
    return any(seat.continued for seat in table.seats if seat.user_id == user)


def test_refusals(ctx: ServiceContext) -> None:
    host, other = players(ctx, "host", "other")
    money_game = lobby.create_game(ctx, host, GameOptions(buy_in=1000)).game_id
    with pytest.raises(NotAllowedNow, match="practice tables"):
        bots.add_bots(ctx, money_game, host, "regular")
    game = lobby.create_game(ctx, host, ARENA, sit=True).game_id
    with pytest.raises(NotHostOrAdmin):
        bots.add_bots(ctx, game, other, "regular")
    with pytest.raises(InvalidInput, match="beginner, regular, shark"):
        bots.add_bots(ctx, game, host, "grandmaster")
    with pytest.raises(SeatUnavailable, match="2 free seats, not 3"):
        bots.add_bots(ctx, game, host, "shark", 3)
    bots.add_bots(ctx, game, host, "shark", 1)
    # a bot's account has no password that signs in
    with pytest.raises(AuthenticationFailed):
        sign_in(ctx, "bot-shark-1", "bot-shark-1")


def test_bot_accounts_are_reused_until_their_waiting_slots_run_out(ctx: ServiceContext) -> None:
    hosts = players(ctx, "ann", "ben", "cat", "dan")
    for host in hosts:
        lobby.create_game(ctx, host, ARENA, sit=True)
    games = [g.id for g in lobby.list_lobby(ctx)]
    for game, host in zip(sorted(games), hosts, strict=True):
        bots.add_bots(ctx, game, host, "beginner")
    names = sorted({seat.name for g in games for seat in detail(ctx, g).seats})
    # three waiting games per player: the fourth needs a second bot
    assert [n for n in names if n.startswith("bot-")] == ["bot-beginner-1", "bot-beginner-2"]


def test_the_route_seats_bots_for_the_host_only(ctx: ServiceContext) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
        from fastapi.testclient import TestClient

    from cardroom.web.app import create_app
    from cardroom.web.deps import WebSettings
    from tests.web.kit import assert_refused, bearer, sign_in, sign_up

    with TestClient(create_app(ctx, web=WebSettings(trust_proxy=False))) as client:
        sign_up(client, "host")
        sign_up(client, "guest")
        host, guest = bearer(sign_in(client, "host")), bearer(sign_in(client, "guest"))
        options = {"preset": "arena", "seats": 4, "buy_in": 1000, "small_blind": 5, "big_blind": 10}
        created = client.post("/api/games", json=options, headers=host)
        assert created.status_code == 201, created.text
        game = created.json()["game_id"]
        url = f"/api/games/{game}/bots"

        added = client.post(url, json={"level": "shark", "count": 2}, headers=host)
        assert added.status_code == 200, added.text
        seated = [e for e in added.json()["events"] if e["type"] == "PlayerSeated"]
        assert len(seated) == 2
        table = client.get(f"/api/games/{game}", headers=host).json()
        assert sorted(s["name"] for s in table["seats"]) == ["bot-shark-1", "bot-shark-2", "host"]

        assert_refused(client.post(url, json={"level": "shark"}, headers=guest), 403, "forbidden")
        assert_refused(
            client.post(url, json={"level": "expert"}, headers=host), 422, "invalid_input"
        )
        assert_refused(
            client.post(url, json={"level": "regular", "count": 2}, headers=host), 409, "conflict"
        )
        money = client.post("/api/games", json={"buy_in": 1000}, headers=guest).json()["game_id"]
        assert_refused(
            client.post(f"/api/games/{money}/bots", json={"level": "regular"}, headers=guest),
            409,
            "conflict",
        )
