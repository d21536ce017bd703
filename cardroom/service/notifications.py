"""Notifications: what the room tells a player, on which channels, and when.

**Deciding.** Every command on a game (a player's, the clock's, an admin's) records
the notices it calls for in its own transaction, right after it stores its events
(``cardroom.service.game.reactions`` calls ``notices_in`` after ``GameTx.save``),
from the game row, table and events the command already holds, and returns them on
its ``PlayResult`` (``notices``): one transaction and one commit per command, the
table decoded once. The notices are:

- *your turn*, when action rests on a player: keyed by game, hand and the seq of the
  event that started the turn (the last blind, hole card, board card or action), so
  one turn makes one notice however many commands, retries or server processes look
  at it. The turn is the table's as it is at the end of the command;
- *game started*, for the players of a ``GameStarted``;
- *game ended*, for a tournament's players (their place and prize) and for the
  players refunded by a cancellation (the reason and the refund).

The player whose command it was (``actor_id``) is not told of the start or the end
they caused. A ``(user_id, dedupe_key)`` unique constraint makes the insert itself
the test, so only the call that records a notice returns it: the server pushes what
it gets back to the player's WebSocket, and nothing twice. ``on_game_change(ctx,
game_id, events)`` does the same after the fact, in a transaction of its own, for
the turn as it is by then (a command has usually told of it already: it then
records and returns nothing).

**Delivering.** Web Push and email go out later, from ``notice_deliveries`` rows due
``NotifySettings.delay_seconds`` after the notice (less for a short turn clock): a
player at the table acts first, and the turn is over by then. ``deliver_due`` (the
scheduler's loop) and ``deliver`` (one notice, from a background task) both:

1. lock the player's settings row, so one worker at a time delivers to a player;
2. skip what should no longer go (the turn is over, the notice was read, the player
   turned the channel off), defer what would break the per-player gap (one push per
   ``push_gap_seconds``, one email per ``email_gap_seconds``), and claim the rest;
3. send one message per channel for everything claimed (coalesced: "Your turn in 3
   games"), with no transaction open;
4. record each outcome; a browser whose push service answers 404 or 410 is forgotten.

Neither raises into its caller. A crash while sending leaves the rows ``sending``: a
notice goes out at most once.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from typing import cast as type_cast

from sqlalchemy import Table as SqlTable
from sqlalchemy import bindparam, delete, exists, false, func, insert, select, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from cardroom.hand import STREET_NAMES
from cardroom.notify import channels, messages
from cardroom.notify.channels import Browser
from cardroom.notify.email import valid_address
from cardroom.notify.messages import Item, Text, game_path
from cardroom.notify.settings import NotifySettings, environ_settings
from cardroom.notify.webpush import (
    EndpointRefused,
    PushOutcome,
    PushTarget,
    check_endpoint,
    check_keys,
)
from cardroom.service.context import ServiceContext, worker_name
from cardroom.service.errors import Conflict, InvalidInput, NotFound
from cardroom.service.game_records import Notice, StoredEvent
from cardroom.service.schedule import at
from cardroom.service.users import active_user
from cardroom.store.db import reading
from cardroom.store.models import Game, GameEvent, GameStatus, HandRecord, User
from cardroom.store.notify_models import (
    Channel,
    DeliveryStatus,
    NoticeDelivery,
    NoticeKind,
    NotificationSettings,
    PushSubscription,
)
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.table import Table, table_from_dict

log = logging.getLogger(__name__)

PAGE_DEFAULT = 20
PAGE_MAX = 100
MAX_BROWSERS_PER_PLAYER = 10  # a player's oldest subscription goes when an 11th comes
DEFAULT_PUSH_TTL_SECONDS = 24 * 3600

# The events after which the player to act may have changed: the deal (blinds, hole
# cards), a street, an action. The last of them in a hand started the current turn.
TURN_STARTERS = ("BlindPosted", "HoleCardDealt", "BoardDealt", "PlayerActed")


# ------------------------------------------------------------------ records


@dataclass(frozen=True)
class Preferences:
    """A player's channels. Web Push also needs a subscribed browser, email an
    address and a room with a mail server."""

    in_app: bool = True
    browser: bool = True  # the open page shows a system notification
    web_push: bool = False
    email: bool = False
    email_address: str | None = None


DEFAULTS = Preferences()


@dataclass(frozen=True)
class NoticePage:
    notices: tuple[Notice, ...]  # newest first
    unread: int  # all the player's unread notices, whatever the page
    next_before_id: int | None  # pass as ``before_id`` for the next page; None at the end


@dataclass(frozen=True)
class BrowserSubscription:
    id: int
    endpoint: str
    created_at: datetime
    created: bool  # False: the browser was subscribed already, and is now this player's


# ------------------------------------------------------------------ helpers


def _settings(notify: NotifySettings | None) -> NotifySettings:
    return notify if notify is not None else environ_settings()


def _insert(session: Session, model: Any) -> Any:
    """``INSERT`` with the dialect's ``ON CONFLICT`` clause available: the unique
    constraints do the deduplicating, without an exception to roll back."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(model)
    return sqlite.insert(model)


def _preferences(row: NotificationSettings | None) -> Preferences:
    if row is None:
        return DEFAULTS
    return Preferences(row.in_app, row.browser, row.web_push, row.email, row.email_address)


def _settings_row(session: Session, user_id: int, now: datetime) -> NotificationSettings:
    """The player's settings row, made with the defaults if missing, and locked
    (``FOR UPDATE``; SQLite's ``BEGIN IMMEDIATE`` has already serialised us)."""
    session.execute(
        _insert(session, NotificationSettings)
        .values(
            user_id=user_id,
            in_app=DEFAULTS.in_app,
            browser=DEFAULTS.browser,
            web_push=DEFAULTS.web_push,
            email=DEFAULTS.email,
            email_address=None,
            updated_at=now,
        )
        .on_conflict_do_nothing(index_elements=["user_id"])
    )
    row = session.scalars(
        select(NotificationSettings)
        .where(NotificationSettings.user_id == user_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).one()
    return row


def _record(row: NoticeRow, notify: NotifySettings, prefs: Preferences) -> Notice:
    return Notice(
        id=row.id,
        user_id=row.user_id,
        kind=row.kind,
        game_id=row.game_id,
        hand_id=row.hand_id,
        title=row.title,
        body=row.body,
        url=game_path(row.game_id),
        data=dict(row.data),
        created_at=row.created_at,
        read_at=row.read_at,
        in_app=prefs.in_app,
        browser=prefs.browser,
    )


# ------------------------------------------------------------------ the turn


@dataclass(frozen=True)
class Turn:
    user_id: int
    hand_id: int
    turn_seq: int


def current_turn(
    session: Session,
    game: Game,
    table: Table,
    *,
    hand_id: int | None = None,
    events: Sequence[StoredEvent] = (),
) -> Turn | None:
    """Whose turn it is at ``game`` now, and the event that started it; None while
    no one is to act (between hands, all in, paused, over). A caller in the
    command's transaction saves the two reads: ``hand_id`` is the running hand's id
    (``table.hands_dealt``'s row), and ``events`` the events it has just stored,
    whose last turn starter of that hand, if any, started the turn."""
    hand = table.hand
    if game.status is not GameStatus.RUNNING or hand is None or hand.is_over:
        return None
    seat = hand.seat_to_act
    player = None if seat is None else table.hand_players.get(seat)
    if player is None:
        return None
    if hand_id is None:
        hand_id = session.scalar(
            select(HandRecord.id).where(
                HandRecord.game_id == game.id, HandRecord.number == table.hands_dealt
            )
        )
        if hand_id is None:
            return None
    # Events are numbered in the order they happen: the stored ones of this command
    # come after every other, so the last starter among them is the hand's last.
    turn_seq = max(
        (e.seq for e in events if e.hand_id == hand_id and e.kind in TURN_STARTERS),
        default=None,
    )
    if turn_seq is None:  # nothing here moved the turn (a resume, a sit out...)
        turn_seq = session.scalar(
            select(func.max(GameEvent.seq)).where(
                GameEvent.game_id == game.id,
                GameEvent.hand_id == hand_id,
                GameEvent.kind.in_(TURN_STARTERS),
            )
        )
        if turn_seq is None:
            return None
    return Turn(player, hand_id, int(turn_seq))


# ------------------------------------------------------------------ deciding


@dataclass(frozen=True)
class _Draft:
    user_id: int
    kind: NoticeKind
    dedupe_key: str
    text: Text
    data: dict[str, Any] = field(default_factory=dict)
    hand_id: int | None = None
    turn_seq: int | None = None
    due_at: datetime | None = None  # a turn's clock: delivery should beat it


def notices_in(
    session: Session,
    game: Game,
    table: Table,
    events: Sequence[StoredEvent],
    *,
    now: datetime,
    actor_id: int | None = None,
    hand_id: int | None = None,
    just_stored: bool = False,
    notify: NotifySettings | None = None,
) -> list[Notice]:
    """Record the notices a command on ``game`` calls for, in the transaction that
    holds the game's row (locked) and its decoded ``table`` as the command left them,
    and return the new ones. ``events``: the command's stored events; ``actor_id``:
    the player whose command it was, who is not told of the start or end they
    caused; ``hand_id``: the running hand's row id if the caller has it (one read
    less).

    ``just_stored``: this transaction stored ``events``, so no one can have told of
    what they alone occasion (a start, an end, a turn one of them began): those
    notices skip the read of what was told already. The insert stays the test
    (``ON CONFLICT DO NOTHING``), so nothing is recorded twice either way.

    It cannot fail for an ordinary reason: the texts are clipped to their columns,
    every row it names exists in this transaction, and the unique keys are left to
    ``ON CONFLICT``. A command may therefore run it in its own transaction, without
    a savepoint."""
    kinds = {event.kind for event in events}
    drafts: list[_Draft] = []
    if "GameStarted" in kinds:
        drafts += _started(game, table, events)
    if "TournamentFinished" in kinds:
        drafts += _tournament_finished(session, game, table, events)
    if "GameCancelled" in kinds:
        drafts += _cancelled(game, table, events)
    if actor_id is not None:
        drafts = [d for d in drafts if d.user_id != actor_id]
    fresh = len(drafts) if just_stored else 0
    turn = current_turn(session, game, table, hand_id=hand_id, events=events)
    if turn is not None:
        drafts.append(_your_turn(game, table, turn))
        if just_stored and any(e.seq == turn.turn_seq for e in events):
            fresh += 1
    if not drafts:
        return []
    return _store(session, game.id, drafts, _settings(notify), now, fresh=fresh)


def on_game_change(
    ctx: ServiceContext,
    game_id: int,
    events: Sequence[StoredEvent],
    *,
    actor_id: int | None = None,
    notify: NotifySettings | None = None,
) -> list[Notice]:
    """``notices_in`` after the fact, in a transaction of its own: the notices a
    committed command at ``game_id`` calls for, with the turn as it is now (a call
    that comes late tells of the turn as it is, never of one already over). The
    command recorded them already, in its own transaction: this records only what
    is missing, and returns only what it recorded."""
    now = ctx.now()
    with ctx.transaction() as session:
        game = session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            return []
        table = table_from_dict(game.state)
        return notices_in(
            session,
            game,
            table,
            events,
            now=now,
            actor_id=actor_id,
            hand_id=game.hand_id,  # the running hand's row, if any: no read of hands
            notify=notify,
        )


def _started(game: Game, table: Table, events: Iterable[StoredEvent]) -> list[_Draft]:
    out: list[_Draft] = []
    for event in events:
        if event.kind != "GameStarted":
            continue
        players = [int(p) for p in event.payload.get("players", ())]
        text = messages.game_started(
            game.id,
            players=len(players),
            small_blind=table.small_blind,
            big_blind=table.big_blind,
            pays_money=table.config.pays_money,
        )
        out += [
            _Draft(player, NoticeKind.GAME_STARTED, f"started:{game.id}", text)
            for player in players
        ]
    return out


def _tournament_finished(
    session: Session, game: Game, table: Table, events: Sequence[StoredEvent]
) -> list[_Draft]:
    prizes: dict[int, int] = {}
    for event in events:
        if event.kind == "PrizePaid":
            player = int(event.payload["player"])
            prizes[player] = prizes.get(player, 0) + int(event.payload["amount"])
    out: list[_Draft] = []
    for event in events:
        if event.kind != "TournamentFinished":
            continue
        winner = int(event.payload["winner"])
        places = {int(p): int(place) for p, place in event.payload.get("places", ())}
        winner_row = session.get(User, winner)
        for player, place in places.items():
            text = messages.tournament_finished(
                game.id,
                place=place,
                players=len(places),
                prize=prizes.get(player, 0),
                winner_name="Another player" if winner_row is None else winner_row.name,
                you_won=player == winner,
                pays_money=table.config.pays_money,
            )
            data = {"result": "finished", "place": place, "prize": prizes.get(player, 0)}
            out.append(_Draft(player, NoticeKind.GAME_ENDED, f"ended:{game.id}", text, data))
    return out


def _cancelled(game: Game, table: Table, events: Sequence[StoredEvent]) -> list[_Draft]:
    refunds: dict[int, int] = {}
    for event in events:
        if event.kind == "BuyInRefunded":
            player = int(event.payload["player"])
            refunds[player] = refunds.get(player, 0) + int(event.payload["amount"])
    reason = next(
        (str(e.payload.get("reason", "")) for e in events if e.kind == "GameCancelled"), ""
    )
    out: list[_Draft] = []
    for player, refund in refunds.items():
        text = messages.game_cancelled(
            game.id, reason=reason, refund=refund, pays_money=table.config.pays_money
        )
        data = {"result": "cancelled", "reason": reason, "refund": refund}
        out.append(_Draft(player, NoticeKind.GAME_ENDED, f"ended:{game.id}", text, data))
    return out


def _your_turn(game: Game, table: Table, turn: Turn) -> _Draft:
    hand = table.hand
    assert hand is not None
    deadline = table.turn_deadline()
    due_at = None if deadline is None else at(game, deadline)
    legal = hand.legal_actions()
    street = STREET_NAMES[int(hand.street)]
    pays = table.config.pays_money
    text = messages.your_turn(
        game.id,
        hand_number=table.hands_dealt,
        street=street,
        to_call=legal.to_call,
        pot=hand.pot,
        pays_money=pays,
        due_at=due_at,
    )
    data = {
        "hand": table.hands_dealt,
        "street": street,
        "to_call": legal.to_call,
        "pot": hand.pot,
        "due_at": None if due_at is None else due_at.isoformat(),
    }
    return _Draft(
        turn.user_id,
        NoticeKind.YOUR_TURN,
        f"turn:{game.id}:{turn.hand_id}:{turn.turn_seq}",
        text,
        data,
        hand_id=turn.hand_id,
        turn_seq=turn.turn_seq,
        due_at=due_at,
    )


def _store(
    session: Session,
    game_id: int,
    drafts: Sequence[_Draft],
    notify: NotifySettings,
    now: datetime,
    *,
    fresh: int = 0,
) -> list[Notice]:
    """Record ``drafts``; the first ``fresh`` are of events this transaction stored,
    which no one can have told of yet. Each notice is one statement (``_RECORD``),
    which also answers with the player's channels; a notice for Web Push or email
    adds its delivery rows, all in one more."""
    if not drafts:
        return []
    known = drafts[fresh:]
    if known:
        # A command that did not move the turn finds it told already: one read
        # settles that before anything is written.
        told = set(
            session.execute(
                _TOLD,
                {
                    "users": sorted({d.user_id for d in known}),
                    "keys": sorted({d.dedupe_key for d in known}),
                },
            ).all()
        )
        drafts = [*drafts[:fresh], *(d for d in known if (d.user_id, d.dedupe_key) not in told)]
        if not drafts:
            return []
    # Through the session, not its connection, though these are Core statements: its
    # autoflush (a no-op after the reactions' flush) keeps every row a notice names
    # written first, whoever calls. The connection would spare 5 to 20 us a statement.
    record = _RECORD[session.get_bind().dialect.name]
    path = game_path(game_id)
    deliveries: list[dict[str, Any]] = []
    notices: list[Notice] = []
    for draft in drafts:
        recorded = session.execute(
            record,
            {
                "user_id": draft.user_id,
                "kind": draft.kind,
                "game_id": game_id,
                "hand_id": draft.hand_id,
                "turn_seq": draft.turn_seq,
                "dedupe_key": draft.dedupe_key,
                "title": draft.text.title,
                "body": draft.text.body,
                "data": draft.data,
                "created_at": now,
            },
        ).first()
        if recorded is None:
            # A suspended player (who cannot act on anything we would say), or
            # one told just now by another process.
            continue
        notice_id, in_app, browser, web_push, email, email_address, subscribed = recorded
        wanted = []
        if web_push and subscribed:
            wanted.append(Channel.WEB_PUSH)
        if email and email_address and notify.email_enabled:
            wanted.append(Channel.EMAIL)
        due = now + _delay(notify, now, draft.due_at) if wanted else None
        deliveries += [
            {
                "notice_id": notice_id,
                "user_id": draft.user_id,
                "channel": channel,
                "status": DeliveryStatus.PENDING,
                "due_at": due,
            }
            for channel in wanted
        ]
        notices.append(
            Notice(
                id=notice_id,
                user_id=draft.user_id,
                kind=draft.kind,
                game_id=game_id,
                hand_id=draft.hand_id,
                title=draft.text.title,
                body=draft.text.body,
                url=path,
                data=dict(draft.data),
                created_at=now,
                read_at=None,
                in_app=bool(in_app),
                browser=bool(browser),
                deliver_at=due,
            )
        )
    if deliveries:
        session.execute(_INSERT_DELIVERIES, deliveries)
    return notices


# The statements ``_store`` sends after nearly every command, built once, in Core:
# nothing reads these rows back as objects in the transaction, so they need no
# identities and no unit of work, and building a statement costs more than sending
# it.
_NOTICES = type_cast(SqlTable, NoticeRow.__table__)
_SETTINGS = type_cast(SqlTable, NotificationSettings.__table__)
_BROWSERS = type_cast(SqlTable, PushSubscription.__table__)
_USERS = type_cast(SqlTable, User.__table__)
_INSERT_DELIVERIES = insert(type_cast(SqlTable, NoticeDelivery.__table__))

_TOLD = select(_NOTICES.c.user_id, _NOTICES.c.dedupe_key).where(
    _NOTICES.c.user_id.in_(bindparam("users", expanding=True)),
    _NOTICES.c.dedupe_key.in_(bindparam("keys", expanding=True)),
)

_RECORDED = [
    *("user_id", "kind", "game_id", "hand_id", "turn_seq", "dedupe_key"),
    *("title", "body", "data", "created_at"),
]


def _setting(column: Any, default: bool | None) -> Any:
    """The player's setting, or ``default`` if they have no settings row. Found by
    the ``user_id`` parameter, not correlated to the new row: SQLite writes
    RETURNING's columns without their table's name, which would make it ``user_id =
    user_id``."""
    chosen = select(column).where(_SETTINGS.c.user_id == bindparam("user_id")).scalar_subquery()
    if default is None:
        return chosen
    return func.coalesce(chosen, true() if default else false())


def _record_statement(dml: Any) -> Any:
    """``INSERT INTO notices ... SELECT`` from the player's row if they are not
    suspended, ``ON CONFLICT DO NOTHING`` on ``(user_id, dedupe_key)``, ``RETURNING``
    the id and what the player chose: the channels in ``Preferences`` order and
    whether a browser is subscribed. No row back: nothing recorded (a suspended or
    unknown player, or a notice told already)."""
    values = select(*(bindparam(name, type_=_NOTICES.c[name].type) for name in _RECORDED)).where(
        _USERS.c.id == bindparam("user_id"), _USERS.c.suspended.is_(false())
    )
    return (
        dml(_NOTICES)
        .from_select(_RECORDED, values)
        .on_conflict_do_nothing(index_elements=["user_id", "dedupe_key"])
        .returning(
            _NOTICES.c.id,
            _setting(_SETTINGS.c.in_app, DEFAULTS.in_app),
            _setting(_SETTINGS.c.browser, DEFAULTS.browser),
            _setting(_SETTINGS.c.web_push, DEFAULTS.web_push),
            _setting(_SETTINGS.c.email, DEFAULTS.email),
            _setting(_SETTINGS.c.email_address, None),
            exists().where(_BROWSERS.c.user_id == bindparam("user_id")),
        )
    )


_RECORD = {
    "sqlite": _record_statement(sqlite.insert),
    "postgresql": _record_statement(postgresql.insert),
}


def _delay(notify: NotifySettings, now: datetime, turn_due: datetime | None) -> timedelta:
    """How long a notice waits for its player to turn up before it is pushed or
    mailed: the configured delay, but at most a quarter of the turn's time left, so
    a 30-second clock still gets its push while it can help."""
    delay = timedelta(seconds=notify.delay_seconds)
    if turn_due is not None:
        delay = min(delay, max(timedelta(0), (turn_due - now) / 4))
    return delay


# ------------------------------------------------------------------ delivering


@dataclass
class _Job:
    channel: Channel
    rows: list[int]  # delivery ids
    items: list[Item]
    address: str | None = None
    browsers: list[Browser] = field(default_factory=list)
    ttl: int = DEFAULT_PUSH_TTL_SECONDS
    urgent: bool = False


def next_delivery_due(ctx: ServiceContext) -> datetime | None:
    """When the earliest pending delivery is due: how long a scheduler may sleep."""
    with ctx.transaction() as session:
        due: datetime | None = session.scalar(
            select(func.min(NoticeDelivery.due_at)).where(
                NoticeDelivery.status == DeliveryStatus.PENDING
            )
        )
        return due


def deliver_due(
    ctx: ServiceContext,
    now: datetime | None = None,
    *,
    limit: int = 100,
    notify: NotifySettings | None = None,
) -> int:
    """Deliver every pending notice that is due, player by player (oldest due
    first, at most ``limit`` players). Returns how many messages it tried to send.
    Never raises: a failure is logged and recorded."""
    settings = _settings(notify)
    moment = now or ctx.now()
    try:
        with ctx.transaction() as session:
            users = list(
                session.scalars(
                    select(NoticeDelivery.user_id)
                    .where(
                        NoticeDelivery.status == DeliveryStatus.PENDING,
                        NoticeDelivery.due_at <= moment,
                    )
                    .group_by(NoticeDelivery.user_id)
                    .order_by(func.min(NoticeDelivery.due_at))
                    .limit(limit)
                )
            )
    except Exception:
        log.exception("could not look for due notices")
        return 0
    return sum(_deliver_safely(ctx, settings, user, moment, None) for user in users)


def deliver(ctx: ServiceContext, notice: Notice, *, notify: NotifySettings | None = None) -> None:
    """Send ``notice`` by the player's other channels now (Web Push, email), with
    whatever else of theirs is due, as one message per channel; a background task
    calls it at ``notice.deliver_at``. Checks as it goes that the turn is still on,
    and the gap since the last message (what is too early waits for
    ``deliver_due``). Never raises; outcomes go to ``notice_deliveries``."""
    if notice.deliver_at is None:
        return
    _deliver_safely(ctx, _settings(notify), notice.user_id, ctx.now(), notice.id)


def _deliver_safely(
    ctx: ServiceContext,
    notify: NotifySettings,
    user_id: int,
    now: datetime,
    notice_id: int | None,
) -> int:
    try:
        return _deliver_user(ctx, notify, user_id, now, notice_id)
    except Exception:
        log.exception("delivering notices to user %s failed", user_id)
        return 0


def _deliver_user(
    ctx: ServiceContext,
    notify: NotifySettings,
    user_id: int,
    now: datetime,
    notice_id: int | None,
) -> int:
    jobs = _claim(ctx, notify, user_id, now, notice_id)
    outcomes: list[tuple[_Job, bool, str, list[tuple[int, PushOutcome]]]] = []
    for job in jobs:
        if job.channel is Channel.EMAIL:
            assert job.address is not None
            result = channels.send_email(notify, job.address, job.items, now=now)
            outcomes.append((job, result.sent, result.detail, []))
        else:
            results = channels.push(
                notify,
                job.browsers,
                job.items,
                ttl=job.ttl,
                urgent=job.urgent,
                hosts=ctx.settings.push_hosts,
                resolver=ctx.resolver,
            )
            sent = sum(1 for _, r in results if r.outcome is PushOutcome.SENT)
            details = sorted({r.detail for _, r in results if r.outcome is not PushOutcome.SENT})
            detail = f"sent to {sent} of {len(results)} browsers"
            if details:
                detail += f" ({'; '.join(details)})"
            outcomes.append((job, sent > 0, detail, [(s, r.outcome) for s, r in results]))
    if outcomes:
        _record_outcomes(ctx, outcomes, now)
    return len(jobs)


def _claim(
    ctx: ServiceContext,
    notify: NotifySettings,
    user_id: int,
    now: datetime,
    notice_id: int | None,
) -> list[_Job]:
    """Phase one, one transaction: skip, defer or claim the player's due deliveries,
    and say what to send."""
    worker = worker_name()
    with ctx.transaction() as session:
        settings_row = _settings_row(session, user_id, now)
        prefs = _preferences(settings_row)
        due = NoticeDelivery.due_at <= now
        if notice_id is not None:
            due = due | (NoticeDelivery.notice_id == notice_id)
        query = (
            select(NoticeDelivery, NoticeRow)
            .join(NoticeRow, NoticeRow.id == NoticeDelivery.notice_id)
            .where(
                NoticeDelivery.user_id == user_id,
                NoticeDelivery.status == DeliveryStatus.PENDING,
                due,
            )
            .order_by(NoticeDelivery.due_at, NoticeDelivery.id)
        )
        rows = session.execute(query).all()
        if not rows:
            return []
        user = session.get(User, user_id)
        live = _LiveCheck(session)
        jobs: list[_Job] = []
        for channel in Channel:
            mine = [(d, n) for d, n in rows if d.channel is channel]
            if not mine:
                continue
            off = _channel_off(session, notify, prefs, channel, user_id)
            if user is None or user.suspended:
                off = "the player is suspended"
            if off is not None:
                _finish(mine, DeliveryStatus.SKIPPED, off, now)
                continue
            last = settings_row.last_push_at if channel is Channel.WEB_PUSH else None
            gap = notify.push_gap_seconds
            if channel is Channel.EMAIL:
                last, gap = settings_row.last_email_at, notify.email_gap_seconds
            if last is not None and now < last + timedelta(seconds=gap):
                # Too soon after the last message: wait, and go out with whatever
                # else comes meanwhile, as one message.
                for delivery, _ in mine:
                    delivery.due_at = max(delivery.due_at, last + timedelta(seconds=gap))
                continue
            claimed: list[tuple[NoticeDelivery, NoticeRow]] = []
            for delivery, notice in mine:
                why_not = live.why_not(notice)
                if why_not is not None:
                    _finish([(delivery, notice)], DeliveryStatus.SKIPPED, why_not, now)
                else:
                    claimed.append((delivery, notice))
            if not claimed:
                continue
            for delivery, _ in claimed:
                delivery.status = DeliveryStatus.SENDING
                delivery.claimed_by = worker
                delivery.attempted_at = now
            job = _Job(
                channel,
                [d.id for d, _ in claimed],
                [_item(notice, notify) for _, notice in claimed],
            )
            if channel is Channel.EMAIL:
                settings_row.last_email_at = now
                job.address = prefs.email_address
            else:
                settings_row.last_push_at = now
                job.browsers = [
                    Browser(s.id, PushTarget(s.endpoint, s.p256dh, s.auth))
                    for s in session.scalars(
                        select(PushSubscription)
                        .where(PushSubscription.user_id == user_id)
                        .order_by(PushSubscription.id)
                    )
                ]
                job.urgent = any(n.kind is NoticeKind.YOUR_TURN for _, n in claimed)
                job.ttl = _push_ttl([n for _, n in claimed], now)
            jobs.append(job)
        return jobs


def _channel_off(
    session: Session,
    notify: NotifySettings,
    prefs: Preferences,
    channel: Channel,
    user_id: int,
) -> str | None:
    """Why ``channel`` cannot carry the player's notices now, if it cannot."""
    if channel is Channel.EMAIL:
        if not prefs.email or not prefs.email_address:
            return "email is turned off"
        if not notify.email_enabled:
            return "the room has no mail server"
        return None
    if not prefs.web_push:
        return "Web Push is turned off"
    has_browser = session.scalar(select(func.count()).where(PushSubscription.user_id == user_id))
    return None if has_browser else "no browser is subscribed"


def _push_ttl(notices: Sequence[NoticeRow], now: datetime) -> int:
    """How long a push service may hold the message for an offline browser: until
    the turn's clock runs out (a later push is no use), else a day."""
    ttl = 0
    for notice in notices:
        due_text = notice.data.get("due_at") if notice.kind is NoticeKind.YOUR_TURN else None
        if due_text:
            seconds = int((datetime.fromisoformat(due_text) - now).total_seconds())
        else:
            seconds = DEFAULT_PUSH_TTL_SECONDS
        ttl = max(ttl, seconds)
    return max(ttl, 60)


class _LiveCheck:
    """Whether a notice is still worth sending, with each game's table read once."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.turns: dict[int, Turn | None] = {}

    def why_not(self, notice: NoticeRow) -> str | None:
        if notice.read_at is not None:
            return "the player has read it"
        if notice.kind is not NoticeKind.YOUR_TURN:
            return None
        if notice.game_id not in self.turns:
            game = self.session.get(Game, notice.game_id)
            self.turns[notice.game_id] = (
                None
                if game is None
                else current_turn(self.session, game, table_from_dict(game.state))
            )
        turn = self.turns[notice.game_id]
        if turn != Turn(notice.user_id, notice.hand_id or 0, notice.turn_seq or 0):
            return "the turn is over"
        return None


def _finish(
    rows: Iterable[tuple[NoticeDelivery, NoticeRow]],
    status: DeliveryStatus,
    outcome: str,
    now: datetime,
) -> None:
    for delivery, _ in rows:
        delivery.status = status
        delivery.outcome = outcome[:200]
        delivery.attempted_at = now


def _item(notice: NoticeRow, notify: NotifySettings) -> Item:
    return Item(
        notice_id=notice.id,
        kind=notice.kind.value,
        game_id=notice.game_id,
        title=notice.title,
        body=notice.body,
        path=game_path(notice.game_id),
        link=notify.link(game_path(notice.game_id)),
    )


def _record_outcomes(
    ctx: ServiceContext,
    outcomes: Sequence[tuple[_Job, bool, str, list[tuple[int, PushOutcome]]]],
    now: datetime,
) -> None:
    """Phase three: what became of each message, and forget browsers that have gone."""
    with ctx.transaction() as session:
        for job, sent, detail, browsers in outcomes:
            session.execute(
                update(NoticeDelivery)
                .where(NoticeDelivery.id.in_(job.rows))
                .values(
                    status=DeliveryStatus.SENT if sent else DeliveryStatus.FAILED,
                    outcome=detail[:200],
                )
            )
            gone = [s for s, outcome in browsers if outcome is PushOutcome.GONE]
            if gone:
                session.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone)))
            ok = [s for s, outcome in browsers if outcome is PushOutcome.SENT]
            if ok:
                session.execute(
                    update(PushSubscription)
                    .where(PushSubscription.id.in_(ok))
                    .values(last_sent_at=now)
                )


# ------------------------------------------------------------------ the player's side


def get_preferences(ctx: ServiceContext, user_id: int) -> Preferences:
    with ctx.transaction() as session:
        active_user(session, user_id)
        return _preferences(session.get(NotificationSettings, user_id))


def set_preferences(
    ctx: ServiceContext,
    user_id: int,
    prefs: Preferences,
    *,
    notify: NotifySettings | None = None,
) -> Preferences:
    """Replace the player's channels. Email needs an address (kept when email is
    turned off, so turning it back on is one switch) and a room with a mail server."""
    settings = _settings(notify)
    address = prefs.email_address
    if address is not None:
        address = address.strip() or None
    if address is not None and not valid_address(address):
        raise InvalidInput(
            "That email address does not look right: write it like name@example.com."
        )
    if prefs.email and address is None:
        raise InvalidInput("Give an email address to get notices by email.")
    if prefs.email and not settings.email_enabled:
        raise Conflict("This room has no mail server, so it cannot send email.")
    now = ctx.now()
    with ctx.transaction() as session:
        active_user(session, user_id)
        row = _settings_row(session, user_id, now)
        row.in_app = bool(prefs.in_app)
        row.browser = bool(prefs.browser)
        row.web_push = bool(prefs.web_push)
        row.email = bool(prefs.email)
        row.email_address = address
        row.updated_at = now
        return _preferences(row)


def email_available(notify: NotifySettings | None = None) -> bool:
    return _settings(notify).email_enabled


def _endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def add_browser(
    ctx: ServiceContext,
    user_id: int,
    endpoint: str,
    p256dh: str,
    auth: str,
    *,
    notify: NotifySettings | None = None,
) -> BrowserSubscription:
    """Keep a browser's push subscription (``PushSubscription.toJSON()``) for the
    player. The same browser again updates its keys; a browser another player had
    subscribed becomes this player's (one browser, one signed-in player)."""
    settings = _settings(notify)
    try:
        check_endpoint(
            endpoint,
            allow_insecure=settings.push_allow_insecure,
            hosts=ctx.settings.push_hosts,
            resolver=ctx.resolver,
        )
        check_keys(p256dh, auth)
    except EndpointRefused as refused:
        raise InvalidInput(str(refused)) from None
    except ValueError as bad:
        raise InvalidInput(str(bad)) from None
    now = ctx.now()
    digest = _endpoint_hash(endpoint)
    with ctx.transaction() as session:
        active_user(session, user_id)
        existing = session.scalar(
            select(PushSubscription).where(PushSubscription.endpoint_hash == digest)
        )
        if existing is not None:
            existing.user_id, existing.p256dh, existing.auth = user_id, p256dh, auth
            existing.endpoint = endpoint
            session.flush()
            return BrowserSubscription(existing.id, endpoint, existing.created_at, False)
        session.execute(
            _insert(session, PushSubscription)
            .values(
                user_id=user_id,
                endpoint=endpoint,
                endpoint_hash=digest,
                p256dh=p256dh,
                auth=auth,
                created_at=now,
            )
            .on_conflict_do_update(
                index_elements=["endpoint_hash"],
                set_={"user_id": user_id, "p256dh": p256dh, "auth": auth},
            )
        )
        row = session.scalars(
            select(PushSubscription)
            .where(PushSubscription.endpoint_hash == digest)
            .execution_options(populate_existing=True)
        ).one()
        extra = session.scalars(
            select(PushSubscription.id)
            .where(PushSubscription.user_id == user_id)
            .order_by(PushSubscription.id.desc())
            .offset(MAX_BROWSERS_PER_PLAYER)
        ).all()
        if extra:
            session.execute(delete(PushSubscription).where(PushSubscription.id.in_(extra)))
        return BrowserSubscription(row.id, endpoint, row.created_at, True)


def remove_browser(ctx: ServiceContext, user_id: int, endpoint: str) -> bool:
    """Forget the player's subscription for ``endpoint``; False if there was none
    (which is no error: the browser is unsubscribed either way)."""
    if not isinstance(endpoint, str) or not endpoint:
        raise InvalidInput("Say which browser: its push endpoint.")
    with ctx.transaction() as session:
        active_user(session, user_id)
        result = session.execute(
            delete(PushSubscription).where(
                PushSubscription.user_id == user_id,
                PushSubscription.endpoint_hash == _endpoint_hash(endpoint),
            )
        )
        return bool(getattr(result, "rowcount", 0))


def browser_count(ctx: ServiceContext, user_id: int) -> int:
    with ctx.transaction() as session:
        return int(
            session.scalar(select(func.count()).where(PushSubscription.user_id == user_id)) or 0
        )


def list_notices(
    ctx: ServiceContext,
    user_id: int,
    *,
    before_id: int | None = None,
    limit: int = PAGE_DEFAULT,
    notify: NotifySettings | None = None,
) -> NoticePage:
    """The player's notices, newest first, a page at a time."""
    settings = _settings(notify)
    if type(limit) is not int or not 1 <= limit <= PAGE_MAX:
        raise InvalidInput(f"A page lists 1 to {PAGE_MAX} notices.")
    with ctx.transaction() as session:
        active_user(session, user_id)
        prefs = _preferences(session.get(NotificationSettings, user_id))
        query = select(NoticeRow).where(NoticeRow.user_id == user_id)
        if before_id is not None:
            query = query.where(NoticeRow.id < before_id)
        rows = session.scalars(query.order_by(NoticeRow.id.desc()).limit(limit + 1)).all()
        unread = session.scalar(
            select(func.count()).where(NoticeRow.user_id == user_id, NoticeRow.read_at.is_(None))
        )
        page = rows[:limit]
        return NoticePage(
            notices=tuple(_record(row, settings, prefs) for row in page),
            unread=int(unread or 0),
            next_before_id=page[-1].id if len(rows) > limit else None,
        )


def unread_count(ctx: ServiceContext, user_id: int) -> int:
    """How many of the player's notices are unread (the header's count on every
    page): one read-only statement, by the index on the notices' user."""
    with reading(), ctx.transaction() as session:
        unread = session.scalar(
            select(func.count()).where(NoticeRow.user_id == user_id, NoticeRow.read_at.is_(None))
        )
        return int(unread or 0)


def mark_read(
    ctx: ServiceContext,
    user_id: int,
    notice_id: int,
    *,
    notify: NotifySettings | None = None,
) -> Notice:
    """The player has seen the notice: it is not pushed or mailed any more. Marking
    it again changes nothing (the first reading time stays)."""
    settings = _settings(notify)
    now = ctx.now()
    with ctx.transaction() as session:
        active_user(session, user_id)
        row = session.get(NoticeRow, notice_id) if type(notice_id) is int else None
        if row is None or row.user_id != user_id:
            raise NotFound(f"You have no notice {notice_id}.")
        if row.read_at is None:
            row.read_at = now
        return _record(row, settings, _preferences(session.get(NotificationSettings, user_id)))
