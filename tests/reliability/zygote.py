"""A process that has imported Cardroom and forks ``cardroom serve`` on request.

Starting ``python -m cardroom serve`` spends seconds importing (SQLAlchemy, FastAPI,
the evaluator's tables) before it serves anything; the crash tests restart a server
more than a hundred times. This process imports everything once and, for each
``start``, forks a child that runs ``cardroom.cli.main(["serve", ...])``: the same
entry point as the console script, in a fresh process with its own database
connections, clock and sockets, which the tests then SIGKILL. (gunicorn's
``--preload`` starts its workers the same way.) Nothing here opens a connection or a
thread before forking.

Commands arrive on stdin as JSON lines; each gets one JSON line back:

- ``{"op": "start", "argv": [...], "env": {...}, "log": path, "cwd": path}`` ->
  ``{"pid": n}``; the child's ``CARDROOM_*`` variables are exactly ``env``
- ``{"op": "wait", "pid": n}`` -> ``{"status": n}`` (reaps the child once it ended)

Run as a script: ``python tests/reliability/zygote.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from typing import Any

# Run as a script, this folder comes first on the path: a module here named like one
# of the standard library's would shadow it in every server.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

# Everything a server imports, so that a forked child starts at once.
import uvicorn
import uvicorn.lifespan.on
import uvicorn.loops.auto
import uvicorn.protocols.http.auto
import uvicorn.protocols.websockets.auto

import cardroom.cli
import cardroom.cli.serve_cmd
import cardroom.service.deadlines
import cardroom.web.app
import cardroom.web.fanout
from cardroom.cli import main
from cardroom.config import Settings

PRELOADED = (uvicorn, cardroom.cli.serve_cmd, cardroom.web.app, cardroom.web.fanout)
for optional in (
    "cardroom.service.notices.deliver",
    "psycopg",
    "sqlite3",
    "websockets",
    "uvloop",
    "uvicorn.loops.uvloop",
    "anyio._backends._asyncio",
    "concurrent.futures.thread",
    "fastapi.telemetry._runtime",
):
    with contextlib.suppress(ImportError):
        __import__(optional)
# The first app built in a process pays for lazy imports and schema building (most
# of a second); building one here (it opens nothing) leaves that done for every child.
cardroom.web.app.create_app(settings=Settings(database_url="sqlite://"))
cardroom.cli.build_parser()  # imports every command's module


def serve_child(argv: list[str], env: dict[str, str], log: str, cwd: str) -> None:
    """In the forked child: become the server; never return."""
    code = 1
    try:
        for name in [n for n in os.environ if n.startswith("CARDROOM_")]:
            del os.environ[name]
        os.environ.update(env)
        os.setsid()  # a ^C in the test runner's terminal is for the runner
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(null)
        os.close(out)
        os.chdir(cwd)
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def answer(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def run() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "start":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                serve_child(
                    list(request["argv"]),
                    dict(request.get("env", {})),
                    str(request["log"]),
                    str(request["cwd"]),
                )
            answer({"pid": pid})
        elif request["op"] == "wait":
            _, status = os.waitpid(int(request["pid"]), 0)
            answer({"status": os.waitstatus_to_exitcode(status)})
        else:
            answer({"error": f"unknown op {request['op']!r}"})


if __name__ == "__main__":
    run()
