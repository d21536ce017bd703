"""A warning for the operator when requests carry proxy headers the room does not
trust (issue 17, item 7).

Without ``--trust-proxy`` the room takes the address the connection came from, as it
must: anyone can write ``X-Forwarded-For``. But behind a reverse proxy that address
is the proxy's, for everyone, so the sign-in throttle's per-address limit counts the
whole room's failures as one client's and locks every sign-in at once. Requests that
carry ``X-Forwarded-For`` or ``Forwarded`` while the room does not trust them are the
sign of that set-up: the first one is logged as a warning (once per process, so that
a busy room's log is not flooded), naming the setting that fixes it.
"""

from __future__ import annotations

import logging
import threading

from starlette.requests import Request

log = logging.getLogger("cardroom.web")

PROXY_HEADERS = ("x-forwarded-for", "forwarded")
WARNING = (
    "Requests arrive with proxy headers (%s) that this server does not trust: if it "
    "runs behind a reverse proxy, every client seems to come from the proxy's "
    "address, and the sign-in throttle counts them all as one (50 failures lock every "
    "sign-in). Start it with --trust-proxy (CARDROOM_TRUST_PROXY=1) if the proxy "
    "overwrites these headers; otherwise ignore this: a client sent them itself."
)

_warned = threading.Event()


def warn_if_untrusted_proxy(request: Request) -> None:
    """Log the warning once if this request carries proxy headers (the room does not
    trust them: the caller checked)."""
    if _warned.is_set():
        return
    seen = [name for name in PROXY_HEADERS if name in request.headers]
    if seen:
        _warned.set()
        log.warning(WARNING, ", ".join(seen))


def forget_warning() -> None:
    """For tests: warn again at the next such request."""
    _warned.clear()
