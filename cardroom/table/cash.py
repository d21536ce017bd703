"""Cash-game money rules: buying in, rebuying at zero and rejoining.

- Sitting down costs the buy-in; the chips are one per cent.
- A rebuy is allowed only at zero chips (no partial top-ups), for exactly the buy-in.
- A player who cashed out and sits down again at the same table within the rejoin
  window (2 hours under ``house``) buys in for the larger of the buy-in and the amount
  they cashed out with, so leaving cannot shrink a stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.table.errors import InsufficientBalance, RebuyNotAllowed


@dataclass(frozen=True, slots=True)
class CashOutRecord:
    amount: int
    at: float  # seconds

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "at": self.at}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CashOutRecord:
        return cls(data["amount"], data["at"])


def buy_in_cost(
    buy_in: int, last_cash_out: CashOutRecord | None, now: float, window_seconds: int | None
) -> int:
    """What sitting down costs: the buy-in, or within the rejoin window (inclusive) the
    larger of the buy-in and the amount last cashed out."""
    if last_cash_out is None or window_seconds is None:
        return buy_in
    if now - last_cash_out.at <= window_seconds:
        return max(buy_in, last_cash_out.amount)
    return buy_in


def check_balance(balance: int, cost: int, what: str) -> None:
    if balance < cost:
        raise InsufficientBalance(
            f"{what} costs {format_money(cost)} and your balance is {format_money(balance)}."
        )


def check_rebuy(allowed: bool, stack: int, chips_in_hand: bool) -> None:
    if not allowed:
        raise RebuyNotAllowed("This game has no rebuys.")
    if chips_in_hand:
        raise RebuyNotAllowed("You are still in this hand: rebuy once it ends, if you are at zero.")
    if stack > 0:
        raise RebuyNotAllowed(
            "You can rebuy only when your chips reach zero: partial top-ups are not allowed."
        )


def format_money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"
