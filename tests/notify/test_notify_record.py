"""What recording a command's notices costs, and that it records what it always did,
on both databases: the usual "your turn" is one statement (the notice and the
player's channels at once), a notice for Web Push adds its delivery rows in one
more, a command that calls for no notice sends nothing; and a hand played by three
players with different channels, some turned off, leaves the same notices, delivery
rows and answers as the statements it replaced did (``PLAYED``, recorded from them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select

from cardroom.notify.settings import NotifySettings
from cardroom.service import lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_options import GameOptions
from cardroom.service.game_records import Notice, PlayResult
from cardroom.service.notices import choices, decide, inbox
from cardroom.service.notices import record as outbox
from cardroom.service.notices.choices import Preferences
from cardroom.store.models import Game, User
from cardroom.store.notify_models import (
    Channel,
    NoticeDelivery,
    NoticeKind,
    NotificationSettings,
    PushSubscription,
)
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.table import table_from_dict
from tests.conftest import FakeClock
from tests.notify.conftest import RoomNotify
from tests.notify.receivers import PushReceiver
from tests.service.gamekit import everyone_continues, heads_up, players, source, to_act


@contextmanager
def sent_by_notices_in(ctx: ServiceContext, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The statements ``notices_in`` sends while the block runs (the command's own
    left out): each as its first three words, ``INSERT INTO notices``."""
    sent: list[str] = []
    deciding = [False]

    def record(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if deciding[0]:
            sent.append(" ".join(statement.split()[:3]))

    real = outbox.notices_in

    def counted(*args: Any, **kwargs: Any) -> list[Notice]:
        deciding[0] = True
        try:
            return real(*args, **kwargs)
        finally:
            deciding[0] = False

    monkeypatch.setattr(outbox, "notices_in", counted)
    event.listen(ctx.engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(ctx.engine, "before_cursor_execute", record)


def act(ctx: ServiceContext, game: int) -> PlayResult:
    """Whoever is to act checks, or calls."""
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    kind = "check" if "check" in legal.kinds else "call"
    return play.act(ctx, game, player, kind, expected_version=version)


def recording_a_turn(ctx: ServiceContext) -> list[str]:
    """The statement that records a turn notice, as ``sent_by_notices_in`` words it:
    the insert, which also marks the player's older unread one read when there is
    one (on PostgreSQL the insert in a ``WITH`` beside the update, on SQLite by the
    trigger of migration 0012)."""
    if ctx.engine.dialect.name == "postgresql":
        return ["WITH recorded AS"]
    return ["INSERT INTO notices"]


def test_the_usual_turn_notice_is_one_statement(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _alice, bob = heads_up(ctx, seed=1)
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        acted = act(ctx, game)
    assert [n.user_id for n in acted.notices] == [bob]
    assert sent == recording_a_turn(ctx)


def test_a_player_who_turned_notices_off_costs_the_same(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _alice, bob = heads_up(ctx, seed=1)
    off = Preferences(in_app=False, browser=False)
    choices.set_preferences(ctx, bob, off, notify=notify)
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        [turn] = act(ctx, game).notices
    assert sent == recording_a_turn(ctx)
    assert turn.user_id == bob and not turn.live and turn.deliver_at is None


def test_a_turn_for_web_push_adds_its_delivery_in_one_statement(
    ctx: ServiceContext,
    notify: NotifySettings,
    receiver: PushReceiver,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _alice, bob = heads_up(ctx, seed=1)
    choices.set_preferences(ctx, bob, Preferences(web_push=True), notify=notify)
    target = receiver.browser("bob").target
    choices.add_browser(ctx, bob, target.endpoint, target.p256dh, target.auth, notify=notify)
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        [turn] = act(ctx, game).notices
    assert sent == [*recording_a_turn(ctx), "INSERT INTO notice_deliveries"]
    assert turn.user_id == bob and turn.deliver_at is not None


def test_a_command_that_calls_for_no_notice_sends_nothing(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, alice, bob = heads_up(ctx, seed=1)
    for player in (alice, bob):  # the start's notices, read at the table
        for seen in inbox.list_notices(ctx, player, notify=notify).notices:
            inbox.mark_read(ctx, player, seen.id, notify=notify)
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        results = []
        while to_act(ctx, game) is not None:  # checked down: the last action ends the hand
            results.append(act(ctx, game))
            for notice in results[-1].notices:  # as the open table page does
                inbox.mark_read(ctx, notice.user_id, notice.id, notify=notify)
    [*_turns, last] = results
    assert last.notices == () and "HandEnded" in [e.kind for e in last.events]
    assert sent == recording_a_turn(ctx) * (len(results) - 1)


def test_a_turn_notice_supersedes_an_unread_one_in_the_same_statement(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, alice, bob = heads_up(ctx, seed=1)
    act(ctx, game)  # bob's turn; his notice is left unread (no page open)
    act(ctx, game)  # the flop: bob first again, heads up; the older one is superseded
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        [turn] = act(ctx, game).notices  # alice's: her unread one from the deal goes
    assert turn.user_id == alice
    assert sent == recording_a_turn(ctx)
    unread = [n for n in inbox.list_notices(ctx, alice, notify=notify).notices if not n.read_at]
    assert [n.id for n in unread if n.kind is NoticeKind.YOUR_TURN] == [turn.id]
    # bob reads his; his next turn notice then has nothing to supersede: the same.
    for notice in inbox.list_notices(ctx, bob, notify=notify).notices:
        inbox.mark_read(ctx, bob, notice.id, notify=notify)
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        [turn] = act(ctx, game).notices
    assert turn.user_id == bob and sent == recording_a_turn(ctx)


def test_a_turn_notice_not_recorded_supersedes_nothing(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    """The supersede goes only with a recorded notice: a turn told already (the
    insert's conflict) or a suspended player's leaves their older unread one be."""
    game, _alice, bob = heads_up(ctx, seed=1)
    act(ctx, game)  # bob's turn: his notice is unread
    with ctx.transaction() as session:
        older = session.scalars(
            select(NoticeRow).where(
                NoticeRow.user_id == bob,
                NoticeRow.kind == NoticeKind.YOUR_TURN,
                NoticeRow.read_at.is_(None),
            )
        ).one()
        game_row = session.get_one(Game, game)
        table = table_from_dict(game_row.state)
        draft = decide.turn_notice(session, game_row, table, hand_id=game_row.hand_id)
        assert draft is not None and draft.user_id == bob
        now = older.created_at + timedelta(seconds=1)
        # The same turn again, as a fresh one (no read first): the insert is the test.
        again = replace(draft, dedupe_key=older.dedupe_key)
        assert outbox._store(session, game, [again], notify, now, fresh=1) == []
        # Another key, but bob suspended: nothing recorded, nothing marked read.
        session.get_one(User, bob).suspended = True
        other = replace(draft, dedupe_key=f"{draft.dedupe_key}:again")
        assert outbox._store(session, game, [other], notify, now, fresh=1) == []
        unread = select(NoticeRow.read_at).where(NoticeRow.id == older.id)
        assert session.scalar(unread) is None
        session.get_one(User, bob).suspended = False
        [recorded] = outbox._store(session, game, [other], notify, now, fresh=1)
    with ctx.transaction() as session:
        read = {id_: at for id_, at in session.execute(select(NoticeRow.id, NoticeRow.read_at))}
    assert read[older.id] == now and read[recorded.id] is None


def test_every_choice_of_channels_is_read_as_it_was_chosen(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    """The insert answers with the player's channels as one number: every settings
    row (and none) gives the notice and the deliveries that reading each column
    did, an email address counting only when it is not blank."""
    game, alice, _alice = heads_up(ctx, seed=1)  # alice is to act
    mailing = replace(notify, smtp_host="127.0.0.1")
    rows: list[tuple[bool, bool, bool, bool, str | None] | None] = [None]
    for bits in range(16):
        for address in (None, "", "alice@example.com"):
            rows.append((*(bool(bits & 1 << b) for b in range(4)), address))  # type: ignore[arg-type]
    with ctx.transaction() as session:
        session.add(
            PushSubscription(
                user_id=alice,
                endpoint="https://push.example.org/alice",
                endpoint_hash="b" * 64,
                p256dh="k",
                auth="a",
                created_at=datetime.now(UTC),
            )
        )
        game_row = session.get_one(Game, game)
        table = table_from_dict(game_row.state)
        draft = decide.turn_notice(session, game_row, table, hand_id=game_row.hand_id)
        assert draft is not None and draft.user_id == alice
        for number, row in enumerate(rows):
            chosen = Preferences() if row is None else Preferences(*row)
            settings = session.get(NotificationSettings, alice)
            if row is None:
                assert settings is None
            else:
                if settings is None:
                    settings = NotificationSettings(user_id=alice, updated_at=datetime.now(UTC))
                    session.add(settings)
                settings.in_app, settings.browser, settings.web_push, settings.email = row[:4]
                settings.email_address = row[4]
                session.flush()
            now = datetime.now(UTC)
            key = replace(draft, dedupe_key=f"{draft.dedupe_key}:{number}")
            [told] = outbox._store(session, game, [key], mailing, now, fresh=1)
            assert (told.in_app, told.browser) == (chosen.in_app, chosen.browser), row
            channels = session.scalars(
                select(NoticeDelivery.channel).where(NoticeDelivery.notice_id == told.id)
            ).all()
            wanted = [Channel.WEB_PUSH] if chosen.web_push else []
            wanted += [Channel.EMAIL] if chosen.email and chosen.email_address else []
            assert sorted(channels) == sorted(wanted), row
            assert (told.deliver_at is not None) == bool(wanted), row


def test_asking_again_after_the_fact_is_one_read(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, alice, _bob = heads_up(ctx, seed=1)
    acted = act(ctx, game)
    with sent_by_notices_in(ctx, monkeypatch) as sent:
        assert outbox.on_game_change(ctx, game, acted.events, actor_id=alice, notify=notify) == []
    assert sent == ["SELECT notices.user_id, notices.dedupe_key"]


# ---------------------------------------------------------------- a played hand

# What a three-handed game's start, first hand and next deal recorded when each
# notice took a read of the players' channels and an insert (the code before
# 2026-11-30), in ``played``'s words: names for players, G for the game, H1 and H2
# for its hands, N1... for the notices, times in seconds after the start, null for
# no delivery. alice keeps the defaults; bob turned the page's notices off and email
# on; carol has Web Push on with a browser subscribed.
PLAYED = Path(__file__).with_name("played_hand_notices.json")
# Since 2026-12-02 a turn notice marks the player's older unread one at the game read
# (one unread turn notice per game): the rows' last field, when, was null before.


def played(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver, clock: FakeClock
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The notices the commands answered with, the notice rows and the delivery rows
    of a three-handed game's start, first hand and next deal, in ``PLAYED``'s words."""
    start = clock.moment
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    choices.set_preferences(
        ctx,
        bob,
        Preferences(in_app=False, browser=False, email=True, email_address="bob@example.com"),
        notify=notify,
    )
    choices.set_preferences(ctx, carol, Preferences(web_push=True), notify=notify)
    target = receiver.browser("carol").target
    choices.add_browser(ctx, carol, target.endpoint, target.p256dh, target.auth, notify=notify)
    game = lobby.create_game(ctx, alice, GameOptions(seats=3)).game_id
    lobby.join(ctx, game, bob)
    results = [lobby.join(ctx, game, carol, source=source(1))]  # full: it starts
    while to_act(ctx, game) is not None:
        clock.advance(timedelta(seconds=7))
        results.append(act(ctx, game))
    clock.advance(timedelta(seconds=20))
    results += everyone_continues(ctx, game, source(2))

    names = {alice: "alice", bob: "bob", carol: "carol"}
    hands: dict[int, str] = {}
    ids: dict[int, str] = {}

    def hand(hand_id: int | None) -> str | None:
        if hand_id is None:
            return None
        return hands.setdefault(hand_id, f"H{len(hands) + 1}")

    def notice(notice_id: int) -> str:
        return ids.setdefault(notice_id, f"N{len(ids) + 1}")

    def seconds(moment: datetime | None) -> float | None:
        return None if moment is None else (moment - start).total_seconds()

    def key(dedupe_key: str) -> str:
        parts = dedupe_key.split(":")
        parts[1] = "G"
        if parts[0] == "turn":
            parts[2] = str(hand(int(parts[2])))
        return ":".join(parts)

    def words(text: str) -> str:
        return text.replace(f"game {game}", "game G").replace(f"Game {game}", "Game G")

    def data(values: dict[str, Any]) -> dict[str, Any]:
        due = values.get("due_at")
        if due is None:
            return values
        return {**values, "due_at": seconds(datetime.fromisoformat(due))}

    answered = [
        (
            notice(n.id),
            names[n.user_id],
            n.kind.value,
            hand(n.hand_id),
            words(n.title),
            words(n.body),
            data(n.data),
            seconds(n.created_at),
            n.in_app,
            n.browser,
            seconds(n.deliver_at),
            n.url == f"/games/{game}",
        )
        for result in results
        for n in result.notices
    ]
    with ctx.transaction() as session:
        rows = [
            (
                notice(r.id),
                names[r.user_id],
                r.kind.value,
                r.game_id == game,
                hand(r.hand_id),
                r.turn_seq,
                key(r.dedupe_key),
                words(r.title),
                words(r.body),
                data(r.data),
                seconds(r.created_at),
                seconds(r.read_at),  # superseded by the player's next turn notice there
            )
            for r in session.scalars(select(NoticeRow).order_by(NoticeRow.id))
        ]
        deliveries = [
            (
                notice(d.notice_id),
                names[d.user_id],
                d.channel.value,
                d.status.value,
                seconds(d.due_at),
            )
            for d in session.scalars(select(NoticeDelivery).order_by(NoticeDelivery.id))
        ]
    return answered, rows, deliveries


def test_a_played_hand_records_what_it_always_did(
    ctx: ServiceContext,
    notify_mail: NotifySettings,
    room_notify: RoomNotify,
    receiver: PushReceiver,
    clock: FakeClock,
) -> None:
    waiting = room_notify(replace(notify_mail, delay_seconds=60))
    answered, rows, deliveries = played(ctx, waiting, receiver, clock)
    # As JSON: the tuples become lists, as in the file.
    got = json.loads(json.dumps({"answered": answered, "notices": rows, "deliveries": deliveries}))
    assert got == json.loads(PLAYED.read_text())
