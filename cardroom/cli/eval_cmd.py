"""``cardroom eval``: rank hands read from standard input, one JSON object per line.

    $ echo "As Kd Qh Jc Ts 2d 3c" | cardroom eval
    {"category": "straight", "name": "Straight, Ace high", "rank": 4980736, "best": [...]}

A line that is not 5 to 7 distinct cards gets a one-sentence error on stderr naming
its line number; the others are still ranked and the exit code is 1. Blank lines are
skipped. ``cardroom eval --bench N`` times the single and batch evaluators on N random
seven-card hands and prints hands per second.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from cardroom.cards import CardError, card_text, parse_distinct_cards
from cardroom.cli.errors import CommandError
from cardroom.evaluator import describe


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="rank hands read from stdin (one hand of 5-7 cards per line)",
        description="Rank hands read from standard input, one per line, such as "
        "'As Kd Qh Jc Ts 2d 3c'; print one JSON object per line.",
    )
    parser.add_argument(
        "--bench",
        type=int,
        metavar="N",
        help="instead, time the evaluators on N random seven-card hands",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed for --bench hands (default: random)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.bench is not None:
        return bench(args.bench, args.seed)
    failed = False
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        try:
            cards = parse_distinct_cards(line)
            if not 5 <= len(cards) <= 7:
                raise CardError(f"a hand is 5 to 7 cards, not {len(cards)}.")
        except CardError as exc:
            print(f"cardroom eval: line {number}: {exc}", file=sys.stderr)
            failed = True
            continue
        value = describe(cards)
        record = {
            "category": value.category.label,
            "name": value.name,
            "rank": value.rank,
            "best": [card_text(c) for c in value.best],
        }
        print(json.dumps(record))
    sys.stdout.flush()
    return 1 if failed else 0


def bench(count: int, seed: int | None) -> int:
    if count < 1:
        raise CommandError("--bench needs a number of hands of at least 1.")
    import numpy as np

    from cardroom.evaluator import evaluate7
    from cardroom.evaluator_batch import evaluate_batch, random_hands

    hands = random_hands(np.random.default_rng(seed), count)
    rows: list[tuple[int, ...]] = [tuple(row) for row in hands.tolist()]
    start = time.perf_counter()
    for a, b, c, d, e, f, g in rows:
        evaluate7(a, b, c, d, e, f, g)
    single = time.perf_counter() - start
    start = time.perf_counter()
    evaluate_batch(hands)
    batch = time.perf_counter() - start
    print(json.dumps({"single_per_s": round(count / single), "batch_per_s": round(count / batch)}))
    return 0
