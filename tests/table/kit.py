"""Helpers for table tests: a ledger of balances, random legal actions, whole hands."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from cardroom import dealing
from cardroom.actions import Action, LegalActions
from cardroom.deck import RandomSource, SeededRandomSource, shuffled_deck
from cardroom.events import BlindPosted
from cardroom.table import Table, TableConfig, TableEvent, balance_changes
from cardroom.table.events import HandDealt


@dataclass
class Ledger:
    """Balances the way the server keeps them: it applies the table's money records."""

    balances: dict[int, int] = field(default_factory=dict)

    def apply(self, events: Iterable[TableEvent]) -> list[TableEvent]:
        events = list(events)
        for player, change in balance_changes(events).items():
            self.balances[player] = self.balances.get(player, 0) + change
            assert self.balances[player] >= 0, f"player {player} overdrawn"
        return events

    def total(self) -> int:
        return sum(self.balances.values())


def random_action(legal: LegalActions, source: RandomSource) -> Action:
    """A legal action: mostly checks and calls, some folds, bets, raises and all-ins."""
    roll = source.randbelow(100)
    if legal.can_fold and roll < 20:
        return Action.fold()
    if (legal.can_bet or legal.can_raise) and roll < 35:
        low, high = legal.min_to, max(legal.min_to, min(legal.max_to, legal.min_to * 3))
        to = low + source.randbelow(high - low + 1)
        return Action.bet(to) if legal.can_bet else Action.raise_to(to)
    if legal.can_all_in and roll < 40:
        return Action.all_in()
    if legal.can_check:
        return Action.check()
    return Action.call()


def passive_action(legal: LegalActions, source: RandomSource) -> Action:
    return Action.check() if legal.can_check else Action.call()


Policy = Callable[[LegalActions, RandomSource], Action]


def play_out(
    table: Table,
    source: RandomSource,
    now: float,
    ledger: Ledger | None = None,
    policy: Policy = random_action,
) -> list[TableEvent]:
    """Act for whoever is to act until the running hand ends."""
    events: list[TableEvent] = []
    while table.hand_running:
        assert table.hand is not None
        seat = table.hand.seat_to_act
        assert seat is not None
        player = table.hand_players[seat]
        action = policy(table.hand.legal_actions(), source)
        step = table.act(player, action, now)
        events.extend(ledger.apply(step) if ledger else step)
    return events


def deal(
    table: Table, source: RandomSource, now: float, ledger: Ledger | None = None
) -> list[TableEvent]:
    balances = ledger.balances if ledger else None
    step = table.deal(now, shuffled_deck(source), balances=balances)
    return ledger.apply(step) if ledger else step


def play_hand(
    table: Table,
    source: RandomSource,
    now: float,
    ledger: Ledger | None = None,
    policy: Policy = random_action,
) -> list[TableEvent]:
    events = deal(table, source, now, ledger)
    return events + play_out(table, source, now, ledger, policy)


def dealt(events: Iterable[TableEvent]) -> HandDealt:
    found = [e for e in events if isinstance(e, HandDealt)]
    assert len(found) == 1, events
    return found[0]


def blinds_posted(table: Table) -> dict[str, int]:
    """Seat of each blind posted in the current (or last) hand."""
    assert table.hand is not None
    return {e.blind: e.seat for e in table.hand.events if isinstance(e, BlindPosted)}


def seated_table(
    config: TableConfig,
    players: dict[int, int],
    ledger: Ledger,
    now: float = 0.0,
    start: bool = True,
    seed: int = 1,
) -> Table:
    """A table with ``players`` (player -> seat) seated and the game started."""
    table = Table.create(config)
    for player, seat in players.items():
        ledger.apply(table.sit(player, now, balance=ledger.balances.get(player, 0), seat=seat))
    if start:
        ledger.apply(table.start(now, SeededRandomSource(seed)))
    return table


def rigged_deck(
    table: Table,
    now: float,
    hole: dict[int, str],
    board: str,
    balances: dict[int, int] | None = None,
) -> list[int]:
    """A deck that gives the seats in ``hole`` those cards in the next hand."""
    plan = table.plan(now, balances)
    assert plan is not None
    return dealing.rigged_deck(plan.seats, plan.positions.button, hole, board)


def all_in_action(legal: LegalActions, source: RandomSource) -> Action:
    if legal.can_all_in:
        return Action.all_in()
    return Action.check() if legal.can_check else Action.call()


def blind_seats(table: Table) -> tuple[int | None, int]:
    """(small blind seat or None, big blind seat) actually posted in the last hand."""
    assert table.hand is not None
    posted = {e.blind: e.seat for e in table.hand.events if isinstance(e, BlindPosted)}
    return posted.get("small_blind"), posted["big_blind"]
