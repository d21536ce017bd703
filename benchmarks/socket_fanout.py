"""What the event loop spends handing one change to a heads-up table's two sockets,
the change's views made already (their texts are written once and kept here, so the
figure is the sockets' own machinery: the wake, the catch-up, the sends through a
stand-in socket). CPU time of the loop's thread per change.

With ``--server uvicorn`` or ``--server gathered`` the two sockets are real loopback
connections served by that uvicorn protocol class (``real_sockets.py``): the figure
then has the frames and their writes too.

    $ .venv/bin/python benchmarks/socket_fanout.py --changes 20000
    $ .venv/bin/python benchmarks/socket_fanout.py --changes 5000 --server gathered
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS))

from command_path import TABLES  # noqa: E402
from real_sockets import Sockets, add_server_argument  # noqa: E402
from socket_loop import scratch_context  # noqa: E402
from starlette.websockets import WebSocket  # noqa: E402

from cardroom.deck import SeededRandomSource  # noqa: E402
from cardroom.service import accounts, game_views, lobby  # noqa: E402
from cardroom.service.change_views import ChangeViews  # noqa: E402
from cardroom.service.context import ServiceContext  # noqa: E402
from cardroom.service.game import commands  # noqa: E402
from cardroom.service.game.together import Queued, run_together  # noqa: E402
from cardroom.service.kept_tables import KeptTables  # noqa: E402
from cardroom.web.live import Live  # noqa: E402
from cardroom.web.routes import ws  # noqa: E402

PASSWORD = "correct horse battery"


class _Socket:
    def __init__(self) -> None:
        self.query_params: dict[str, str] = {}
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1


async def _real_feeds(
    live: Live, game: int, users: list[int], tokens: list[str], server: str
) -> tuple[list[ws.GameFeed], Sockets]:
    """The players' feeds on real sockets served by ``server``'s protocol class."""
    token_of = dict(zip(users, tokens, strict=True))
    feeds: dict[int, ws.GameFeed] = {}
    ready = asyncio.Event()

    async def opened(websocket: WebSocket, path: str) -> None:
        user = int(path.rsplit("/", 1)[1])
        feed = ws.GameFeed(websocket, live, token_of[user], game, user)
        live.watch_game(game, feed)
        await feed.snapshot()
        feeds[user] = feed
        if len(feeds) == len(users):
            ready.set()
        await ws._serve(websocket, feed)

    sockets = Sockets(server, opened)
    for user in users:
        await sockets.connect(f"/ws/games/{game}/{user}")
    await asyncio.wait_for(ready.wait(), 30)
    return [feeds[user] for user in users], sockets


async def _run(ctx: ServiceContext, changes: int, server: str) -> dict[str, Any]:
    live = Live(lambda: ctx, clock=False)
    live._loop = asyncio.get_running_loop()
    users, tokens, names = [], [], {}
    for i in range(2):
        name = f"f{time.time_ns() % 10**9}p{i}"
        users.append(accounts.sign_up(ctx, name, PASSWORD).id)
        tokens.append(accounts.sign_in(ctx, name, PASSWORD).token)
        names[users[-1]] = name
    game = lobby.create_game(ctx, users[0], TABLES["cash"]).game_id
    lobby.join(ctx, game, users[1], source=SeededRandomSource(1))
    feeds = []
    sockets = []
    real = None
    if server != "stand-in":
        feeds, real = await _real_feeds(live, game, users, tokens, server)
    for user, token in zip(users, tokens, strict=True):
        if real is not None:
            break
        socket = _Socket()
        feed = ws.GameFeed(socket, live, token, game, user)  # type: ignore[arg-type]
        live.watch_game(game, feed)
        await feed.snapshot()
        feeds.append(feed)
        sockets.append(socket)
    kept = KeptTables()
    done = None
    for token in tokens:  # whoever is to act calls
        done = run_together(ctx, [Queued(game, token, lambda u: commands.act(u, "call"))], kept)[0]
        if done.result is not None:
            break
    assert done is not None and done.result is not None
    change = game_views.change_of(done.result, names)
    assert change is not None
    views = ChangeViews(change)
    views.seal(users, ctx.now())
    views.forget = lambda: None  # type: ignore[method-assign]  # keep the texts
    live.shared_read(game)
    seq = change.moment.last_seq
    version = done.result.version
    start_seq = change.after_seq
    cpu = 0.0
    reads_before = 0
    for n in range(changes + 200):
        if n == 200 and real is not None:
            await asyncio.sleep(0.2)  # what the warm-up wrote is read
            reads_before = real.reads()
        for feed in feeds:
            feed.sent_seq, feed.sent_version = start_seq, version - 1
        live._heard.clear()
        live.reads[game].views = None  # seeded afresh, not joined
        begin = time.thread_time()
        live.game_changed(game, seq, version, views, tuple(users))
        for _ in range(4):
            await asyncio.sleep(0)
        if n >= 200:
            cpu += time.thread_time() - begin
    figures: dict[str, Any] = {
        "server": server,
        "changes": changes,
        "loop_cpu_us_per_change": round(1e6 * cpu / changes, 2),
    }
    if real is None:
        figures["sent_per_change"] = round(sum(s.sent for s in sockets) / (changes + 200), 3)
    else:
        await asyncio.sleep(0.2)
        figures["client_reads_per_change"] = round((real.reads() - reads_before) / changes, 3)
        real.close()
        await asyncio.sleep(0.2)  # the server sees the clients go
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=20000)
    add_server_argument(parser)
    args = parser.parse_args()
    with scratch_context() as ctx:
        import uvloop

        print(json.dumps(uvloop.run(_run(ctx, args.changes, args.server)), indent=2))


if __name__ == "__main__":
    main()
