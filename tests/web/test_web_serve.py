"""``cardroom serve``: a real server in a subprocess, and the refusals it gives before
starting (as sentences, never tracebacks)."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import Engine

from cardroom.cli import main
from tests.servers import free_port
from tests.web.kit import PASSWORD


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


@pytest.fixture
def sqlite_url(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A migrated SQLite database in a temporary folder."""
    url = f"sqlite:///{tmp_path / 'room.db'}"
    assert run(capsys, "db", "upgrade", "--database-url", url)[0] == 0
    return url


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env["CARDROOM_PASSWORD_HASHING"] = "cheap"
    env["CARDROOM_SIGN_UPS_PER_ADDRESS"] = "0"  # every test player signs up from 127.0.0.1
    env["CARDROOM_WRITES_PER_ADDRESS_PER_SECOND"] = "0"  # so do all their writes
    env["CARDROOM_WRITES_PER_SECOND"] = "0"  # bots act as fast as they can
    output = tmp_path / "serve.out"
    with output.open("wb") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardroom",
                "serve",
                "--port",
                str(port),
                "--database-url",
                sqlite_url,
            ],
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=tmp_path,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, output.read_text()
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not answer /healthz in 30 s"
            time.sleep(0.1)
        yield base, process, output
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.mark.slow
def test_cardroom_serve_runs_the_room_over_real_http(
    server: tuple[str, subprocess.Popen[bytes], Path], sqlite_url: str, tmp_path: Path
) -> None:
    base, process, output = server
    folder = tmp_path
    with httpx.Client(base_url=base, timeout=10) as client:
        assert client.get("/healthz").json() == {"status": "ok", "database": "ready"}
        body = {"name": "alice", "password": PASSWORD}
        assert client.post("/api/accounts/sign-up", json=body).status_code == 201
        signed_in = client.post("/api/accounts/sign-in", json=body)
        assert signed_in.status_code == 200
        token = signed_in.json()["token"]
        me = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert me.json()["name"] == "alice"
        # The cookie works too, and a cookie write needs the CSRF header.
        assert client.get("/api/me/balance").json() == {"balance_cents": 10_000}
        assert client.post("/api/accounts/sign-out").status_code == 403
        csrf = {"X-CSRF-Token": client.cookies["cardroom_csrf"]}
        assert client.post("/api/accounts/sign-out", headers=csrf).status_code == 204
        assert (
            client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
        )

    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=15) == 0
    printed = output.read_text()
    assert f"Cardroom is serving {base} (database sqlite:///" in printed
    assert f"Open {base} in a browser and sign up: each new player gets $100.00" in printed
    assert "Traceback" not in printed
    # The admin command it prints works as printed, from the folder it was served
    # from, with the password piped in (README's words).
    shown = re.search(r"Make an admin from another terminal: (.+) admin create-user NAME", printed)
    assert shown is not None, printed
    command = [*shlex.split(shown.group(1)), "admin", "create-user", "boss", "--admin"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDROOM_")}
    env["CARDROOM_DATABASE_URL"] = sqlite_url
    env["CARDROOM_PASSWORD_HASHING"] = "cheap"
    done = subprocess.run(
        command, input="long enough\n", capture_output=True, text=True, env=env, cwd=folder
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Created admin boss with a balance of")


def test_the_printed_command_is_the_one_path_finds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """After `make run` cardroom lives in .venv/bin, not on PATH: the bare name would be
    "command not found", so the path is printed; on PATH, the bare name."""
    from cardroom.cli.serve_cmd import own_command

    program = tmp_path / ".venv" / "bin" / "cardroom"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", [str(program), "serve"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert own_command() == ".venv/bin/cardroom"
    monkeypatch.setenv("PATH", f"{program.parent}:/usr/bin:/bin")
    assert own_command() == "cardroom"
    monkeypatch.setattr("sys.argv", ["/somewhere/cardroom/__main__.py", "serve"])
    assert own_command().endswith(" -m cardroom")


def test_serve_refuses_a_database_that_is_not_migrated(
    empty_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "serve", "--database-url", empty_database_url)
    assert (status, out) == (2, "")
    assert err.startswith("cardroom: The database at ")
    assert err.endswith("is not up to date; run `cardroom db upgrade` first.\n")


def test_serve_refuses_a_database_it_cannot_reach(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+psycopg://nobody:hunter2@127.0.0.1:1/nothing"
    status, _, err = run(capsys, "serve", "--database-url", url)
    assert status == 2 and err.startswith("cardroom: Cannot ")
    assert "hunter2" not in err


def test_serve_refuses_a_port_in_use(db: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    url = db.url.render_as_string(hide_password=False)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        status, _, err = run(capsys, "serve", "--port", port, "--database-url", url)
    assert status == 2
    assert err == (
        f"cardroom: Port {port} on 127.0.0.1 is in use; stop the other server or pick "
        "another port with --port.\n"
    )


@pytest.mark.parametrize(
    ("argv", "env", "sentence"),
    [
        (("--port", "0"), {}, "A port is a number from 1 to 65535, not 0."),
        (("--port", "70000"), {}, "A port is a number from 1 to 65535"),
        ((), {"CARDROOM_TRUST_PROXY": "perhaps"}, "CARDROOM_TRUST_PROXY must be 1 or 0"),
        ((), {"CARDROOM_SESSION_HOURS": "0"}, "CARDROOM_SESSION_HOURS must be a positive"),
    ],
)
def test_serve_refuses_bad_settings_with_a_sentence(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
    env: dict[str, str],
    sentence: str,
    tmp_path: Path,
) -> None:
    monkeypatch.chdir(tmp_path)  # should it reach for the default database, not ours
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    status, _, err = run(capsys, "serve", *argv)
    assert status == 2 and sentence in err
