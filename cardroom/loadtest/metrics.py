"""Counters, latencies and a per-second timeline, kept by the load test's event
loop (one thread: no locks)."""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100) by the nearest-rank method; None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Second:
    """What happened in one second of the run."""

    t: int  # seconds since the measured window began
    actions: int = 0
    commands: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    rss_bytes: int | None = None
    server_cpu_percent: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "actions": self.actions,
            "commands": self.commands,
            "errors": self.errors,
            "latency_p50_ms": _ms(percentile(self.latencies, 50)),
            "latency_p99_ms": _ms(percentile(self.latencies, 99)),
            "rss_mb": None if self.rss_bytes is None else round(self.rss_bytes / 2**20, 1),
            "server_cpu_percent": self.server_cpu_percent,
        }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 2)


@dataclass
class Metrics:
    """Everything counted while measuring (between ``begin`` and ``end``)."""

    started: float | None = None
    ended: float | None = None
    actions: int = 0  # committed player actions (fold, check, call, bet, raise)
    commands: int = 0  # every committed command: actions, Continue, rebuys...
    latencies: list[float] = field(default_factory=list)  # seconds
    errors: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # kind: the first message
    seconds: list[Second] = field(default_factory=list)
    requests: int = 0  # every HTTP request sent while measuring

    def begin(self) -> None:
        self.started = time.perf_counter()

    def end(self) -> None:
        self.ended = time.perf_counter()

    @property
    def measuring(self) -> bool:
        return self.started is not None and self.ended is None

    def _second(self) -> Second | None:
        if not self.measuring:
            return None
        assert self.started is not None
        t = int(time.perf_counter() - self.started)
        while len(self.seconds) <= t:
            self.seconds.append(Second(len(self.seconds)))
        return self.seconds[t]

    def committed(self, *, action: bool) -> None:
        second = self._second()
        if second is None:
            return
        self.commands += 1
        second.commands += 1
        if action:
            self.actions += 1
            second.actions += 1

    def latency(self, seconds: float) -> None:
        second = self._second()
        if second is None:
            return
        self.latencies.append(seconds)
        second.latencies.append(seconds)

    def error(self, kind: str, example: str | None = None) -> None:
        second = self._second()
        if second is None:
            return
        self.errors[kind] += 1
        second.errors += 1
        if example is not None and kind not in self.examples:
            self.examples[kind] = example[:200]

    def refused(self, kind: str, example: str) -> None:
        """A 409: the server refused a command made from a view that was already old
        (a Continue pressed as the next hand was dealt, an action on an old version).
        Real clients meet these too; they are counted apart from errors."""
        if self._second() is None:
            return
        self.refusals[kind] += 1
        if kind not in self.examples:
            self.examples[kind] = example[:200]

    def request(self) -> None:
        if self.measuring:
            self.requests += 1

    @property
    def elapsed(self) -> float:
        if self.started is None:
            return 0.0
        end = self.ended if self.ended is not None else time.perf_counter()
        return end - self.started

    def summary(self) -> dict[str, Any]:
        elapsed = self.elapsed or 1e-9
        lat = self.latencies
        return {
            "measured_s": round(self.elapsed, 3),
            "actions": self.actions,
            "commands": self.commands,
            "actions_per_s": round(self.actions / elapsed, 1),
            "commands_per_s": round(self.commands / elapsed, 1),
            "requests": self.requests,
            "latency_ms": {
                "count": len(lat),
                "p50": _ms(percentile(lat, 50)),
                "p95": _ms(percentile(lat, 95)),
                "p99": _ms(percentile(lat, 99)),
                "max": _ms(max(lat) if lat else None),
                "mean": _ms(sum(lat) / len(lat) if lat else None),
            },
            "errors": {
                "count": sum(self.errors.values()),
                "by_kind": dict(self.errors),
                "examples": {k: v for k, v in self.examples.items() if k in self.errors},
            },
            "refusals": {
                "count": sum(self.refusals.values()),
                "by_kind": dict(self.refusals),
                "examples": {k: v for k, v in self.examples.items() if k in self.refusals},
            },
        }
