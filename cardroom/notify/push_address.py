"""Where a push endpoint's connection really goes, and whether the room may go there.

A push endpoint is an address a player hands the room, and the room posts to it. A
check of the endpoint's *text* is not enough: ``127.1``, ``0x7f.0.0.1`` and
``0177.0.0.1`` are loopback to the C resolver, and a public name such as
``127.0.0.1.nip.io`` resolves to it. So the host must be one of the operator's push
services (``Settings.push_hosts``), it is resolved here, every address it resolves to
must be public, and the delivery connects to the address that was checked (see
``webpush._pinned_session``), so a second resolution cannot switch it (DNS
rebinding).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence

# A resolver takes a host and a port and gives the addresses a connection may go to,
# as text. Injectable so that tests never need the network.
Resolver = Callable[[str, int], Sequence[str]]

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class EndpointRefused(ValueError):
    """An endpoint the room will not post to; the message is a sentence."""


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the operating system gives for ``host`` (every family)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in found]


def is_literal_address(host: str) -> bool:
    """Is ``host`` an IP address in any spelling a resolver accepts? ``inet_aton``
    takes the short and octal/hex forms (``127.1``, ``0x7f.0.0.1``) that
    ``ipaddress`` refuses."""
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
        return True
    except ValueError:
        pass
    try:
        socket.inet_aton(bare)
    except OSError:
        return False
    return True


def why_not_public(address: IPAddress) -> str | None:
    """Why the room will not connect to ``address``, or None if it is public. An
    IPv4 address carried inside IPv6 (``::ffff:127.0.0.1``, 6to4, NAT64) is judged
    as the IPv4 address it reaches."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped or address.sixtofour
        if inner is None and address in _NAT64:
            inner = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if inner is not None:
            return why_not_public(inner)
    for kind, test in (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
        ("private", address.is_private),
    ):
        if test:
            return kind
    if not address.is_global:  # shared (100.64/10), documentation and the like
        return "not public"
    return None


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def host_allowed(host: str, patterns: Sequence[str]) -> bool:
    """Is ``host`` one of the operator's push services? A pattern is a name, or
    ``*.`` and a name for every name under it, or ``*`` for any host."""
    name = host.lower().rstrip(".")
    for pattern in patterns:
        if pattern == "*" or name == pattern:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


def public_addresses(host: str, port: int, resolver: Resolver) -> tuple[str, ...]:
    """Every address ``host`` resolves to, if each is public; else
    ``EndpointRefused``. One private address among public ones refuses the lot: a
    connection may go to any of them."""
    found = tuple(resolver(host, port))
    if not found:
        raise EndpointRefused("The push service's address could not be found.")
    for text in found:
        try:
            address = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            raise EndpointRefused("The push service's address could not be found.") from None
        why = why_not_public(address)
        if why is not None:
            raise EndpointRefused(
                f"The push endpoint's host resolves to {text} ({why}); "
                "a push service is on the public internet."
            )
    return found
