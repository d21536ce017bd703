"""The ``cardroom`` command. Each subcommand lives in its own module, imported here by
name, and registers itself with ``register(subparsers)``; a refusal is a sentence and
a non-zero exit code, never a traceback."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from cardroom.cli import (
    admin_cmd,
    audit_cmd,
    db_cmd,
    eval_cmd,
    export_cmd,
    loadtest_cmd,
    phh_cmd,
    serve_cmd,
    simulate_cmd,
    verify_cmd,
)
from cardroom.cli.errors import CommandError

__all__ = ["COMMAND_MODULES", "CommandError", "build_parser", "main"]

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
_MODULES: dict[str, ModuleType] = {
    module.__name__.rpartition(".")[2]: module
    for module in (
        admin_cmd,
        audit_cmd,
        db_cmd,
        eval_cmd,
        export_cmd,
        loadtest_cmd,
        phh_cmd,
        serve_cmd,
        simulate_cmd,
        verify_cmd,
    )
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardroom", description="Cardroom poker room")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = _MODULES.get(name)
        if module is not None:  # a name not among them is simply not offered
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
