"""``cardroom simulate``: play many hands with random legal actions.

    $ cardroom simulate --hands 10000 --players 6 --seed 1 --json
    {"hands": 10000, "seconds": 4.1, "hands_per_s": 2400.0, "showdown_rate": 0.73, ...}

Without ``--json`` it shows a progress bar on a terminal and a short summary. With
``--tournament`` or ``--cash`` it plays whole games at a table instead
(``cardroom.table_simulate`` plays them; this reads the arguments and words the
report). The exit code is 1 if chips were not conserved.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from cardroom.cli.errors import CommandError
from cardroom.rules import PRESETS, RulesError, preset
from cardroom.simulate import SimulationReport, simulate
from cardroom.table_simulate import SimulationRefused, play_cash, play_tournament

DEFAULT_HANDS = 1000
DEFAULT_CASH_HANDS = 1000

T = TypeVar("T")


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
        return run_tournament(args)
    if args.cash:
        return run_cash(args)
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
    return _with_hands_bar(
        "Playing hands",
        hands,
        lambda progress: simulate(
            hands,
            args.players,
            args.seed,
            args.preset,
            progress=progress,
            progress_every=max(1, min(1000, hands // 100)),
        ),
    )


def _with_hands_bar(label: str, total: int, play: Callable[[Callable[[int], None]], T]) -> T:
    """``play(progress)`` under a terminal bar of hands played out of ``total``, with
    the time left; ``progress(done)`` moves it."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task(label, total=total)
        return play(lambda done: bar.update(task, completed=done))


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


# ------------------------------------------------------------ games at a table


def run_tournament(args: argparse.Namespace) -> int:
    """``--tournament``: one tournament of bots to a winner."""
    try:
        return _run_tournament(args)
    except SimulationRefused as refused:
        raise CommandError(str(refused)) from None


def run_cash(args: argparse.Namespace) -> int:
    """``--cash``: a cash session of bots coming and going."""
    try:
        return _run_cash(args)
    except SimulationRefused as refused:
        raise CommandError(str(refused)) from None


def _run_tournament(args: argparse.Namespace) -> int:
    players, seed, preset_name = _common(args)
    if args.json or not sys.stdout.isatty():
        report = play_tournament(preset_name, players, seed)
    else:
        report = _tournament_with_progress(preset_name, players, seed)
    if args.json:
        print(json.dumps(report))
    else:
        print(tournament_summary(report))
    return 0 if report["conserved"] else 1


def _tournament_with_progress(preset_name: str, players: int, seed: int) -> dict[str, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[hands]} hands"),
    )
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task("Players out", total=players - 1, hands=0)
        return play_tournament(
            preset_name,
            players,
            seed,
            progress=lambda out, hands: bar.update(task, completed=out, hands=hands),
        )


def tournament_summary(report: dict[str, Any]) -> str:
    unit = report["chip_unit"]
    lines = [
        f"Tournament of {report['players']} bots under {report['preset']} rules "
        f"(seed {report['seed']}): {report['hands']:,} hands, "
        f"{report['blind_levels']} blind increases, "
        f"final blinds {report['final_blinds'][0]}/{report['final_blinds'][1]}.",
        "Finishing order:",
    ]
    for row in report["places"]:
        prize = f"  prize {_money(row['prize'])}" if unit == "cent" and row["prize"] else ""
        lines.append(f"  {_ordinal(row['place']):>5}  player {row['player']}{prize}")
    if not report["finished"]:
        lines.append(f"Stopped after {report['hands']:,} hands without a winner.")
    lines.append(_conservation(report["conserved"]))
    return "\n".join(lines)


def _run_cash(args: argparse.Namespace) -> int:
    players, seed, preset_name = _common(args)
    hands = DEFAULT_CASH_HANDS if args.hands is None else args.hands
    if args.json or not sys.stdout.isatty():
        report = play_cash(preset_name, players, hands, seed)
    else:
        report = _with_hands_bar(
            "Dealing hands",
            hands,
            lambda progress: play_cash(preset_name, players, hands, seed, progress=progress),
        )
    if args.json:
        print(json.dumps(report))
    else:
        print(cash_summary(report))
    return 0 if report["conserved"] else 1


def cash_summary(report: dict[str, Any]) -> str:
    what = "per-hand table" if report["format"] == "per_hand" else "cash game"
    return (
        f"A {what} under {report['preset']} rules (seed {report['seed']}): "
        f"{report['hands']:,} hands, {report['joins']} joins, {report['leaves']} players "
        f"left ({report['cashed_out_for_timeouts']} after three timeouts), "
        f"{report['rebuys']} rebuys, {report['timeouts']} clock timeouts, "
        f"{report['pauses']} pauses for lack of players, {report['grants']} grants.\n"
        f"Balances plus the table's chips: {_money(report['money'])}. "
        + _conservation(report["conserved"])
    )


def _common(args: argparse.Namespace) -> tuple[int, int, str]:
    players = int(getattr(args, "players", None) or 6)
    if not 2 <= players <= 10:
        raise CommandError(f"A table seats 2 to 10 players, not {players}.")
    seed = int(getattr(args, "seed", None) or 0)
    return players, seed, str(getattr(args, "preset", None) or "house")


def _money(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _conservation(ok: bool) -> str:
    return "Money and chips were conserved." if ok else "MONEY OR CHIPS WERE NOT CONSERVED."
