"""Hands per second of our evaluators against treys and eval7, on the same random
seven-card hands in the same run.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/evaluator.py

Each contender ranks every hand once per round; the rounds are interleaved so that a
noisy neighbour slows all of them alike, and the best round is reported (the median
too). The card conversions for treys and eval7 are done before timing. Before
timing, every contender's ranks are checked to order the hands exactly as ours do.

Targets: ``evaluate7`` one by one at least 8x treys; ``evaluate_batch`` at least 10x
eval7 one by one.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import platform
import statistics
import sys
import time
from collections.abc import Callable

import eval7  # type: ignore[import-untyped]
import numpy as np
import treys  # type: ignore[import-untyped]

from cardroom.cards import card_text
from cardroom.evaluator import evaluate7
from cardroom.evaluator_batch import evaluate_batch, random_hands


def same_order(ours: list[int], theirs: list[int], higher_is_better: bool) -> bool:
    """Whether two rankings of the same hands agree on every comparison."""
    pairs = sorted(set(zip(ours, theirs, strict=True)))
    mapped = [t for _, t in pairs]
    if len({o for o, _ in pairs}) != len(pairs):
        return False  # one of our ranks matched two of theirs
    if len(set(mapped)) != len(mapped):
        return False  # two of our ranks matched one of theirs
    return mapped == sorted(mapped, reverse=not higher_is_better)


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random hands (200,000)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (5)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    hands = random_hands(np.random.default_rng(args.seed), args.hands)
    hands64 = hands.astype(np.int64)
    rows: list[tuple[int, ...]] = [tuple(r) for r in hands.tolist()]
    texts = [[card_text(c) for c in row] for row in rows]
    treys_hands = [
        ([treys.Card.new(t) for t in row[:2]], [treys.Card.new(t) for t in row[2:]])
        for row in texts
    ]
    eval7_hands = [[eval7.Card(t) for t in row] for row in texts]
    treys_evaluator = treys.Evaluator()

    def run_ours() -> None:
        ev = evaluate7
        for a, b, c, d, e, f, g in rows:
            ev(a, b, c, d, e, f, g)

    def run_treys() -> None:
        ev = treys_evaluator.evaluate
        for hand, board in treys_hands:
            ev(hand, board)

    def run_eval7() -> None:
        ev = eval7.evaluate
        for cards in eval7_hands:
            ev(cards)

    def run_batch() -> None:
        evaluate_batch(hands)

    def run_batch64() -> None:
        evaluate_batch(hands64)

    ours = [evaluate7(*r) for r in rows]
    assert evaluate_batch(hands).tolist() == ours, "batch differs from evaluate7"
    assert evaluate_batch(hands64).tolist() == ours, "batch (int64) differs from evaluate7"
    theirs = [treys_evaluator.evaluate(h, b) for h, b in treys_hands]
    assert same_order(ours, theirs, higher_is_better=False), "treys orders hands differently"
    theirs = [eval7.evaluate(cards) for cards in eval7_hands]
    assert same_order(ours, theirs, higher_is_better=True), "eval7 orders hands differently"

    contenders: dict[str, Callable[[], None]] = {
        "treys Evaluator.evaluate, one by one": run_treys,
        "eval7.evaluate, one by one": run_eval7,
        "cardroom evaluate7, one by one": run_ours,
        "cardroom evaluate_batch (uint8 input)": run_batch,
        "cardroom evaluate_batch (int64 input)": run_batch64,
    }
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, run in contenders.items():
            gc.collect()
            start = time.perf_counter()
            run()
            rates[name].append(args.hands / (time.perf_counter() - start))

    best = {name: max(r) for name, r in rates.items()}
    treys_rate = best["treys Evaluator.evaluate, one by one"]
    eval7_rate = best["eval7.evaluate, one by one"]
    print(
        f"{datetime.date.today()}  Python {platform.python_version()}  numpy {np.__version__}"
        f"  {cpu_name()}  ({args.hands:,} hands, best of {args.rounds} rounds, one thread)"
    )
    print(f"{'evaluator':<40} {'hands/s (best)':>15} {'median':>13} {'x treys':>8} {'x eval7':>8}")
    for name, values in rates.items():
        b = best[name]
        print(
            f"{name:<40} {b:>15,.0f} {statistics.median(values):>13,.0f}"
            f" {b / treys_rate:>8.1f} {b / eval7_rate:>8.2f}"
        )
    single = best["cardroom evaluate7, one by one"] / treys_rate
    batch = best["cardroom evaluate_batch (uint8 input)"] / eval7_rate
    print(f"target evaluate7 >= 8x treys: {single:.1f}x {'met' if single >= 8 else 'MISSED'}")
    print(f"target evaluate_batch >= 10x eval7: {batch:.1f}x {'met' if batch >= 10 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
