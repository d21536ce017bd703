"""``Cache-Control: no-store`` on every answer under ``/api/``: they carry hole cards,
ledgers and sessions, which no browser cache or shared proxy should keep. (One rule
for every route, rather than a list of the ones that matter, which would miss the
next route that should have been on it.) A pure ASGI wrapper: it rewrites one header
line and costs nothing per body chunk."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

API_PREFIX = "/api/"
NO_STORE = (b"cache-control", b"no-store")


class NoStoreForApi:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(API_PREFIX):
            await self.app(scope, receive, send)
            return

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() != b"cache-control"
                ]
                message = {**message, "headers": [*headers, NO_STORE]}
            await send(message)

        await self.app(scope, receive, send_no_store)
