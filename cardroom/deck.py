"""The shuffle: Fisher-Yates over an injected source of unbiased bounded draws.

The engine never draws random numbers itself. In play the source is the operating
system's CSPRNG (``SystemRandomSource``); replays and tests pass a recorded seed
(``SeededRandomSource``), which is a SHA-256 counter stream so that the same seed
gives the same deck on every machine and Python version.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Callable
from typing import Protocol

from cardroom.cards import FULL_DECK, Card


class RandomSource(Protocol):
    def randbelow(self, n: int) -> int:
        """A uniformly distributed integer in ``[0, n)``."""
        ...


class ByteDraws:
    """Bounded draws from a buffer of random bytes, fetched ``BUFFER`` at a time from
    ``token_bytes`` (``secrets.token_bytes`` in play), for bounds up to 256: each draw
    takes one byte, keeps its low ``k`` bits (``k`` the bits of ``n - 1``) and rejects
    a value >= n, as ``secrets.randbelow`` rejects, never modulo. A uniform byte's low
    ``k`` bits are uniform over ``2**k`` values, so an accepted value is uniform over
    ``[0, n)``; the bytes are independent, so the draws are. A larger bound goes to
    ``secrets`` itself. Not for sharing between threads (``SystemRandomSource`` is one
    a thread)."""

    BUFFER = 96  # a shuffle takes about 70 bytes; rarely a second fetch

    def __init__(self, token_bytes: Callable[[int], bytes] | None = None) -> None:
        # None: ``secrets.token_bytes`` as it is at each fetch.
        self._token_bytes = token_bytes
        self._buffer = b""
        self._at = 0

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n > 256:
            return secrets.randbelow(n)
        mask = (1 << (n - 1).bit_length()) - 1
        buffer, at = self._buffer, self._at
        while True:
            if at == len(buffer):
                fetch = secrets.token_bytes if self._token_bytes is None else self._token_bytes
                buffer, at = fetch(self.BUFFER), 0
                self._buffer = buffer
            value = buffer[at] & mask
            at += 1
            if value < n:
                self._at = at
                return value

    def shuffle(self, cards: list[Card]) -> None:
        """Fisher-Yates over ``cards`` in place, swapping each position from the top
        with ``randbelow(i + 1)``'s draw, as ``shuffled_deck`` does through any
        source: the same bytes taken in the same order, so the same deck and the same
        buffer left, but in one loop, without a call and two of the buffer's
        attribute reads and writes a card (a ``threading.local``'s each look up the
        thread's own). A deck past 256 cards draws through ``randbelow`` (its large
        bounds go to ``secrets``)."""
        if len(cards) > 256:
            for i in range(len(cards) - 1, 0, -1):
                j = self.randbelow(i + 1)
                cards[i], cards[j] = cards[j], cards[i]
            return
        buffer, at = self._buffer, self._at
        masks = _MASKS
        for i in range(len(cards) - 1, 0, -1):
            mask = masks[i]
            while True:
                if at == len(buffer):
                    fetch = secrets.token_bytes if self._token_bytes is None else self._token_bytes
                    buffer, at = fetch(self.BUFFER), 0
                    self._buffer, self._at = buffer, 0
                j = buffer[at] & mask
                at += 1
                if j <= i:
                    break
            cards[i], cards[j] = cards[j], cards[i]
        self._at = at


# ``randbelow(i + 1)``'s mask by ``i``: the low bits of a byte that cover 0 to i.
_MASKS = tuple((1 << i.bit_length()) - 1 for i in range(256))


class SystemRandomSource(ByteDraws, threading.local):
    """The operating system's CSPRNG, by rejection, never modulo.

    A shuffle does not make 51 system calls (each ``secrets.randbelow`` is one): it
    draws from a buffer of the same CSPRNG's bytes (``ByteDraws``), by the same
    rejection. The buffer is the thread's own (a ``threading.local``), so threads
    sharing the source (the committer, the clock, request workers) never interleave
    their draws."""

    def __init__(self) -> None:  # run again in each thread that draws
        super().__init__()


class SeededRandomSource:
    """Deterministic draws from a seed, for replays and tests.

    Bits come from SHA-256(seed || counter); a bounded draw takes just enough bits
    for ``n`` and rejects values >= n, so every value is equally likely (no modulo bias).
    """

    def __init__(self, seed: int | str | bytes) -> None:
        if isinstance(seed, int):
            seed = str(seed)
        if isinstance(seed, str):
            seed = seed.encode()
        self._seed = seed
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0

    def _bits(self, k: int) -> int:
        while self._pool_bits < k:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._pool = (self._pool << 256) | int.from_bytes(block, "big")
            self._pool_bits += 256
        self._pool_bits -= k
        value = self._pool >> self._pool_bits
        self._pool &= (1 << self._pool_bits) - 1
        return value

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        k = (n - 1).bit_length()
        while True:
            value = self._bits(k)
            if value < n:
                return value


def shuffled_deck(source: RandomSource) -> list[Card]:
    """A full deck in random order: Fisher-Yates, swapping each position from the top
    with a uniformly chosen position at or below it."""
    deck = list(FULL_DECK)
    if isinstance(source, ByteDraws):  # the system's source: the same draws, inline
        source.shuffle(deck)
        return deck
    draw = source.randbelow
    for i in range(len(deck) - 1, 0, -1):
        j = draw(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
