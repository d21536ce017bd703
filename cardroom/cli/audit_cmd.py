"""``cardroom audit``: prove that no cent was created or lost.

    $ cardroom audit
    Ledger audit of sqlite:///./var/cardroom.db
      accounts 3, transfers 2, entries 4
      granted               $200.00
      removed                 $0.00
      player balances       $200.00
      chips on tables         $0.00
      money in play         $200.00  (granted minus removed: $200.00)
    No differences: every cent is accounted for.

Each difference found is listed, and the command then exits with status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from cardroom.cli.db_cmd import add_database_option, load_settings, open_room, shown_url
from cardroom.cli.errors import CommandError
from cardroom.service import money
from cardroom.service.amounts import format_cents
from cardroom.store.audit import AuditReport


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audit",
        help="check that balances plus chips on tables equal all money granted",
        description="Check the ledger: every balance against its entries, every transfer "
        "sums to zero, and player balances plus chips on tables equal everything granted "
        "minus everything removed. Exits non-zero if anything differs.",
    )
    add_database_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_room(args) as ctx:
        report = money.audit(ctx)
    print(f"Ledger audit of {shown_url(load_settings(args))}")
    print("\n".join(report_lines(report)))
    if report.differences:
        count = len(report.differences)
        raise CommandError(
            f"The ledger has {count} difference{'s' if count > 1 else ''}; see the list above."
        )
    print("No differences: every cent is accounted for.")
    return 0


def report_lines(report: AuditReport) -> list[str]:
    def row(label: str, cents: int, note: str = "") -> str:
        return f"  {label:<18}{format_cents(cents):>12}{note}"

    lines = [
        f"  accounts {report.accounts}, transfers {report.transfers}, entries {report.entries}",
        row("granted", report.granted_cents),
        row("removed", report.removed_cents),
        row("player balances", report.player_balances_cents),
        row("chips on tables", report.chips_on_tables_cents),
        row(
            "money in play",
            report.money_in_play_cents,
            f"  (granted minus removed: "
            f"{format_cents(report.granted_cents - report.removed_cents)})",
        ),
    ]
    if report.differences:
        lines.append("Differences:")
        lines.extend(
            f"  {d.subject}: {d.explanation} "
            f"(expected {format_cents(d.expected_cents)}, found {format_cents(d.found_cents)})"
            for d in report.differences
        )
    return lines
