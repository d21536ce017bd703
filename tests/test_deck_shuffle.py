"""The system source's inline shuffle (``ByteDraws.shuffle``) against Fisher-Yates
written through ``randbelow``: the same decks from the same bytes, and the same
bytes left for the next draw, whatever the buffer's refills cut."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from cardroom import deck as deck_module
from cardroom.cards import FULL_DECK, Card
from cardroom.deck import ByteDraws, SystemRandomSource, shuffled_deck


class _DrawsOnly:
    """A source that only draws: ``shuffled_deck``'s general loop."""

    def __init__(self, source: ByteDraws) -> None:
        self.randbelow = source.randbelow


def _stream(seed: int, sizes: list[int]) -> Callable[[int], bytes]:
    """``token_bytes`` from a seeded stream, cut in the given sizes in turn (not the
    size asked for): refills fall anywhere in a shuffle, a fetch may be short."""
    rng = random.Random(seed)
    turn = [0]

    def token_bytes(n: int) -> bytes:
        size = sizes[turn[0] % len(sizes)]
        turn[0] += 1
        return rng.randbytes(size)

    return token_bytes


@pytest.mark.parametrize("sizes", [[96], [1], [5, 17, 3], [200, 1, 64]])
def test_the_inline_shuffle_makes_the_decks_the_draws_make(sizes: list[int]) -> None:
    inline = ByteDraws(_stream(7, sizes))
    drawn = ByteDraws(_stream(7, sizes))
    for _ in range(300):
        assert shuffled_deck(inline) == shuffled_deck(_DrawsOnly(drawn))
        assert (inline._buffer, inline._at) == (drawn._buffer, drawn._at)
        assert inline.randbelow(52) == drawn.randbelow(52)  # the same bytes left


def test_a_deck_past_a_bytes_bounds_shuffles_through_the_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bounds past 256 go to ``secrets.randbelow`` (here a seeded stand-in), the
    rest to the buffer, as ``randbelow`` sends them."""
    big: list[random.Random] = []
    monkeypatch.setattr(deck_module.secrets, "randbelow", lambda n: big[0].randrange(n))
    drawn = ByteDraws(_stream(3, [96]))
    big.append(random.Random(5))
    expected = [Card(i % 52) for i in range(300)]
    for i in range(len(expected) - 1, 0, -1):
        j = drawn.randbelow(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    inline = ByteDraws(_stream(3, [96]))
    big[0] = random.Random(5)
    cards = [Card(i % 52) for i in range(300)]
    inline.shuffle(cards)
    assert cards == expected
    assert (inline._buffer, inline._at) == (drawn._buffer, drawn._at)


def test_the_system_source_shuffles_inline() -> None:
    deck = shuffled_deck(SystemRandomSource())
    assert sorted(deck) == list(FULL_DECK)
