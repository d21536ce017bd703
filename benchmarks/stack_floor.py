"""The floor of the stack on this machine: what FastAPI, uvicorn, SQLAlchemy and the
database allow for a durable action with its broadcast, without any poker, beside
Cardroom itself, in one run and one table (docs/benchmarks.md, "The stack's floor").

For each scenario (``benchmarks/load.py``'s, by name), each way of sending (HTTP
requests, the table's socket) and each variant:

- ``floor-nodb``: ``benchmarks/floor_app.py --mode nodb``: the web stack alone (the
  request or socket message, the answer, an event and a snapshot to both players'
  sockets), on the event loop;
- ``floor-commit``: the same with one durable transaction per command on a worker
  thread (the table's row version moved, one event row, commit), on Cardroom's
  engine settings;
- ``floor-group``: the same statements per command, but the commands queued to the
  process's one committer thread, which commits all that queued (up to 64) in one
  transaction, then answers and broadcasts them (group commit; the table's ``batch``
  column is its mean batch, from the servers' ``/stats``);
- ``cardroom``: ``benchmarks/load.py``'s ``run()`` for the scenario: Cardroom itself.

The floor is driven by ``cardroom loadtest`` itself, unchanged (the floor app speaks
enough of Cardroom's API), so the client and its measurements are the same for all
variants: players signed in, a socket each, think time as the scenario says, latency
from an action's request to its event on both players' sockets. Only PostgreSQL
scenarios that route a table's players to one process are supported (the floor's
tables live in the process that made them).

    $ .venv/bin/python benchmarks/stack_floor.py                     # sqlite-busy pg2-busy
    $ .venv/bin/python benchmarks/stack_floor.py sqlite-busy --via socket --duration 20
    $ .venv/bin/python benchmarks/stack_floor.py sqlite-200 pg2-200 --variant floor-commit
    $ flock /tmp/bench-load.lock .venv/bin/python benchmarks/stack_floor.py   # (shared machine)
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, make_url, text

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS))  # benchmarks/ is not a package: load.py beside us

import floor_app  # noqa: E402
import load  # noqa: E402

BENCH_DATABASE = "cardroom_bench_floor"
FIRST_PORT = 8501  # load.py's servers take 8301 and up
VARIANTS = ("floor-nodb", "floor-commit", "floor-group", "cardroom")
DEFAULT_SCENARIOS = ("sqlite-busy", "pg2-busy")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    usable = [name for name, s in load.SCENARIOS.items() if s.route_by == "table"]
    parser.add_argument("scenarios", nargs="*", help=f"some of {', '.join(usable)}")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds each")
    parser.add_argument("--out", type=Path, default=Path("var/bench-floor"))
    parser.add_argument(
        "--via",
        choices=("http", "socket", "both"),
        default="both",
        help="how the players send their actions: HTTP requests, their table socket, or "
        "both (default)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        choices=VARIANTS,
        help="run only these, in this order (repeat; default all)",
    )
    args = parser.parse_args()
    names = args.scenarios or list(DEFAULT_SCENARIOS)
    unknown = [name for name in names if name not in usable]
    if unknown:
        parser.error(f"no scenario {', '.join(unknown)}; choose from {', '.join(usable)}")
    vias = ("http", "socket") if args.via == "both" else (args.via,)
    variants = args.variant or list(VARIANTS)
    began = datetime.now(UTC)
    rows = []
    for name in names:
        for via in vias:
            for variant in variants:
                out = args.out / f"{name}-{variant}-{via}"
                scenario = load.SCENARIOS[name]
                try:
                    if variant == "cardroom":
                        row = load.run(scenario, via, args.duration, out)
                    else:
                        row = run_floor(scenario, variant, via, args.duration, out)
                except subprocess.CalledProcessError as failed:
                    # One failed run (a load test refused under load) costs its row,
                    # not the rows of the run so far and to come.
                    said = (failed.stderr or "").strip().splitlines()[-1:]
                    print(f"{name} {variant} {via} failed: {said}", file=sys.stderr, flush=True)
                    continue
                rows.append({**row, "variant": variant})
                print(table([rows[-1]]).splitlines()[-1], file=sys.stderr, flush=True)
                args.out.mkdir(parents=True, exist_ok=True)  # so far: kept if a later run fails
                (args.out / "summary.json").write_text(json.dumps(rows, indent=2))
    ended = datetime.now(UTC)
    print(
        f"{began:%Y-%m-%d %H:%M}-{ended:%H:%M} UTC, {args.duration:g} s each, {os.cpu_count()} CPUs"
    )
    print(table(rows))


def run_floor(
    scenario: load.Scenario, variant: str, via: str, duration: float, out: Path
) -> dict[str, Any]:
    """Fresh database, the floor's server process(es), ``cardroom loadtest`` against
    them: the same as ``load.run`` does for Cardroom."""
    if scenario.route_by != "table":
        raise ValueError("the floor keeps a table in one process: route by table")
    mode = variant.removeprefix("floor-")
    python = sys.executable
    with tempfile.TemporaryDirectory() as scratch:
        url = _fresh_database(scenario.database, Path(scratch))
        floor_app.create_schema(url)
        env = {**os.environ, "FLOOR_SECRET": secrets.token_hex(16)}
        ports = [FIRST_PORT + i for i in range(scenario.processes)]
        servers = []
        for index, port in enumerate(ports):
            command = [
                python,
                str(BENCHMARKS / "floor_app.py"),
                "--port",
                str(port),
                "--mode",
                mode,
            ]
            command += ["--process-index", str(index), "--database-url", url]
            servers.append(
                subprocess.Popen(
                    command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            )
        try:
            for port in ports:
                load._wait_for(f"http://127.0.0.1:{port}/healthz")
            command = [python, "-m", "cardroom", "loadtest", "--json"]
            # The storage's own limit on the same database, as load.py's runs measure it.
            command += ["--no-storage-limit"] if mode == "nodb" else ["--database-url", url]
            for port, server in zip(ports, servers, strict=True):
                command += ["--url", f"http://127.0.0.1:{port}", "--server-pid", str(server.pid)]
            command += ["--tables", str(scenario.tables), "--duration", str(duration)]
            command += ["--think-ms", str(scenario.think_ms), "--route-by", scenario.route_by]
            command += ["--via", via, "--out", str(out)]
            load_before = os.getloadavg()[0]
            done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
            summary: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
            events = None if mode == "nodb" else _events_stored(url)
            batches = [_batches(port) for port in ports] if mode == "group" else None
        finally:
            for server in servers:
                server.send_signal(signal.SIGTERM)
            for server in servers:
                server.wait(timeout=30)
            if scenario.database == "postgresql":
                _drop_postgres()
    return {
        "scenario": scenario.name,
        "via": via,
        "load_before": round(load_before, 2),
        "events_stored": events,
        "batches": batches,
        **summary,
    }


def _fresh_database(kind: str, scratch: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{scratch / 'floor.db'}"
    _drop_postgres()
    engine = create_engine(load.POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {BENCH_DATABASE}"))
    engine.dispose()
    admin = make_url(load.POSTGRES_ADMIN)
    return admin.set(database=BENCH_DATABASE).render_as_string(hide_password=False)


def _drop_postgres() -> None:
    engine = create_engine(load.POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)"))
    engine.dispose()


def _events_stored(url: str) -> int:
    """The event rows committed over the whole run (set-up and wind-down included): a
    check that the floor's commands were written, not only answered."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT count(*) FROM floor_events")).scalar_one())
    finally:
        engine.dispose()


def _batches(port: int) -> dict[str, Any]:
    """A ``--mode group`` server's count of its batches (commands, batches, mean,
    largest), set-up and wind-down included."""
    answer = httpx.get(f"http://127.0.0.1:{port}/stats", timeout=5)
    answer.raise_for_status()
    stats: dict[str, Any] = answer.json()
    return stats


def _mean_batch(batches: list[dict[str, Any]] | None) -> str:
    if not batches:
        return "-"
    commands = sum(b["commands"] for b in batches)
    count = sum(b["batches"] for b in batches)
    largest = max(b["largest_batch"] for b in batches)
    return f"{commands / count:.1f} (≤{largest})" if count else "-"


def _storage(r: dict[str, Any]) -> str:
    single, many = r.get("storage_limit"), r.get("storage_limit_concurrent")
    if single is None:
        return "-"
    return f"{single['transactions_per_s']:,.0f} / " + (
        "-" if many is None else f"{many['transactions_per_s']:,.0f}"
    )


def _ms_per(cpu_percent: float | None, per_s: float) -> str:
    """CPU milliseconds per command, from a CPU share and a rate."""
    if cpu_percent is None or per_s <= 0:
        return "-"
    return f"{10 * cpu_percent / per_s:.2f}"


def table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| scenario | variant | via | tables | actions/s | commands/s | p50 / p95 / p99 ms | "
        "errors | server CPU | client CPU | server / client ms CPU per command | "
        "mean batch | storage limit, 1 / 4 writers, tx/s | load |\n"
        "|---|---|---|---:|---:|---:|---|---:|---:|---:|---|---|---|---:|"
    )
    lines = [head]
    for r in rows:
        lat, server, client = (
            r["latency_ms"],
            r["server"]["cpu_percent"],
            r["client"]["cpu_percent"],
        )
        per_s = r["commands_per_s"]
        lines.append(
            f"| {r['scenario']} | {r['variant']} | {r['via']} | {r['plan']['tables']} | "
            f"{r['actions_per_s']:,.0f} | {per_s:,.0f} | "
            f"{load._ms(lat['p50'])} / {load._ms(lat['p95'])} / {load._ms(lat['p99'])} | "
            f"{r['errors']['count']} | {server}% | {client}% | "
            f"{_ms_per(server, per_s)} / {_ms_per(client, per_s)} | "
            f"{_mean_batch(r.get('batches'))} | {_storage(r)} | {r['load_before']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
