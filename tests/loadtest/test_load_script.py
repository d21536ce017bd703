"""``benchmarks/load.py``'s figures from its rows: what a table adds in memory, from a
-200 and a -400 run made together or one after the other (``--against``), and the
table it prints."""

from __future__ import annotations

import importlib.util
import signal
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

LOAD_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def _load_script() -> ModuleType:
    """benchmarks/ is not a package: load load.py from its file (registered under a
    name of its own first, as its dataclasses need)."""
    name = "load_script_under_test"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, LOAD_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _row(scenario: str, via: str, peak_mb: float | None, **more: Any) -> dict[str, Any]:
    return {
        "scenario": scenario,
        "via": via,
        "load_before": 1.5,
        "started_at": "2026-12-03T18:00:00.000000Z",
        "plan": {"tables": int(scenario.rsplit("-", 1)[1])},
        "actions_per_s": 36.0,
        "commands_per_s": 42.0,
        "latency_ms": {"p50": 6.0, "p95": 11.0, "p99": 20.0},
        "errors": {"count": 0},
        "server": {
            "cpu_percent": 22.0,
            "rss_peak_mb": peak_mb,
            "rss_per_table_kb": 150.0,
            "rss_per_table_after_accounts_kb": 140.0,
        },
        "storage_limit": None,
        "storage_limit_concurrent": None,
        "setup_s": 200.4,
        **more,
    }


def test_a_table_more_from_a_200_and_a_400_run_in_one_go() -> None:
    load = _load_script()
    rows = [_row("sqlite-200", "socket", 182.0), _row("sqlite-400", "socket", 196.0)]
    assert load.marginal_memory(rows) == [
        "sqlite (socket): 72 KB per table more (peak RSS 182.0 MB at 200 tables, 196.0 MB at 400)"
    ]


def test_a_table_more_against_an_earlier_runs_summary() -> None:
    """The -400 run made in a time limit of its own: its -200 pair comes from the
    earlier summary, either way round; rows of the earlier run alone print nothing."""
    load = _load_script()
    earlier = [_row("sqlite-200", "socket", 182.0), _row("pg2-200", "socket", 340.0)]
    now = [_row("sqlite-400", "socket", 196.0)]
    assert load.marginal_memory(now, earlier) == [
        "sqlite (socket): 72 KB per table more (peak RSS 182.0 MB at 200 tables, 196.0 MB at 400)"
    ]
    assert load.marginal_memory(earlier, now) == load.marginal_memory(now, earlier)
    assert load.marginal_memory([_row("pg2-400", "http", 356.0)], earlier) == []  # no pair
    assert load.marginal_memory([], earlier + now) == []  # nothing of this run
    # this run's own -200 row wins over the earlier one's
    again = [_row("sqlite-200", "socket", 186.0), *now]
    assert load.marginal_memory(again, earlier)[0].startswith("sqlite (socket): 51 KB")


def test_the_printed_table_gives_the_set_up_its_phases_and_when_each_run_began() -> None:
    load = _load_script()
    phased = _row("sqlite-400", "socket", 196.0, setup={"accounts_s": 180.2, "seating_s": 20.2})
    lines = load.table([_row("sqlite-200", "socket", None), phased]).splitlines()
    assert lines[0].count("|") == lines[1].count("|") == lines[2].count("|")
    assert "| 200.4 | 2026-12-03T18:00:00.000000Z | 1.5 |" in lines[2]  # no phases
    assert "| 200 (180 / 20) | 2026-12-03T18:00:00.000000Z |" in lines[3]
    assert "| 196.0 |" in lines[3] and "| - |" in lines[2]  # the peak RSS, if read


def test_a_time_limits_sigterm_unwinds_the_run() -> None:
    """``timeout`` stops load.py with SIGTERM: it must raise, so that ``run``'s
    ``finally`` stops the servers and drops the database, not leave them behind."""
    load = _load_script()
    with pytest.raises(SystemExit) as stopped:
        load._stopped(signal.SIGTERM, None)
    assert stopped.value.code == 128 + signal.SIGTERM
