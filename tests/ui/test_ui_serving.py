"""How the room serves the UI (cardroom/web/routes/pages.py): pages revalidated,
assets versioned, compressed and cached for good, a Content-Security-Policy that
allows nothing inline, and the error shape for an unknown file."""

from __future__ import annotations

import re

import httpx
import pytest

from cardroom.web.routes import pages
from tests.ui.conftest import Room

pytestmark = pytest.mark.slow


def test_pages_name_versioned_assets_that_are_cached_for_good(room: Room) -> None:
    page = httpx.get(room.url("/games/1"), headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["cache-control"] == "no-cache"
    assert page.headers["content-encoding"] == "gzip"
    assert "'unsafe-inline'" not in page.headers["content-security-policy"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "{{static}}" not in page.text
    version = pages.bundle().version
    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert assets and all(a.startswith(f"/static/{version}/") for a in assets)
    # no inline script or handler: every script is a module file of the room's own
    assert "<script>" not in page.text and not re.search(r"\son[a-z]+=", page.text)

    script = httpx.get(room.url(f"/static/{version}/js/pages/table.js"))
    assert script.status_code == 200
    assert script.headers["content-type"] == "text/javascript; charset=utf-8"
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"
    again = httpx.get(
        room.url(f"/static/{version}/js/pages/table.js"),
        headers={"If-None-Match": script.headers["etag"]},
    )
    assert again.status_code == 304 and again.content == b""
    # a page loaded before a release asks for its old version: the current file, uncached
    old = httpx.get(room.url("/static/000000000000/js/pages/table.js"))
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"
    assert old.content == script.content


def test_every_page_is_served_and_an_unknown_file_is_a_404(room: Room) -> None:
    for address in ("/", "/sign-in", "/sign-up", "/account", "/admin", "/history",
                    "/notifications", "/stats", "/games/7", "/games/7/history",
                    "/games/7/ledger"):  # fmt: skip
        answer = httpx.get(room.url(address))
        assert answer.status_code == 200, address
        assert answer.text.startswith("<!doctype html>"), address
    worker = httpx.get(room.url("/sw.js"))
    assert worker.status_code == 200 and worker.headers["cache-control"] == "no-cache"
    version = pages.bundle().version
    for missing in (f"/static/{version}/js/nothing.js", f"/static/{version}/../app.py"):
        answer = httpx.get(room.url(missing), follow_redirects=True)
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"
    # the pages are not part of the API's description
    described = httpx.get(room.url("/openapi.json")).json()["paths"]
    assert not any(path.startswith(("/static", "/sign-in", "/games/{game_id}/history"))
                   for path in described)  # fmt: skip
