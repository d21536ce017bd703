"""The room's VAPID key pair (RFC 8292): made on first use, kept in a file only its
owner can read, and the same from then on.

Browsers bind every push subscription to the public key they were given
(``applicationServerKey``), so a new key would silently orphan every subscription:
an unreadable key file is an error to fix, never a reason to make a new one.

The file is JSON: ``{"private_key": ..., "public_key": ..., "created_at": ...}``, the
keys in unpadded base64url (the raw 32-byte scalar and the 65-byte uncompressed
P-256 point, the forms the Push API and py_vapid use).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import stat
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from cardroom.config import ConfigError

log = logging.getLogger(__name__)

FILE_MODE = 0o600
# RFC 8292 section 2: the JWT must expire within 24 hours; 12 leaves room for a
# push service whose clock runs ahead of ours.
TOKEN_LIFETIME_SECONDS = 12 * 3600


class VapidKeyError(ConfigError):
    """The key file exists but cannot be used."""


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Unpadded (or padded) base64url; raises ``ValueError`` on anything else."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url text")
    cleaned = text.rstrip("=")
    if any(c not in _B64URL for c in cleaned) or len(cleaned) % 4 == 1:
        raise ValueError("not base64url text")
    return base64.urlsafe_b64decode(cleaned + "=" * (-len(cleaned) % 4))


@dataclass(frozen=True)
class VapidKeys:
    private_key: ec.EllipticCurvePrivateKey

    @property
    def public_key(self) -> str:
        """What the page passes to ``pushManager.subscribe`` as
        ``applicationServerKey``: the uncompressed point, unpadded base64url."""
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    @property
    def private_raw(self) -> str:
        return b64url(self.private_key.private_numbers().private_value.to_bytes(32, "big"))

    def authorization(self, audience: str, subject: str) -> str:
        """The ``Authorization`` header for a push to ``audience`` (the push
        service's origin): ``vapid t=<ES256 JWT>, k=<public key>`` (RFC 8292 section
        3). The expiry uses the wall clock, not the room's clock: the push service
        checks it against real time."""
        from py_vapid import Vapid  # type: ignore[import-untyped]

        claims = {"aud": audience, "sub": subject, "exp": int(time.time()) + TOKEN_LIFETIME_SECONDS}
        headers: dict[str, str] = Vapid(self.private_key).sign(claims)
        return headers["Authorization"]

    @classmethod
    def generate(cls) -> VapidKeys:
        return cls(ec.generate_private_key(ec.SECP256R1()))

    @classmethod
    def from_raw(cls, private_raw: str) -> VapidKeys:
        scalar = int.from_bytes(b64url_decode(private_raw), "big")
        return cls(ec.derive_private_key(scalar, ec.SECP256R1()))

    def to_json(self, created_at: datetime) -> str:
        return json.dumps(
            {
                "private_key": self.private_raw,
                "public_key": self.public_key,
                "created_at": created_at.astimezone(UTC).isoformat(),
            },
            indent=2,
        )


_cache: dict[Path, VapidKeys] = {}
_lock = threading.Lock()


def load_or_create(path: Path) -> VapidKeys:
    """The key pair in ``path``, made and saved there (mode 0600) if the file does
    not exist yet. Cached per process; safe when several processes start at once
    (the first to link its file in place wins, the others read that file)."""
    resolved = path.resolve()
    with _lock:
        keys = _cache.get(resolved)
        if keys is None:
            keys = _read(resolved) if resolved.exists() else _create(resolved)
            _cache[resolved] = keys
        return keys


def _create(path: Path) -> VapidKeys:
    path.parent.mkdir(parents=True, exist_ok=True)
    keys = VapidKeys.generate()
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    # O_EXCL and the mode at creation: the private key is never readable by others,
    # not even for the moment between writing and a chmod.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(keys.to_json(datetime.now(UTC)))
            file.flush()
            os.fsync(file.fileno())
        try:
            # link, not rename: it fails if another process made the file first, and
            # then that file (whose public key browsers may already hold) is the one.
            os.link(temporary, path)
        except FileExistsError:
            return _read(path)
    finally:
        temporary.unlink(missing_ok=True)
    log.info("made a new VAPID key pair in %s", path)
    return keys


def _read(path: Path) -> VapidKeys:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        # Someone copied or restored the file with loose permissions: tighten them
        # rather than go on serving a key anyone on the machine can read.
        log.warning("%s was readable by others (mode %o); setting it to 600", path, mode)
        path.chmod(FILE_MODE)
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        keys = VapidKeys.from_raw(data["private_key"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise VapidKeyError(
            f"The VAPID key file {path} cannot be read ({exc.__class__.__name__}); restore it "
            "from a backup, or delete it to make a new pair (every browser must then "
            "subscribe again)."
        ) from None
    if data.get("public_key") not in (None, keys.public_key):
        raise VapidKeyError(
            f"The public key in {path} does not belong to its private key; restore the "
            "file from a backup."
        )
    return keys
