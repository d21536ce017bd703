"""The ``cardroom`` command. Each subcommand lives in its own module and registers
itself with ``register(subparsers)``; a refusal is a sentence and a non-zero exit
code, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules under cardroom.cli that provide ``register(subparsers) -> None``.
COMMAND_MODULES = (
    "eval_cmd",
    "phh_cmd",
    "simulate_cmd",
    "serve_cmd",
    "db_cmd",
    "admin_cmd",
    "audit_cmd",
    "verify_cmd",
    "export_cmd",
    "loadtest_cmd",
)


class CommandError(Exception):
    """A refusal to show the user as one sentence, with exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardroom", description="Cardroom poker room")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"cardroom.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cardroom.cli.{name}":
                continue  # a command not built yet is simply not offered
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except CommandError as exc:
        print(f"cardroom: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
