"""``cardroom phh replay PATH...``: replay PHH files through the engine."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from cardroom.cli.errors import CommandError
from cardroom.history import phh


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("phh", help="read and replay PHH hand histories")
    verbs = parser.add_subparsers(dest="phh_command", required=True, metavar="VERB")
    replay = verbs.add_parser(
        "replay",
        help="replay hands and print their finishing stacks as JSON lines",
        description="Replay PHH files (or folders, searched for *.phh) under the standard "
        "rules and print one JSON object per hand with its finishing stacks in PHH order. "
        "A file that cannot be replayed, or whose actions follow a rule the standard rules "
        "do not, is named on standard error in one line, and the other files go on.",
    )
    replay.add_argument("paths", nargs="+", metavar="PATH")
    replay.set_defaults(handler=run_replay)


def _files(paths: list[str]) -> Iterator[Path]:
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(path.rglob("*.phh"))
        elif path.is_file():
            yield path
        else:
            raise CommandError(f"{name} is neither a file nor a folder.")


def run_replay(args: argparse.Namespace) -> int:
    failures = 0
    for path in _files(args.paths):
        try:
            hand = phh.replay_text(path.read_text(encoding="utf-8"))
        except (phh.PHHError, UnicodeDecodeError, OSError) as exc:
            failures += 1
            print(f"cardroom: {path}: {exc}", file=sys.stderr)
            continue
        line = {"path": str(path), "finishing_stacks": hand.stacks}
        sys.stdout.write(json.dumps(line) + "\n")
    return 1 if failures else 0
