"""The load-test figures of docs/benchmarks.md, in one run: start real servers, drive
them with ``cardroom loadtest``, print one table.

Scenarios (issue 8's goals):

- ``sqlite-busy``: one process on a fresh SQLite file, players acting at once
  (``--think-ms 0``): the most durable actions per second one process commits;
- ``sqlite-200``: 200 tables at once, each player thinking about 5 s: latency and
  memory per table at a room's size;
- ``pg2-busy`` and ``pg2-200``: the same on PostgreSQL with two server processes, a
  table's players routed to one process (``--route-by table``);
- ``pg2-spread``: players spread over the two processes (every change read back by
  the other one);
- ``sqlite-400`` and ``pg2-400``: twice the tables of ``-200``, for what one more
  table costs in memory (the difference over the 200 tables more), apart from the
  fixed costs every per-table figure of one run includes.

Each scenario runs twice by default: the players sending ``act`` and ``continue`` as
HTTP requests, then over their table socket (``--via``).

Each ``cardroom loadtest`` also measures the storage's own limit on the same
database in the same run.

    $ .venv/bin/python benchmarks/load.py                 # every scenario but -400
    $ .venv/bin/python benchmarks/load.py sqlite-200 sqlite-400 --via socket
    $ .venv/bin/python benchmarks/load.py sqlite-busy --duration 20 --via socket
    $ CARDROOM_BENCH_POSTGRES=postgresql+psycopg://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python benchmarks/load.py pg2-busy

**The set-up of a -400 run is long.** Every player is signed up and signed in
through the room's API, and each is an argon2id hash at the room's standard cost
(about 0.2 s of a core here; the server hashes on at most one thread a core): 800
players are some 350 s of CPU, three minutes on 2 idle cores before a card is
dealt, and more on a shared machine (2026-12-03, load 13-16 from other work: 0.7
players a second, some 19 minutes for 800; a -200 run's 400 took 250 s at load 8).
The hashing stays as a room does it: the cheap
profile (``CARDROOM_PASSWORD_HASHING=cheap``) is for the test suite, and what the
set-up leaves in the process is part of the peak a -200 and a -400 run compare. So
the -200 and -400 runs can be made in turn, each in a time limit of its own, and
compared afterwards: ``--against`` reads an earlier run's ``summary.json`` (written
after every scenario, so a run cut short keeps the scenarios it finished) for the
memory per table. The report gives each run's set-up apart: accounts, then seating.
A time limit's SIGTERM (``timeout``) stops the servers on the way out.

    $ .venv/bin/python benchmarks/load.py sqlite-200 --via socket --out var/bl/200
    $ .venv/bin/python benchmarks/load.py sqlite-400 --via socket --out var/bl/400 \\
        --against var/bl/200/summary.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, make_url, text

POSTGRES_ADMIN = os.environ.get(
    "CARDROOM_BENCH_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
BENCH_DATABASE = "cardroom_bench_load"
FIRST_PORT = 8301


@dataclass(frozen=True)
class Scenario:
    name: str
    database: str  # sqlite or postgresql
    processes: int
    tables: int
    think_ms: float
    route_by: str = "table"


SCENARIOS = {
    s.name: s
    for s in (
        Scenario("sqlite-busy", "sqlite", 1, 20, 0),
        Scenario("sqlite-200", "sqlite", 1, 200, 5000),
        Scenario("pg2-busy", "postgresql", 2, 20, 0),
        Scenario("pg2-spread", "postgresql", 2, 20, 0, route_by="player"),
        Scenario("pg2-200", "postgresql", 2, 200, 5000),
        # Twice the tables at the same pace: what a table adds, the process's fixed
        # costs (threads, SQLite's page caches, pools) taken out (docs/benchmarks.md).
        Scenario("sqlite-400", "sqlite", 1, 400, 5000),
        Scenario("pg2-400", "postgresql", 2, 400, 5000),
    )
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*", help=f"some of {', '.join(SCENARIOS)}")
    parser.add_argument("--duration", type=float, default=40.0, help="seconds each")
    parser.add_argument("--out", type=Path, default=Path("var/bench-load"))
    parser.add_argument(
        "--via",
        choices=("http", "socket", "both"),
        default="both",
        help="how the players send act and continue: HTTP requests, their table socket, "
        "or each scenario both ways (default)",
    )
    parser.add_argument(
        "--against",
        type=Path,
        action="append",
        default=[],
        help="an earlier run's summary.json: its -200 rows give the memory per table "
        "of this run's -400 ones (and the other way round)",
    )
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _stopped)
    names = args.scenarios or [name for name in SCENARIOS if not name.endswith("-400")]
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown:
        parser.error(f"no scenario {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")
    vias = ("http", "socket") if args.via == "both" else (args.via,)
    earlier = [row for path in args.against for row in json.loads(path.read_text())]
    rows: list[dict[str, Any]] = []
    for name in names:
        for via in vias:
            rows.append(run(SCENARIOS[name], via, args.duration, args.out / f"{name}-{via}"))
            # After each scenario: a run stopped later keeps what it measured.
            (args.out / "summary.json").write_text(json.dumps(rows, indent=2))
    print(table(rows))
    for line in marginal_memory(rows, earlier):
        print(line)


def _stopped(signum: int, _frame: object) -> None:
    """A time limit's SIGTERM (``timeout``) unwinds like Ctrl-C: the load test is
    killed, the servers stopped and the PostgreSQL database dropped by ``run``'s
    ``finally``, so the next run finds its ports and database free."""
    raise SystemExit(128 + signum)


def run(scenario: Scenario, via: str, duration: float, out: Path) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as scratch:
        url = _fresh_database(scenario.database, Path(scratch))
        # The load test signs up every bot from this one address and acts faster
        # than a person: the room's sign-up and write limits (docs/deployment.md) are
        # off for it, as docs/deployment.md says a load test needs.
        env = {
            **os.environ,
            "CARDROOM_DATABASE_URL": url,
            "CARDROOM_SIGN_UPS_PER_ADDRESS": "0",
            "CARDROOM_WRITES_PER_SECOND": "0",
            "CARDROOM_WRITES_PER_ADDRESS_PER_SECOND": "0",
        }
        python = sys.executable
        subprocess.run(
            [python, "-m", "cardroom", "db", "upgrade"], env=env, check=True, capture_output=True
        )
        ports = [FIRST_PORT + i for i in range(scenario.processes)]
        out.mkdir(parents=True, exist_ok=True)
        logs = [out / f"server-{port}.log" for port in ports]
        servers = [
            subprocess.Popen(
                [python, "-m", "cardroom", "serve", "--port", str(port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log.open("wb"),
            )
            for port, log in zip(ports, logs, strict=True)
        ]
        try:
            for port in ports:
                _wait_for(f"http://127.0.0.1:{port}/healthz")
            command = [python, "-m", "cardroom", "loadtest", "--json"]
            for port, server in zip(ports, servers, strict=True):
                command += ["--url", f"http://127.0.0.1:{port}", "--server-pid", str(server.pid)]
            command += [
                "--tables",
                str(scenario.tables),
                "--duration",
                str(duration),
                "--think-ms",
                str(scenario.think_ms),
                "--route-by",
                scenario.route_by,
                "--via",
                via,
                "--out",
                str(out),
                "--database-url",
                url,
            ]
            load = os.getloadavg()[0]
            done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
            summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        finally:
            for server in servers:
                server.send_signal(signal.SIGTERM)
            for server in servers:
                server.wait(timeout=30)
            if scenario.database == "postgresql":
                _drop_postgres()
    batches = [b for b in map(_committer_count, logs) if b is not None]
    return {
        "scenario": scenario.name,
        "via": via,
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "batches": batches or None,
        **summary,
    }


_COMMITTER = re.compile(r"committer: (\d+) commands in (\d+) transactions, the largest (\d+)")


def _committer_count(log: Path) -> dict[str, int] | None:
    """What the server's committer said at shutdown: the socket commands it ran and
    the transactions it committed them in (cardroom/web/committer.py)."""
    found = _COMMITTER.search(log.read_text(errors="replace"))
    if found is None:
        return None
    commands, batches, largest = map(int, found.groups())
    return {"commands": commands, "batches": batches, "largest_batch": largest}


def _fresh_database(kind: str, scratch: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{scratch / 'load.db'}"
    _drop_postgres()
    engine = create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {BENCH_DATABASE}"))
    engine.dispose()
    return (
        make_url(POSTGRES_ADMIN).set(database=BENCH_DATABASE).render_as_string(hide_password=False)
    )


def _drop_postgres() -> None:
    engine = create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)"))
    engine.dispose()


def _wait_for(url: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"No server answered at {url} within {seconds:.0f} s.")


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| scenario | via | tables | actions/s | commands/s | p50 / p95 / p99 ms | errors | "
        "server CPU | KB per table (all / after accounts) | peak RSS MB | "
        "storage limit (1 / 4 writers) | set-up s (accounts / seating) | started UTC | "
        "load |\n"
        "|---|---|---:|---:|---:|---|---:|---:|---|---:|---|---|---|---:|"
    )
    lines = [head]
    for r in rows:
        lat, server = r["latency_ms"], r["server"]
        single, many = r["storage_limit"], r["storage_limit_concurrent"]
        limit = (
            "-"
            if single is None
            else f"{single['transactions_per_s']:,.0f} / "
            + ("-" if many is None else f"{many['transactions_per_s']:,.0f}")
        )
        lines.append(
            f"| {r['scenario']} | {r['via']} | {r['plan']['tables']} | {r['actions_per_s']:,.0f} | "
            f"{r['commands_per_s']:,.0f} | {_ms(lat['p50'])} / {_ms(lat['p95'])} / "
            f"{_ms(lat['p99'])} | {r['errors']['count']} | {server['cpu_percent']}% | "
            f"{server['rss_per_table_kb']:,.0f} / "
            f"{server['rss_per_table_after_accounts_kb']:,.0f} | "
            f"{_mb(server['rss_peak_mb'])} | {limit} tx/s | {_setup(r)} | "
            f"{r.get('started_at', '-')} | {r['load_before']} |"
        )
    return "\n".join(lines)


def marginal_memory(
    rows: list[dict[str, Any]], earlier: list[dict[str, Any]] | None = None
) -> list[str]:
    """What a table adds: the peak RSS of a -400 run less its -200 run's (same
    database, same way of sending), over the 200 tables more. The pair may come from
    this run or, one of them, from ``earlier`` (``--against``); this run's row wins
    where both have one."""
    peaks = {
        (r["scenario"], r["via"]): r["server"]["rss_peak_mb"] for r in [*(earlier or []), *rows]
    }
    mine = {(r["scenario"], r["via"]) for r in rows}
    lines = []
    for (name, via), peak in peaks.items():
        if not name.endswith("-400"):
            continue
        pair = (name, via), (name.replace("-400", "-200"), via)
        smaller = peaks.get(pair[1])
        if peak is None or smaller is None or not mine & set(pair):
            continue
        per_table = (peak - smaller) * 1024 / 200
        lines.append(
            f"{name[:-4]} ({via}): {per_table:,.0f} KB per table more "
            f"(peak RSS {smaller:,.1f} MB at 200 tables, {peak:,.1f} MB at 400)"
        )
    return lines


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def _mb(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _setup(row: dict[str, Any]) -> str:
    phases = row.get("setup")
    if not phases:  # a report from before the phases were timed apart
        return f"{row.get('setup_s', '-')}"
    return f"{row['setup_s']:,.0f} ({phases['accounts_s']:,.0f} / {phases['seating_s']:,.0f})"


if __name__ == "__main__":
    main()
