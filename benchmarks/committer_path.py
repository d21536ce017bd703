"""What the committer's thread spends on one command, without the web stack: the
load test's busy tables played in batches through ``together.run_together`` with the
process's kept tables, then each change's views made and written as the sockets send
them (``change_views``, ``game_answers``) from the sockets' shared read
(``game_reads``, each change joined to the one before it), in CPU time of this
thread; under callgrind, in instructions of those parts alone
(``benchmarks/instructions.py``).

Each round queues the tables' next commands (the player to act checks or calls;
after a hand, each player presses Continue), sorted by table as the committer sorts
its batch, and takes one command a table as the committer does
(``committer.first_per_table``): a table's later command (the second Continue)
heads the next round's batch, so a batch holds about ``--tables`` commands, as at 20
busy tables under load. The decisions are read from the last results between
rounds, outside the measured time.

    $ .venv/bin/python benchmarks/committer_path.py                 # SQLite, 20 tables
    $ .venv/bin/python benchmarks/committer_path.py --rounds 400 --tables 10
    $ .venv/bin/python benchmarks/committer_path.py --database-url postgresql+psycopg://...
    $ CARDROOM_PASSWORD_HASHING=cheap valgrind --tool=callgrind --instr-atstart=no \
        --collect-atstart=no .venv/bin/python benchmarks/committer_path.py --rounds 40

The figures are what the server's committer pays per command before the sockets'
own work (the event loop, the frames): docs/benchmarks.md, "The committer's path".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import event

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS))

from command_path import TABLES, fresh_postgres  # noqa: E402
from instructions import Marks  # noqa: E402

from cardroom.config import Settings  # noqa: E402
from cardroom.deck import SeededRandomSource  # noqa: E402
from cardroom.service import accounts, change_views, game_views, lobby  # noqa: E402
from cardroom.service.context import ServiceContext  # noqa: E402
from cardroom.service.game import commands  # noqa: E402
from cardroom.service.game.together import Done, Queued, run_together  # noqa: E402
from cardroom.service.kept_tables import KeptTables  # noqa: E402
from cardroom.store.db import make_engine, make_sessionmaker  # noqa: E402
from cardroom.store.migrate import upgrade  # noqa: E402
from cardroom.store.models import Game  # noqa: E402
from cardroom.table import Table, table_from_dict  # noqa: E402
from cardroom.web.committer import first_per_table  # noqa: E402
from cardroom.web.game_answers import events_text, result_text, snapshot_text  # noqa: E402
from cardroom.web.game_reads import SharedRead  # noqa: E402

PARTS = ("batch", "views")
PASSWORD = "correct horse battery"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--database-url", default=None)
    parser.add_argument(
        "--count-statements",
        action="store_true",
        help="count the statements too: a listener on every statement sends them all "
        "through SQLAlchemy's own path (store/engine_way.py), so the CPU figures rise",
    )
    args = parser.parse_args()
    if args.database_url and args.database_url.startswith("postgresql"):
        # A name of its own: two runs at once must not drop each other's database.
        with fresh_postgres(args.database_url, f"cardroom_bench_committer_{os.getpid()}") as url:
            print(
                json.dumps(
                    run(url, args.tables, args.rounds, count=args.count_statements), indent=2
                )
            )
        return
    with tempfile.TemporaryDirectory() as scratch:
        url = args.database_url or f"sqlite:///{Path(scratch) / 'bench.db'}"
        print(json.dumps(run(url, args.tables, args.rounds, count=args.count_statements), indent=2))


def _next_commands(table: Table, users: list[int]) -> list[tuple[int, Any]]:
    """(player, command maker) for the table's next round, as the load test plays."""
    hand = table.hand
    if hand is not None and not hand.is_over:
        seat = hand.seat_to_act
        player = next(s.player for s in table.seats.values() if s.number == seat)
        kind = "check" if hand.legal_actions().to_call == 0 else "call"
        return [(player, lambda user_id, k=kind: commands.act(user_id, k))]
    waiting = [u for u in users if u not in table.continued]
    return [(u, commands.press_continue) for u in waiting]


def run(url: str, tables: int, rounds: int, *, count: bool = False) -> dict[str, Any]:
    settings = Settings(database_url=url)
    engine = make_engine(settings)
    upgrade(engine)
    ctx = ServiceContext(settings=settings, sessions=make_sessionmaker(engine))
    statements: Counter[str] = Counter()
    part = [""]
    marks = Marks()  # under callgrind: count the measured rounds only

    def _count(*_: Any) -> None:
        if part[0]:
            statements[part[0]] += 1

    if count:
        event.listen(engine, "before_cursor_execute", _count)

    stamp = time.time_ns() % 10**9
    source = SeededRandomSource(1)
    games: dict[int, list[int]] = {}
    tokens: dict[int, str] = {}
    names: dict[int, str] = {}
    for t in range(tables):
        seated = []
        for i in range(2):
            name = f"c{stamp}t{t}p{i}"
            user = accounts.sign_up(ctx, name, PASSWORD).id
            tokens[user] = accounts.sign_in(ctx, name, PASSWORD).token
            names[user] = name
            seated.append(user)
        game = lobby.create_game(ctx, seated[0], TABLES["cash"]).game_id
        lobby.join(ctx, game, seated[1], source=source)
        games[game] = seated
    kept = KeptTables()
    sent: dict[tuple[int, int], int] = {
        (g, u): game_views.update_for(ctx, g, u, 0).detail.last_seq
        for g, users in games.items()
        for u in users
    }
    with ctx.sessions() as session:
        last_table: dict[int, Table] = {
            g: table_from_dict(session.get_one(Game, g).state) for g in games
        }
    pending = {g: _next_commands(last_table[g], users) for g, users in games.items()}
    later: list[Queued] = []  # what the committer left for the next batch
    reads: dict[int, SharedRead] = {}  # game -> its sockets' shared read
    cpu: Counter[str] = Counter()
    done_commands = refused = 0
    for round_no in range(rounds + 1):
        queued = list(later)
        for game in sorted(pending):
            for player, make in pending[game]:
                queued.append(Queued(game, tokens[player], make))
        queued.sort(key=_game_of)  # stable: the waiting ones first, as the committer
        batch, later = first_per_table(queued, _game_of)
        measured = round_no > 0  # the first round decodes every table: not counted
        part[0] = "batch" if measured else ""
        if measured:
            marks.begin()
        start = time.thread_time()
        outcomes: list[Done] = run_together(ctx, batch, kept)
        batch_cpu = time.thread_time() - start
        part[0] = "views" if measured else ""
        start = time.thread_time()
        for item, done in zip(batch, outcomes, strict=True):
            if done.result is None or done.user is None:
                continue
            change = game_views.change_of(done.result, names)
            if change is None:
                continue
            views = change_views.ChangeViews(change)
            views.seal(games[item.game_id], ctx.now())  # on the committer, as Live does
            result_text("ref", done.result, views.events(done.user.id, change.after_seq), views)
            # The sockets' shared read, seeded with the change and joined to the one
            # before it (``Live.game_changed``), then let go once both have sent it
            # (``GameFeed._last_to_catch_up``).
            read = reads.setdefault(item.game_id, SharedRead())
            read.seed(views)
            shared = read.views
            assert shared is not None
            for user in games[item.game_id]:
                key = (item.game_id, user)
                update = shared.update(user, sent[key], ctx.now())
                if update.events:
                    events_text(update.events[-1].version, update.events, shared)
                snapshot_text(update.detail, shared)
                sent[key] = update.detail.last_seq
            shared.forget()
        views_cpu = time.thread_time() - start
        if measured:
            marks.end()
        part[0] = ""
        if measured:
            cpu["batch"] += batch_cpu
            cpu["views"] += views_cpu
            done_commands += len(batch)
            refused += sum(1 for d in outcomes if d.refused is not None)
        for game in games:
            table = _table_of(outcomes, batch, game)
            if table is not None:
                last_table[game] = table
        waiting = {item.game_id for item in later}
        pending = {
            g: _next_commands(last_table[g], users)
            for g, users in games.items()
            if g not in waiting
        }
    engine.dispose()
    per = {p: round(1000 * cpu[p] / done_commands, 3) for p in PARTS}
    return {
        "database": engine.dialect.name,
        "tables": tables,
        "commands": done_commands,
        "refused": refused,
        "kept_hits": kept.hits,
        "kept_misses": kept.misses,
        "cpu_ms_per_command": per,
        "statements_per_command": (
            {p: round(statements[p] / done_commands, 2) for p in PARTS} if count else None
        ),
        "cpu_ms_on_the_committer": round(sum(per.values()), 3),
    }


def _game_of(item: Queued) -> int:
    return item.game_id


def _table_of(outcomes: list[Done], batch: list[Queued], game: int) -> Table | None:
    """The table as the game's last command of the batch left it."""
    table = None
    for item, done in zip(batch, outcomes, strict=True):
        if item.game_id == game and done.result is not None and done.result.after is not None:
            table = done.result.after.table
    return table


if __name__ == "__main__":
    main()
