"""Device cookies: a browser that signed in to a name before is let through that
name's sign-in lockout with the right password (issue 17, item 7).

The per-name throttle stops guessing one player's password from many addresses, but
it also let anyone lock a name for 15 minutes, its owner included. OWASP's answer
("Slow Down Online Guessing Attacks with Device Cookies") is followed here: every
successful sign-in gives the browser a device cookie for that user; an attempt that
carries a valid one for the name it signs in to is counted against that device only
(``NAME_ATTEMPTS`` failures lock the device, not the name), and neither the name's
nor the address's lockout applies to it. Attempts without one (a new browser, an
attacker) are throttled per name and per address as before.

The cookie is ``v1.<issued>.<nonce>.<mac>``: ``issued`` in whole seconds since the
epoch, ``nonce`` 128 random bits, ``mac`` an HMAC-SHA256 of both and the user's id,
keyed by the user's stored password hash. So nothing is stored for it, every server
process of the room checks it the same way, and a password change ends every device
cookie of the user, as it ends their other sessions. (A copy of the database could
forge one, but whoever holds it holds the password hashes already, and a device
cookie lets nothing in without the right password.)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

DEVICE_LIFETIME = timedelta(days=365)
VERSION = "v1"
NONCE_BYTES = 16


@dataclass(frozen=True)
class Device:
    """A valid device cookie's nonce: the key its failed attempts are counted by."""

    nonce: str


def _mac(password_hash: str, user_id: int, issued: int, nonce: str) -> str:
    message = f"cardroom device\n{user_id}\n{issued}\n{nonce}".encode()
    return hmac.new(password_hash.encode(), message, hashlib.sha256).hexdigest()


def device_cookie(password_hash: str, user_id: int, now: datetime) -> str:
    """A new device cookie for this user, signed with their password hash."""
    issued = int(now.timestamp())
    nonce = secrets.token_urlsafe(NONCE_BYTES)
    return f"{VERSION}.{issued}.{nonce}.{_mac(password_hash, user_id, issued, nonce)}"


def trusted_device(
    cookie: str | None, password_hash: str, user_id: int, now: datetime
) -> Device | None:
    """The device, if ``cookie`` is a valid, unexpired device cookie of this user."""
    if not cookie or len(cookie) > 200:
        return None
    parts = cookie.split(".")
    if len(parts) != 4 or parts[0] != VERSION or not parts[1].isdigit():
        return None
    _version, issued_text, nonce, mac = parts
    issued = int(issued_text)
    if not hmac.compare_digest(mac, _mac(password_hash, user_id, issued, nonce)):
        return None
    age = now.timestamp() - issued
    if not 0 <= age <= DEVICE_LIFETIME.total_seconds():
        return None
    return Device(nonce)
