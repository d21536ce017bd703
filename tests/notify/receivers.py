"""Stand-ins for the far ends of the channels, run inside the test process:

- ``PushReceiver``: a push service and the browser behind it in one. It accepts the
  room's POST, checks the VAPID JWT (RFC 8292) against the room's public key, and
  decrypts the body (RFC 8291, aes128gcm) with the private key of a fake browser
  subscription. The decryption is written here from the RFCs with ``cryptography``
  alone, so it checks pywebpush rather than repeating it.
- ``MailServer``: an aiosmtpd SMTP server on a free local port that keeps every
  message it is given, and refuses the recipients it is told to.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from cardroom.notify.webpush import PushTarget
from tests.servers import free_port


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------- Web Push


@dataclass
class FakeBrowser:
    """What a browser keeps for one subscription: its P-256 key pair and the
    authentication secret, whose public halves go to the server."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def public_bytes(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    @property
    def target(self) -> PushTarget:
        return PushTarget(self.endpoint, b64url(self.public_bytes), b64url(self.auth_secret))

    def subscription_json(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``, as the page posts it."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.target.p256dh, "auth": self.target.auth},
        }

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 section 3.4 and RFC 8188 section 2, for a single record."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        server_public = body[21 : 21 + id_length]
        ciphertext = body[21 + id_length :]
        assert id_length == 65 and server_public[0] == 4, "keyid must be the sender's key"
        assert len(ciphertext) <= record_size, "one record is enough for a notice"
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), server_public)
        shared = self.private_key.exchange(ec.ECDH(), peer)
        key_info = b"WebPush: info\x00" + self.public_bytes + server_public
        ikm = HKDF(hashes.SHA256(), 32, self.auth_secret, key_info).derive(shared)
        cek = HKDF(hashes.SHA256(), 16, salt, b"Content-Encoding: aes128gcm\x00").derive(ikm)
        nonce = HKDF(hashes.SHA256(), 12, salt, b"Content-Encoding: nonce\x00").derive(ikm)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        unpadded = padded.rstrip(b"\x00")
        assert unpadded.endswith(b"\x02"), "the last record ends with the delimiter 2"
        return unpadded[:-1]


@dataclass
class Push:
    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    vapid_key: str
    plaintext: bytes

    @property
    def message(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.plaintext)
        return loaded


def verify_vapid(authorization: str) -> tuple[dict[str, Any], str]:
    """RFC 8292 section 3: ``vapid t=<JWT>, k=<key>``; the claims once the ES256
    signature checks out with ``k``."""
    scheme, _, rest = authorization.partition(" ")
    assert scheme.lower() == "vapid", authorization
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = params["t"], params["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(unb64url(header_b64))
    assert header == {"typ": "JWT", "alg": "ES256"}, header
    signature = unb64url(signature_b64)
    assert len(signature) == 64
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    der = utils.encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise AssertionError("the VAPID signature does not verify") from None
    claims: dict[str, Any] = json.loads(unb64url(claims_b64))
    return claims, key


class PushReceiver:
    """A local push service. Each endpoint path belongs to one ``FakeBrowser``;
    ``answer[path]`` sets the HTTP status it replies with (201 by default)."""

    def __init__(self) -> None:
        self.browsers: dict[str, FakeBrowser] = {}
        self.pushes: list[Push] = []
        self.answer: dict[str, int] = {}
        self.redirect: dict[str, str] = {}
        self.errors: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                try:
                    receiver._receive(self)
                except Exception as exc:  # report in the test, not in a thread
                    receiver.errors.append(repr(exc))
                    self.send_response(400)
                    self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        # A short poll, so that shutting down at the end of each test is quick.
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> PushReceiver:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()

    def browser(self, name: str) -> FakeBrowser:
        browser = FakeBrowser(f"{self.origin}/push/{name}")
        self.browsers[f"/push/{name}"] = browser
        return browser

    def _receive(self, request: BaseHTTPRequestHandler) -> None:
        path = request.path
        if path in self.redirect:
            request.send_response(307)
            request.send_header("Location", self.redirect[path])
            request.end_headers()
            return
        length = int(request.headers["Content-Length"])
        body = request.rfile.read(length)
        headers = {k.lower(): v for k, v in request.headers.items()}
        claims, key = verify_vapid(headers["authorization"])
        plaintext = self.browsers[path].decrypt(body)
        self.pushes.append(Push(path, headers, claims, key, plaintext))
        request.send_response(self.answer.get(path, 201))
        request.end_headers()

    def check_claims(self, push: Push, subject: str) -> None:
        """The JWT is for this push service, from the room's contact, and expires
        within 24 hours (RFC 8292 section 2)."""
        assert push.claims["aud"] == self.origin
        assert push.claims["sub"] == subject
        assert time.time() < push.claims["exp"] <= time.time() + 24 * 3600


# ---------------------------------------------------------------- email


class _Keeper:
    def __init__(self, server: MailServer) -> None:
        self.server = server

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: Any
    ) -> str:
        if address in self.server.refuse:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or b""
        message = message_from_bytes(content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.server.messages.append((list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"


class MailServer:
    """An SMTP server on a free local port, keeping what it gets."""

    def __init__(self, **kwargs: Any) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.refuse: set[str] = set()
        self.port = free_port()
        self.controller = Controller(_Keeper(self), hostname="127.0.0.1", port=self.port, **kwargs)

    def __enter__(self) -> MailServer:
        self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()
