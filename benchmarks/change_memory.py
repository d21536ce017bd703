"""What one game's last change costs a server process in memory while it is kept.

Each server process keeps, per game with sockets open, the last change it sent them
(``cardroom.web.game_reads.SharedRead.change``): a ``game_views.GameChange``, with
the events and the game as they left it. This script sets up N heads-up games in a
fresh SQLite file, plays each into the middle of a hand (a check on the flop, the
other player to act), then builds one change per game and keeps them all, as N
watched games would, and prints the bytes traced (``tracemalloc``) per change kept:

- read: ``game_views.change_after`` from before the last command, as a socket woken
  in another process reads it;
- from the command: ``game_views.change_of`` of the last command's ``PlayResult``,
  as the committing process seeds it; the result itself is dropped, as the server
  drops it once answered. What the same command leaves behind when its change is not
  kept (caches, the transaction's leftovers) is measured on N other games and
  taken off.

Also printed, for scale: a decoded ``Table`` of the same games alone
(``table_from_dict`` of the stored state).

    $ .venv/bin/python benchmarks/change_memory.py --games 50
"""

from __future__ import annotations

import argparse
import gc
import json
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from cardroom.config import Settings
from cardroom.deck import SeededRandomSource
from cardroom.service import accounts, game_details, game_options, game_views, lobby, play
from cardroom.service.context import ServiceContext
from cardroom.service.game_records import PlayResult
from cardroom.store.db import make_engine, make_sessionmaker
from cardroom.store.migrate import upgrade
from cardroom.store.models import Game
from cardroom.table import table_from_dict

T = TypeVar("T")
WARM_UP = 3  # games taken through the measured steps first: first-use caches fill there


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{Path(scratch) / 'bench.db'}"
        print(json.dumps(run(url, args.games), indent=2))


def kept_bytes(make: Callable[[int], T], items: Sequence[int]) -> tuple[float, list[T]]:
    """Bytes traced per item while what ``make`` returned is kept, and what it returned."""
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    kept = [make(i) for i in items]
    gc.collect()
    return (tracemalloc.get_traced_memory()[0] - before) / len(items), kept


def run(url: str, games: int) -> dict[str, Any]:
    settings = Settings(database_url=url, starting_balance_cents=100_000_000)
    engine = make_engine(settings)
    upgrade(engine)
    ctx = ServiceContext(settings=settings, sessions=make_sessionmaker(engine))
    stamp = time.time_ns() % 10**9
    names_of = [f"m{stamp}{i}" for i in range(2)]
    users = [accounts.sign_up(ctx, name, "correct horse battery").id for name in names_of]
    names = dict(zip(users, names_of, strict=True))
    source = SeededRandomSource(1)
    options = game_options.GameOptions(preset="standard", seats=2, buy_in=1000)

    def step(game: int) -> PlayResult:
        """One command as a player would send it: check or call, or Continue."""
        seen = game_details.game_detail(ctx, game)
        if seen.hand is None or not seen.hand.running:
            return play.press_continue(ctx, game, users[0], source=source)
        player = next(s.user_id for s in seen.seats if s.seat == seen.hand.seat_to_act)
        mine = game_details.game_detail(ctx, game, player)
        assert mine.hand is not None and mine.hand.legal is not None
        kind = "check" if "check" in mine.hand.legal.kinds else "call"
        return play.act(ctx, game, player, kind, source=source)

    def to_the_flop() -> int:
        game = lobby.create_game(ctx, users[0], options).game_id
        lobby.join(ctx, game, users[1], source=source)
        while True:
            hand = game_details.game_detail(ctx, game).hand
            if hand is not None and hand.running and hand.street == "flop":
                return game
            step(game)

    # Games at the flop, none of them acted on yet: warm-up, control, measured.
    tables = [to_the_flop() for _ in range(WARM_UP + 2 * games)]
    warm, control, measured = (
        tables[:WARM_UP],
        tables[WARM_UP : WARM_UP + games],
        tables[WARM_UP + games :],
    )
    tracemalloc.start()
    last_seq: dict[int, int] = {}

    def command_change(game: int) -> game_views.GameChange:
        result = step(game)  # the check on the flop: the hand goes on
        last_seq[game] = result.events[0].seq - 1
        change = game_views.change_of(result, names)
        assert change is not None and change.moment.table.hand_running
        return change

    for game in warm:
        command_change(game)
        game_views.change_after(ctx, game, last_seq[game])

    def dropped(game: int) -> None:
        command_change(game)

    left_behind, _ = kept_bytes(dropped, control)
    with_change, from_command = kept_bytes(command_change, measured)
    read, from_reads = kept_bytes(lambda g: game_views.change_after(ctx, g, last_seq[g]), measured)
    assert [len(c.events) for c in from_reads] == [len(c.events) for c in from_command]

    def decoded(game: int) -> object:
        with ctx.transaction() as session:
            row = session.get(Game, game)
            assert row is not None
            state = row.state
        return table_from_dict(state)

    table, _ = kept_bytes(decoded, measured)
    tracemalloc.stop()
    engine.dispose()
    return {
        "games": games,
        "events_per_change": len(from_reads[0].events),
        "kb_per_kept_change": {
            "read (change_after)": round(read / 1024, 1),
            "from the command (change_of)": round((with_change - left_behind) / 1024, 1),
        },
        "kb_left_by_a_command_whose_change_is_dropped": round(left_behind / 1024, 1),
        "kb_per_decoded_table_alone": round(table / 1024, 1),
    }


if __name__ == "__main__":
    main()
