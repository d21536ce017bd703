"""What a load test run is asked to do, checked: local servers only, bounded in
tables, players, time and connections."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

MAX_TABLES = 1000
MAX_PLAYERS = 9
MAX_DURATION_S = 3600.0
MAX_SERVERS = 8


class PlanError(ValueError):
    """An option the load test refuses, as one sentence."""


ROUTES = ("player", "table")
VIAS = ("http", "socket")


@dataclass(frozen=True)
class LoadPlan:
    urls: tuple[str, ...]  # base URLs of the server processes, e.g. http://127.0.0.1:8000
    tables: int
    duration_s: float
    players: int = 2  # per table
    out: Path = Path("loadtest-out")
    server_pids: tuple[int, ...] = ()  # empty: found from the URLs' ports
    database_url: str | None = None  # for the storage limit; None: skip it
    storage_seconds: float = 3.0
    think_ms: float = 0.0  # a player's pause before acting
    buy_in: int = 100  # cents; blinds 1 and 2
    seed: int = 1
    user_prefix: str = ""  # "": a fresh prefix per run
    password: str = "loadtest-password"
    setup_concurrency: int = 8
    warmup_s: float = 2.0  # measured from the end of the warm-up
    ws_compression: bool = True  # offer permessage-deflate, as browsers do
    # With several server processes: "player" spreads each table's players over them
    # (every change is read back by another process); "table" sends a table's players
    # to one process, as a proxy routing by game id would (docs/scaling.md).
    route_by: str = "player"
    # How the players send the commands of play (act, Continue): an HTTP request each,
    # or a message on the table's socket they hold anyway (docs/api.md, "Playing over
    # the table's socket"). Joining, leaving and rebuying are HTTP either way.
    via: str = "http"

    def __post_init__(self) -> None:
        if self.route_by not in ROUTES:
            raise PlanError(f"Route by {' or '.join(ROUTES)}, not {self.route_by!r}.")
        if self.via not in VIAS:
            raise PlanError(f"Send the commands via {' or '.join(VIAS)}, not {self.via!r}.")
        if not self.urls:
            raise PlanError("Give the server's address with --url.")
        if len(self.urls) > MAX_SERVERS:
            raise PlanError(f"At most {MAX_SERVERS} server addresses.")
        for url in self.urls:
            check_local_url(url)
        if not 1 <= self.tables <= MAX_TABLES:
            raise PlanError(f"Tables are 1 to {MAX_TABLES}, not {self.tables}.")
        if not 2 <= self.players <= MAX_PLAYERS:
            raise PlanError(f"Players per table are 2 to {MAX_PLAYERS}, not {self.players}.")
        if not 0 < self.duration_s <= MAX_DURATION_S:
            raise PlanError(f"The duration is over 0 and at most {MAX_DURATION_S:.0f} seconds.")
        if not 0 <= self.think_ms <= 60_000:
            raise PlanError("A think time is 0 to 60,000 ms.")
        if not 0 <= self.storage_seconds <= 60:
            raise PlanError("The storage probe runs 0 to 60 seconds.")
        if not 0 <= self.warmup_s < self.duration_s:
            raise PlanError("The warm-up is shorter than the run.")
        if not 2 <= self.buy_in <= 100_000:
            raise PlanError("The buy-in is 2 to 100,000 cents.")
        if len(self.user_prefix) > 8 or not all(c.isalnum() for c in self.user_prefix):
            raise PlanError("A user prefix is at most 8 letters or digits.")

    @property
    def users(self) -> int:
        return self.tables * self.players


def check_local_url(url: str) -> str:
    """``url`` if it is http://host:port on this machine (loopback), else PlanError:
    a load test is for one's own server, never someone else's."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise PlanError(f"A server address is http://host:port, not {url!r}.")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise PlanError(f"A server address has no path: {url!r}.")
    host = parts.hostname
    try:
        infos = socket.getaddrinfo(host, parts.port or 80, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise PlanError(f"{host!r} is not an address of this machine.") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if not address.is_loopback:
            raise PlanError(
                f"The load test only drives a server on this machine (a loopback "
                f"address), not {host!r}."
            )
    return url.rstrip("/")
