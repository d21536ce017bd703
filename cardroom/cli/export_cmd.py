"""``cardroom export``: a game's hand histories as PHH or PokerStars text.

    $ cardroom export --game 12 --format pokerstars --player ann --output ann-12.txt
    Wrote 40 hands of game 12 to ann-12.txt (PokerStars text, as ann saw them).

``--player NAME``: the hands NAME was dealt into, with their own cards and the hands
shown at the table, never another player's unshown or mucked cards (what they would
download themselves). ``--admin``: every hand with every card, the full record.
Neither: every hand as a spectator saw it (shown hands only). Without ``--output``
the file goes to standard output. Refusals are a sentence and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardroom.cli.db_cmd import add_database_option, open_room
from cardroom.cli.errors import CommandError
from cardroom.service import hand_exports
from cardroom.service.hand_exports import ExportFormat

FORMAT_NAMES = {ExportFormat.PHH: "PHH", ExportFormat.POKERSTARS: "PokerStars text"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a game's hand histories as PHH or PokerStars text",
        description="Write the finished hands of a game as one PHH (.phhs) or PokerStars "
        "hand-history file: as one player saw them (--player), in full (--admin), or as a "
        "spectator saw them (neither).",
    )
    parser.add_argument("--game", required=True, metavar="ID", help="the game's id")
    parser.add_argument(
        "--format",
        required=True,
        choices=[f.value for f in ExportFormat],
        help="phh or pokerstars",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--player", metavar="NAME", help="the hands NAME played, with their own cards")
    who.add_argument(
        "--admin", action="store_true", help="every hand with every hole card (full record)"
    )
    parser.add_argument("--output", metavar="FILE", help="write here instead of to stdout")
    add_database_option(parser)
    parser.set_defaults(handler=run)


def _game_id(text: str) -> int:
    try:
        game_id = int(text)
    except ValueError:
        raise CommandError(f"A game is named by its number, not {text[:20]!r}.") from None
    if game_id < 1:
        raise CommandError("A game's number is a whole number from 1.")
    return game_id


def run(args: argparse.Namespace) -> int:
    game_id = _game_id(args.game)
    output = None if args.output is None else Path(args.output)
    if output is not None and output.is_dir():
        raise CommandError(f"{output} is a folder; give a file name.")
    with open_room(args) as ctx:
        player_id = None if args.player is None else hand_exports.player_named(ctx, args.player)
        export = hand_exports.game_export(
            ctx, game_id, args.format, player_id=player_id, full=args.admin, player_name=args.player
        )
    if output is None:
        sys.stdout.write(export.text)
        return 0
    try:
        output.write_text(export.text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"Cannot write {output}: {exc.strerror or exc}.") from None
    if args.admin:
        seen = "in full"
    elif args.player:
        seen = f"as {args.player} saw them"
    else:
        seen = "as a spectator saw them"
    plural = "s" if export.hands != 1 else ""
    print(
        f"Wrote {export.hands} hand{plural} of game {game_id} to {output} "
        f"({FORMAT_NAMES[ExportFormat(args.format)]}, {seen})."
    )
    return 0
