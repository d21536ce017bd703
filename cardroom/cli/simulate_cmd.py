"""``cardroom simulate``: play many hands with random legal actions.

    $ cardroom simulate --hands 10000 --players 6 --seed 1 --json
    {"hands": 10000, "seconds": 4.1, "hands_per_s": 2400.0, "showdown_rate": 0.73, ...}

Without ``--json`` it shows a progress bar on a terminal and a short summary. With
``--tournament`` or ``--cash`` it plays whole games at a table instead (through
``cardroom.table_simulate``). The exit code is 1 if chips were not conserved.
"""

from __future__ import annotations

import argparse
import importlib
import json
import secrets
import sys
from typing import Any

from cardroom.cli.errors import CommandError
from cardroom.rules import PRESETS, RulesError, preset
from cardroom.simulate import SimulationReport, simulate

DEFAULT_HANDS = 1000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play hands with random legal actions and report rates and speed",
        description="Play complete hands with random legal actions (folds, calls, "
        "min-raises, random raises, all-ins) and random stacks; report showdown, "
        "all-in and side-pot rates, speed and whether chips were conserved.",
    )
    parser.add_argument("--hands", type=int, help=f"hands to play (default {DEFAULT_HANDS})")
    parser.add_argument("--players", type=int, default=6, help="players per hand, 2 to 10")
    parser.add_argument("--seed", type=int, help="seed for cards and actions (default: random)")
    parser.add_argument(
        "--preset", default="house", help=f"rule preset: {', '.join(PRESETS)} (default house)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    game = parser.add_mutually_exclusive_group()
    game.add_argument("--tournament", action="store_true", help="play tournaments to a winner")
    game.add_argument("--cash", action="store_true", help="play a cash session")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 10:
        raise CommandError(f"A hand needs 2 to 10 players, not {args.players}.")
    if args.hands is not None and args.hands < 1:
        raise CommandError(f"Play at least one hand, not {args.hands}.")
    try:
        preset(args.preset)
    except RulesError as exc:
        raise CommandError(str(exc)) from None
    if args.seed is None:
        args.seed = secrets.randbelow(2**32)
    if args.tournament:
        return _delegate("run_tournament", "--tournament", args)
    if args.cash:
        return _delegate("run_cash", "--cash", args)
    hands = DEFAULT_HANDS if args.hands is None else args.hands
    if args.json or not sys.stdout.isatty():
        report = simulate(hands, args.players, args.seed, args.preset)
    else:
        report = _with_progress_bar(hands, args)
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print(summary(report, args.players, args.preset, args.seed))
    return 0 if report.chips_conserved else 1


def _with_progress_bar(hands: int, args: argparse.Namespace) -> SimulationReport:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task("Playing hands", total=hands)
        return simulate(
            hands,
            args.players,
            args.seed,
            args.preset,
            progress=lambda done: bar.update(task, completed=done),
            progress_every=max(1, min(1000, hands // 100)),
        )


def summary(report: SimulationReport, players: int, preset_name: str, seed: int) -> str:
    conserved = (
        "Chips were conserved in every hand."
        if report.chips_conserved
        else "CHIPS WERE NOT CONSERVED in at least one hand."
    )
    return (
        f"Played {report.hands:,} hands of {players} players under {preset_name} rules "
        f"(seed {seed}) in {report.seconds:.2f} s: {report.hands_per_s:,.0f} hands/s.\n"
        f"Showdowns {report.showdown_rate:.1%}, all-ins {report.all_in_rate:.1%}, "
        f"side pots {report.side_pot_rate:.1%}. {conserved}"
    )


def _delegate(function: str, flag: str, args: argparse.Namespace) -> int:
    try:
        module = importlib.import_module("cardroom.table_simulate")
    except ModuleNotFoundError as exc:
        if exc.name != "cardroom.table_simulate":
            raise
        raise CommandError(f"simulate {flag} is not available yet.") from None
    return int(getattr(module, function)(args) or 0)
