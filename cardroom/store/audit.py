"""The audit: proof from the stored rows that no cent was created or lost.

It checks, independently of the code that wrote the rows:

1. each account's stored balance equals the sum of its entries;
2. each account's latest entry shows, as "balance after", the stored balance;
3. each transfer has at least two entries and they sum to zero (money only moves);
4. no account but the house is below zero;
5. the stored balances of all accounts sum to zero;
6. player balances plus chips held by games equal everything granted minus
   everything removed (the house's own view of the same money);
7. each game's ledger account holds exactly the money its stored table says it
   holds (``Table.money_held()``: the chips at a cash table, the chips of the hand
   being played at a per-hand table, the unpaid prize pool of a tournament; nothing
   at ``arena`` tables, which play for points). Together with 6 this proves that
   balances plus chips on tables equal everything granted.

The audit reads the stored table with ``cardroom.table``'s codec: pure code with no
I/O, so the store depending on it points down, not sideways.

Every failed check becomes a ``Difference``; an empty list is a clean bill.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import case, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from cardroom.store.models import (
    AccountKind,
    Game,
    LedgerAccount,
    LedgerEntry,
    LedgerTransfer,
    TransferKind,
)
from cardroom.table.codec import table_from_dict


@dataclass(frozen=True)
class Difference:
    subject: str  # what disagrees: "account user:7", "transfer 12", "all accounts"
    expected_cents: int
    found_cents: int
    explanation: str


@dataclass(frozen=True)
class AuditReport:
    accounts: int
    transfers: int
    entries: int
    granted_cents: int  # every grant ever made
    removed_cents: int  # every removal ever made
    player_balances_cents: int  # what user accounts hold now
    chips_on_tables_cents: int  # what game accounts hold now
    house_balance_cents: int
    differences: tuple[Difference, ...]
    games: int = 0  # games whose table was checked against their account
    money_held_by_tables_cents: int = 0  # what those tables say they hold

    @property
    def balanced(self) -> bool:
        return not self.differences

    @property
    def money_in_play_cents(self) -> int:
        return self.player_balances_cents + self.chips_on_tables_cents


def audit(session: Session) -> AuditReport:
    """Check the ledger. Run it in a transaction that sees one snapshot (the service
    layer uses REPEATABLE READ on PostgreSQL), or concurrent transfers could show up
    as differences."""
    differences: list[Difference] = []
    differences += _account_sums(session)
    differences += _latest_balances(session)
    differences += _unbalanced_transfers(session)

    by_kind = {
        kind: int(total)
        for kind, total in session.execute(
            select(
                LedgerAccount.kind, func.coalesce(func.sum(LedgerAccount.balance_cents), 0)
            ).group_by(LedgerAccount.kind)
        )
    }
    players = int(by_kind.get(AccountKind.USER, 0))
    tables = int(by_kind.get(AccountKind.GAME, 0))
    house = int(by_kind.get(AccountKind.HOUSE, 0))

    for name, balance in session.execute(
        select(LedgerAccount.name, LedgerAccount.balance_cents).where(
            LedgerAccount.kind != AccountKind.HOUSE, LedgerAccount.balance_cents < 0
        )
    ):
        differences.append(Difference(f"account {name}", 0, balance, "a balance is below zero"))

    total = players + tables + house
    if total != 0:
        differences.append(
            Difference("all accounts", 0, total, "the balances of all accounts do not sum to zero")
        )

    granted = _moved_by_kind(session, TransferKind.GRANT)
    removed = _moved_by_kind(session, TransferKind.REMOVAL)
    if players + tables != granted - removed:
        differences.append(
            Difference(
                "money in play",
                granted - removed,
                players + tables,
                "player balances plus chips on tables differ from granted minus removed",
            )
        )

    held, games, game_differences = _games(session)
    differences += game_differences

    return AuditReport(
        accounts=_count(session, LedgerAccount.id),
        transfers=_count(session, LedgerTransfer.id),
        entries=_count(session, LedgerEntry.id),
        granted_cents=granted,
        removed_cents=removed,
        player_balances_cents=players,
        chips_on_tables_cents=tables,
        house_balance_cents=house,
        differences=tuple(differences),
        games=games,
        money_held_by_tables_cents=held,
    )


def _games(session: Session) -> tuple[int, int, list[Difference]]:
    """Check each game's account against its stored table: (money the tables hold,
    games checked, differences). A game account with no game row (the ledger used on
    its own) has nothing to be checked against and is left to checks 1 to 6."""
    differences: list[Difference] = []
    held_total = games = 0
    rows = session.execute(
        select(Game.id, Game.state, LedgerAccount.balance_cents)
        .outerjoin(LedgerAccount, LedgerAccount.game_id == Game.id)
        .order_by(Game.id)
    )
    for game_id, state, balance in rows:
        games += 1
        subject = f"game {game_id}"
        try:
            held = table_from_dict(state).money_held()
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            differences.append(
                Difference(subject, balance or 0, 0, "the game's stored table cannot be read")
            )
            continue
        held_total += held
        if balance is None:
            differences.append(Difference(subject, 0, held, "the game has no ledger account"))
        elif held != balance:
            differences.append(
                Difference(
                    subject,
                    balance,
                    held,
                    "the money the game's table holds differs from its ledger account",
                )
            )
    return held_total, games, differences


def _account_sums(session: Session) -> list[Difference]:
    entry_sum = func.coalesce(func.sum(LedgerEntry.amount_cents), 0)
    rows = session.execute(
        select(LedgerAccount.name, LedgerAccount.balance_cents, entry_sum)
        .outerjoin(LedgerEntry, LedgerEntry.account_id == LedgerAccount.id)
        .group_by(LedgerAccount.id, LedgerAccount.name, LedgerAccount.balance_cents)
        .having(entry_sum != LedgerAccount.balance_cents)
        .order_by(LedgerAccount.id)
    )
    return [
        Difference(
            f"account {name}",
            int(summed),
            stored,
            "the stored balance differs from the sum of the account's entries",
        )
        for name, stored, summed in rows
    ]


def _latest_balances(session: Session) -> list[Difference]:
    latest = (
        select(LedgerEntry.account_id, func.max(LedgerEntry.id).label("entry_id"))
        .group_by(LedgerEntry.account_id)
        .subquery()
    )
    rows = session.execute(
        select(LedgerAccount.name, LedgerAccount.balance_cents, LedgerEntry.balance_after_cents)
        .join(latest, latest.c.account_id == LedgerAccount.id)
        .join(LedgerEntry, LedgerEntry.id == latest.c.entry_id)
        .where(LedgerEntry.balance_after_cents != LedgerAccount.balance_cents)
        .order_by(LedgerAccount.id)
    )
    return [
        Difference(
            f"account {name}",
            after,
            stored,
            "the stored balance differs from the balance after the latest entry",
        )
        for name, stored, after in rows
    ]


def _unbalanced_transfers(session: Session) -> list[Difference]:
    entry_sum = func.coalesce(func.sum(LedgerEntry.amount_cents), 0)
    entry_count = func.count(LedgerEntry.id)
    rows = session.execute(
        select(LedgerTransfer.id, entry_sum, entry_count)
        .outerjoin(LedgerEntry, LedgerEntry.transfer_id == LedgerTransfer.id)
        .group_by(LedgerTransfer.id)
        .having((entry_sum != 0) | (entry_count < 2))
        .order_by(LedgerTransfer.id)
    )
    return [
        Difference(
            f"transfer {transfer_id}",
            0,
            int(summed),
            "a transfer has fewer than two entries"
            if count < 2
            else "the entries of a transfer do not sum to zero",
        )
        for transfer_id, summed, count in rows
    ]


def _moved_by_kind(session: Session, kind: TransferKind) -> int:
    # What transfers of this kind moved: the sum of their positive entries.
    credited = case((LedgerEntry.amount_cents > 0, LedgerEntry.amount_cents), else_=0)
    moved = session.scalar(
        select(func.coalesce(func.sum(credited), 0))
        .join(LedgerTransfer, LedgerEntry.transfer_id == LedgerTransfer.id)
        .where(LedgerTransfer.kind == kind)
    )
    return int(moved or 0)


def _count(session: Session, column: InstrumentedAttribute[int]) -> int:
    return int(session.scalar(select(func.count(column))) or 0)
