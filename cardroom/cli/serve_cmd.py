"""``cardroom serve``: run the room's web server.

    $ cardroom serve --host 127.0.0.1 --port 8000
    Cardroom is serving http://127.0.0.1:8000 (database sqlite:///./var/cardroom.db).
    Open http://127.0.0.1:8000 in a browser and sign up: each new player gets
    $100.00 of play money.
    Make an admin from another terminal: .venv/bin/cardroom admin create-user NAME --admin
    ...

Before starting it checks, and says in one sentence, what would make the server
useless: settings that do not parse, a database that cannot be reached or is not
migrated (``cardroom db upgrade``), a port that is taken.
"""

from __future__ import annotations

import argparse
import errno
import shutil
import socket
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardroom.cli.db_cmd import add_database_option, database_errors, load_settings, shown_url
from cardroom.cli.errors import CommandError
from cardroom.config import ConfigError, Settings
from cardroom.service.amounts import format_cents
from cardroom.service.context import ServiceContext
from cardroom.service.health import DatabaseState, database_state

if TYPE_CHECKING:
    from cardroom.web.deps import WebSettings

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web server",
        description="Serve the room's HTTP API with uvicorn. The database must be migrated "
        "first (cardroom db upgrade).",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address (default {DEFAULT_HOST})")
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--trust-proxy",
        action="store_true",
        help="honour X-Forwarded-Proto from a reverse proxy that sets it "
        "(default: $CARDROOM_TRUST_PROXY, else off)",
    )
    parser.add_argument(
        "--ws-compression",
        action="store_true",
        help="compress WebSocket messages (permessage-deflate) when the browser offers it: "
        "about a third of the bytes, for about 50 KB more memory per open socket "
        "(default off; docs/benchmarks.md)",
    )
    parser.add_argument(
        "--ws-max-size",
        type=int,
        default=None,
        help="the largest WebSocket frame the server reads, in bytes (default 16384: "
        "a message is at most 4,096 characters); a larger one closes its socket with 1009",
    )
    add_database_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    settings = load_settings(args)
    web = _web_settings(args)
    if not 0 < args.port < 65536:
        raise CommandError(f"A port is a number from 1 to 65535, not {args.port}.")
    ws_max_size = _ws_max_size(args.ws_max_size)
    _check_database(settings)
    _check_port_free(args.host, args.port)

    # Imported here, like WebSettings: the other commands need not load the server.
    import uvicorn

    from cardroom.web.app import create_app
    from cardroom.web.gathered_frames import GatheredFramesProtocol
    from cardroom.web.server_logs import log_config

    url = f"http://{_url_host(args.host)}:{args.port}"
    print(f"Cardroom is serving {url} (database {shown_url(settings)}).", flush=True)
    print(
        f"Open {url} in a browser and sign up: each new player gets "
        f"{format_cents(settings.starting_balance_cents)} of play money.",
        flush=True,
    )
    print(
        f"Make an admin from another terminal: {own_command()} admin create-user NAME "
        f"--admin (the API is described at {url}/docs).",
        flush=True,
    )
    uvicorn.run(
        create_app(settings=settings, web=web),
        host=args.host,
        port=args.port,
        # The app decides itself whether X-Forwarded-Proto may be believed
        # (--trust-proxy); uvicorn's own default would believe it from 127.0.0.1.
        proxy_headers=False,
        server_header=False,
        lifespan="on",
        # A table's messages are small (a snapshot is 1.5-3 KB of JSON), while a
        # deflate context costs each socket about 50 KB of memory and the server CPU:
        # off unless asked (docs/benchmarks.md, "Load test").
        ws_per_message_deflate=args.ws_compression,
        # uvicorn's "websockets-sansio" protocol (of its three, the cheapest per frame
        # sent, measured in turn on a bare app sending ~2 KB frames to 40 clients:
        # 21-29 us of server CPU a frame, the "websockets" (legacy) one 35-57,
        # "wsproto" 41; 2026-12-03), writing the frames a socket is sent in one step
        # of the loop in one system call (cardroom.web.gathered_frames).
        ws=GatheredFramesProtocol,
        # Frames are read whole before the app sees them: the cap bounds what one
        # socket can make the server hold (WS_MAX_FRAME_BYTES says why 16 KiB).
        ws_max_size=ws_max_size,
        # Tokens out of the log, and no traceback for a client's bad frame.
        log_config=log_config(),
    )
    return 0


def own_command() -> str:
    """How to run this program again from the same folder: the bare name when PATH
    finds this very program, else its path, since after `make run` it lives in
    .venv/bin, which is not on PATH (a bare `cardroom` there is "command not found")."""
    program = Path(sys.argv[0])
    if program.name != "cardroom":  # python -m cardroom
        return f"{_shown_path(Path(sys.executable))} -m cardroom"
    found = shutil.which("cardroom")
    if found is not None and Path(found).resolve() == program.resolve():
        return "cardroom"
    return _shown_path(program)


def _shown_path(path: Path) -> str:
    try:
        return str(path.absolute().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _ws_max_size(given: int | None) -> int:
    from cardroom.web.schemas_games import WS_MAX_FRAME_BYTES

    if given is None:
        return WS_MAX_FRAME_BYTES
    if not 1024 <= given <= 16 * 1024 * 1024:
        raise CommandError(f"--ws-max-size is 1024 to 16777216 bytes, not {given}.")
    return given


def _web_settings(args: argparse.Namespace) -> WebSettings:
    from cardroom.web.deps import WebSettings

    try:
        web = WebSettings.from_environ()
    except ConfigError as exc:
        raise CommandError(str(exc)) from None
    return replace(web, trust_proxy=True) if args.trust_proxy else web


def _check_database(settings: Settings) -> None:
    with database_errors(settings):
        ctx = ServiceContext.start(settings)
        try:
            state = database_state(ctx)
        finally:
            ctx.close()
    if state is DatabaseState.UNREACHABLE:
        raise CommandError(f"Cannot reach the database at {shown_url(settings)}.")
    if state is DatabaseState.OUT_OF_DATE:
        raise CommandError(
            f"The database at {shown_url(settings)} is not up to date; "
            "run `cardroom db upgrade` first."
        )


def _check_port_free(host: str, port: int) -> None:
    """Bind and release the address, so a taken port is a sentence here rather than a
    log line from inside the server. (Another process could still take it in the
    moment between; uvicorn then reports it itself.)"""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise CommandError(f"{host!r} is not an address this machine can serve on.") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CommandError(
                    f"Port {port} on {host} is in use; stop the other server or pick "
                    "another port with --port."
                ) from None
            raise CommandError(f"Cannot serve on {host} port {port}: {exc.strerror}.") from None


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
