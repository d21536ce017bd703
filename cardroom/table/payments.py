"""Who pays whom: the payments that settle a table's results among its players.

Friends who play a cash game for real money settle it among themselves afterwards;
the ledger gives each player's net, and ``settle_up`` turns the nets into payments.
The rule is greedy: the player who owes most pays the player who is owed most as
much as one of them needs, and again with what is left. Each payment settles at
least one of the two in full, so ``n`` players with a result need at most ``n - 1``
payments. The fewest possible can be fewer (when a group of debts sums to zero on
its own, which only a search over subsets finds); the greedy rule is what players
settling by hand do, and its answer is easy to check on paper.

>>> settle_up({"ann": 500, "bob": -300, "cyd": -200})
(Payment(payer='bob', payee='ann', amount=300), Payment(payer='cyd', payee='ann', amount=200))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Payment(Generic[P]):
    payer: P
    payee: P
    amount: int  # chips (cents at a money table), above zero


def settle_up(nets: Mapping[P, int]) -> tuple[Payment[P], ...]:
    """The payments that settle ``nets`` (each player's result: above zero is owed to
    them, below zero they owe), largest debtor to largest creditor first. Ties go to
    the player listed first. Nets that do not sum to zero settle as far as they can:
    what is left unpaid is ``unsettled(nets)``."""
    order = {player: k for k, player in enumerate(nets)}
    owed = {p: n for p, n in nets.items() if n > 0}
    owes = {p: -n for p, n in nets.items() if n < 0}
    payments: list[Payment[P]] = []
    while owed and owes:
        payee = max(owed, key=lambda p: (owed[p], -order[p]))
        payer = max(owes, key=lambda p: (owes[p], -order[p]))
        amount = min(owed[payee], owes[payer])
        payments.append(Payment(payer, payee, amount))
        for side, player in ((owed, payee), (owes, payer)):
            side[player] -= amount
            if not side[player]:
                del side[player]
    return tuple(payments)


def unsettled(nets: Mapping[P, int]) -> int:
    """What the payments cannot settle: the sum of the nets (0 when the table's chips
    are all accounted for)."""
    return sum(nets.values())
