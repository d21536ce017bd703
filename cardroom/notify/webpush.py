"""Web Push: one encrypted message to one browser subscription.

The payload is encrypted for the browser (RFC 8291, ``aes128gcm`` content coding of
RFC 8188) and the request is signed with the room's VAPID key (RFC 8292); pywebpush
does the encryption, ``VapidKeys`` the signature. The push service only ever sees
ciphertext.

A subscription's endpoint is an address a player handed us, and the server posts to
it: ``check_endpoint`` refuses plain HTTP, hosts that are not one of the operator's
push services, literal IPs in any spelling, and names that resolve to any address
that is not public (``push_address``), unless the settings allow local endpoints
(tests). ``send`` checks again and connects to the very address it checked;
redirects are not followed and no proxy is used, so a player cannot point the room at
a service on its own network.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool

from cardroom.config import DEFAULT_PUSH_HOSTS
from cardroom.notify.push_address import (
    EndpointRefused,
    Resolver,
    host_allowed,
    is_literal_address,
    public_addresses,
    system_resolver,
)
from cardroom.notify.vapid import VapidKeys, b64url_decode

__all__ = ["EndpointRefused", "PushOutcome", "PushResult", "PushTarget", "check_endpoint"]

log = logging.getLogger(__name__)

ENDPOINT_MAX_LENGTH = 2048
# Push services take at most 4096 bytes of ciphertext (RFC 8030 section 7.2); one
# aes128gcm record adds 86 bytes of header, tag and padding delimiter.
PAYLOAD_MAX_BYTES = 3800
MAX_TTL_SECONDS = 7 * 24 * 3600

# RFC 8030 section 5.4: a topic is at most 32 characters of the base64url alphabet.
TOPIC = "cardroom"


class PushOutcome(enum.StrEnum):
    SENT = "sent"
    GONE = "gone"  # 404 or 410: the browser unsubscribed; forget the subscription
    FAILED = "failed"  # anything else: keep the subscription, report the failure


@dataclass(frozen=True)
class PushTarget:
    """What a browser's ``PushSubscription.toJSON()`` holds."""

    endpoint: str
    p256dh: str  # the browser's P-256 public key, unpadded base64url
    auth: str  # its 16-byte authentication secret, unpadded base64url


@dataclass(frozen=True)
class PushResult:
    outcome: PushOutcome
    status: int | None  # the push service's HTTP status, if it answered
    detail: str


def check_endpoint(
    endpoint: str,
    *,
    allow_insecure: bool = False,
    hosts: Sequence[str] = DEFAULT_PUSH_HOSTS,
    resolver: Resolver = system_resolver,
) -> str:
    """The endpoint, if the room may post to it; else ``EndpointRefused``."""
    resolve_endpoint(endpoint, allow_insecure=allow_insecure, hosts=hosts, resolver=resolver)
    return endpoint


def resolve_endpoint(
    endpoint: str,
    *,
    allow_insecure: bool = False,
    hosts: Sequence[str] = DEFAULT_PUSH_HOSTS,
    resolver: Resolver = system_resolver,
) -> tuple[str, ...]:
    """The addresses a post to ``endpoint`` may connect to, each checked; empty when
    local endpoints are allowed (nothing to pin). ``EndpointRefused`` otherwise."""
    if not isinstance(endpoint, str) or not 1 <= len(endpoint) <= ENDPOINT_MAX_LENGTH:
        raise EndpointRefused(
            f"A push endpoint is an https address of at most {ENDPOINT_MAX_LENGTH} characters."
        )
    if not endpoint.isascii() or any(c.isspace() or ord(c) < 32 for c in endpoint):
        raise EndpointRefused("A push endpoint is an https address without spaces.")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
        port = parts.port  # raises ValueError on a port that is not a number
    except ValueError:
        raise EndpointRefused("The push endpoint is not a valid address.") from None
    if parts.scheme not in ("https", "http") or not host or parts.username or parts.password:
        raise EndpointRefused("A push endpoint is an https address.")
    if allow_insecure:
        return ()
    if parts.scheme != "https":
        raise EndpointRefused("A push endpoint is an https address.")
    if _is_local(host):
        raise EndpointRefused("A push endpoint must be a push service on the internet.")
    if not host_allowed(host, hosts):
        raise EndpointRefused(
            "This room sends Web Push only to the push services of the major browsers; "
            f"{host} is not one of them."
        )
    return public_addresses(host, 443 if port is None else port, resolver)


def _is_local(host: str) -> bool:
    lowered = host.lower().rstrip(".")
    if lowered == "localhost" or lowered.endswith((".localhost", ".local", ".internal")):
        return True
    if "." not in lowered:
        return True  # a bare name only resolves on the local network
    return is_literal_address(lowered)  # push services are named, never addressed by IP


def check_keys(p256dh: str, auth: str) -> None:
    """Refuses keys a browser could not have made: ``ValueError`` with a sentence."""
    try:
        point = b64url_decode(p256dh)
    except ValueError:
        raise ValueError("keys.p256dh must be base64url text.") from None
    if len(point) != 65 or point[0] != 4:
        raise ValueError("keys.p256dh must be an uncompressed P-256 public key (65 bytes).")
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValueError("keys.p256dh is not a point on the P-256 curve.") from None
    try:
        secret = b64url_decode(auth)
    except ValueError:
        raise ValueError("keys.auth must be base64url text.") from None
    if len(secret) != 16:
        raise ValueError("keys.auth must be a 16-byte secret.")


def _session(address: str | None) -> requests.Session:
    session = requests.Session()
    # A redirect would take the request somewhere check_endpoint never saw, and a
    # proxy from the environment would resolve the name again itself.
    session.max_redirects = 0
    session.trust_env = False
    if address is not None:
        session.mount("https://", _PinnedAdapter(address))
    return session


class _PinnedAdapter(HTTPAdapter):
    """Connects every https request to ``address``, the one that was checked, while
    the TLS handshake and the certificate check still use the endpoint's name: the
    name is not resolved a second time, so DNS cannot switch it to another host
    between the check and the connection (rebinding)."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        address = self.address

        class PinnedConnection(HTTPSConnection):
            def __init__(self, *a: Any, **kw: Any) -> None:
                super().__init__(*a, **kw)
                # urllib3 connects to _dns_host and names ``host`` in SNI, the
                # certificate check and the Host header.
                self._dns_host = address

        class PinnedPool(HTTPSConnectionPool):
            ConnectionCls = PinnedConnection

        self.poolmanager.pool_classes_by_scheme = {"https": PinnedPool}


def send(
    keys: VapidKeys,
    subject: str,
    target: PushTarget,
    payload: bytes,
    *,
    ttl: int,
    urgency: str = "normal",
    allow_insecure: bool = False,
    timeout: float = 10.0,
    hosts: Sequence[str] = DEFAULT_PUSH_HOSTS,
    resolver: Resolver = system_resolver,
) -> PushResult:
    """Encrypt ``payload`` for ``target`` and post it to its push service. Never
    raises: every failure is a ``PushResult`` saying what happened. The endpoint is
    checked again (its name may resolve elsewhere since it was subscribed, or the
    operator's list may have changed), and the post goes to the address checked."""
    from pywebpush import WebPusher  # type: ignore[import-untyped]

    try:
        addresses = resolve_endpoint(
            target.endpoint, allow_insecure=allow_insecure, hosts=hosts, resolver=resolver
        )
    except EndpointRefused as refused:
        log.warning("push not sent to %s: %s", urlsplit(target.endpoint).hostname, refused)
        return PushResult(PushOutcome.FAILED, None, str(refused))
    if len(payload) > PAYLOAD_MAX_BYTES:
        return PushResult(PushOutcome.FAILED, None, "the message is too long for Web Push")
    parts = urlsplit(target.endpoint)
    headers = {
        "Authorization": keys.authorization(f"{parts.scheme}://{parts.netloc}", subject),
        "Urgency": urgency,
        # A newer message with the same topic replaces one still waiting at the push
        # service for an offline browser: it wakes to one notice, not a backlog.
        "Topic": TOPIC,
    }
    subscription = {
        "endpoint": target.endpoint,
        "keys": {"p256dh": target.p256dh, "auth": target.auth},
    }
    with _session(addresses[0] if addresses else None) as session:
        try:
            response = WebPusher(subscription, requests_session=session).send(
                payload,
                headers,
                ttl=max(0, min(ttl, MAX_TTL_SECONDS)),
                content_encoding="aes128gcm",
                timeout=timeout,
            )
        except requests.RequestException as exc:
            return PushResult(PushOutcome.FAILED, None, f"no answer: {exc.__class__.__name__}")
        except Exception as exc:  # a key pywebpush cannot use, and the like
            return PushResult(PushOutcome.FAILED, None, f"not sent: {exc.__class__.__name__}")
    status = int(response.status_code)
    if 200 <= status < 300:
        return PushResult(PushOutcome.SENT, status, "sent")
    if status in (404, 410):
        return PushResult(PushOutcome.GONE, status, "the subscription has expired")
    return PushResult(PushOutcome.FAILED, status, f"the push service answered {status}")
