"""Recording: the notices' outbox, written in the command's own transaction.

Every command on a game (a player's, the clock's, an admin's) records the notices it
calls for right after it stores its events (``cardroom.service.game.reactions``
calls ``notices_in`` after ``GameTx.save``), from the game row, table and events the
command already holds, and returns them on its ``PlayResult`` (``notices``): one
transaction and one commit per command, the table decoded once. What to record is
``cardroom.service.notices.decide``'s to say.

The player whose command it was (``actor_id``) is not told of the start or the end
they caused. A ``(user_id, dedupe_key)`` unique constraint makes the insert itself
the test, so only the call that records a notice returns it: the server pushes what
it gets back to the player's WebSocket, and nothing twice. ``on_game_change(ctx,
game_id, events)`` does the same after the fact, in a transaction of its own, for
the turn as it is by then (a command has usually told of it already: it then
records and returns nothing).

A notice for Web Push or email adds ``notice_deliveries`` rows, due
``NotifySettings.delay_seconds`` after the notice (less for a short turn clock): a
player at the table acts first, and the turn is over by then.

One unread turn notice per player per game: a new "your turn" (or a reminder, which
is one) marks the player's older unread ones at that game read, so a player away from
the table finds one notice, the newest, not one per street. The insert does it
itself, only when it records a row: on PostgreSQL the update sits beside it in one
statement (``_record_turn_statement``), on SQLite a trigger on the insert does it
(migration 0012: a second statement cost more than the update).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from typing import cast as type_cast

from sqlalchemy import (
    Integer,
    String,
    bindparam,
    cast,
    exists,
    false,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from cardroom.notify.messages import game_path
from cardroom.notify.settings import NotifySettings
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import GameRow, Notice, StoredEvent
from cardroom.service.notices import decide
from cardroom.service.notices.choices import DEFAULTS, settings_of
from cardroom.service.notices.decide import Draft
from cardroom.store.models import Game, User
from cardroom.store.notify_models import (
    Channel,
    DeliveryStatus,
    NoticeDelivery,
    NoticeKind,
    NotificationSettings,
    PushSubscription,
)
from cardroom.store.notify_models import Notice as NoticeRow
from cardroom.store.prepared import Prepared
from cardroom.table import Table, table_from_dict


def notices_in(
    session: Session,
    game: Game | GameRow,
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
    drafts = decide.occasioned(session, game, table, events, actor_id=actor_id)
    fresh = len(drafts) if just_stored else 0
    turn = decide.turn_notice(session, game, table, hand_id=hand_id, events=events)
    if turn is not None:
        drafts.append(turn)
        # The events just stored are numbered on from every other (``current_turn``),
        # so the turn is one they began when its starter is not older than the first.
        started = turn.turn_seq
        if just_stored and events and started is not None and started >= events[0].seq:
            fresh += 1
    if not drafts:
        return []
    return _store(session, game.id, drafts, settings_of(notify), now, fresh=fresh)


def reminder_in(
    session: Session,
    game: Game,
    table: Table,
    point: str,
    *,
    now: datetime,
    notify: NotifySettings | None = None,
) -> list[Notice]:
    """Record the reminder at ``point`` of the turn under way, in the clock's
    transaction that holds the game's row; the new notice, or none (told already,
    the player suspended, nobody to act)."""
    draft = decide.reminder(session, game, table, point, now=now, hand_id=game.hand_id)
    if draft is None:
        return []
    # Fresh: the clock fires each reminder deadline once; the insert is the test.
    return _store(session, game.id, [draft], settings_of(notify), now, fresh=1)


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


def _store(
    session: Session,
    game_id: int,
    drafts: Sequence[Draft],
    notify: NotifySettings,
    now: datetime,
    *,
    fresh: int = 0,
) -> list[Notice]:
    """Record ``drafts``; the first ``fresh`` are of events this transaction stored,
    which no one can have told of yet. Each notice is one statement (``_RECORD``),
    which also answers with the player's channels (on PostgreSQL it goes behind the
    command's queued writes and is answered with them: one round trip, not two); a
    notice for Web Push or email adds its delivery rows, all in one more."""
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
    # Prepared statements (``cardroom.store.prepared``), after the session's
    # autoflush (a no-op after the reactions' flush), which keeps every row a notice
    # names written first, whoever calls. The session's own bind when it has one (the
    # room's sessions do): ``get_bind`` works out the same engine on every call.
    bind = session.bind
    recording = _RECORD[(session.get_bind() if bind is None else bind).dialect.name]
    path = game_path(game_id)
    deliveries: list[dict[str, Any]] = []
    notices: list[Notice] = []
    for draft in drafts:
        record = recording.turn if draft.kind is NoticeKind.YOUR_TURN else recording.other
        recorded = (record.first_behind if recording.behind else record.first)(
            session,
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
        )
        if recorded is None:
            # A suspended player (who cannot act on anything we would say), or
            # one told just now by another process.
            continue
        notice_id, channels, subscribed = recorded
        wanted = []
        if channels & _WEB_PUSH and subscribed:
            wanted.append(Channel.WEB_PUSH)
        if channels & _EMAIL and channels & _ADDRESS and notify.email_enabled:
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
                # The draft's own dict: a draft is made for this one notice and
                # dropped, and its data went to the insert as JSON already.
                data=draft.data,
                created_at=now,
                read_at=None,
                in_app=bool(channels & _IN_APP),
                browser=bool(channels & _BROWSER),
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


def _older_unread(notices: Any) -> tuple[Any, ...]:
    """The player's unread turn notices at the game (by ``ix_notices_unread``), the
    player and the game given by the parameters ``user_id`` and ``game_id``."""
    return (
        notices.c.user_id == bindparam("user_id"),
        notices.c.game_id == bindparam("game_id"),
        notices.c.kind == NoticeKind.YOUR_TURN,
        notices.c.read_at.is_(None),
    )


_RECORDED = [
    *("user_id", "kind", "game_id", "hand_id", "turn_seq", "dedupe_key"),
    *("title", "body", "data", "created_at"),
]


# The player's channels come back as one number, a bit for each channel chosen: one
# read of their settings row, not one per channel. An email address counts only if
# it is not blank, which is all recording asks of it.
_IN_APP, _BROWSER, _WEB_PUSH, _EMAIL, _ADDRESS = 1, 2, 4, 8, 16


def _written(number: int) -> Any:
    """``number`` written into the statement's text: not one more parameter to bind
    for every notice."""
    return literal_column(str(number), Integer)


def _bits(*chosen: tuple[Any, int]) -> Any:
    """The sum of each ``(truth, bit)``: each truth (a boolean SQL expression) as 0 or 1."""
    total: Any = None
    for truth, bit in chosen:
        term = cast(truth, Integer)
        if bit != 1:
            term = term * _written(bit)
        total = term if total is None else total + term
    return total


_BLANK = literal_column("''", String)
_DEFAULT_CHANNELS = sum(
    bit
    for chosen, bit in (
        (DEFAULTS.in_app, _IN_APP),
        (DEFAULTS.browser, _BROWSER),
        (DEFAULTS.web_push, _WEB_PUSH),
        (DEFAULTS.email, _EMAIL),
        (bool(DEFAULTS.email_address), _ADDRESS),
    )
    if chosen
)


def _channels() -> Any:
    """The player's channels (``_IN_APP``...), the defaults' if they have no settings
    row. Found by the ``user_id`` parameter, not correlated to the new row: SQLite
    writes RETURNING's columns without their table's name, which would make it
    ``user_id = user_id``."""
    settings = _SETTINGS.c
    chosen = _bits(
        (settings.in_app, _IN_APP),
        (settings.browser, _BROWSER),
        (settings.web_push, _WEB_PUSH),
        (settings.email, _EMAIL),
        (func.coalesce(settings.email_address, _BLANK) != _BLANK, _ADDRESS),
    )
    found = select(chosen).where(settings.user_id == bindparam("user_id")).scalar_subquery()
    return func.coalesce(found, _written(_DEFAULT_CHANNELS))


def _record_statement(dml: Any) -> Any:
    """``INSERT INTO notices ... SELECT`` from the player's row if they are not
    suspended, ``ON CONFLICT DO NOTHING`` on ``(user_id, dedupe_key)``, ``RETURNING``
    the id and what the player chose: the channels in ``Preferences`` order and
    whether a browser is subscribed. No row back: nothing recorded (a suspended or
    unknown player, or a notice told already). On SQLite a turn notice's insert marks
    the player's older unread ones at the game read by itself (migration 0012's
    trigger)."""
    values = select(*(bindparam(name, type_=_NOTICES.c[name].type) for name in _RECORDED)).where(
        _USERS.c.id == bindparam("user_id"), _USERS.c.suspended.is_(false())
    )
    return (
        dml(_NOTICES)
        .from_select(_RECORDED, values)
        .on_conflict_do_nothing(index_elements=["user_id", "dedupe_key"])
        .returning(
            _NOTICES.c.id,
            _channels(),
            exists().where(_BROWSERS.c.user_id == bindparam("user_id")),
        )
    )


def _record_turn_statement() -> Any:
    """PostgreSQL's ``_record_statement`` for a turn notice, with the supersede in
    the same statement: the insert in one ``WITH``, the update of the player's older
    unread turn notices at the game in another, only if the insert recorded a row.
    Both see the rows as they were before the statement, so the new notice is not
    among those marked read. (SQLite holds no writes in a ``WITH``: a trigger on the
    insert does the update there, migration 0012.)"""
    recorded = _record_statement(postgresql.insert).cte("recorded")
    superseded = (
        update(_NOTICES)
        .where(*_older_unread(_NOTICES), exists(select(recorded.c.id)))
        .values(read_at=bindparam("created_at", type_=_NOTICES.c.created_at.type))
        .cte("superseded")
    )
    return select(*recorded.c).add_cte(superseded)


@dataclass(frozen=True)
class _Recording:
    """A database's statements for recording a notice: ``turn`` for a your-turn
    notice, which also marks the player's older unread turn notices at the game
    read, ``other`` for the rest. ``behind``: sent behind the command's queued writes
    (PostgreSQL's pipeline: ``Prepared.rows_behind``), so that the answer the notice
    needs (its id, the player's channels) comes back with theirs, in one round trip
    instead of two."""

    turn: Prepared
    other: Prepared
    behind: bool = False


_SQLITE_RECORD = Prepared(_record_statement(sqlite.insert))
_RECORD = {
    "sqlite": _Recording(_SQLITE_RECORD, _SQLITE_RECORD),
    "postgresql": _Recording(
        Prepared(_record_turn_statement()),
        Prepared(_record_statement(postgresql.insert)),
        behind=True,
    ),
}


def _delay(notify: NotifySettings, now: datetime, turn_due: datetime | None) -> timedelta:
    """How long a notice waits for its player to turn up before it is pushed or
    mailed: the configured delay, but at most a quarter of the turn's time left, so
    a 30-second clock still gets its push while it can help."""
    delay = timedelta(seconds=notify.delay_seconds)
    if turn_due is not None:
        delay = min(delay, max(timedelta(0), (turn_due - now) / 4))
    return delay
