"""What an idle connection costs a running server in memory (RSS, from /proc).

Opens N table WebSockets to one game, one after another (so the server's thread
pool does not grow), then N HTTP keep-alive connections, each after one request,
and prints the server's RSS rise per connection.

    $ .venv/bin/cardroom serve --port 8101 &
    $ .venv/bin/python benchmarks/socket_memory.py --url http://127.0.0.1:8101 \\
          --pid $(pgrep -f "serve --port 8101") --connections 400
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

PASSWORD = "loadtest-password"


def rss_kb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0])


async def measure(url: str, pid: int, connections: int) -> None:
    async with httpx.AsyncClient(base_url=url) as client:
        body = {"name": f"mem{secrets.token_hex(4)}", "password": PASSWORD}
        (await client.post("/api/accounts/sign-up", json=body)).raise_for_status()
        signed = await client.post("/api/accounts/sign-in", json=body)
        token = signed.json()["token"]
        options = {"preset": "house", "format": "cash", "seats": 2, "buy_in": 100}
        options |= {"small_blind": 1, "big_blind": 2}
        made = await client.post(
            "/api/games", json=options, headers={"Authorization": f"Bearer {token}"}
        )
        game = made.json()["game_id"]
    socket_url = url.replace("http://", "ws://") + f"/ws/games/{game}?token={token}"
    before = rss_kb(pid)
    sockets: list[ClientConnection] = []
    for _ in range(connections):
        ws = await connect(socket_url, compression=None)
        await ws.recv()  # the snapshot
        sockets.append(ws)
    await asyncio.sleep(2)
    rise = rss_kb(pid) - before
    print(f"{connections} idle table sockets: +{rise:,} KB, {rise / connections:.1f} KB each")
    clients = [httpx.AsyncClient(base_url=url) for _ in range(connections)]
    before = rss_kb(pid)
    for client in clients:
        (await client.get("/healthz")).raise_for_status()
    await asyncio.sleep(1)
    rise = rss_kb(pid) - before
    print(
        f"{connections} keep-alive HTTP connections: +{rise:,} KB, {rise / connections:.1f} KB each"
    )
    for client in clients:
        await client.aclose()
    for ws in sockets:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--connections", type=int, default=400)
    args = parser.parse_args()
    asyncio.run(measure(args.url.rstrip("/"), args.pid, args.connections))


if __name__ == "__main__":
    main()
