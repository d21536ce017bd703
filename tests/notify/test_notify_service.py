"""Deciding and delivering notices, through real games on both databases, with Web
Push to the local push service (decrypted there) and email to the local SMTP server.

Commands record their notices in their own transaction and return them
(``PlayResult.notices``); ``on_game_change`` records what is missing after the fact."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import delete, select

from cardroom.notify.settings import NotifySettings
from cardroom.service import accounts, lobby, play, table_admin
from cardroom.service.admin import CONSOLE
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Conflict, InvalidInput, NotFound
from cardroom.service.game_options import GameOptions
from cardroom.service.game_records import Notice, PlayResult
from cardroom.service.notices import choices, decide, inbox
from cardroom.service.notices import deliver as delivery
from cardroom.service.notices import record as outbox
from cardroom.service.notices.choices import Preferences
from cardroom.store.models import GameStatus
from cardroom.store.notify_models import (
    Channel,
    DeliveryStatus,
    NoticeDelivery,
    NoticeKind,
    PushSubscription,
)
from cardroom.store.notify_models import Notice as NoticeRow
from tests.conftest import FakeClock
from tests.notify.conftest import RoomNotify
from tests.notify.receivers import FakeBrowser, MailServer, PushReceiver, free_port
from tests.service.gamekit import (
    detail,
    everyone_continues,
    play_hand,
    players,
    shove,
    source,
    to_act,
)

EMAIL_ON = Preferences(email=True, email_address="bob@example.com")
PUSH_ON = Preferences(web_push=True)
ALL_ON = Preferences(web_push=True, email=True, email_address="bob@example.com")


def changed(
    ctx: ServiceContext, notify: NotifySettings, result: PlayResult, actor: int | None = None
) -> list[Notice]:
    """What ``on_game_change`` records after the fact for ``result``."""
    return outbox.on_game_change(ctx, result.game_id, result.events, actor_id=actor, notify=notify)


def told(result: PlayResult) -> list[Notice]:
    """What the command recorded in its own transaction."""
    return list(result.notices)


def forget_notices(ctx: ServiceContext) -> None:
    """As if no one had been told anything yet."""
    with ctx.transaction() as session:
        session.execute(delete(NoticeDelivery))
        session.execute(delete(NoticeRow))


def heads_up(ctx: ServiceContext, **options: object) -> tuple[int, int, int, list[Notice]]:
    """alice hosts, bob joins, alice starts: (game, alice, bob, the start's notices)."""
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(**options)).game_id  # type: ignore[arg-type]
    lobby.join(ctx, game, bob)
    started = lobby.start(ctx, game, alice, source=source(1))
    return game, alice, bob, told(started)


def act_for_whoever(ctx: ServiceContext, game: int, kind: str = "call") -> PlayResult:
    turn = to_act(ctx, game)
    assert turn is not None
    player, legal, version = turn
    if kind not in legal.kinds:
        kind = "call" if "call" in legal.kinds else "check"
    return play.act(ctx, game, player, kind, expected_version=version)


def your_turns(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if n.kind is NoticeKind.YOUR_TURN]


def subscribe(ctx: ServiceContext, notify: NotifySettings, user: int, browser: FakeBrowser) -> None:
    target = browser.target
    choices.add_browser(ctx, user, target.endpoint, target.p256dh, target.auth, notify=notify)


def deliveries(ctx: ServiceContext) -> list[tuple[int, Channel, DeliveryStatus, str | None]]:
    with ctx.transaction() as session:
        rows = session.scalars(select(NoticeDelivery).order_by(NoticeDelivery.id)).all()
        return [(r.notice_id, r.channel, r.status, r.outcome) for r in rows]


# ---------------------------------------------------------------- deciding


def test_a_start_tells_the_others_and_the_player_to_act(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, bob, notices = heads_up(ctx)
    by_kind = {(n.kind, n.user_id) for n in notices}
    # alice started it and is not told; heads up, the button (alice) acts first.
    assert by_kind == {(NoticeKind.GAME_STARTED, bob), (NoticeKind.YOUR_TURN, alice)}
    started = next(n for n in notices if n.kind is NoticeKind.GAME_STARTED)
    assert started.title == f"Game {game} has started"
    assert started.body == "2 players, blinds $0.10/$0.20. Good luck!"
    turn = next(n for n in notices if n.kind is NoticeKind.YOUR_TURN)
    assert turn.title == f"Your turn in game {game}"
    assert turn.body.startswith("Hand 1, preflop: $0.10 to call, pot $0.30.")
    assert turn.body.endswith("Your clock runs out at 20:02 UTC on 15 January.")  # 120 s
    assert turn.url == f"/games/{game}"
    assert turn.live and turn.in_app and turn.browser
    assert turn.deliver_at is None  # web push and email are off by default
    wire = turn.to_wire()
    assert wire["kind"] == "your_turn" and wire["read"] is False
    json.dumps(wire)  # ready for the socket as it is


def test_one_notice_per_turn_however_often_it_is_asked(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, bob, _ = heads_up(ctx)
    assert outbox.on_game_change(ctx, game, [], notify=notify) == []
    acted = act_for_whoever(ctx, game)  # alice calls: bob's option
    [turn] = told(acted)
    assert (turn.kind, turn.user_id) == (NoticeKind.YOUR_TURN, bob)
    # Asked again after the commit (as the server did before commands recorded their
    # own notices): nothing new, nothing returned to push a second time.
    assert changed(ctx, notify, acted, alice) == []
    assert changed(ctx, notify, acted, alice) == []
    page = inbox.list_notices(ctx, bob, notify=notify)
    assert [n.kind for n in page.notices] == [NoticeKind.YOUR_TURN, NoticeKind.GAME_STARTED]


def test_the_same_player_to_act_again_is_a_new_turn(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, _alice, bob, _ = heads_up(ctx)
    act_for_whoever(ctx, game)  # alice calls
    # bob checks: the flop, and heads up the big blind (bob) acts first after it.
    flop = act_for_whoever(ctx, game, "check")
    [turn] = told(flop)
    assert turn.user_id == bob and turn.data["street"] == "flop"
    assert turn.body.startswith("Hand 1, flop: you can check")


def test_a_late_call_tells_of_the_turn_as_it_is_now(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, _bob, _ = heads_up(ctx)
    first = act_for_whoever(ctx, game)  # bob's turn...
    act_for_whoever(ctx, game, "check")  # ...over already: the flop, bob again
    forget_notices(ctx)
    [turn] = changed(ctx, notify, first, alice)
    assert turn.data["street"] == "flop"


def test_no_turn_notice_while_paused(
    ctx: ServiceContext, notify: NotifySettings, clock: FakeClock
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions()).game_id
    lobby.join(ctx, game, bob)
    started = lobby.start(ctx, game, alice, source=source(1))
    forget_notices(ctx)  # the start told alice of her turn: as if it had not
    paused = table_admin.pause(ctx, alice, game, "dinner")
    assert detail(ctx, game).summary.status is GameStatus.PAUSED
    assert told(paused) == [] and changed(ctx, notify, paused) == []
    assert [n.kind for n in changed(ctx, notify, started, alice)] == [NoticeKind.GAME_STARTED]
    # The resume tells of the turn; none of its events started it (the turn's
    # event is read from the stored ones).
    resumed = table_admin.resume(ctx, alice, game, "back")
    assert not {e.kind for e in resumed.events} & set(decide.TURN_STARTERS)
    [turn] = told(resumed)
    assert (turn.kind, turn.user_id) == (NoticeKind.YOUR_TURN, alice)
    assert changed(ctx, notify, resumed, alice) == []


def test_a_pause_and_a_resume_is_the_same_turn(ctx: ServiceContext, notify: NotifySettings) -> None:
    game, alice, _bob, notices = heads_up(ctx)
    [turn] = your_turns(notices)
    assert told(table_admin.pause(ctx, alice, game, "dinner")) == []
    assert told(table_admin.resume(ctx, alice, game, "back")) == []
    assert [n.id for n in inbox.list_notices(ctx, alice, notify=notify).notices] == [turn.id]


def test_a_cancellation_tells_everyone_refunded(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions(buy_in=10_00)).game_id
    lobby.join(ctx, game, bob)
    cancelled = lobby.cancel_game(ctx, CONSOLE, game, "No activity for 72 hours")
    notices = told(cancelled)
    assert sorted(n.user_id for n in notices) == [alice, bob]
    for notice in notices:
        assert notice.kind is NoticeKind.GAME_ENDED
        assert notice.title == f"Game {game} was cancelled"
        assert notice.body == "No activity for 72 hours. Your buy-in of $10.00 was refunded."
        assert notice.data == {
            "result": "cancelled",
            "reason": "No activity for 72 hours",
            "refund": 10_00,
        }
    assert changed(ctx, notify, cancelled) == []


def test_a_tournament_end_tells_each_player_their_place_and_prize(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    options = GameOptions(format="tournament", seats=2, buy_in=10_00)
    game = lobby.create_game(ctx, alice, options).game_id
    results = [lobby.join(ctx, game, bob, source=source(3))]  # full: starts
    for hand in range(1, 60):
        results += play_hand(ctx, game, shove)
        if detail(ctx, game).summary.status is GameStatus.FINISHED:
            break
        results += everyone_continues(ctx, game, source(100 + hand))
    last = results[-1]
    assert "TournamentFinished" in [e.kind for e in last.events]
    winner = next(e.payload["winner"] for e in last.events if e.kind == "TournamentFinished")
    loser = ({alice, bob} - {winner}).pop()
    # The last call ended it: its player is not told, the other is, by the command.
    [other] = [n for n in told(last) if n.kind is NoticeKind.GAME_ENDED]
    assert other.user_id in (alice, bob)
    # Told by the clock (no actor), both would be: on_game_change after the fact.
    forget_notices(ctx)
    ended = {n.user_id: n for n in changed(ctx, notify, last) if n.kind is NoticeKind.GAME_ENDED}
    assert ended[other.user_id].body == other.body
    assert set(ended) == {alice, bob}
    assert ended[winner].body == "You won the tournament, out of 2 players, and you take $20.00."
    name = "alice" if winner == alice else "bob"
    assert ended[loser].body == f"{name} won the tournament; you finished 2nd of 2."
    assert ended[winner].data == {"result": "finished", "place": 1, "prize": 20_00}


def test_a_suspended_player_is_not_told(ctx: ServiceContext, notify: NotifySettings) -> None:
    alice, bob = players(ctx, "alice", "bob")
    game = lobby.create_game(ctx, alice, GameOptions()).game_id
    lobby.join(ctx, game, bob)
    started = lobby.start(ctx, game, alice, source=source(1))
    accounts.suspend(ctx, CONSOLE, "bob", "testing")
    assert told(act_for_whoever(ctx, game)) == []  # alice calls: bob's turn, untold
    forget_notices(ctx)
    assert bob not in {n.user_id for n in changed(ctx, notify, started, alice)}


def test_two_processes_at_once_record_one_notice(
    ctx: ServiceContext, notify: NotifySettings
) -> None:
    game, alice, _bob, _ = heads_up(ctx)
    acted = act_for_whoever(ctx, game)
    forget_notices(ctx)  # the act told bob: as if it had not
    got: list[list[Notice]] = []
    barrier = threading.Barrier(4)

    def call() -> None:
        barrier.wait()
        got.append(changed(ctx, notify, acted, alice))

    threads = [threading.Thread(target=call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(len(n) for n in got) == [0, 0, 0, 1]


def test_a_notice_waits_before_going_out_less_for_a_short_clock(
    ctx: ServiceContext,
    notify: NotifySettings,
    receiver: PushReceiver,
    clock: FakeClock,
    room_notify: RoomNotify,
) -> None:
    slow = room_notify(replace(notify, delay_seconds=30))
    alice, bob = players(ctx, "alice", "bob")
    for user in (alice, bob):
        choices.set_preferences(ctx, user, PUSH_ON, notify=slow)
        subscribe(ctx, slow, user, receiver.browser(f"u{user}"))
    game = lobby.create_game(ctx, alice, GameOptions(preset="standard")).game_id  # 30 s clock
    lobby.join(ctx, game, bob)
    notices = told(lobby.start(ctx, game, alice, source=source(1)))
    due = {n.kind: n.deliver_at for n in notices}
    assert due == {
        NoticeKind.GAME_STARTED: clock.moment + timedelta(seconds=30),
        NoticeKind.YOUR_TURN: clock.moment + timedelta(seconds=7.5),  # a quarter of 30 s
    }
    assert delivery.next_delivery_due(ctx) == clock.moment + timedelta(seconds=7.5)
    assert delivery.deliver_due(ctx, notify=slow) == 0
    clock.advance(timedelta(seconds=8))
    assert delivery.deliver_due(ctx, notify=slow) == 1
    assert [p.message["title"] for p in receiver.pushes] == [f"Your turn in game {game}"]


# ---------------------------------------------------------------- delivering


def test_push_and_email_go_out_decrypted_and_linked(
    ctx: ServiceContext,
    notify_mail: NotifySettings,
    receiver: PushReceiver,
    mail: MailServer,
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    choices.set_preferences(ctx, bob, ALL_ON, notify=notify_mail)
    browser = receiver.browser("bob")
    subscribe(ctx, notify_mail, bob, browser)
    game = lobby.create_game(ctx, alice, GameOptions()).game_id
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source(1))
    [turn] = told(act_for_whoever(ctx, game))
    assert turn.user_id == bob and turn.deliver_at is not None

    # bob's "game started" and "your turn" go as one push and one email.
    assert delivery.deliver_due(ctx, notify=notify_mail) == 2
    assert receiver.errors == []
    [push] = receiver.pushes
    receiver.check_claims(push, notify_mail.vapid_subject)
    assert push.message["title"] == "2 updates from Cardroom"
    assert push.message["body"] == f"Game {game} has started; Your turn in game {game}"
    assert push.message["url"] == f"/games/{game}"
    assert push.headers["urgency"] == "high"
    assert push.headers["ttl"] == "86400"  # the start is news for a day
    [(to, message)] = mail.messages
    assert to == ["bob@example.com"]
    assert message["Subject"] == "2 updates from Cardroom"
    text = message.get_content().replace("\r\n", "\n")
    assert f"- Your turn in game {game}. Hand 1, preflop: you can check" in text
    assert f"https://cards.example.org/games/{game}" in text
    assert "https://cards.example.org/account" in text
    assert {(c, s, o) for _, c, s, o in deliveries(ctx)} == {
        (Channel.WEB_PUSH, DeliveryStatus.SENT, "sent to 1 of 1 browsers"),
        (Channel.EMAIL, DeliveryStatus.SENT, "sent"),
    }
    assert delivery.deliver_due(ctx, notify=notify_mail) == 0  # nothing twice


def test_deliver_sends_one_notice_now(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver, room_notify: RoomNotify
) -> None:
    slow = room_notify(replace(notify, delay_seconds=600))
    alice, bob = players(ctx, "alice", "bob")
    choices.set_preferences(ctx, alice, PUSH_ON, notify=slow)
    subscribe(ctx, slow, alice, receiver.browser("alice"))
    game = lobby.create_game(ctx, alice, GameOptions()).game_id
    lobby.join(ctx, game, bob)
    [turn] = your_turns(told(lobby.start(ctx, game, alice, source=source(1))))
    assert delivery.deliver_due(ctx, notify=slow) == 0  # not due for a while
    delivery.deliver(ctx, turn, notify=slow)
    [push] = receiver.pushes
    assert push.message["title"] == f"Your turn in game {game}"
    assert push.message["tag"] == f"game-{game}"
    delivery.deliver(ctx, turn, notify=slow)  # again: nothing more
    assert len(receiver.pushes) == 1


def test_a_turn_over_before_delivery_is_not_sent(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    choices.set_preferences(ctx, alice, PUSH_ON, notify=notify)
    subscribe(ctx, notify, alice, receiver.browser("alice"))
    game = lobby.create_game(ctx, alice, GameOptions()).game_id
    lobby.join(ctx, game, bob)
    [turn] = your_turns(told(lobby.start(ctx, game, alice, source=source(1))))
    act_for_whoever(ctx, game)  # alice acts at the table before the push goes
    delivery.deliver(ctx, turn, notify=notify)
    assert receiver.pushes == []
    assert deliveries(ctx) == [
        (turn.id, Channel.WEB_PUSH, DeliveryStatus.SKIPPED, "the turn is over")
    ]


def test_a_notice_read_in_the_room_is_not_sent(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver
) -> None:
    game, _alice, bob, _ = heads_up(ctx)
    choices.set_preferences(ctx, bob, PUSH_ON, notify=notify)
    subscribe(ctx, notify, bob, receiver.browser("bob"))
    [turn] = told(act_for_whoever(ctx, game))
    read = inbox.mark_read(ctx, bob, turn.id, notify=notify)
    assert read.read_at is not None
    assert delivery.deliver_due(ctx, notify=notify) == 0
    assert receiver.pushes == []
    assert deliveries(ctx)[-1][2:] == (DeliveryStatus.SKIPPED, "the player has read it")


def test_a_channel_turned_off_meanwhile_is_skipped(
    ctx: ServiceContext, notify_mail: NotifySettings, mail: MailServer
) -> None:
    game, _alice, bob, _ = heads_up(ctx)
    choices.set_preferences(ctx, bob, EMAIL_ON, notify=notify_mail)
    act_for_whoever(ctx, game)
    choices.set_preferences(ctx, bob, Preferences(), notify=notify_mail)
    delivery.deliver_due(ctx, notify=notify_mail)
    assert mail.messages == []
    assert deliveries(ctx)[-1][2:] == (DeliveryStatus.SKIPPED, "email is turned off")


def test_the_gap_holds_messages_back_and_then_sends_them_as_one(
    ctx: ServiceContext,
    notify: NotifySettings,
    receiver: PushReceiver,
    clock: FakeClock,
    room_notify: RoomNotify,
) -> None:
    gapped = room_notify(replace(notify, push_gap_seconds=60))
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    choices.set_preferences(ctx, alice, PUSH_ON, notify=gapped)
    subscribe(ctx, gapped, alice, receiver.browser("alice"))
    games = []
    for other in (bob, carol):
        game = lobby.create_game(ctx, alice, GameOptions()).game_id
        lobby.join(ctx, game, other)
        games.append(game)
    lobby.start(ctx, games[0], alice, source=source(1))
    assert delivery.deliver_due(ctx, notify=gapped) == 1
    clock.advance(timedelta(seconds=10))
    lobby.start(ctx, games[1], alice, source=source(1))
    assert delivery.deliver_due(ctx, notify=gapped) == 0  # too soon: held back
    assert delivery.next_delivery_due(ctx) == clock.moment + timedelta(seconds=50)
    clock.advance(timedelta(seconds=50))
    assert delivery.deliver_due(ctx, notify=gapped) == 1
    assert [p.message["title"] for p in receiver.pushes] == [
        f"Your turn in game {games[0]}",
        f"Your turn in game {games[1]}",
    ]


def test_turns_at_several_tables_coalesce_into_one_push(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver
) -> None:
    alice, bob, carol = players(ctx, "alice", "bob", "carol")
    choices.set_preferences(ctx, alice, PUSH_ON, notify=notify)
    subscribe(ctx, notify, alice, receiver.browser("alice"))
    games = []
    for other in (bob, carol):
        game = lobby.create_game(ctx, alice, GameOptions()).game_id
        lobby.join(ctx, game, other)
        lobby.start(ctx, game, alice, source=source(1))
        games.append(game)
    assert delivery.deliver_due(ctx, notify=notify) == 1
    [push] = receiver.pushes
    assert push.message["title"] == "Your turn in 2 games"
    assert push.message["url"] == "/"
    assert len(push.message["notices"]) == 2


def test_every_browser_gets_it_and_a_gone_one_is_forgotten(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    choices.set_preferences(ctx, alice, PUSH_ON, notify=notify)
    phone, laptop = receiver.browser("phone"), receiver.browser("laptop")
    subscribe(ctx, notify, alice, phone)
    subscribe(ctx, notify, alice, laptop)
    receiver.answer["/push/phone"] = 410
    game = lobby.create_game(ctx, alice, GameOptions()).game_id
    lobby.join(ctx, game, bob)
    lobby.start(ctx, game, alice, source=source(1))
    delivery.deliver_due(ctx, notify=notify)
    assert sorted(p.path for p in receiver.pushes) == ["/push/laptop", "/push/phone"]
    assert deliveries(ctx)[-1][2:] == (
        DeliveryStatus.SENT,
        "sent to 1 of 2 browsers (the subscription has expired)",
    )
    with ctx.transaction() as session:
        kept = session.scalars(select(PushSubscription.endpoint)).all()
    assert kept == [laptop.endpoint]


def test_a_mail_server_that_is_down_is_recorded_never_raised(
    ctx: ServiceContext, notify: NotifySettings, room_notify: RoomNotify
) -> None:
    broken = replace(notify, smtp_host="127.0.0.1", smtp_port=free_port(), smtp_tls="none")
    broken = room_notify(broken)
    game, _alice, bob, _ = heads_up(ctx)
    choices.set_preferences(ctx, bob, EMAIL_ON, notify=broken)
    [turn] = told(act_for_whoever(ctx, game))
    delivery.deliver(ctx, turn, notify=broken)
    [(_, channel, status, outcome)] = deliveries(ctx)
    assert (channel, status) == (Channel.EMAIL, DeliveryStatus.FAILED)
    assert outcome is not None and outcome.startswith("no mail server answer")


def test_delivery_never_raises_into_its_caller(
    ctx: ServiceContext, notify: NotifySettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, _alice, bob, _ = heads_up(ctx)
    choices.set_preferences(ctx, bob, PUSH_ON, notify=notify)
    [turn] = told(act_for_whoever(ctx, game))

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(delivery, "_claim", boom)
    delivery.deliver(ctx, turn, notify=notify)  # logged, not raised
    assert delivery.deliver_due(ctx, notify=notify) == 0


# ---------------------------------------------------------------- the player's side


def test_preferences_default_and_change(ctx: ServiceContext, notify_mail: NotifySettings) -> None:
    [alice] = players(ctx, "alice")
    assert choices.get_preferences(ctx, alice) == Preferences(True, True, False, False, None)
    chosen = Preferences(False, True, True, True, " alice@example.com ")
    assert choices.set_preferences(ctx, alice, chosen, notify=notify_mail) == replace(
        chosen, email_address="alice@example.com"
    )
    # Email off keeps the address, so turning it back on is one switch.
    off = choices.set_preferences(
        ctx,
        alice,
        replace(chosen, email=False, email_address="alice@example.com"),
        notify=notify_mail,
    )
    assert off.email_address == "alice@example.com"


def test_preference_refusals(ctx: ServiceContext, notify: NotifySettings) -> None:
    [alice] = players(ctx, "alice")
    with pytest.raises(InvalidInput, match="Give an email address"):
        choices.set_preferences(ctx, alice, Preferences(email=True), notify=notify)
    with pytest.raises(InvalidInput, match="does not look right"):
        choices.set_preferences(ctx, alice, Preferences(email_address="alice@"), notify=notify)
    with pytest.raises(Conflict, match="no mail server"):
        choices.set_preferences(ctx, alice, EMAIL_ON, notify=notify)
    with pytest.raises(NotFound):
        choices.get_preferences(ctx, 999)
    assert choices.get_preferences(ctx, alice) == Preferences()


def test_browsers_subscribe_move_and_unsubscribe(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver
) -> None:
    alice, bob = players(ctx, "alice", "bob")
    browser = receiver.browser("shared")
    t = browser.target
    first = choices.add_browser(ctx, alice, t.endpoint, t.p256dh, t.auth, notify=notify)
    assert first.created
    again = choices.add_browser(ctx, bob, t.endpoint, t.p256dh, t.auth, notify=notify)
    assert not again.created and again.id == first.id
    assert choices.browser_count(ctx, alice) == 0 and choices.browser_count(ctx, bob) == 1
    assert not choices.remove_browser(ctx, alice, t.endpoint)
    assert choices.remove_browser(ctx, bob, t.endpoint)
    assert choices.browser_count(ctx, bob) == 0
    with pytest.raises(InvalidInput, match="https"):
        choices.add_browser(ctx, alice, "ftp://x", t.p256dh, t.auth, notify=notify)
    with pytest.raises(InvalidInput, match="16-byte"):
        choices.add_browser(ctx, alice, t.endpoint, t.p256dh, "AAAA", notify=notify)


def test_a_player_keeps_ten_browsers_at_most(
    ctx: ServiceContext, notify: NotifySettings, receiver: PushReceiver
) -> None:
    [alice] = players(ctx, "alice")
    browsers = [receiver.browser(f"b{n}") for n in range(12)]
    for browser in browsers:
        subscribe(ctx, notify, alice, browser)
    with ctx.transaction() as session:
        kept = session.scalars(select(PushSubscription.endpoint)).all()
    assert sorted(kept) == sorted(b.endpoint for b in browsers[2:])


def test_notices_page_newest_first_and_read(ctx: ServiceContext, notify: NotifySettings) -> None:
    game, alice, bob, _ = heads_up(ctx)
    for _ in range(5):  # to the turn card: alice has acted at three streets
        act_for_whoever(ctx, game, "check")
    mine = inbox.list_notices(ctx, alice, limit=2, notify=notify)
    everything = [n.id for n in inbox.list_notices(ctx, alice, limit=100, notify=notify).notices]
    assert len(everything) == 3
    assert [n.id for n in mine.notices] == everything[:2]
    assert mine.unread == 1  # the newest turn notice superseded the older two
    rest = inbox.list_notices(ctx, alice, before_id=mine.next_before_id, limit=100, notify=notify)
    assert [n.id for n in rest.notices] == everything[2:] and rest.next_before_id is None
    inbox.mark_read(ctx, alice, everything[0], notify=notify)
    first = inbox.mark_read(ctx, alice, everything[0], notify=notify).read_at
    assert inbox.list_notices(ctx, alice, notify=notify).unread == 0
    assert inbox.mark_read(ctx, alice, everything[0], notify=notify).read_at == first
    with pytest.raises(NotFound, match="no notice"):
        inbox.mark_read(ctx, bob, everything[0], notify=notify)
    with pytest.raises(InvalidInput):
        inbox.list_notices(ctx, alice, limit=0, notify=notify)
