"""``cardroom verify FILE``: check a hand's deck verification file.

Every revealed card is checked against the deck commitment published before the
hand was dealt. Exit 0 when every proof holds, 1 when one fails, 2 when the file
cannot be read or is not a verification file.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cardroom.cards import card_text
from cardroom.cli.errors import CommandError
from cardroom.history import fairness


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a hand's deck proofs against its commitment",
        description="Check that every card revealed in a deck verification file (as "
        "downloaded from a hand) was fixed before the hand began: each card, with its "
        "salt and Merkle proof, must lead to the committed root. Exit 0 when all hold, "
        "1 when any fails, 2 when the file is not a verification file.",
    )
    parser.add_argument("file", metavar="FILE", help="the verification file (JSON)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{path} does not exist.") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"{path} cannot be read: {exc}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path} is not JSON ({exc.msg}, line {exc.lineno}).") from None
    try:
        result = fairness.verify_document(data)
    except fairness.ProofFormatError as exc:
        raise CommandError(f"{path}: {exc}") from None
    print(report(result))
    return 0 if result.ok else 1


def report(result: fairness.DocumentVerdict) -> str:
    """The verdict as a reader would like it: one line per revealed card."""
    head = f"Hand #{result.hand_number}"
    if result.table:
        head += f" at {result.table}"
    if result.viewer:
        head += f", as seen by {result.viewer}"
    lines = [head, f"Deck commitment (root): {result.root.hex()}"]
    checks = {c.position: c for c in result.verdict.checks}
    for proof, dealt in result.leaves:
        check = checks.get(proof.position)
        mark = "ok" if check is not None and check.ok else "FAILED"
        card = card_text(proof.card) if 0 <= proof.card < 52 else "??"
        lines.append(
            f"  position {proof.position:2d}  {card}  {dealt.describe(result.names):<28} {mark}"
        )
    if result.ok:
        count = len(result.leaves)
        lines.append(
            f"Verified: all {count} revealed card{'s' if count != 1 else ''} match the "
            "commitment, so they were fixed before the hand began."
        )
    else:
        lines.append("NOT VERIFIED:")
        lines.extend(f"  {failure}" for failure in result.verdict.failures)
    return "\n".join(lines)
