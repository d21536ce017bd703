"""Real server processes for the tests that need one: a free port, and a process
started, waited for until ``/healthz`` answers, and stopped afterwards."""

from __future__ import annotations

import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def started(
    command: list[str],
    port: int,
    log: Path,
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    start_seconds: float = 60.0,
    stop_seconds: float = 15.0,
) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``command`` (a server listening on ``port``) with its output in ``log``;
    yield the process once ``/healthz`` answers 200; stop it with SIGINT (killed if it
    has not stopped after ``stop_seconds``). What the log should not hold is the
    caller's to check, after the block."""
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    try:
        deadline = time.monotonic() + start_seconds
        while True:
            assert process.poll() is None, log.read_text(errors="replace")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, (
                f"{command[:4]} did not answer /healthz in {start_seconds:.0f} s"
            )
            time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=stop_seconds)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
