"""The shuffle: Fisher-Yates over an injected source of unbiased bounded draws.

The engine never draws random numbers itself. In play the source is the operating
system's CSPRNG (``SystemRandomSource``); replays and tests pass a recorded seed
(``SeededRandomSource``), which is a SHA-256 counter stream so that the same seed
gives the same deck on every machine and Python version.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

from cardroom.cards import FULL_DECK, Card


class RandomSource(Protocol):
    def randbelow(self, n: int) -> int:
        """A uniformly distributed integer in ``[0, n)``."""
        ...


class SystemRandomSource:
    """The operating system's CSPRNG (``secrets`` draws by rejection, never modulo)."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


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
    for i in range(len(deck) - 1, 0, -1):
        j = source.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck
