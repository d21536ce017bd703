"""The browser UI: a few HTML pages and their CSS and JavaScript modules, served by
the room itself (no build step, no framework).

- Pages (``/``, ``/sign-in``, ``/games/12``...) are small HTML shells, answered with
  ``Cache-Control: no-cache`` so that a new release shows at once. Their scripts call
  the JSON API and the WebSockets; nothing on a page is secret.
- Assets live under ``/static/<version>/...``, where the version is a digest of every
  file in ``cardroom/web/static``. Pages name their assets with the current version
  (``{{static}}`` in the HTML), so the browser may keep them for a year
  (``immutable``); a release changes the digest and so every address. Module imports
  inside the scripts are relative, so they inherit the version. A request for another
  version (a page loaded before a release) still gets the current file, uncached.
- Everything is read once, at the first request, and kept in memory with a gzip copy
  for browsers that accept it: the whole UI is a few dozen kilobytes. Set
  ``CARDROOM_UI_RELOAD=1`` while editing the UI to have it read again on every change.
- ``/sw.js`` is the service worker (browser notifications and Web Push). It must be
  served from the root so that its scope is the whole site.

Every answer carries a Content-Security-Policy that allows only the room's own
scripts, styles and connections: no inline scripts, no inline event handlers.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Annotated

from fastapi import APIRouter, Header, Response
from fastapi import Path as PathParam
from starlette.exceptions import HTTPException

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
STATIC_PREFIX = "/static"
PLACEHOLDER = "{{static}}"
# The header every signed-in page shares (brand, navigation, balance, Sign out),
# written once in partials/header.html and put where a page says {{header}}.
HEADER_PLACEHOLDER = "{{header}}"
HEADER = "partials/header.html"

# Worth compressing; images such as PNG are already compressed.
_COMPRESSIBLE = frozenset({".html", ".css", ".js", ".svg", ".json", ".txt", ".webmanifest"})
_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
ICON_CACHE = "public, max-age=86400"  # a fixed address: a day, not for good

# Address -> page. ``{game_id}`` pages read the id from their own address.
PAGES: dict[str, str] = {
    "/": "lobby.html",
    "/sign-in": "sign-in.html",
    "/sign-up": "sign-up.html",
    "/account": "account.html",
    "/admin": "admin.html",
    "/history": "history.html",
    "/notifications": "notifications.html",
    "/games/{game_id}": "table.html",
    "/games/{game_id}/history": "history.html",
    "/invite/{token}": "invite.html",
    "/games/{game_id}/ledger": "ledger.html",
    "/stats": "stats.html",
}


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None when compression would not pay
    etag: str
    media_type: str


@dataclass(frozen=True)
class Bundle:
    version: str
    assets: dict[str, Asset]  # path under static/ ("js/api.js") -> asset
    pages: dict[str, Asset]  # page file ("lobby.html") -> the page, {{static}} filled in


def _asset(path: str, body: bytes) -> Asset:
    suffix = PurePosixPath(path).suffix
    media_type = _TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"
    gzipped = None
    if suffix in _COMPRESSIBLE:
        packed = gzip.compress(body, compresslevel=9, mtime=0)
        if len(packed) < len(body):
            gzipped = packed
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Asset(body, gzipped, etag, media_type)


def load_bundle(folder: Path = STATIC_DIR) -> Bundle:
    """Every file under ``folder``, its version digest, and the pages filled in."""
    files: dict[str, bytes] = {}
    for file in sorted(folder.rglob("*")):
        if file.is_file() and not file.name.startswith("."):
            files[file.relative_to(folder).as_posix()] = file.read_bytes()
    digest = hashlib.sha256()
    for name, body in files.items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
    version = digest.hexdigest()[:12]
    prefix = f"{STATIC_PREFIX}/{version}".encode()
    header = files.get(HEADER, b"").rstrip(b"\n")
    pages = {
        name: _asset(name, _filled(body, header, prefix))
        for name, body in files.items()
        if name.endswith(".html") and "/" not in name
    }
    return Bundle(version, {n: _asset(n, b) for n, b in files.items()}, pages)


def _filled(page: bytes, header: bytes, prefix: bytes) -> bytes:
    """A page with the shared header put in, then its assets' addresses."""
    return page.replace(HEADER_PLACEHOLDER.encode(), header).replace(PLACEHOLDER.encode(), prefix)


@lru_cache(maxsize=1)
def _loaded(_stamp: tuple[tuple[str, int], ...]) -> Bundle:
    return load_bundle()


def _stamp(folder: Path = STATIC_DIR) -> tuple[tuple[str, int], ...]:
    return tuple((f.as_posix(), f.stat().st_mtime_ns) for f in sorted(folder.rglob("*")))


def bundle() -> Bundle:
    """The UI as served: read once; with ``CARDROOM_UI_RELOAD=1`` (for people working
    on the UI) read again whenever a file under static/ changes."""
    if os.environ.get("CARDROOM_UI_RELOAD") == "1":
        return _loaded(_stamp())
    return _loaded(())


def _send(
    asset: Asset, cache: str, accept_encoding: str | None, if_none_match: str | None
) -> Response:
    headers = {**SECURITY_HEADERS, "Cache-Control": cache, "ETag": asset.etag}
    if asset.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    if if_none_match is not None and asset.etag in {t.strip() for t in if_none_match.split(",")}:
        return Response(status_code=304, headers=headers)
    body = asset.body
    if asset.gzipped is not None and "gzip" in (accept_encoding or "").lower():
        body = asset.gzipped
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=asset.media_type, headers=headers)


AcceptEncoding = Annotated[str | None, Header()]
IfNoneMatch = Annotated[str | None, Header()]

router = APIRouter(include_in_schema=False)


def _page_route(address: str, page: str) -> None:
    def serve_page(
        accept_encoding: AcceptEncoding = None, if_none_match: IfNoneMatch = None
    ) -> Response:
        return _send(bundle().pages[page], REVALIDATE, accept_encoding, if_none_match)

    serve_page.__name__ = "page_" + page.removesuffix(".html").replace("-", "_")
    router.add_api_route(address, serve_page, methods=["GET"], include_in_schema=False)


for _address, _page in PAGES.items():
    _page_route(_address, _page)


@router.get(STATIC_PREFIX + "/{version}/{path:path}")
def static_asset(
    version: Annotated[str, PathParam(max_length=64)],
    path: Annotated[str, PathParam(max_length=200)],
    accept_encoding: AcceptEncoding = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """A file of the UI. Only files loaded at start-up can be named, so no address
    reaches outside the static folder."""
    current = bundle()
    asset = current.assets.get(path)
    if asset is None:
        raise HTTPException(404)
    cache = IMMUTABLE if version == current.version else REVALIDATE
    return _send(asset, cache, accept_encoding, if_none_match)


@router.get("/sw.js")
def service_worker(
    accept_encoding: AcceptEncoding = None, if_none_match: IfNoneMatch = None
) -> Response:
    """The service worker, from the root so that it may show notifications for every
    page of the room."""
    asset = bundle().assets.get("sw.js")
    if asset is None:
        raise HTTPException(404)
    return _send(asset, REVALIDATE, accept_encoding, if_none_match)


@router.get("/favicon.ico")
def favicon(accept_encoding: AcceptEncoding = None, if_none_match: IfNoneMatch = None) -> Response:
    """Browsers ask for it whatever the page says; the same drawing as the icon."""
    return _send(bundle().assets["icon.svg"], ICON_CACHE, accept_encoding, if_none_match)
