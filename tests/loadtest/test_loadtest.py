"""The load test against a real ``cardroom serve`` process: a tiny run (2 tables, a
few seconds) plays, reports every figure, and writes the JSON and the plot."""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import inspect
from sqlalchemy.orm import Session

from cardroom.cli import CommandError, loadtest_cmd
from cardroom.config import Settings
from cardroom.loadtest import LoadPlan, PlanError, run_load_test
from cardroom.loadtest.metrics import percentile
from cardroom.loadtest.plan import check_local_url
from cardroom.loadtest.runner import servers_for_table
from cardroom.loadtest.server import cpu_seconds, pid_listening_on, rss_bytes
from cardroom.loadtest.storage import measure
from cardroom.store import migrate
from cardroom.store.audit import audit
from cardroom.store.db import make_engine
from tests.servers import free_port, started

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str, int]]:
    """(base URL, database URL, pid) of a ``cardroom serve`` on a fresh SQLite file."""
    database = f"sqlite:///{tmp_path / 'room.db'}"
    engine = make_engine(Settings(database_url=database))
    migrate.upgrade(engine)
    engine.dispose()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env["CARDROOM_PASSWORD_HASHING"] = "cheap"
    env["CARDROOM_SIGN_UPS_PER_ADDRESS"] = "0"  # every test player signs up from 127.0.0.1
    env["CARDROOM_WRITES_PER_ADDRESS_PER_SECOND"] = "0"  # so do all their writes
    env["CARDROOM_WRITES_PER_SECOND"] = "0"  # bots act as fast as they can
    log = tmp_path / "server.out"
    command = [sys.executable, "-m", "cardroom", "serve", "--port", str(port)]
    command += ["--database-url", database]
    with started(command, port, log, cwd=tmp_path, env=env, stop_seconds=20) as process:
        yield f"http://127.0.0.1:{port}", database, process.pid
    assert "Traceback" not in log.read_text(), log.read_text()


@pytest.mark.parametrize("via", ["http", "socket"])
def test_a_tiny_load_test_reports_every_figure_and_writes_json_and_png(
    server: tuple[str, str, int], tmp_path: Path, via: str
) -> None:
    """Played with the actions and Continue sent over HTTP, or over the table's
    socket (``--via socket``)."""
    base, database, pid = server
    out = tmp_path / "out"
    plan = LoadPlan(
        urls=(base,),
        tables=2,
        duration_s=4.0,
        warmup_s=0.5,
        out=out,
        database_url=database,
        storage_seconds=0.5,
        via=via,
    )
    result = run_load_test(plan)
    saved = json.loads((out / "loadtest.json").read_text())
    assert saved == json.loads(json.dumps(result))
    for key in (
        "plan",
        "database",
        "machine",
        "setup_s",
        "measured_s",
        "actions",
        "commands",
        "actions_per_s",
        "commands_per_s",
        "latency_ms",
        "errors",
        "refusals",
        "server",
        "client",
        "storage_limit",
        "storage_limit_concurrent",
        "commands_vs_storage_limit",
        "timeline",
    ):
        assert key in saved, key
    assert saved["database"] == "sqlite"
    assert saved["plan"]["via"] == via
    # the set-up's two phases, timed apart: the accounts (password hashing), then seating
    phases = saved["setup"]
    assert set(phases) == {"accounts_s", "seating_s"}
    assert phases["accounts_s"] > 0 and phases["seating_s"] > 0
    assert abs(phases["accounts_s"] + phases["seating_s"] - saved["setup_s"]) <= 0.02
    # Requests are counted from when they leave, commands once committed: a player's
    # one command in flight as the measure began is a command and no request.
    if via == "http":
        assert saved["requests"] >= saved["commands"] - plan.users, "a request per command"
    else:  # only a rebuy (a player out of chips) is still a request
        assert saved["requests"] < saved["actions"] / 2, saved["requests"]
    assert saved["actions"] > 0 and saved["actions_per_s"] > 0
    assert saved["commands"] >= saved["actions"]
    latency = saved["latency_ms"]
    assert latency["count"] > 0
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
    assert saved["errors"]["count"] == 0, saved["errors"]
    assert saved["server"]["pids"] == [pid], "found by the port it listens on"
    assert saved["server"]["rss_peak_mb"] > 0 and saved["server"]["rss_per_table_kb"] is not None
    server = saved["server"]
    # the tables' own memory is counted from a later mark: never more than the whole
    assert server["rss_before_mb"] <= server["rss_after_accounts_mb"] + 1
    assert server["rss_per_table_after_accounts_kb"] <= server["rss_per_table_kb"] + 1
    assert saved["storage_limit"]["transactions_per_s"] > 0
    assert saved["storage_limit"]["writers"] == 1
    assert saved["timeline"] and {"t", "actions", "latency_p99_ms", "rss_mb"} <= set(
        saved["timeline"][0]
    )
    png = (out / "loadtest.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000

    # The players left at the end: nobody is seated, and no chip was made or lost.
    engine = make_engine(Settings(database_url=database))
    try:
        assert "cardroom_storage_probe" not in inspect(engine).get_table_names()
        with Session(engine) as session:
            report = audit(session)
        assert report.differences == ()
    finally:
        engine.dispose()
    described = loadtest_cmd.describe(result)
    assert described.count(";") >= 3
    assert ("sent over the table's socket;" in described) == (via == "socket"), described


def test_only_local_servers_and_bounded_runs() -> None:
    assert check_local_url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000"
    assert check_local_url("http://localhost:8000") == "http://localhost:8000"
    for url in ("http://192.0.2.1:8000", "https://127.0.0.1:8000", "http://127.0.0.1/x", "ftp://x"):
        with pytest.raises(PlanError):
            check_local_url(url)
    for bad in (
        {"tables": 0},
        {"tables": 5000},
        {"duration_s": 0},
        {"players": 11},
        {"route_by": "seat"},
        {"via": "pigeon"},
    ):
        kwargs = {"urls": ("http://127.0.0.1:1",), "tables": 1, "duration_s": 1.0, **bad}
        with pytest.raises(PlanError):
            LoadPlan(**kwargs)  # type: ignore[arg-type]
    parser_args = ["--url", "http://198.51.100.7:80", "--tables", "1", "--duration", "1"]
    with pytest.raises(CommandError, match="this machine"):
        _run_cli(parser_args)
    with pytest.raises(SystemExit):  # argparse refuses it before any plan
        _run_cli(["--url", "http://127.0.0.1:1", "--tables", "1", "--duration", "1", "--via", "x"])


def _run_cli(argv: list[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    loadtest_cmd.register(commands)
    args = parser.parse_args(["loadtest", *argv, "--no-storage-limit"])
    return int(args.handler(args))


def test_percentiles_and_the_proc_readers(tmp_path: Path) -> None:
    assert percentile([], 50) is None
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 99), percentile(values, 100)) == (
        50.0,
        99.0,
        100.0,
    )
    assert (rss_bytes(os.getpid()) or 0) > 10 * 2**20
    assert (cpu_seconds(os.getpid()) or 0) > 0
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert pid_listening_on(listener.getsockname()[1]) == os.getpid()
    limit = measure(f"sqlite:///{tmp_path / 'probe.db'}", seconds=0.3)
    assert limit.transactions > 0 and limit.database == "sqlite"


def test_a_table_on_one_server_or_its_players_spread() -> None:
    urls = ["http://127.0.0.1:1", "http://127.0.0.1:2"]
    assert servers_for_table(urls, 3, 2, "table") == [urls[1], urls[1]]
    assert servers_for_table(urls, 3, 2, "player") == [urls[1], urls[0]]
    assert set(servers_for_table(urls, 0, 6, "player")) == set(urls)


def test_without_its_extra_the_load_test_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`make run` installs the room without the load test's libraries: the command then
    names the extra in one sentence instead of failing on an import."""
    import builtins

    real_import = builtins.__import__

    def without_aiohttp(name: str, *args: object, **kwargs: object) -> object:
        if name == "aiohttp":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", without_aiohttp)
    with pytest.raises(CommandError, match=r"needs aiohttp: install its extra .*\[load\]"):
        _run_cli(["--url", "http://127.0.0.1:1", "--tables", "1", "--duration", "1"])
