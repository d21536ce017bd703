"""Cards as ints (cardroom.cards) and the shuffle (cardroom.deck)."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom import deck as deck_module
from cardroom.cards import (
    FULL_DECK,
    RANK_NAMES,
    RANK_PLURALS,
    RANKS,
    SUITS,
    Card,
    CardError,
    card_text,
    cards_text,
    check_distinct,
    make_card,
    parse_card,
    parse_cards,
    parse_distinct_cards,
    rank_of,
    suit_of,
)
from cardroom.deck import ByteDraws, SeededRandomSource, SystemRandomSource, shuffled_deck

# --- cards -------------------------------------------------------------------------


def test_card_numbering() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("As") == 51
    assert make_card(12, 3) == 51
    assert rank_of(parse_card("Td")) == 8
    assert suit_of(parse_card("Td")) == 1
    assert len(FULL_DECK) == 52 and sorted(FULL_DECK) == list(range(52))


def test_every_card_round_trips() -> None:
    texts = [card_text(c) for c in FULL_DECK]
    assert len(set(texts)) == 52
    assert texts[:5] == ["2c", "2d", "2h", "2s", "3c"]
    for card, text in zip(FULL_DECK, texts, strict=True):
        assert parse_card(text) == card
        assert text[0] in RANKS and text[1] in SUITS


@pytest.mark.parametrize(
    ("text", "expected"),
    [("As", "As"), ("10h", "Th"), (" td ", "Td"), ("aS", "As"), ("Kc", "Kc")],
)
def test_parse_card_accepts_common_spellings(text: str, expected: str) -> None:
    assert card_text(parse_card(text)) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not a card"),
        ("A", "not a card"),
        ("Asd", "not a card"),
        ("Xs", "not a rank"),
        ("1s", "not a rank"),
        ("Ax", "not a suit"),
    ],
)
def test_parse_card_refuses_bad_text(text: str, fragment: str) -> None:
    with pytest.raises(CardError, match=fragment):
        parse_card(text)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "As,Kd", "As, Kd", " As  Kd "])
def test_parse_cards_separators(text: str) -> None:
    assert cards_text(parse_cards(text), " ") == "As Kd"


def test_parse_cards_ten_and_empty() -> None:
    assert cards_text(parse_cards("10h 10c 9d")) == "ThTc9d"
    assert parse_cards("") == []


@pytest.mark.parametrize("text", ["As K", "AsK", "As Kd Q"])
def test_parse_cards_refuses_odd_chunks(text: str) -> None:
    with pytest.raises(CardError, match="rank and a suit"):
        parse_cards(text)


def test_duplicates_are_refused() -> None:
    with pytest.raises(CardError, match="Ah appears twice"):
        parse_distinct_cards("Ah Kd Ah")
    with pytest.raises(CardError, match="2c appears twice"):
        check_distinct([0, 1, 0])
    check_distinct([0, 1, 2])
    assert parse_distinct_cards("Ah Kd") == [parse_card("Ah"), parse_card("Kd")]
    # parse_cards alone does not check
    assert len(parse_cards("Ah Ah")) == 2


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_text_refuses_numbers_out_of_range(number: int) -> None:
    with pytest.raises(CardError, match="0 to 51"):
        card_text(number)


def test_rank_words() -> None:
    assert RANK_NAMES[0] == "Two" and RANK_NAMES[8] == "Ten" and RANK_NAMES[12] == "Ace"
    assert RANK_PLURALS[4] == "Sixes" and RANK_PLURALS[12] == "Aces"
    assert len(RANK_NAMES) == len(RANK_PLURALS) == 13


@given(st.lists(st.sampled_from(FULL_DECK), min_size=0, max_size=10))
def test_cards_text_round_trip(cards: list[int]) -> None:
    assert parse_cards(cards_text(cards, " ")) == cards
    assert parse_cards(cards_text(cards)) == cards


# --- the shuffle -------------------------------------------------------------------


def test_seeded_source_is_deterministic() -> None:
    first = SeededRandomSource(2024)
    second = SeededRandomSource("2024")  # an int seed is its decimal text
    draws = [first.randbelow(52) for _ in range(200)]
    assert draws == [second.randbelow(52) for _ in range(200)]
    assert draws != [SeededRandomSource(2025).randbelow(52) for _ in range(200)]
    assert shuffled_deck(SeededRandomSource(b"x")) == shuffled_deck(SeededRandomSource(b"x"))
    assert shuffled_deck(SeededRandomSource(b"x")) != shuffled_deck(SeededRandomSource(b"y"))


def test_seeded_source_stays_in_range() -> None:
    source = SeededRandomSource(7)
    for n in (1, 2, 3, 5, 52, 1000, 2**40 + 3):
        values = [source.randbelow(n) for _ in range(300)]
        assert all(0 <= v < n for v in values)
    assert {source.randbelow(1) for _ in range(10)} == {0}


@pytest.mark.parametrize("bound", [0, -3])
def test_randbelow_refuses_empty_ranges(bound: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        SeededRandomSource(1).randbelow(bound)


def chi_square(counts: list[int]) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


@pytest.mark.parametrize(
    ("bound", "critical"),
    # chi-square critical values at p = 0.001 for bound - 1 degrees of freedom
    [(6, 20.52), (10, 27.88), (52, 86.66)],
)
def test_seeded_randbelow_is_uniform(bound: int, critical: float) -> None:
    source = SeededRandomSource("uniformity")
    counts = [0] * bound
    for _ in range(bound * 1000):
        counts[source.randbelow(bound)] += 1
    assert chi_square(counts) < critical
    assert min(counts) > 0


def test_shuffled_deck_is_a_permutation() -> None:
    for seed in range(20):
        deck = shuffled_deck(SeededRandomSource(seed))
        assert sorted(deck) == list(range(52))
    deck = shuffled_deck(SystemRandomSource())
    assert sorted(deck) == list(range(52))


def test_shuffle_puts_each_card_anywhere() -> None:
    """Where the ace of spades lands over 2,600 seeded shuffles: every position, in
    proportions a chi-square test (51 degrees of freedom, p = 0.001) accepts."""
    source = SeededRandomSource("positions")
    counts = [0] * 52
    for _ in range(2600):
        counts[shuffled_deck(source).index(Card(51))] += 1
    assert min(counts) > 0
    assert chi_square(counts) < 86.66


def test_system_source_draws_in_range() -> None:
    source = SystemRandomSource()
    assert all(0 <= source.randbelow(52) < 52 for _ in range(100))


# --- the system's shuffle: one buffer of CSPRNG bytes ------------------------------


def _reference_draws(stream: bytes, bounds: list[int]) -> list[int]:
    """Rejection sampling written out: for each bound, bytes' low bits until one is
    below it."""
    rest = iter(stream)
    draws = []
    for n in bounds:
        mask = (1 << (n - 1).bit_length()) - 1
        value = next(rest) & mask
        while value >= n:
            value = next(rest) & mask
        draws.append(value)
    return draws


@pytest.mark.parametrize("bound", [*range(1, 53), 100, 128, 129, 255, 256])
def test_byte_draws_take_each_value_from_equally_many_bytes(bound: int) -> None:
    """Over the 256 values of a byte, one each, the draws accepted hit every value
    below the bound equally often and nothing else: a uniform byte gives a uniform
    draw (the rejected bytes are skipped, never folded in by a modulo)."""
    fetched: list[int] = []

    def token_bytes(n: int) -> bytes:
        fetched.append(n)
        if len(fetched) > 1:
            raise AssertionError("one buffer of all 256 byte values is enough")
        return bytes(range(256))

    draws = ByteDraws(token_bytes)
    span = 1 << (bound - 1).bit_length()
    values = [draws.randbelow(bound) for _ in range(bound * (256 // span))]
    assert sorted(values) == sorted(list(range(bound)) * (256 // span))
    assert values == [b & (span - 1) for b in range(256) if b & (span - 1) < bound]
    with pytest.raises(AssertionError, match="one buffer"):
        draws.randbelow(bound)  # the 256 bytes gave exactly those draws


def test_byte_draws_refill_and_refuse_like_the_system_source() -> None:
    stream = bytes([255, 254, 3, 77, 200, 51, 9, 250] * 40)
    chunks = [stream[at : at + 5] for at in range(0, len(stream), 5)]
    draws = ByteDraws(lambda n: chunks.pop(0))
    bounds = [52, 7, 33, 2, 52, 13, 40, 9, 52, 3] * 5
    assert [draws.randbelow(n) for n in bounds] == _reference_draws(stream, bounds)
    with pytest.raises(ValueError, match="positive"):
        draws.randbelow(0)
    assert 0 <= ByteDraws().randbelow(2**40) < 2**40  # a large bound: secrets itself


def test_the_system_shuffle_draws_from_one_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    """``shuffled_deck`` with the system's source is Fisher-Yates over draws made
    by rejection from one fetch of the CSPRNG's bytes, not a system call a draw."""
    stream = bytes((i * 97 + 13) % 256 for i in range(ByteDraws.BUFFER))
    fetched: list[int] = []

    def token_bytes(n: int) -> bytes:
        fetched.append(n)
        return stream if len(fetched) == 1 else bytes(n)  # zeros: always accepted

    def no_randbelow(n: int) -> int:
        raise AssertionError("a shuffle draws from the buffer")

    monkeypatch.setattr(deck_module.secrets, "token_bytes", token_bytes)
    monkeypatch.setattr(deck_module.secrets, "randbelow", no_randbelow)
    deck = shuffled_deck(SystemRandomSource())
    assert fetched[0] == ByteDraws.BUFFER
    expected = list(FULL_DECK)
    padded = stream + bytes(ByteDraws.BUFFER * (len(fetched) - 1))
    bounds = list(range(52, 1, -1))
    for i, j in zip(range(51, 0, -1), _reference_draws(padded, bounds), strict=True):
        expected[i], expected[j] = expected[j], expected[i]
    assert deck == expected


def test_each_thread_draws_from_its_own_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's source is shared by the committer, the clock and the request
    threads: a draw on one thread never takes a byte another thread fetched."""
    fetches: list[str] = []

    def token_bytes(n: int) -> bytes:
        fetches.append(threading.current_thread().name)
        return bytes(n)

    monkeypatch.setattr(deck_module.secrets, "token_bytes", token_bytes)
    source = SystemRandomSource()
    assert source.randbelow(52) == 0
    assert source.randbelow(52) == 0  # the same buffer: no second fetch
    other = threading.Thread(target=source.randbelow, args=(52,), name="other")
    other.start()
    other.join()
    assert fetches == [threading.current_thread().name, "other"]
