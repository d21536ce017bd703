"""The engine must replay every hand of the PHH corpus (10,012 real hands) to the
finishing stacks that PokerKit and the original logs agree on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardroom.history import phh

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "phh"


def corpus_index() -> list[dict[str, object]]:
    index = CORPUS / "INDEX.json"
    if not index.exists():  # a checkout without ../shared is not a valid test run
        pytest.fail(f"The PHH corpus is missing: expected {index}")
    hands: list[dict[str, object]] = json.loads(index.read_text())["hands"]
    return hands


def test_every_corpus_hand_replays_to_the_expected_finishing_stacks() -> None:
    hands = corpus_index()
    assert len(hands) == 10_012
    mismatches = []
    for entry in hands:
        text = (CORPUS / str(entry["path"])).read_text()
        hand = phh.replay_text(text)
        if hand.stacks != entry["expected_finishing_stacks"]:
            mismatches.append((entry["path"], hand.stacks, entry["expected_finishing_stacks"]))
    assert mismatches == []


def test_corpus_covers_what_we_think() -> None:
    hands = corpus_index()
    assert sum(1 for h in hands if h["has_all_in"]) == 350
    assert sum(1 for h in hands if h["has_antes"]) == 12
