"""What one player action costs the server, part by part, without HTTP.

Plays heads-up hands through the use cases a request runs, in the order the server
runs them, and times each part in CPU time with the SQL statements it sends:

- sign-in: the bearer token's lookup, as the HTTP routes make it
  (``accounts.user_for_recent_token``: a session proven a moment ago is not read);
- command: ``play.act`` or ``play.press_continue``: one write transaction, the
  notices it calls for included;
- answer: the command's events for the actor and the ``result`` message a socket
  command answers with (``ChangeViews.events``, ``game_answers.result_text``);
- broadcast: the change from the command's transaction (``game_views.change_of``,
  shared by its viewers as ``change_views.ChangeViews``) and the two players' updates,
  written as their sockets send them (``events_text``, ``snapshot_text``);
- read elsewhere: what another server process pays instead to read the change
  (``game_views.change_after``), once per change.

    $ .venv/bin/python benchmarks/command_path.py --hands 200
    $ .venv/bin/python benchmarks/command_path.py --table per-hand
    $ .venv/bin/python benchmarks/command_path.py --database-url postgresql+psycopg://...
      (a PostgreSQL server: the script makes a database of its own there and drops it)

The table is the load test's by default (``--table cash``: the house preset's cash
game, blinds 1 and 2, money moving only at the buy-in); ``--table per-hand`` plays
the standard preset's per-hand table, where every hand buys in and settles through
the ledger (the figures of earlier sessions in docs/benchmarks.md).

The figures bound what one server process can do: 1 / (sum of the parts) commands
per CPU-second, before HTTP, WebSocket framing and the event loop.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, make_url, text

from cardroom.config import Settings
from cardroom.deck import SeededRandomSource
from cardroom.service import (
    accounts,
    change_views,
    game_details,
    game_options,
    game_views,
    lobby,
    play,
)
from cardroom.service.context import ServiceContext
from cardroom.store.db import make_engine, make_sessionmaker
from cardroom.store.migrate import upgrade
from cardroom.web.game_answers import events_text, result_text, snapshot_text

T = TypeVar("T")
PARTS = ("sign-in", "command", "answer", "broadcast", "read elsewhere")
IN_PROCESS = PARTS[:4]


class Meter:
    def __init__(self) -> None:
        self.cpu: Counter[str] = Counter()
        self.statements: Counter[str] = Counter()
        self.part = ""

    def __call__(self, part: str, work: Callable[[], T]) -> T:
        self.part = part
        start = time.process_time()
        try:
            return work()
        finally:
            self.cpu[part] += time.process_time() - start
            self.part = ""


BENCH_DATABASE = "cardroom_bench_path"
# The tables the script can play heads-up: the load test's (cardroom.loadtest.runner)
# and the standard preset's per-hand table.
TABLES = {
    "cash": game_options.GameOptions(
        preset="house", format="cash", seats=2, buy_in=100, small_blind=1, big_blind=2
    ),
    "per-hand": game_options.GameOptions(preset="standard", seats=2, buy_in=1000),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument(
        "--database-url",
        default=None,
        help="default: a fresh SQLite file; a PostgreSQL server's URL: a fresh database "
        f"{BENCH_DATABASE} on it, dropped afterwards",
    )
    parser.add_argument(
        "--table",
        choices=sorted(TABLES),
        default="cash",
        help="cash: the load test's table (default); per-hand: money moves every hand",
    )
    args = parser.parse_args()
    if args.database_url and make_url(args.database_url).get_backend_name() == "postgresql":
        with fresh_postgres(args.database_url) as url:
            print(json.dumps(run(url, args.hands, args.table), indent=2))
        return
    with tempfile.TemporaryDirectory() as scratch:
        url = args.database_url or f"sqlite:///{Path(scratch) / 'bench.db'}"
        print(json.dumps(run(url, args.hands, args.table), indent=2))


@contextmanager
def fresh_postgres(server_url: str, name: str = BENCH_DATABASE) -> Iterator[str]:
    """A database of its own on the server, so the figures start from empty tables
    and nothing is left in the server's other databases."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT")
    drop = text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    with admin.connect() as connection:
        connection.execute(drop)
        connection.execute(text(f"CREATE DATABASE {name}"))
    try:
        url = make_url(server_url).set(database=name)
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(drop)
        admin.dispose()


def run(url: str, hands: int, table: str) -> dict[str, Any]:
    settings = Settings(database_url=url)
    engine = make_engine(settings)
    upgrade(engine)
    ctx = ServiceContext(settings=settings, sessions=make_sessionmaker(engine))
    meter = Meter()

    @event.listens_for(engine, "before_cursor_execute")
    def _count(*_: Any) -> None:
        if meter.part:
            meter.statements[meter.part] += 1

    stamp = time.time_ns()
    names_of = [f"b{stamp % 10**9}{i}" for i in range(2)]
    users = [accounts.sign_up(ctx, name, "correct horse battery").id for name in names_of]
    tokens = {
        u: accounts.sign_in(ctx, n, "correct horse battery").token
        for u, n in zip(users, names_of, strict=True)
    }
    source = SeededRandomSource(1)
    options = TABLES[table]
    game = lobby.create_game(ctx, users[0], options).game_id
    lobby.join(ctx, game, users[1], source=source)
    sent = {u: game_views.update_for(ctx, game, u, 0).detail.last_seq for u in users}
    names = dict(zip(users, names_of, strict=True))
    commands = 0
    dealt = 0
    while dealt < hands:
        seen = game_details.game_detail(ctx, game)
        if seen.hand is not None and seen.hand.running:
            player = next(s.user_id for s in seen.seats if s.seat == seen.hand.seat_to_act)
            mine = game_details.game_detail(ctx, game, player)
            assert mine.hand is not None and mine.hand.legal is not None
            kind = "check" if "check" in mine.hand.legal.kinds else "call"
            version = mine.summary.version
            meter("sign-in", lambda p=player: accounts.user_for_recent_token(ctx, tokens[p]))
            result = meter(
                "command",
                lambda p=player, k=kind, v=version: play.act(
                    ctx, game, p, k, expected_version=v, source=source
                ),
            )
        else:
            player = users[commands % 2]
            meter("sign-in", lambda p=player: accounts.user_for_recent_token(ctx, tokens[p]))
            result = meter(
                "command", lambda p=player: play.press_continue(ctx, game, p, source=source)
            )
            dealt += any(e.kind == "HandDealt" for e in result.events)
        commands += 1
        change = meter("broadcast", lambda r=result: game_views.change_of(r, names))
        assert change is not None, [e.kind for e in result.events]
        views = change_views.ChangeViews(change)
        meter(
            "answer",
            lambda r=result, p=player, v=views: result_text(
                "ref", r, v.events(p, v.change.after_seq)
            ),
        )

        def broadcast(views: change_views.ChangeViews = views) -> None:
            for user in users:
                update = views.update(user, sent[user], ctx.now())
                if update.events:
                    events_text(update.events[-1].version, update.events)
                snapshot_text(update.detail)
                sent[user] = update.detail.last_seq

        meter("broadcast", broadcast)
        meter("read elsewhere", lambda c=change: game_views.change_after(ctx, game, c.after_seq))
    engine.dispose()
    per = {p: round(1000 * meter.cpu[p] / commands, 3) for p in PARTS}
    total = sum(meter.cpu[p] for p in IN_PROCESS) / commands
    return {
        "database": engine.dialect.name,
        "table": table,
        "hands": hands,
        "commands": commands,
        "cpu_ms_per_command": per,
        "statements_per_command": {p: round(meter.statements[p] / commands, 2) for p in PARTS},
        "cpu_ms_in_the_committing_process": round(1000 * total, 3),
        "commands_per_cpu_second": round(1 / total),
    }


if __name__ == "__main__":
    main()
