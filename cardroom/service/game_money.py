"""The money a command on a game moves: each of the table's money records (buy-ins,
rebuys, refunds, cash-outs, per-hand buy-ins and settlements, prizes) becomes one
ledger transfer between the player and the game, with its reason in words."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session

from cardroom.service.hand_rows import RunningHand
from cardroom.service.money import pay
from cardroom.store import ledger
from cardroom.store.models import HandRecord, LedgerAccount, TransferKind
from cardroom.table import TableEvent
from cardroom.table.events import (
    BoughtIn,
    BuyInRefunded,
    CashedOut,
    HandBoughtIn,
    HandSettled,
    PrizePaid,
    Rebought,
)

# Which transfer each money record makes (the sign of its balance_change says which
# way: a debit goes from the player to the game).
_TRANSFER_KINDS: dict[type[TableEvent], TransferKind] = {
    BoughtIn: TransferKind.BUY_IN,
    Rebought: TransferKind.REBUY,
    HandBoughtIn: TransferKind.SETTLEMENT,
    BuyInRefunded: TransferKind.REFUND,
    CashedOut: TransferKind.CASH_OUT,
    HandSettled: TransferKind.SETTLEMENT,
    PrizePaid: TransferKind.PRIZE,
}


def move_money(
    session: Session,
    game_account: Callable[[], LedgerAccount],
    event: TableEvent,
    row: HandRecord | RunningHand | None,
    reasons: dict[int, str],
    *,
    game_id: int,
    now: datetime,
    actor_id: int | None,
) -> None:
    """The ledger transfer a table's money record makes, if it makes one: between
    the player's account and the game's (``game_account``, looked up once per
    command)."""
    kind = _TRANSFER_KINDS.get(type(event))
    change = event.balance_change
    if kind is None or change == 0:
        return
    player: int = getattr(event, "player")  # noqa: B009
    user = ledger.user_account(session, player)
    game = game_account()
    source, destination = (user, game) if change < 0 else (game, user)
    pay(
        session,
        source=source,
        destination=destination,
        amount_cents=abs(change),
        kind=kind,
        reason=_reason(event, row, reasons, game_id),
        now=now,
        created_by_id=actor_id,
        game_id=game_id,
        hand_id=None if row is None else row.id,
    )


def _reason(
    event: TableEvent, row: HandRecord | RunningHand | None, reasons: dict[int, str], game_id: int
) -> str:
    where = f"game {game_id}"
    hand = f"hand {row.number} of {where}" if row is not None else where
    if isinstance(event, BoughtIn):
        return f"Buy-in, {where}"
    if isinstance(event, Rebought):
        return f"Rebuy, {where}"
    if isinstance(event, HandBoughtIn):
        return f"Buy-in for {hand}"
    if isinstance(event, HandSettled):
        return f"Result of {hand}"
    if isinstance(event, BuyInRefunded):
        why = reasons.get(event.player, "left")
        return f"Refund, {where} " + (
            "cancelled" if why == "cancelled" else "left before the start"
        )
    if isinstance(event, CashedOut):
        return f"Cash-out, {where}"
    assert isinstance(event, PrizePaid)
    return f"Prize for place {event.place}, {where}"
