"""Cards as ints (cardroom.cards) and the shuffle (cardroom.deck)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from cardroom.deck import SeededRandomSource, SystemRandomSource, shuffled_deck

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
