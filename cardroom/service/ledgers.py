"""A table's ledger: what each player put in and took out, their net, and who pays
whom to settle it; for a tournament, the places and prizes too (docs/statistics.md).

The money comes from the ledger entries (``cardroom.store.ledger``) of the transfers
made about the game: buy-ins, rebuys, refunds, cash-outs, a per-hand table's hand
results and a tournament's prizes. The chips a player still has at a cash table
count in their net as if they cashed out now (one chip is one cent), so the nets of
a game being played sum to zero like those of a finished one.

Who may read a ledger: an admin, and anyone who sat at the table (a
``game_players`` row, kept when they leave). Anyone else is refused (403): the
lobby already says that the game exists, the money is the players' own business.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import select

from cardroom.rules import ChipUnit
from cardroom.service import game_views
from cardroom.service.context import ServiceContext
from cardroom.service.errors import Forbidden
from cardroom.service.game_errors import GameNotFound
from cardroom.service.users import UserInfo
from cardroom.store.db import reading
from cardroom.store.models import (
    Game,
    GameFormat,
    GamePlayer,
    LedgerAccount,
    LedgerEntry,
    LedgerTransfer,
    TransferKind,
    User,
)
from cardroom.table import table_from_dict
from cardroom.table.payments import settle_up, unsettled


class LedgerRefused(Forbidden):
    """Not a player of this table, nor an admin."""


@dataclass(frozen=True)
class LedgerLine:
    """One player's money at a table, in chips (cents at a money table). Money in
    (buy-ins, rebuys) is counted positive; ``net`` is what they are up or down."""

    user_id: int
    name: str
    seat: int | None  # where they sit now; None once they have left
    buy_ins: int
    rebuys: int
    cash_outs: int
    refunds: int  # buy-ins given back: left before the start, or cancelled
    settlements: int  # a per-hand table's hand results, signed (buy-ins taken out)
    prizes: int
    on_table: int  # chips in front of them now (a cash or per-hand table; 0 otherwise)
    net: int
    place: int | None  # a tournament's finishing place, once they have one


@dataclass(frozen=True)
class LedgerPayment:
    payer_id: int
    payer: str
    payee_id: int
    payee: str
    amount: int


@dataclass(frozen=True)
class GameLedger:
    game_id: int
    format: str
    preset: str
    status: str
    pays_money: bool  # False: an arena table's points, which move no money
    finished: bool  # a tournament with its winner
    players: tuple[LedgerLine, ...]  # in the order they first sat down
    payments: tuple[LedgerPayment, ...]  # who pays whom, largest debt first
    unsettled: int  # what the payments leave (0 when every chip is accounted for)


# The sign each kind of transfer takes on the player's account is its direction:
# minus for money the player put on the table.
_COLUMNS = {
    TransferKind.BUY_IN: "buy_ins",
    TransferKind.REBUY: "rebuys",
    TransferKind.CASH_OUT: "cash_outs",
    TransferKind.REFUND: "refunds",
    TransferKind.SETTLEMENT: "settlements",
    TransferKind.PRIZE: "prizes",
}


def game_ledger(ctx: ServiceContext, viewer: UserInfo, game_id: int) -> GameLedger:
    """The ledger of ``game_id`` for ``viewer`` (a player of the table or an admin)."""
    with reading(), ctx.transaction() as session:
        game = session.get(Game, game_id) if type(game_id) is int else None
        if game is None:
            raise GameNotFound(f"There is no game {game_id}.")
        seated = session.execute(
            select(GamePlayer.user_id, User.name)
            .join(User, User.id == GamePlayer.user_id)
            .where(GamePlayer.game_id == game_id)
            .order_by(GamePlayer.id)
        ).all()
        names = {user_id: name for user_id, name in seated}
        if not viewer.is_admin and viewer.id not in names:
            raise LedgerRefused(
                f"Only the players of game {game_id} and admins may read its ledger."
            )
        sums: dict[int, dict[str, int]] = {u: dict.fromkeys(_COLUMNS.values(), 0) for u in names}
        rows = session.execute(
            select(LedgerAccount.user_id, LedgerTransfer.kind, LedgerEntry.amount_cents)
            .join(LedgerTransfer, LedgerTransfer.id == LedgerEntry.transfer_id)
            .join(LedgerAccount, LedgerAccount.id == LedgerEntry.account_id)
            .where(LedgerTransfer.game_id == game_id, LedgerAccount.user_id.is_not(None))
        ).all()
        for user_id, kind, amount in rows:
            column = _COLUMNS.get(kind)
            if column is None or user_id is None:
                continue
            if user_id not in sums:  # money moved for someone with no seat row: list them
                sums[user_id] = dict.fromkeys(_COLUMNS.values(), 0)
                user = session.get(User, user_id)
                names[user_id] = f"Player {user_id}" if user is None else user.name
            signed = -amount if column in ("buy_ins", "rebuys") else amount
            sums[user_id][column] += signed
        table = table_from_dict(game.state)
        fmt, preset, status = game.format, game.preset, game.status.value
    tournament = fmt is GameFormat.TOURNAMENT
    pays_money = table.config.rules.chip_unit is ChipUnit.CENT
    seats = {s.player: s for s in table.seats.values()}
    places: dict[int, int] = {}
    finished = False
    if tournament:
        standings = game_views.standings(ctx, game_id)
        places = {s.user_id: s.place for s in standings.places}
        finished = standings.finished
    lines = []
    for user_id, money in sums.items():
        seat = seats.get(user_id)
        on_table = seat.stack if seat is not None and not tournament and pays_money else 0
        net = (
            money["cash_outs"]
            + money["refunds"]
            + money["settlements"]
            + money["prizes"]
            + on_table
            - money["buy_ins"]
            - money["rebuys"]
        )
        lines.append(
            LedgerLine(
                user_id=user_id,
                name=names[user_id],
                seat=None if seat is None else seat.number,
                on_table=on_table,
                net=net,
                place=places.get(user_id),
                **money,
            )
        )
    nets = {line.user_id: line.net for line in lines}
    payments = tuple(
        LedgerPayment(p.payer, names[p.payer], p.payee, names[p.payee], p.amount)
        for p in settle_up(nets)
    )
    return GameLedger(
        game_id=game_id,
        format=fmt.value,
        preset=preset,
        status=status,
        pays_money=pays_money,
        finished=finished,
        players=tuple(lines),
        payments=payments,
        unsettled=unsettled(nets),
    )


# ---------------------------------------------------------------------- CSV

CSV_PLAYER_COLUMNS = (
    "player",
    "place",
    "buy_ins",
    "rebuys",
    "cash_outs",
    "refunds",
    "settlements",
    "prizes",
    "on_table",
    "net",
)
CSV_PAYMENT_COLUMNS = ("payer", "payee", "amount")


def _amount(chips: int, money: bool) -> str:
    """Dollars at a money table (``-12.50``: one chip is one cent), chips otherwise."""
    if not money:
        return str(chips)
    sign = "-" if chips < 0 else ""
    whole, cents = divmod(abs(chips), 100)
    return f"{sign}{whole}.{cents:02d}"


def _cell(text: str) -> str:
    """A name as a spreadsheet will not run it: a name may begin with ``-``, and a
    cell beginning with ``= + - @`` is a formula there (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def ledger_csv(ledger: GameLedger) -> str:
    """The ledger as CSV: a row per player (``CSV_PLAYER_COLUMNS``), an empty row, then
    a row per payment (``CSV_PAYMENT_COLUMNS``). Amounts are dollars with cents at a
    money table, chips (points) at an arena table."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    money = ledger.pays_money
    writer.writerow(CSV_PLAYER_COLUMNS)
    for line in ledger.players:
        writer.writerow(
            [
                _cell(line.name),
                "" if line.place is None else line.place,
                *(_amount(getattr(line, c), money) for c in CSV_PLAYER_COLUMNS[2:]),
            ]
        )
    writer.writerow([])
    writer.writerow(CSV_PAYMENT_COLUMNS)
    for p in ledger.payments:
        writer.writerow([_cell(p.payer), _cell(p.payee), _amount(p.amount, money)])
    return out.getvalue()
