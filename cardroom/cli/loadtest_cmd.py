"""``cardroom loadtest``: drive a running server with bot clients and measure it.

    $ cardroom loadtest --url http://127.0.0.1:8000 --tables 200 --duration 40 \
          --think-ms 5000 --out var/lt
    ...
    42 commands/s (36 actions/s) committed over 38 s at 200 tables, sent over HTTP;
    action to every client at the table: p50 18.7 ms, p95 70.5 ms, p99 111.1 ms
    (1,366 actions);
    0 errors, 0 refusals (409: a command from an old view);
    server RSS 160 MB before, 198 MB at most (194 KB per table), CPU 48.1%;
    storage limit 4,158 transactions/s (sqlite, one writer), 3,926 with 4 writers.

(A run on the 2-core machine of docs/benchmarks.md, 2026-11-30.) Only servers on
this machine (loopback addresses). The storage limit is measured on
``--database-url`` (default: ``$CARDROOM_DATABASE_URL``, else the room's default
SQLite file), which must be the server's own database for the figures to compare;
``--no-storage-limit`` skips it. ``--via socket`` has the players send their
actions and Continue on the table's WebSocket instead of over HTTP (docs/api.md).
See docs/benchmarks.md for how the figures are made and read.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from cardroom.cli.db_cmd import add_database_option, load_settings
from cardroom.cli.errors import CommandError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "loadtest",
        help="drive a local server with bot clients and measure it",
        description="Sign up bot players, create cash games, play them over HTTP and "
        "WebSocket, and report committed actions per second, action-to-broadcast "
        "latency, errors, the server's memory and the storage's own limit. Writes "
        "loadtest.json and loadtest.png to --out.",
    )
    parser.add_argument(
        "--url",
        action="append",
        required=True,
        help="the server's base URL, e.g. http://127.0.0.1:8000; repeat for several "
        "server processes (each table's players are spread over them)",
    )
    parser.add_argument("--tables", type=int, required=True, help="tables playing at once")
    parser.add_argument(
        "--duration", type=float, required=True, help="seconds of play (after the set-up)"
    )
    parser.add_argument("--players", type=int, default=2, help="players per table (default 2)")
    parser.add_argument(
        "--out", type=Path, default=Path("loadtest-out"), help="folder for the JSON and PNG"
    )
    parser.add_argument(
        "--server-pid",
        type=int,
        action="append",
        help="the server process(es) whose memory to read (default: whoever listens on "
        "the URLs' ports)",
    )
    parser.add_argument(
        "--warmup", type=float, default=None, help="seconds not measured at the start"
    )
    parser.add_argument(
        "--think-ms", type=float, default=0.0, help="a player's pause before acting (default 0)"
    )
    parser.add_argument(
        "--storage-seconds",
        type=float,
        default=3.0,
        help="how long to probe the storage limit (default 3)",
    )
    parser.add_argument(
        "--no-storage-limit", action="store_true", help="skip the storage limit probe"
    )
    parser.add_argument(
        "--user-prefix",
        default="",
        help="reuse the players named lt<PREFIX>00000... (default: fresh names each run)",
    )
    parser.add_argument(
        "--no-ws-compression",
        action="store_true",
        help="the players' sockets do not offer permessage-deflate (browsers do)",
    )
    parser.add_argument(
        "--route-by",
        choices=("player", "table"),
        default="player",
        help="with several --url: spread each table's players over the servers "
        "(player, the default) or keep a table on one server, as a proxy routing by "
        "game id does (table)",
    )
    parser.add_argument(
        "--via",
        choices=("http", "socket"),
        default="http",
        help="how the players send their actions and Continue: an HTTP request each "
        "(http, the default) or a message on the table's WebSocket (socket); joining, "
        "leaving and rebuying are HTTP either way",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the players' choices")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_database_option(parser)
    parser.set_defaults(handler=run)


def require_load_extra() -> None:
    """The load test's own libraries are an extra, since the room runs without them: say
    in one sentence what to install, rather than fail on an import half-way."""
    missing = []
    try:
        import aiohttp  # noqa: F401
    except ModuleNotFoundError:
        missing.append("aiohttp")
    try:
        import websockets  # noqa: F401
    except ModuleNotFoundError:
        missing.append("websockets")
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        missing.append("matplotlib")
    if missing:
        raise CommandError(
            f"The load test needs {', '.join(missing)}: install its extra with "
            "`.venv/bin/pip install -e '.[load]'` (`make test` installs it)."
        )


def run(args: argparse.Namespace) -> int:
    import json

    require_load_extra()
    from cardroom.loadtest import LoadPlan, PlanError, run_load_test
    from cardroom.loadtest.runner import LoadTestError

    database_url = None if args.no_storage_limit else load_settings(args).database_url
    warmup = args.warmup if args.warmup is not None else min(2.0, args.duration / 5)
    try:
        plan = LoadPlan(
            urls=tuple(u.rstrip("/") for u in args.url),
            tables=args.tables,
            duration_s=args.duration,
            players=args.players,
            out=args.out,
            server_pids=tuple(args.server_pid or ()),
            database_url=database_url,
            storage_seconds=args.storage_seconds,
            think_ms=args.think_ms,
            seed=args.seed,
            user_prefix=args.user_prefix,
            warmup_s=warmup,
            ws_compression=not args.no_ws_compression,
            route_by=args.route_by,
            via=args.via,
        )
        result = run_load_test(plan)
    except (PlanError, LoadTestError) as refused:
        raise CommandError(str(refused)) from None
    summary = {k: v for k, v in result.items() if k != "timeline"}
    if args.json:
        print(json.dumps(summary))
    else:
        print(describe(result))
        print(f"Wrote {plan.out / 'loadtest.json'} and {plan.out / 'loadtest.png'}.")
    return 0


def describe(result: dict[str, Any]) -> str:
    """The run in a few sentences."""
    lat, server, errors = result["latency_ms"], result["server"], result["errors"]

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:,.1f} ms"

    via = "the table's socket" if result["plan"].get("via") == "socket" else "HTTP"
    lines = [
        f"{result['commands_per_s']:,.0f} commands/s ({result['actions_per_s']:,.0f} "
        f"actions/s) committed over {result['measured_s']:.0f} s at "
        f"{result['plan']['tables']} tables, sent over {via};",
        f"action to every client at the table: p50 {ms(lat['p50'])}, p95 {ms(lat['p95'])}, "
        f"p99 {ms(lat['p99'])} ({lat['count']:,} actions);",
        f"{errors['count']} errors"
        + (f" {errors['by_kind']}" if errors["count"] else "")
        + f", {result['refusals']['count']} refusals (409: a command from an old view);",
    ]
    if server["rss_peak_mb"] is not None:
        lines.append(
            f"server RSS {server['rss_before_mb']:,.0f} MB before, {server['rss_peak_mb']:,.0f} "
            f"MB at most ({server['rss_per_table_kb']:,.0f} KB per table; "
            f"{server['rss_per_table_after_accounts_kb']:,.0f} KB from after the accounts "
            f"were made), CPU {server['cpu_percent']}%;"
        )
    else:
        lines.append("server memory not read (give --server-pid for a server not ours);")
    limit = result["storage_limit"]
    if limit is not None:
        many = result["storage_limit_concurrent"]
        lines.append(
            f"storage limit {limit['transactions_per_s']:,.0f} transactions/s "
            f"({limit['database']}, one writer)"
            + (
                f", {many['transactions_per_s']:,.0f} with {many['writers']} writers."
                if many
                else "."
            )
        )
    return "\n".join(lines)
