"""Web Push: one encrypted message to one browser subscription.

The payload is encrypted for the browser (RFC 8291, ``aes128gcm`` content coding of
RFC 8188) and the request is signed with the room's VAPID key (RFC 8292); pywebpush
does the encryption, ``VapidKeys`` the signature. The push service only ever sees
ciphertext.

A subscription's endpoint is an address a player handed us, and the server posts to
it: ``check_endpoint`` refuses plain HTTP and local or literal-IP hosts (unless the
settings allow them, for tests), and redirects are not followed, so a player cannot
point the room at a service on its own network.
"""

from __future__ import annotations

import enum
import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

import requests

from cardroom.notify.vapid import VapidKeys, b64url_decode

ENDPOINT_MAX_LENGTH = 2048
# Push services take at most 4096 bytes of ciphertext (RFC 8030 section 7.2); one
# aes128gcm record adds 86 bytes of header, tag and padding delimiter.
PAYLOAD_MAX_BYTES = 3800
MAX_TTL_SECONDS = 7 * 24 * 3600

# RFC 8030 section 5.4: a topic is at most 32 characters of the base64url alphabet.
TOPIC = "cardroom"


class EndpointRefused(ValueError):
    """An endpoint the room will not post to; the message is a sentence."""


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


def check_endpoint(endpoint: str, *, allow_insecure: bool = False) -> str:
    """The endpoint, if the room may post to it; else ``EndpointRefused``."""
    if not isinstance(endpoint, str) or not 1 <= len(endpoint) <= ENDPOINT_MAX_LENGTH:
        raise EndpointRefused(
            f"A push endpoint is an https address of at most {ENDPOINT_MAX_LENGTH} characters."
        )
    if not endpoint.isascii() or any(c.isspace() or ord(c) < 32 for c in endpoint):
        raise EndpointRefused("A push endpoint is an https address without spaces.")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
        _ = parts.port  # raises ValueError on a port that is not a number
    except ValueError:
        raise EndpointRefused("The push endpoint is not a valid address.") from None
    if parts.scheme not in ("https", "http") or not host or parts.username or parts.password:
        raise EndpointRefused("A push endpoint is an https address.")
    if allow_insecure:
        return endpoint
    if parts.scheme != "https":
        raise EndpointRefused("A push endpoint is an https address.")
    if _is_local(host):
        raise EndpointRefused("A push endpoint must be a push service on the internet.")
    return endpoint


def _is_local(host: str) -> bool:
    lowered = host.lower().rstrip(".")
    if lowered == "localhost" or lowered.endswith((".localhost", ".local", ".internal")):
        return True
    if "." not in lowered:
        return True  # a bare name only resolves on the local network
    try:
        ipaddress.ip_address(lowered)
    except ValueError:
        return False
    return True  # push services are named, never addressed by IP


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


def _session() -> requests.Session:
    session = requests.Session()
    # A redirect would take the request somewhere check_endpoint never saw.
    session.max_redirects = 0
    return session


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
) -> PushResult:
    """Encrypt ``payload`` for ``target`` and post it to its push service. Never
    raises: every failure is a ``PushResult`` saying what happened."""
    from pywebpush import WebPusher  # type: ignore[import-untyped]

    try:
        check_endpoint(target.endpoint, allow_insecure=allow_insecure)
    except EndpointRefused as refused:
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
    with _session() as session:
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
