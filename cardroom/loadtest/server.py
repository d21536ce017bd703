"""The server under test, seen from this machine: which process listens on a port,
and its memory (RSS) and CPU time, read from ``/proc`` (Linux)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
_LISTEN = "0A"  # TCP state LISTEN in /proc/net/tcp


def listening_inodes(port: int, proc: Path = PROC) -> set[str]:
    """Socket inodes listening on ``port`` (IPv4 and IPv6)."""
    found: set[str] = set()
    for name in ("tcp", "tcp6"):
        table = proc / "net" / name
        try:
            lines = table.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10:
                continue
            local, state, inode = fields[1], fields[3], fields[9]
            if state == _LISTEN and int(local.rsplit(":", 1)[1], 16) == port:
                found.add(inode)
    return found


def pid_listening_on(port: int, proc: Path = PROC) -> int | None:
    """The process (of this user: others' descriptors cannot be read) that listens
    on ``port``, or None."""
    inodes = {f"socket:[{inode}]" for inode in listening_inodes(port, proc)}
    if not inodes:
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in inodes:
                    return int(entry.name)
        except OSError:
            continue  # gone, or not ours
    return None


def rss_bytes(pid: int, proc: Path = PROC) -> int | None:
    """Resident memory of ``pid`` (VmRSS), or None if it cannot be read."""
    try:
        for line in (proc / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def cpu_seconds(pid: int, proc: Path = PROC) -> float | None:
    """User plus system CPU time ``pid`` has used, or None."""
    try:
        text = (proc / str(pid) / "stat").read_text()
        fields = text[text.rindex(")") + 2 :].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    except (OSError, ValueError, IndexError):
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class ServerWatch:
    """The server processes' memory and CPU, sampled over the run."""

    pids: tuple[int, ...]

    def rss(self) -> int | None:
        values = [rss_bytes(pid) for pid in self.pids]
        if not values or any(v is None for v in values):
            return None
        return sum(v for v in values if v is not None)

    def cpu(self) -> float | None:
        values = [cpu_seconds(pid) for pid in self.pids]
        if not values or any(v is None for v in values):
            return None
        return sum(v for v in values if v is not None)
