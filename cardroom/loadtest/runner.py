"""A whole load test run: set up users and tables, play, measure, wind down, probe
the storage, report."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import resource
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import urlsplit

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from cardroom.loadtest.clients import ANSWER_TIMEOUT_S, Player, Room, TableClient
from cardroom.loadtest.http import HTTP_ERRORS, HttpClient, Reply
from cardroom.loadtest.metrics import Metrics, percentile
from cardroom.loadtest.plan import LoadPlan, PlanError
from cardroom.loadtest.report import write_json, write_plot
from cardroom.loadtest.server import ServerWatch, pid_listening_on
from cardroom.loadtest.storage import StorageLimit, measure

T = TypeVar("T")
WIND_DOWN_S = 15.0
CONCURRENT_STORAGE_WRITERS = 4


class LoadTestError(RuntimeError):
    """The run could not go on (the server refused the setup, or is not there)."""


def run_load_test(plan: LoadPlan, console: Console | None = None) -> dict[str, Any]:
    """Run ``plan`` against the server(s); write JSON and PNG to ``plan.out``; return
    the figures."""
    _raise_open_files_limit()
    return asyncio.run(_run(plan, console or Console(stderr=True)))


def _raise_open_files_limit() -> None:
    """A socket and a connection per player: lift the soft limit to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def server_pids(plan: LoadPlan) -> tuple[int, ...]:
    if plan.server_pids:
        return plan.server_pids
    found: list[int] = []
    for url in plan.urls:
        parts = urlsplit(url)
        pid = pid_listening_on(parts.port or 80)
        if pid is not None and pid not in found:
            found.append(pid)
    return tuple(found)


async def _limited(works: Iterable[Callable[[], Awaitable[T]]], concurrency: int) -> list[T]:
    gate = asyncio.Semaphore(concurrency)

    async def one(work: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await work()

    return list(await asyncio.gather(*(one(w) for w in works)))


def _check(reply: Reply, what: str) -> dict[str, Any]:
    if reply.status >= 300 or not isinstance(reply.body, dict):
        raise LoadTestError(f"{what} was refused: {reply.status} {reply.text[:200]}")
    return reply.body


async def _run(plan: LoadPlan, console: Console) -> dict[str, Any]:
    metrics = Metrics()
    connections = plan.tables + 32  # per server, all of them kept alive
    http = {url: HttpClient(url, connections, ANSWER_TIMEOUT_S) for url in plan.urls}
    room = Room(
        metrics,
        http,
        think_s=plan.think_ms / 1000,
        ws_compression=plan.ws_compression,
        via=plan.via,
    )
    pids = server_pids(plan)
    watch = ServerWatch(pids) if pids else None
    started_at = datetime.now(UTC)
    load_before = list(os.getloadavg())
    try:
        for url, client in http.items():
            try:
                health = await client.get("/healthz")
            except HTTP_ERRORS:
                raise LoadTestError(f"No server answers at {url}.") from None
            _check(health, f"{url}/healthz")
        rss_before = watch.rss() if watch else None
        setup_began = time.perf_counter()
        tables, rss_after_accounts, accounts_s = await _set_up(plan, room, console, watch)
        setup = SetUpTimes(accounts_s, time.perf_counter() - setup_began - accounts_s)
        players = [p for table in tables for p in table.players]
        result = await _play(plan, room, players, watch, console)
        await _wind_down(room, players)
    finally:
        for task in list(room.tasks):
            task.cancel()
        for client in http.values():
            await client.close()
    storage = single = None
    if plan.database_url and plan.storage_seconds > 0:
        console.print("Measuring the storage's own limit on the same database...")
        single = await asyncio.to_thread(measure, plan.database_url, plan.storage_seconds, 1)
        storage = await asyncio.to_thread(
            measure, plan.database_url, plan.storage_seconds, CONCURRENT_STORAGE_WRITERS
        )
    report = _report(
        plan,
        started_at,
        setup,
        metrics,
        result,
        (rss_before, rss_after_accounts),
        single,
        storage,
        load_before,
    )
    write_json(report, plan.out)
    write_plot(report, plan.out)
    return report


def _per_table_kb(peak: int | None, mark: int | None, tables: int) -> float | None:
    if peak is None or mark is None:
        return None
    return round((peak - mark) / tables / 1024, 1)


# -- setting up ----------------------------------------------------------------------


@dataclass(frozen=True)
class SetUpTimes:
    """Seconds of the set-up's two phases. Making the accounts is the server's
    password hashing: a sign-up and a sign-in are an argon2id hash each, about 0.2 s
    of a core at the room's standard cost, so 800 players (400 tables) take several
    minutes on 2 cores before a card is dealt; seating is games made, sockets opened
    and seats joined. Neither is in the measured play."""

    accounts_s: float
    seating_s: float

    @property
    def total_s(self) -> float:
        return self.accounts_s + self.seating_s

    def to_dict(self) -> dict[str, float]:
        return {"accounts_s": round(self.accounts_s, 2), "seating_s": round(self.seating_s, 2)}


def servers_for_table(urls: Sequence[str], table: int, players: int, route_by: str) -> list[str]:
    """The server each player of table number ``table`` talks to: spread over the
    servers (``player``), or all on the table's one (``table``, as a proxy routing by
    game id would)."""
    if route_by == "table":
        return [urls[table % len(urls)]] * players
    return [urls[(table + k) % len(urls)] for k in range(players)]


async def _set_up(
    plan: LoadPlan, room: Room, console: Console, watch: ServerWatch | None
) -> tuple[list[TableClient], int | None, float]:
    """The tables, seated and playing; the servers' RSS once the accounts are made,
    before the first table (the mark the tables' own memory is counted from); and the
    seconds the accounts took."""
    began = time.perf_counter()
    prefix = plan.user_prefix or secrets.token_hex(3)
    names = [f"lt{prefix}{i:05d}" for i in range(plan.users)]
    urls = plan.urls
    with _progress(console) as progress:
        task = progress.add_task("signing up players", total=len(names), stats="")

        async def account(i: int) -> tuple[str, int, str]:
            name = names[i]
            client = room.http[urls[i % len(urls)]]
            body = {"name": name, "password": plan.password}
            made = await client.post("/api/accounts/sign-up", body)
            if made.status != 201 and not (plan.user_prefix and made.status == 409):
                _check(made, f"Signing up {name}")
            signed = _check(await client.post("/api/accounts/sign-in", body), "Sign-in")
            progress.advance(task)
            return name, int(signed["user"]["id"]), str(signed["token"])

        accounts = await _limited(
            [functools.partial(account, i) for i in range(len(names))], plan.setup_concurrency
        )
        rss_after_accounts = watch.rss() if watch else None
        accounts_s = time.perf_counter() - began
        progress.update(task, description="seating tables", completed=0, total=plan.tables)

        async def table(t: int) -> TableClient:
            seats = accounts[t * plan.players : (t + 1) * plan.players]
            mine = servers_for_table(urls, t, plan.players, plan.route_by)
            host_client = room.http[mine[0]]
            options = {
                "preset": "house",
                "format": "cash",
                "seats": plan.players,
                "buy_in": plan.buy_in,
                "small_blind": 1,
                "big_blind": 2,
            }
            created = _check(
                await host_client.post("/api/games", options, _bearer(seats[0][2])),
                "Creating a game",
            )
            client_table = TableClient(room, int(created["game_id"]))
            for k, (name, user_id, token) in enumerate(seats):
                seed = plan.seed * 7919 + t * 10 + k
                player = Player(room, client_table, k, name, user_id, token, mine[k], seed)
                client_table.players.append(player)
                room.spawn(player.listen())
            for player in client_table.players:
                await player.connected.wait()
                if player.ws is None:
                    raise LoadTestError(f"{player.name}'s socket did not open.")
            for player in client_table.players[1:]:
                joined = await player.http.post(
                    f"/api/games/{client_table.game_id}/join", {}, player.headers
                )
                _check(joined, "Joining a game")
            progress.advance(task)
            return client_table

        tables = await _limited(
            [functools.partial(table, t) for t in range(plan.tables)], plan.setup_concurrency
        )
    return tables, rss_after_accounts, accounts_s


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f}"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[stats]}"),
        console=console,
        transient=False,
    )


# -- playing -------------------------------------------------------------------------


async def _play(
    plan: LoadPlan,
    room: Room,
    players: list[Player],
    watch: ServerWatch | None,
    console: Console,
) -> dict[str, Any]:
    metrics = room.metrics
    room.go.set()
    for player in players:
        player.decide()
    await asyncio.sleep(plan.warmup_s)
    measured_s = plan.duration_s - plan.warmup_s
    rss_peak = 0
    rss_samples: list[int] = []
    cpu_begin = watch.cpu() if watch else None
    client_cpu_begin = time.process_time()
    metrics.begin()
    with _progress(console) as progress:
        task = progress.add_task("playing", total=measured_s, stats="")
        last_cpu, last_t = cpu_begin, time.perf_counter()
        while metrics.elapsed < measured_s:
            await asyncio.sleep(min(1.0, max(0.05, measured_s - metrics.elapsed)))
            second = metrics._second()
            rss = watch.rss() if watch else None
            if rss is not None:
                rss_peak = max(rss_peak, rss)
                rss_samples.append(rss)
            cpu = watch.cpu() if watch else None
            now = time.perf_counter()
            if second is not None:
                second.rss_bytes = rss
                if cpu is not None and last_cpu is not None and now > last_t:
                    second.server_cpu_percent = round(100 * (cpu - last_cpu) / (now - last_t), 1)
            last_cpu, last_t = cpu, now
            elapsed = metrics.elapsed or 1e-9
            p99 = percentile(metrics.latencies[-2000:], 99)
            progress.update(
                task,
                completed=min(elapsed, measured_s),
                stats=(
                    f"{metrics.actions / elapsed:,.0f} actions/s  "
                    f"{metrics.commands / elapsed:,.0f} commands/s  "
                    f"p99 {0 if p99 is None else p99 * 1000:,.1f} ms  "
                    f"errors {sum(metrics.errors.values())}"
                    + ("" if rss is None else f"  server {rss / 2**20:,.0f} MB")
                ),
            )
    metrics.end()
    cpu_end = watch.cpu() if watch else None
    client_cpu = time.process_time() - client_cpu_begin
    return {
        "rss_peak": rss_peak or None,
        "rss_end": rss_samples[-1] if rss_samples else None,
        "server_cpu_s": None if cpu_end is None or cpu_begin is None else cpu_end - cpu_begin,
        "client_cpu_s": client_cpu,
        "pids": watch.pids if watch else (),
    }


async def _wind_down(room: Room, players: list[Player]) -> None:
    """Finish the hands being played, then everyone leaves (cashed out)."""
    room.stopping = True
    for player in players:
        player.decide()
    deadline = time.perf_counter() + WIND_DOWN_S
    while time.perf_counter() < deadline and not all(p.left for p in players):
        await asyncio.sleep(0.2)
    for player in players:
        if not player.left:
            player.left = True
            with contextlib.suppress(Exception):
                await player.http.post(
                    f"/api/games/{player.table.game_id}/leave", {}, player.headers
                )
            if player.ws is not None:
                with contextlib.suppress(Exception):
                    await player.ws.close()


# -- the report ----------------------------------------------------------------------


def _mb(value: int | None) -> float | None:
    return None if value is None else round(value / 2**20, 1)


def _report(
    plan: LoadPlan,
    started_at: datetime,
    setup: SetUpTimes,
    metrics: Metrics,
    played: dict[str, Any],
    marks: tuple[int | None, int | None],
    single: StorageLimit | None,
    concurrent: StorageLimit | None,
    load_before: list[float],
) -> dict[str, Any]:
    summary = metrics.summary()
    measured = metrics.elapsed or 1e-9
    peak, end = played["rss_peak"], played["rss_end"]
    rss_before, rss_after_accounts = marks
    # Two figures: everything the run added, set-up included, over the tables; and
    # the tables' own, from the mark after the accounts were made. Signing up a whole
    # room in a minute (argon2id hashes, a crowd of HTTP connections) leaves the
    # process larger, once, whatever the number of tables; a room's accounts come
    # over weeks.
    per_table = _per_table_kb(peak, rss_before, plan.tables)
    per_table_playing = _per_table_kb(peak, rss_after_accounts, plan.tables)
    limit = single.to_dict() if single else None
    database = single.database if single else None
    return {
        "started_at": started_at.isoformat().replace("+00:00", "Z"),
        "plan": {
            "urls": list(plan.urls),
            "route_by": plan.route_by,
            "via": plan.via,
            "tables": plan.tables,
            "players": plan.players,
            "duration_s": plan.duration_s,
            "warmup_s": plan.warmup_s,
            "think_ms": plan.think_ms,
            "buy_in_cents": plan.buy_in,
            "ws_compression": plan.ws_compression,
        },
        "database": database,
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_before": load_before,
            "load_average_after": list(os.getloadavg()),
        },
        "setup_s": round(setup.total_s, 2),
        "setup": setup.to_dict(),
        **summary,
        "server": {
            "pids": list(played["pids"]),
            "rss_before_mb": _mb(rss_before),
            "rss_peak_mb": _mb(peak),
            "rss_end_mb": _mb(end),
            "rss_after_accounts_mb": _mb(rss_after_accounts),
            "rss_per_table_kb": per_table,
            "rss_per_table_after_accounts_kb": per_table_playing,
            "cpu_percent": None
            if played["server_cpu_s"] is None
            else round(100 * played["server_cpu_s"] / measured, 1),
        },
        "client": {"cpu_percent": round(100 * played["client_cpu_s"] / measured, 1)},
        "storage_limit": limit,
        "storage_limit_concurrent": concurrent.to_dict() if concurrent else None,
        "commands_vs_storage_limit": None
        if single is None or single.per_second == 0
        else round(summary["commands_per_s"] / single.per_second, 3),
        "timeline": [second.to_dict() for second in metrics.seconds],
    }


__all__ = ["LoadTestError", "PlanError", "run_load_test"]
