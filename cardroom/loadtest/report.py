"""The run's figures as JSON, and a plot of them (PNG, matplotlib's Agg backend)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

JSON_NAME = "loadtest.json"
PNG_NAME = "loadtest.png"


def write_json(result: dict[str, Any], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / JSON_NAME
    path.write_text(json.dumps(result, indent=2, sort_keys=False) + "\n")
    return path


def write_plot(result: dict[str, Any], folder: Path) -> Path:
    """Three panels over the measured seconds: committed actions and commands per
    second (with the storage limit as a line), action-to-broadcast latency (p50,
    p99), and the server's memory."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    timeline = result["timeline"]
    t = [s["t"] for s in timeline]
    fig, (rate, latency, memory) = plt.subplots(3, 1, figsize=(9, 9), sharex=True)
    plan = result["plan"]
    fig.suptitle(
        f"Cardroom load test: {plan['tables']} tables x {plan['players']} players, "
        f"{len(plan['urls'])} server process(es), {result['database'] or 'database ?'}"
    )
    rate.plot(t, [s["commands"] for s in timeline], label="commands committed /s")
    rate.plot(t, [s["actions"] for s in timeline], label="actions committed /s")
    limit = (result.get("storage_limit") or {}).get("transactions_per_s")
    if limit:
        rate.axhline(limit, color="grey", linestyle="--", label=f"storage limit {limit:,.0f} tx/s")
    rate.set_ylabel("per second")
    rate.legend(loc="lower right", fontsize="small")
    rate.grid(alpha=0.3)

    for key, label in (("latency_p50_ms", "p50"), ("latency_p99_ms", "p99")):
        points = [(s["t"], s[key]) for s in timeline if s[key] is not None]
        latency.plot([p[0] for p in points], [p[1] for p in points], label=label)
    latency.axhline(50, color="grey", linestyle="--", label="50 ms goal")
    latency.set_ylabel("action to every client (ms)")
    latency.legend(loc="upper right", fontsize="small")
    latency.grid(alpha=0.3)

    points = [(s["t"], s["rss_mb"]) for s in timeline if s["rss_mb"] is not None]
    if points:
        memory.plot([p[0] for p in points], [p[1] for p in points], label="server RSS")
        memory.legend(loc="lower right", fontsize="small")
    memory.set_ylabel("server RSS (MB)")
    memory.set_xlabel("seconds into the measured window")
    memory.grid(alpha=0.3)

    fig.tight_layout()
    path = folder / PNG_NAME
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
