"""Whole games of bots at a table, for ``cardroom simulate --tournament`` and ``--cash``
(``cardroom.cli.simulate_cmd`` reads the command line and words the reports; this is
the simulation only, and imports nothing from the CLI).

Bots pick random legal actions; the clock, the cards and every random choice come from
one seeded source, so a seed replays the same game. The table is driven exactly as the
server drives it (deal, act, time out, join, leave, rebuy) and a ledger applies its
money records. Both end with a conservation check: the balances plus the money the
table holds must equal what was granted, and a tournament's chips must stay the
entrants' buy-ins. The exit code is 1 if that fails.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from cardroom.actions import Action, LegalActions
from cardroom.deck import RandomSource, SeededRandomSource, shuffled_deck
from cardroom.rules import Format, preset
from cardroom.table import (
    BlindSchedule,
    PlayerId,
    Table,
    TableConfig,
    TableError,
    TableEvent,
    TableStatus,
    balance_changes,
)
from cardroom.table.events import (
    BlindsRaised,
    CashedOut,
    HandDealt,
    PlayerLeft,
    PrizePaid,
    Rebought,
    TablePaused,
)

BUY_IN = 1000  # $10.00, or 1,000 points at arena tables
ARENA_BLINDS = (10, 20)
TOURNAMENT_SCHEDULE = BlindSchedule.by_hands(10, 50)
MAX_TOURNAMENT_HANDS = 100_000
SECONDS_PER_ACTION = 5.0
GRANT = 20 * BUY_IN  # starting balance of each cash player, and an admin grant


class SimulationRefused(ValueError):
    """The game asked for cannot be played under these rules (the sentence says why)."""


def bot_action(legal: LegalActions, source: RandomSource) -> Action:
    """A random legal action: mostly checks and calls, some folds, bets, raises and
    all-ins, bets between the minimum and three times it; facing a call of a third of
    its stack or more it usually folds."""
    roll = source.randbelow(100)
    big_call = legal.to_call * 3 > legal.stack  # a third of the stack or more
    if legal.can_fold and roll < (70 if big_call else 25):
        return Action.fold()
    if (legal.can_bet or legal.can_raise) and roll < 40:
        low, high = legal.min_to, max(legal.min_to, min(legal.max_to, legal.min_to * 3))
        to = low + source.randbelow(high - low + 1)
        return Action.bet(to) if legal.can_bet else Action.raise_to(to)
    if legal.can_all_in and roll < 42:
        return Action.all_in()
    return Action.check() if legal.can_check else Action.call()


@dataclass
class Session:
    """A table, the balances the server would keep, and the clock."""

    table: Table
    source: RandomSource
    balances: dict[PlayerId, int]
    granted: int = 0
    now: float = 0.0
    conserved: bool = True
    counts: Counter[str] = field(default_factory=Counter)
    events: list[TableEvent] = field(default_factory=list)

    def apply(self, events: Iterable[TableEvent]) -> list[TableEvent]:
        events = list(events)
        for player, change in balance_changes(events).items():
            self.balances[player] = self.balances.get(player, 0) + change
            if self.balances[player] < 0:
                self.conserved = False
        for event in events:
            self.counts[type(event).__name__] += 1
        self.events.extend(events)
        self.check()
        return events

    def check(self) -> None:
        if sum(self.balances.values()) + self.table.money_held() != self.granted:
            self.conserved = False

    def deal(self) -> bool:
        """Deal the next hand; False if the table could not (paused)."""
        self.now += self.table.config.rules.between_hands_seconds
        deck = shuffled_deck(self.source)
        events = self.apply(self.table.deal(self.now, deck, balances=self.balances))
        return any(isinstance(e, HandDealt) for e in events)

    def play_out(self, away: set[PlayerId] | None = None) -> None:
        """Bots act until the hand ends; players in ``away`` let the clock act."""
        table = self.table
        while table.hand_running:
            assert table.hand is not None
            seat = table.hand.seat_to_act
            assert seat is not None
            player = table.hand_players[seat]
            deadline = table.turn_deadline()
            if away and player in away and deadline is not None:
                self.now = deadline
                self.apply(table.time_out(self.now))
            else:
                self.now += SECONDS_PER_ACTION
                action = bot_action(table.hand.legal_actions(), self.source)
                self.apply(table.act(player, action, self.now))


# ----------------------------------------------------------------- tournament


def tournament_config(preset_name: str, players: int) -> TableConfig:
    rules = preset(preset_name)
    if Format.TOURNAMENT not in rules.formats:
        raise SimulationRefused(f"{preset_name} rules have no tournaments.")
    arena = rules.big_blind_divisor is None
    return TableConfig.create(
        Format.TOURNAMENT,
        rules,
        buy_in=BUY_IN,
        seat_count=max(players, 2),
        blinds=ARENA_BLINDS if arena else None,
        schedule=None if arena else TOURNAMENT_SCHEDULE,
    )


def play_tournament(
    preset_name: str,
    players: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play one tournament of bots to a winner and report it as plain data."""
    config = tournament_config(preset_name, players)
    source = SeededRandomSource(seed)
    money = config.pays_money
    table = Table.create(config)
    balances = {p: BUY_IN if money else 0 for p in range(1, players + 1)}
    session = Session(table, source, balances, granted=sum(balances.values()))
    for player in range(1, players + 1):
        session.apply(table.sit(player, 0.0, balance=balances[player]))
    session.apply(table.start(0.0, source))
    chips = players * BUY_IN
    while table.status is not TableStatus.FINISHED:
        if table.hands_dealt >= MAX_TOURNAMENT_HANDS:
            break
        session.deal()
        session.play_out()
        if table.chips_in_play() != chips:
            session.conserved = False
        if progress is not None:
            out = sum(1 for _, place in table.finishes if place > 1)
            progress(out, table.hands_dealt)
    finishes = sorted(table.finishes, key=lambda f: f[1])
    prizes = {e.player: e.amount for e in session.events if isinstance(e, PrizePaid)}
    levels = [e for e in session.events if isinstance(e, BlindsRaised)]
    finished = table.status is TableStatus.FINISHED
    return {
        "preset": preset_name,
        "players": players,
        "seed": seed,
        "hands": table.hands_dealt,
        "finished": finished,
        "places": [
            {"player": p, "place": place, "prize": prizes.get(p, 0)} for p, place in finishes
        ],
        "final_blinds": [table.small_blind, table.big_blind],
        "blind_levels": len(levels),
        "chip_unit": "cent" if money else "point",
        "conserved": session.conserved and finished,
    }


# ----------------------------------------------------------------------- cash


def cash_config(preset_name: str, seats: int) -> TableConfig:
    rules = preset(preset_name)
    if Format.CASH in rules.formats:
        fmt = Format.CASH
    elif Format.PER_HAND in rules.formats:
        fmt = Format.PER_HAND
    else:
        raise SimulationRefused(f"{preset_name} rules have no cash games.")
    return TableConfig.create(fmt, rules, buy_in=BUY_IN, seat_count=seats)


def play_cash(
    preset_name: str,
    players: int,
    hands: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """A cash session: ``players`` sit down, others come and go, broke players rebuy or
    leave, some stay away and let the clock act; ``hands`` hands are dealt."""
    seats = min(10, players + 2)
    config = cash_config(preset_name, seats)
    source = SeededRandomSource(seed)
    pool = list(range(1, seats + 4))
    balances = {p: GRANT for p in pool}
    table = Table.create(config)
    session = Session(table, source, balances, granted=sum(balances.values()))
    for player in pool[:players]:
        session.apply(table.sit(player, 0.0, balance=balances[player]))
    session.apply(table.start(0.0, source))
    dealt = 0
    idle = 0
    while dealt < hands and idle < 1000:
        _between_hands(session, pool, players)
        if session.deal():
            dealt += 1
            idle = 0
            away = {p for p in table.players() if source.randbelow(100) < 3}
            session.play_out(away)
            if progress is not None:
                progress(dealt)
        else:
            idle += 1
            _join(session, pool, grant=True)  # a paused table waits for someone to sit down
    c = session.counts
    return {
        "preset": preset_name,
        "format": config.format.value,
        "seed": seed,
        "hands": dealt,
        "joins": c["PlayerSeated"] - players,
        "leaves": c["PlayerLeft"],
        "cash_outs": c[CashedOut.__name__],
        "rebuys": c[Rebought.__name__],
        "timeouts": c["ClockActed"],
        "cashed_out_for_timeouts": sum(
            1 for e in session.events if isinstance(e, PlayerLeft) and e.reason == "timed_out"
        ),
        "pauses": c[TablePaused.__name__],
        "grants": c["grants"],
        "players_seated": len(table.seats),
        "money": sum(balances.values()) + table.money_held(),
        "conserved": session.conserved,
    }


def _between_hands(session: Session, pool: list[PlayerId], target: int) -> None:
    """What players do between hands: rebuy or leave at zero, leave, join, sit out."""
    table, source = session.table, session.source
    for player in list(table.players()):
        seat = table.seat_of(player)
        roll = source.randbelow(100)
        if table.format is Format.CASH and seat.stack == 0:
            if roll < 85 and session.balances[player] >= BUY_IN:
                _try(
                    session,
                    lambda p=player: table.rebuy(p, session.now, balance=session.balances[p]),
                )
            else:
                _try(session, table.leave, player, session.now)
        elif roll < 1:
            _try(session, table.leave, player, session.now)
        elif roll < 3:
            if seat.sitting_out:
                _try(session, table.sit_in, player, session.now)
            else:
                _try(session, table.sit_out, player, session.now)
        elif seat.sitting_out and roll < 30:
            _try(session, table.sit_in, player, session.now)
    if source.randbelow(100) < (25 if len(table.seats) < target else 3):
        _join(session, pool)


def _join(session: Session, pool: list[PlayerId], *, grant: bool = False) -> None:
    """A player who can afford it sits down. With ``grant``, when nobody can, an admin
    grants a broke player play money first (counted in what was granted)."""
    table = session.table
    seated = set(table.players())
    outside = [p for p in pool if p not in seated]
    waiting = [p for p in outside if session.balances[p] >= table.buy_in_cost(p, session.now)]
    if not waiting and grant and outside:
        poorest = min(outside, key=lambda p: session.balances[p])
        session.balances[poorest] += GRANT
        session.granted += GRANT
        session.counts["grants"] += 1
        waiting = [poorest]
    if not waiting:
        return
    player = waiting[session.source.randbelow(len(waiting))]
    _try(session, table.sit, player, session.now, balance=session.balances[player])


def _try(
    session: Session, command: Callable[..., list[TableEvent]], *args: Any, **kwargs: Any
) -> None:
    try:
        session.apply(command(*args, **kwargs))
    except TableError:
        session.counts["refused"] += 1
