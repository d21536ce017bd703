"""Reminders for long clocks, on both databases, with the clock fired at moments the
test controls: the points fall where docs/notifications.md says, each is sent once
per turn (two workers racing, a restart), a player who acts takes the reminder away,
the player's own points (or none) are kept, and a bet on a long clock costs the same
statements as on a short one."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from cardroom.notify.settings import NotifySettings
from cardroom.service import deadlines, lobby, play, table_admin
from cardroom.service.context import ServiceContext
from cardroom.service.deadlines import Fired
from cardroom.service.game_options import GameOptions
from cardroom.service.notices import choices, inbox
from cardroom.service.schedule import (
    DEFAULT_REMINDERS,
    REMINDER_LOOK,
    reminder_points,
    reminder_times,
)
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Deadline, DeadlineKind
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.store.notify_models import NoticeKind
from tests.conftest import FakeClock
from tests.notify.test_notify_in_command import traffic
from tests.service.gamekit import players, source, to_act

HOUR = 3600.0
DAY = 86400


# -- the points, worked out by hand ------------------------------------------------------


def test_points_are_written_the_rooms_way_and_bad_ones_refused() -> None:
    assert reminder_points(["1H", " 50% ", "90m", "1h", "2d"]) == ("50%", "2d", "90m", "1h")
    assert reminder_points([]) == ()
    for bad, words in [
        (["soon"], "is not a reminder point"),
        (["0%"], "1% to 99%"),
        (["100%"], "1% to 99%"),
        (["4m"], "5 minutes to 14 days"),
        (["15d"], "5 minutes to 14 days"),
        (["1%", "2%", "3%", "4%", "5%", "6%", "7%"], "at most 6"),
        ("50%", "a list"),
        ([50], "is text"),
    ]:
        with pytest.raises(ValueError, match=words):
            reminder_points(bad)


@pytest.mark.parametrize(
    ("clock", "points", "expected"),
    [
        (30.0, DEFAULT_REMINDERS, []),  # a 30-second clock: never
        (1200.0, DEFAULT_REMINDERS, []),  # under 30 minutes: never
        # an hour: "an hour left" is the turn's start, so only half-way
        (HOUR, DEFAULT_REMINDERS, [(1800.0, "50%")]),
        # two hours: half-way *is* an hour left; one reminder, not two
        (2 * HOUR, DEFAULT_REMINDERS, [(HOUR, "1h")]),
        (DAY, DEFAULT_REMINDERS, [(12 * HOUR, "50%"), (23 * HOUR, "1h")]),
        # within 5 minutes of the one before: the earlier stays
        (DAY, ("1h", "57m"), [(23 * HOUR, "1h")]),
        # within 5 minutes of the start or of the deadline: not at all
        (HOUR, ("58m", "4%"), []),
        (DAY, (), []),
    ],
)
def test_reminder_times(
    clock: float, points: tuple[str, ...], expected: list[tuple[float, str]]
) -> None:
    assert reminder_times(0.0, clock, points) == expected
    # Table times shift with the turn's start.
    assert reminder_times(100.0, 100.0 + clock, points) == [(t + 100, p) for t, p in expected]


# -- through a game ---------------------------------------------------------------------


def long_game(ctx: ServiceContext, clock_seconds: int = DAY, names: str = "ann,ben") -> int:
    """Heads-up with a turn clock of ``clock_seconds``, the first hand dealt."""
    host, guest = players(ctx, *names.split(","))
    options = GameOptions(buy_in=10_00, rules={"turn_clock_seconds": clock_seconds})
    game = lobby.create_game(ctx, host, options).game_id
    lobby.join(ctx, game, guest)
    lobby.start(ctx, game, host, source=source(1))
    return game


def reminder_row(ctx: ServiceContext, game: int) -> Deadline | None:
    with make_sessionmaker(ctx.engine)() as session:
        return session.scalar(
            select(Deadline).where(
                Deadline.game_id == game,
                Deadline.kind == DeadlineKind.REMINDER,
                Deadline.fired_at.is_(None),
            )
        )


def fire(ctx: ServiceContext, game: int, now: datetime, worker: str = "w") -> list[Fired]:
    return [f for f in deadlines.fire_due(ctx, now, worker=worker) if f.game_id == game]


def unread_turns(ctx: ServiceContext, user: int, game: int) -> list[NoticeRow]:
    with make_sessionmaker(ctx.engine)() as session:
        return list(
            session.scalars(
                select(NoticeRow).where(
                    NoticeRow.user_id == user,
                    NoticeRow.game_id == game,
                    NoticeRow.kind == NoticeKind.YOUR_TURN,
                    NoticeRow.read_at.is_(None),
                )
            )
        )


def reminders_told(ctx: ServiceContext) -> list[str]:
    with make_sessionmaker(ctx.engine)() as session:
        keys = session.scalars(
            select(NoticeRow.dedupe_key)
            .where(NoticeRow.dedupe_key.like("remind:%"))
            .order_by(NoticeRow.id)
        )
        return [key.rsplit(":", 1)[1] for key in keys]


def test_a_day_clock_reminds_at_half_and_with_an_hour_left_once_each(
    ctx: ServiceContext, notify: NotifySettings, clock: FakeClock
) -> None:
    start = clock.moment
    game = long_game(ctx)
    player, _, version = to_act(ctx, game) or (0, None, 0)
    row = reminder_row(ctx, game)
    assert row is not None and row.due_at == start + timedelta(seconds=REMINDER_LOOK)
    assert row.payload.get("point") is None  # the first look reads the player's points

    # The first look: no reminder yet, the next one due half-way.
    [looked] = fire(ctx, game, row.due_at)
    assert looked.result.notices == () and looked.result.version == version
    assert looked.outcome == "Next reminder at 50% left."
    half = reminder_row(ctx, game)
    assert half is not None and half.due_at == start + timedelta(hours=12)
    assert fire(ctx, game, half.due_at - timedelta(seconds=1)) == []  # not early

    [at_half] = fire(ctx, game, half.due_at)
    [told] = at_half.result.notices
    assert (told.user_id, told.kind) == (player, NoticeKind.YOUR_TURN)
    assert told.title == f"Reminder: 12 hours left in game {game}"
    assert told.data["reminder"] == "50%" and told.data["left_seconds"] == 12 * 3600
    assert "clock runs out" in told.body
    assert at_half.result.version == version  # a reminder does not make a move stale
    # The your-turn notice of this turn is superseded: one unread turn notice.
    assert [n.id for n in unread_turns(ctx, player, game)] == [told.id]

    hour = reminder_row(ctx, game)
    assert hour is not None and hour.due_at == start + timedelta(hours=23)
    [last] = fire(ctx, game, hour.due_at + timedelta(seconds=2))  # fired a moment late
    [told_again] = last.result.notices
    assert told_again.title == f"Reminder: 1 hour left in game {game}"
    assert [n.id for n in unread_turns(ctx, player, game)] == [told_again.id]
    assert reminder_row(ctx, game) is None  # nothing left in this turn
    assert reminders_told(ctx) == ["50%", "1h"]
    assert fire(ctx, game, start + timedelta(hours=23, minutes=30)) == []

    # The player acts, still in time; the next turn is the other player's.
    clock.advance(timedelta(hours=23, minutes=30))
    play.act(ctx, game, player, "call", expected_version=version)
    nxt = reminder_row(ctx, game)
    assert nxt is not None and nxt.payload.get("point") is None
    assert nxt.due_at == clock.moment + timedelta(seconds=REMINDER_LOOK)


def test_acting_takes_the_pending_reminder_away(
    ctx: ServiceContext, notify: NotifySettings, clock: FakeClock
) -> None:
    start = clock.moment
    game = long_game(ctx)
    player, _, version = to_act(ctx, game) or (0, None, 0)
    row = reminder_row(ctx, game)
    assert row is not None
    fire(ctx, game, row.due_at)  # the look: 50% is pending
    pending = reminder_row(ctx, game)
    assert pending is not None and pending.payload["point"] == "50%"
    clock.advance(timedelta(hours=1))
    play.act(ctx, game, player, "call", expected_version=version)
    moved = reminder_row(ctx, game)
    assert moved is not None and moved.id == pending.id  # moved, as the turn deadline is
    other, _, _ = to_act(ctx, game) or (0, None, 0)
    assert moved.payload["seat"] != pending.payload["seat"] and other != player
    # Half a day after the first turn began: nothing for the player who acted; only
    # the other player's first look has fired.
    [look] = fire(ctx, game, start + timedelta(hours=12))
    assert look.deadline_id == moved.id and look.result.notices == ()
    assert reminders_told(ctx) == []


def test_a_paused_table_sends_no_reminder_and_goes_on_after_the_pause(
    ctx: ServiceContext, notify: NotifySettings, clock: FakeClock
) -> None:
    start = clock.moment
    host, guest = players(ctx, "pia", "quin")
    options = GameOptions(buy_in=10_00, rules={"turn_clock_seconds": DAY})
    game = lobby.create_game(ctx, host, options).game_id
    lobby.join(ctx, game, guest)
    lobby.start(ctx, game, host, source=source(1))
    look = reminder_row(ctx, game)
    assert look is not None
    fire(ctx, game, look.due_at)
    clock.advance(timedelta(hours=1))
    table_admin.pause(ctx, host, game, "dinner")
    half = reminder_row(ctx, game)
    assert half is not None and half.payload["point"] == "50%"  # kept through the pause
    [paused] = fire(ctx, game, half.due_at)
    assert paused.result.notices == () and paused.outcome.startswith("The table is paused")
    clock.moment = start + timedelta(hours=20)
    table_admin.resume(ctx, host, game, "back")
    hour = reminder_row(ctx, game)
    assert hour is not None and hour.payload["point"] == "1h"
    [went] = fire(ctx, game, hour.due_at)
    assert len(went.result.notices) == 1 and reminders_told(ctx) == ["1h"]


def test_a_short_clock_has_no_reminder_and_its_bet_costs_the_same(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    short = long_game(ctx, 120, "cat,dan")
    long = long_game(ctx, DAY, "eve,fay")
    assert reminder_row(ctx, short) is None and reminder_row(ctx, long) is not None

    def bet_statements(game: int) -> list[str]:
        player, _, version = to_act(ctx, game) or (0, None, 0)
        with traffic(ctx) as seen:
            play.act(ctx, game, player, "call", expected_version=version)
        return seen.statements

    on_short, on_long = bet_statements(short), bet_statements(long)
    # The reminder moves in the turn deadline's statement: not one statement more.
    assert len(on_long) == len(on_short), (on_short, on_long)
    assert not any("notification_settings" in s and "reminders" in s for s in on_long)


def test_the_players_own_points_or_none(
    ctx: ServiceContext, notify: NotifySettings, clock: FakeClock
) -> None:
    start = clock.moment
    game = long_game(ctx)
    player, _, _ = to_act(ctx, game) or (0, None, 0)
    prefs = choices.get_preferences(ctx, player)
    assert prefs.reminders == ("50%", "1h")
    saved = choices.set_preferences(ctx, player, prefs, reminders=["6h", "25%"], notify=notify)
    assert saved.reminders == ("25%", "6h")
    row = reminder_row(ctx, game)
    assert row is not None
    fire(ctx, game, row.due_at)
    first = reminder_row(ctx, game)
    assert first is not None and first.due_at == start + timedelta(hours=18)
    assert first.payload["point"] == "25%" or first.payload["point"] == "6h"

    # None at all: the pending one is not sent, and nothing more is planned.
    choices.set_preferences(ctx, player, prefs, reminders=[], notify=notify)
    assert choices.get_preferences(ctx, player).reminders == ()
    [fired] = fire(ctx, game, first.due_at)
    assert fired.result.notices == ()
    assert fired.outcome.startswith("The player no longer wants a reminder")
    assert reminder_row(ctx, game) is None and reminders_told(ctx) == []
    # Leaving the points out of a change keeps them.
    choices.set_preferences(ctx, player, prefs, notify=notify)
    assert choices.get_preferences(ctx, player).reminders == ()


def test_two_workers_racing_send_each_reminder_once(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    games = [long_game(ctx, DAY, f"r{n}a,r{n}b") for n in range(3)]
    # The first look of each, so that a reminder point is pending.
    looks = deadlines.fire_due(ctx, ctx.now() + timedelta(seconds=REMINDER_LOOK))
    assert sorted(f.game_id for f in looks) == games
    due = max(r.due_at for g in games if (r := reminder_row(ctx, g)) is not None)
    barrier = threading.Barrier(2)
    fired: dict[str, list[Fired]] = {}
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            barrier.wait()
            fired[name] = deadlines.fire_due(ctx, due, worker=name)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"w{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    sent = [n for name in fired for f in fired[name] for n in f.result.notices]
    assert sorted(n.game_id for n in sent) == games  # one each, whoever fired it
    assert reminders_told(ctx) == ["50%"] * 3


def test_a_restarted_room_sends_the_pending_reminder_once(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game = long_game(ctx)
    row = reminder_row(ctx, game)
    assert row is not None
    fire(ctx, game, row.due_at)
    half = reminder_row(ctx, game)
    assert half is not None
    # The server stops; a new one (a new engine, nothing in memory) starts a day later
    # than it should have: the reminder waited in its row and goes, once.
    ctx.engine.dispose()
    restarted = ServiceContext(
        settings=ctx.settings, sessions=make_sessionmaker(ctx.engine), clock=ctx.clock
    )
    later = half.due_at + timedelta(hours=2)
    [went] = fire(restarted, game, later)
    assert len(went.result.notices) == 1
    # Two hours late, the 1h point is still ahead (23h): the reminder moved on to it.
    nxt = reminder_row(restarted, game)
    assert nxt is not None and nxt.payload["point"] == "1h"
    assert fire(restarted, game, later) == [] and reminders_told(ctx) == ["50%"]


def test_a_player_away_from_the_table_keeps_one_unread_turn_notice_per_game(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    host, guest = players(ctx, "gus", "hal")
    game = lobby.create_game(ctx, host, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, guest)
    lobby.start(ctx, game, host, source=source(1))
    told: list[int] = []
    for _ in range(8):  # both call and check down: a turn notice per street each
        turn = to_act(ctx, game)
        if turn is None:
            break
        who, legal, version = turn
        kind = "check" if "check" in legal.kinds else "call"
        result = play.act(ctx, game, who, kind, expected_version=version)
        told += [n.id for n in result.notices if n.kind is NoticeKind.YOUR_TURN]
    assert len(told) >= 4
    for who in (host, guest):
        unread = unread_turns(ctx, who, game)
        assert len(unread) <= 1
        page = inbox.list_notices(ctx, who, notify=notify)
        turns = [n for n in page.notices if n.kind is NoticeKind.YOUR_TURN]
        assert len(turns) >= 2 and all(n.read_at is not None for n in turns[1:])
    with make_sessionmaker(ctx.engine)() as session:
        count = session.scalar(
            select(func.count()).select_from(NoticeRow).where(NoticeRow.read_at.is_(None))
        )
    assert (count or 0) <= 4  # two starts and at most one turn each
