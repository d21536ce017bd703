"""The one road every game command takes, whoever sends it (a player, the host, an
admin, the clock, a bot):

open (lock the game's row, load its table) -> authorise -> replay the answer to a
repeated idempotency key, or check the version the sender saw -> apply -> follow-ups
(practice bots press Continue, deal the next hand if it is due) -> save -> reactions
(deadlines, the notices' outbox, whether the lobby's listing changed:
``reactions.after_save``) -> the admin log -> answer.

It is the only place that opens a ``GameTx`` for a command on a stored game, so each
step is written once; what a command does is data (``commands.Command``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from sqlalchemy.orm import Session

from cardroom.deck import RandomSource
from cardroom.service.admin import record_admin_action
from cardroom.service.context import ServiceContext
from cardroom.service.errors import ServiceError
from cardroom.service.game import reactions
from cardroom.service.game.commands import Command, deal_if_due
from cardroom.service.game.who import Player, authorise
from cardroom.service.game_errors import NotAllowedNow
from cardroom.service.game_records import PlayResult
from cardroom.service.game_tx import GameTx
from cardroom.service.kept_tables import KeptTables
from cardroom.service.users import active_user
from cardroom.store.models import GameStatus, User


class Sent(TypedDict, total=False):
    """How a player's command was sent, besides what it is: the table version they
    saw (``expected_version``), their idempotency key, and the deck's random source
    (tests and simulations pass their own). The use cases take these as keywords
    (``**sent: Unpack[Sent]``) and hand them to ``run_sent`` as they came."""

    expected_version: int | None
    idempotency_key: str | None
    source: RandomSource | None


_SENT_KEYS = frozenset(Sent.__annotations__)


def run_sent(ctx: ServiceContext, game_id: int, command: Command, sent: Sent) -> PlayResult:
    """``run``, with what the sender sent beside the command. A keyword that is not
    one of ``Sent``'s is a caller's mistake (mypy sees it; an untyped caller gets a
    TypeError), never silently dropped."""
    unknown = sent.keys() - _SENT_KEYS
    if unknown:
        raise TypeError(f"unexpected keywords {sorted(unknown)}")
    return run(
        ctx,
        game_id,
        command,
        version=sent.get("expected_version"),
        key=sent.get("idempotency_key"),
        source=sent.get("source"),
    )


def run(
    ctx: ServiceContext,
    game_id: int,
    command: Command,
    *,
    version: int | None = None,
    key: str | None = None,
    source: RandomSource | None = None,
) -> PlayResult:
    """Run ``command`` on game ``game_id`` in one transaction and return its answer.
    ``version``: the table version the sender saw (a newer table refuses it,
    ``StaleVersion``); ``key``: an idempotency key (the same key again returns the
    first answer, with no second effect); ``source``: the deck's random source (the
    context's by default)."""
    assert command.guard is None, "a guarded command may do nothing: use attempt"
    result = attempt(ctx, game_id, command, version=version, key=key, source=source)
    assert result is not None
    return result


def attempt(
    ctx: ServiceContext,
    game_id: int,
    command: Command,
    *,
    version: int | None = None,
    key: str | None = None,
    source: RandomSource | None = None,
    now: datetime | None = None,
) -> PlayResult | None:
    """``run`` for a command with a guard: None if the guard said no."""
    drawn = source if source is not None else ctx.random
    moment = ctx.now() if now is None else now
    with ctx.transaction() as session:
        return _run(session, game_id, command, moment, drawn, version, key)


def attempt_in(
    session: Session,
    game_id: int,
    command: Command,
    now: datetime,
    source: RandomSource,
    *,
    kept: KeptTables | None = None,
    locked: int | None = None,
) -> PlayResult | None:
    """``attempt`` inside a transaction the caller holds (``together``: the clock's
    commands on the committer, with the players'). ``locked``: as ``run_in``'s."""
    return _run(session, game_id, command, now, source, None, None, kept=kept, locked=locked)


def run_in(
    session: Session,
    game_id: int,
    command: Command,
    now: datetime,
    source: RandomSource,
    *,
    version: int | None = None,
    key: str | None = None,
    proven: bool = False,
    kept: KeptTables | None = None,
    locked: int | None = None,
) -> PlayResult:
    """``run`` inside a transaction the caller holds (``together``: commands
    committed together, each in a savepoint of one transaction). ``proven``: the
    caller has just proved, in this transaction, that the player's session is live
    and their account not suspended, so the player is not read again. ``kept``: the
    caller's decoded tables (``kept_tables``), taken from when at the row's version;
    the result's table is the caller's to keep once committed. ``locked``: the
    game's version, read by the caller under the row's lock in this transaction
    with nothing written to the row since (``GameTx.open``)."""
    assert command.guard is None, "a guarded command may do nothing: use attempt"
    result = _run(
        session,
        game_id,
        command,
        now,
        source,
        version,
        key,
        proven=proven,
        kept=kept,
        locked=locked,
    )
    assert result is not None
    return result


def _run(
    session: Session,
    game_id: int,
    command: Command,
    now: datetime,
    source: RandomSource,
    version: int | None,
    key: str | None,
    *,
    proven: bool = False,
    kept: KeptTables | None = None,
    locked: int | None = None,
) -> PlayResult | None:
    who = command.who
    if isinstance(who, Player) and who.active and not proven:
        active_user(session, who.user_id)
    tx = GameTx.open(session, game_id, now, kept=kept, locked=locked)
    tx.listed = reactions.listing(tx)  # to tell whether the lobby's listing changes
    if command.guard is not None and not command.guard(tx):
        return None
    tx.actor_id, user = authorise(session, tx.game, tx.table, who)
    replay = tx.check_request(tx.actor_id, version, key, command.request)
    if replay is not None:
        return replay
    if command.open_games_only and tx.game.status in (GameStatus.FINISHED, GameStatus.CANCELLED):
        raise NotAllowedNow("This game is over.")
    audit = command.audit
    before = audit.state(tx) if audit is not None else None
    if command.settle is None:
        _apply(tx, command, source)
    else:
        try:
            with session.begin_nested():
                outcome = _apply(tx, command, source) or ""
        except ServiceError as refused:
            outcome = refused.sentence
            # The savepoint undid the work: answer with the game as it still is.
            tx.reread()
            tx.stored.clear()
            tx.notices.clear()
            tx.lobby_changed = False
        command.settle(tx, outcome)
    if audit is not None:
        assert before is not None
        target = session.get(User, audit.player) if audit.player is not None else None
        record_admin_action(
            session,
            admin=user,
            action=audit.action,
            target=target,
            reason=audit.reason,
            before=before,
            after=audit.state(tx),
            now=now,
        )
    result = tx.result()
    tx.remember(key, command.request, result)
    return result


def _apply(tx: GameTx, command: Command, source: RandomSource) -> str | None:
    """Apply, the follow-ups, save, the reactions: the part a refusal undoes."""
    outcome = command.apply(tx, source)
    if command.deal_after:
        deal_if_due(tx, source)
    reactions.after_save(tx, tx.save())
    return outcome
