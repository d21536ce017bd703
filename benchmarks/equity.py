"""Timings of ``cardroom.equity.equity`` for typical all-in spots, and the figures
behind ``EXACT_WORK_LIMIT`` (how many evaluations the exact path does in 200 ms).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/equity.py

Each case runs once per round, rounds interleaved so that a busy neighbour slows all
of them alike; the best and the median round are printed. The enumeration's table of
board combinations is built on first use and kept: the first calls in the process
are printed apart. Then every pre-flop all-in from two to ten players (the
largest exact jobs there are) is timed the same way, and a straight line through
(evaluations, best seconds) gives the evaluations that fit in 200 ms.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cardroom import equity as equity_module
from cardroom.bots import LEVELS, Bot, view_for
from cardroom.cards import parse_cards
from cardroom.deck import SeededRandomSource, shuffled_deck
from cardroom.equity import EXACT_WORK_LIMIT, equity, exact_work
from cardroom.hand import Hand, HandSetup
from cardroom.rules import preset


@dataclass
class Case:
    name: str
    hands: list[list[int]]
    board: list[int]
    sample: bool = False

    def run(self) -> Callable[[], object]:
        if self.sample:
            rng = np.random.default_rng(0)
            return lambda: equity(self.hands, self.board, rng=rng, exact_limit=0)
        return lambda: equity(self.hands, self.board)

    @property
    def work(self) -> int:
        return exact_work(len(self.hands), len(self.board))


def hands(*texts: str) -> list[list[int]]:
    return [list(parse_cards(t)) for t in texts]


PAIRS = ("AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h", "8s8h", "7s7h", "6s6h", "5s5h")

CASES = [
    Case("heads-up pre-flop (AsAh v KsKd), exact", hands("AsAh", "KsKd"), []),
    Case("3-way pre-flop (AK, QQ, 76s), exact", hands("AsKd", "QhQc", "7s6s"), []),
    Case(
        "6-way flop, exact",
        hands("AsKs", "7c7d", "JhTh", "2c2d", "9s8s", "AcQc"),
        list(parse_cards("Qs 8c 2h")),
    ),
    Case("heads-up flop, exact", hands("AsAh", "KsKd"), list(parse_cards("2c 7d 9h"))),
    Case("heads-up turn, exact", hands("AsAh", "KsKd"), list(parse_cards("2c 7d 9h Tc"))),
    Case("10-way pre-flop, exact", hands(*PAIRS), []),
    Case("heads-up pre-flop, 100,000 samples", hands("AsAh", "KsKd"), [], sample=True),
    Case("6-way pre-flop, 100,000 samples", hands(*PAIRS[:6]), [], sample=True),
]


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def timed(run: Callable[[], object]) -> float:
    began = time.perf_counter()
    run()
    return time.perf_counter() - began


def rounds_of(cases: list[Case], rounds: int) -> list[list[float]]:
    runs = [case.run() for case in cases]
    times: list[list[float]] = [[] for _ in cases]
    for _ in range(rounds):
        for i, run in enumerate(runs):
            times[i].append(timed(run))
    return times


def bot_timings(players: int, hands: int, seed: str) -> dict[str, list[float]]:
    """Seconds per decision by level, over ``hands`` seeded hands of ``players``
    seats; six bots (two of each level) take the seats in turn, one seat further
    round every hand; stacks are reset to 100 big blinds every hand."""
    names = list(LEVELS)
    bots = [Bot(names[i % len(names)], SeededRandomSource(f"{seed}{i}")) for i in range(6)]
    source = SeededRandomSource(seed)
    times: dict[str, list[float]] = {name: [] for name in names}
    setup = HandSetup.simple([10_000] * players, 50, 100)
    for number in range(hands):
        seated = {seat: bots[(seat + number) % len(bots)] for seat in range(1, players + 1)}
        hand = Hand.start(preset("house"), setup, shuffled_deck(source))
        while not hand.is_over:
            seat = hand.seat_to_act
            assert seat is not None
            bot = seated[seat]
            began = time.perf_counter()
            action = bot.act(view_for(hand, seat))
            times[bot.level.name].append(time.perf_counter() - began)
            hand.act(action, seat)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds (7)")
    parser.add_argument("--bot-hands", type=int, default=300, help="hands per bot game (300)")
    args = parser.parse_args()
    print(
        f"{datetime.date.today()}, Python {platform.python_version()}, NumPy {np.__version__}, "
        f"{cpu_name()}, EXACT_WORK_LIMIT {EXACT_WORK_LIMIT:,}"
    )

    print("\nFirst calls in the process (the first builds the table of board combinations):")
    equity_module._colex.cache_clear()
    for case in CASES:
        print(f"  {case.name}: {1000 * timed(case.run()):.1f} ms")

    print(f"\n| case | boards x hands | best ms | median ms | ({args.rounds} rounds)")
    print("|---|---:|---:|---:|")
    for case, t in zip(CASES, rounds_of(CASES, args.rounds), strict=True):
        work = 100_000 * len(case.hands) if case.sample else case.work
        best, median = 1000 * min(t), 1000 * statistics.median(t)
        print(f"| {case.name} | {work:,} | {best:.1f} | {median:.1f} |")

    sweep = [Case(f"{n} players pre-flop", hands(*PAIRS[:n]), []) for n in range(2, len(PAIRS) + 1)]
    print("\nPre-flop all-ins, exact (the largest exact jobs):")
    print("| players | boards | boards x hands | best ms | median ms | M evaluations/s (best) |")
    print("|---:|---:|---:|---:|---:|---:|")
    works: list[float] = []
    fits: dict[str, list[float]] = {"best": [], "median": []}
    for case, t in zip(sweep, rounds_of(sweep, args.rounds), strict=True):
        best = min(t)
        works.append(case.work)
        fits["best"].append(best)
        fits["median"].append(statistics.median(t))
        boards = case.work // len(case.hands)
        print(
            f"| {len(case.hands)} | {boards:,} | {case.work:,} | {1000 * best:.1f} | "
            f"{1000 * statistics.median(t):.1f} | {case.work / best / 1e6:.1f} |"
        )
    print()
    for label, seconds in fits.items():
        slope, intercept = np.polyfit(np.array(works), np.array(seconds), 1)
        fit = (0.2 - intercept) / slope
        print(
            f"{label} round ~ {1000 * intercept:.1f} ms + {1e9 * slope:.1f} ms per million "
            f"evaluations: 200 ms holds about {fit / 1e6:.1f} M evaluations"
        )
    largest = max(works) / 1e6
    print(f"limit in use: {EXACT_WORK_LIMIT / 1e6:.1f} M; largest pre-flop job: {largest:.2f} M")

    print("\nBot decisions (view built and decision made), milliseconds:")
    print("| table | level | decisions | median | p99 | slowest |")
    print("|---|---|---:|---:|---:|---:|")
    for players, count in ((6, args.bot_hands), (2, args.bot_hands)):
        for name, t in bot_timings(players, count, f"bench{players}").items():
            if not t:
                continue
            t.sort()
            p99 = t[min(len(t) - 1, int(0.99 * len(t)))]
            print(
                f"| {players}-handed | {name} | {len(t):,} | {1000 * statistics.median(t):.2f} | "
                f"{1000 * p99:.2f} | {1000 * t[-1]:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
