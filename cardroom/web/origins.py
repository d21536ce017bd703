"""Is a browser's request from a page of the room itself? Used by cookie-signed
writes (besides their CSRF token) and cookie-signed sockets (instead of one).

An origin is a scheme, a host and a port: ``http://cards.example.org`` is another
origin than ``https://cards.example.org``, and a page served over plain HTTP (by a
network attacker, say) must not count as the room's HTTPS pages.
"""

from __future__ import annotations

from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}


def _normal(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if host is None or scheme not in _DEFAULT_PORTS:
        return None
    return scheme, host.lower(), _DEFAULT_PORTS[scheme] if port is None else port


def same_origin(origin: str, *, https: bool, host: str) -> bool:
    """Does ``origin`` (an ``Origin`` header, or a ``Referer``) name the room as the
    request reached it: over HTTPS or not, at the ``Host`` it was sent to?"""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return False
    theirs = _normal(parts.scheme.lower(), parts.netloc)
    ours = _normal("https" if https else "http", host)
    return theirs is not None and theirs == ours
