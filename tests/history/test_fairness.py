"""Deck commitments and proofs: every honest proof verifies, every change to a card, a
salt, a proof step, a side, a position or the root is caught, and a viewer's file
reveals only the positions they may see."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cardroom.cli
from cardroom.events import CardBurned
from cardroom.history.fairness import (
    DECK_SIZE,
    FairnessError,
    ProofFormatError,
    ProofStep,
    commit,
    dealing_map,
    deck_root,
    new_salts,
    path_sides,
    proof_document,
    reveal,
    streets_dealt,
    verify,
    verify_document,
    visible_positions,
)
from cardroom.history.privacy import Viewer, disclose
from cardroom.history.record import HandRecord, replay
from tests.history.test_record import random_record

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
TEST_SALTS = [bytes([i]) * 32 for i in range(52)]
# the test deck of docs/fairness.md: 2c 2d 2h 2s 3c ... As in order, salt i = 32 bytes i
KNOWN_ROOT = "c86d28c9fa3574fc84e847603e8087a3748bc5b8cf0cdc7dbcf75b93f75a43f5"


def salts_for(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(32) for _ in range(52)]


def committed_record(seed: int, rules: str | None = None) -> HandRecord:
    _, record = random_record(seed, rules)
    salts = salts_for(seed)
    root, _ = commit(record.deck, salts)
    return dataclasses.replace(record, deck_root=root, deck_salts=tuple(salts))


def rfc6962_root(leaves: list[bytes]) -> bytes:
    """The Merkle Tree Hash of RFC 6962 written straight from its definition, as an
    independent check of ``commit``."""
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << (len(leaves) - 1).bit_length() - 1
    left, right = rfc6962_root(leaves[:k]), rfc6962_root(leaves[k:])
    return hashlib.sha256(b"\x01" + left + right).digest()


def flip(data: bytes, bit: int) -> bytes:
    out = bytearray(data)
    out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


# ---------------------------------------------------------------------- the tree


def test_known_answer_for_the_documented_test_deck() -> None:
    root, _ = commit(range(52), TEST_SALTS)
    assert root.hex() == KNOWN_ROOT
    assert KNOWN_ROOT in DOCS.read_text(encoding="utf-8")


def test_root_is_the_rfc6962_tree_over_the_documented_leaves() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        deck = list(range(52))
        rng.shuffle(deck)
        salts = salts_for(seed)
        ranks, suits = "23456789TJQKA", "cdhs"
        leaves = [
            hashlib.sha256(
                b"\x00" + bytes([p]) + (ranks[c // 4] + suits[c % 4]).encode() + salts[p]
            ).digest()
            for p, c in enumerate(deck)
        ]
        root, tree = commit(deck, salts)
        assert root == rfc6962_root(leaves) == tree.root


def test_proof_lengths_and_sides_follow_from_the_position() -> None:
    assert [len(path_sides(p)) for p in (0, 31, 32, 47, 48, 51)] == [6, 6, 6, 6, 4, 4]
    assert path_sides(0) == ("right",) * 6
    assert path_sides(51) == ("left", "left", "left", "left")
    _, tree = commit(range(52), TEST_SALTS)
    for proof in reveal(tree, range(52)):
        assert tuple(s.side for s in proof.path) == path_sides(proof.position)


def test_every_honest_proof_verifies() -> None:
    for seed in range(10):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        root, tree = commit(deck, salts_for(seed))
        proofs = reveal(tree, range(52))
        verdict = verify(root, proofs)
        assert verdict.ok and not verdict.failures
        assert [p.card for p in proofs] == deck
        assert verify(root, reveal(tree, [7])).ok


def test_any_change_to_a_card_salt_step_side_position_or_root_is_caught() -> None:
    deck = list(range(52))
    rng = random.Random(1)
    rng.shuffle(deck)
    root, tree = commit(deck, salts_for(1))
    caught = 0
    for proof in reveal(tree, range(52)):
        other = rng.choice([c for c in range(52) if c != proof.card])
        forged = [dataclasses.replace(proof, card=other)]
        forged.append(dataclasses.replace(proof, salt=flip(proof.salt, rng.randrange(256))))
        if proof.position + 1 < DECK_SIZE:
            forged.append(dataclasses.replace(proof, position=proof.position + 1))
        for k, step in enumerate(proof.path):
            for changed in (
                ProofStep(step.side, flip(step.hash, rng.randrange(256))),
                ProofStep("left" if step.side == "right" else "right", step.hash),
            ):
                path = (*proof.path[:k], changed, *proof.path[k + 1 :])
                forged.append(dataclasses.replace(proof, path=path))
        forged.append(dataclasses.replace(proof, path=proof.path[:-1]))
        for bad in forged:
            verdict = verify(root, [bad])
            assert not verdict.ok and verdict.failures, bad
            caught += 1
        assert not verify(flip(root, rng.randrange(256)), [proof]).ok
        caught += 1
    assert caught > 52 * 10


def test_failures_are_sentences_that_say_what_is_wrong() -> None:
    root, tree = commit(range(52), TEST_SALTS)
    proof = reveal(tree, [3])[0]
    [failure] = verify(root, [dataclasses.replace(proof, card=51)]).failures
    assert failure.startswith("Position 3: As with this salt and proof does not lead to")
    [failure] = verify(root, [dataclasses.replace(proof, path=proof.path[:2])]).failures
    assert failure == "Position 3: the proof has 2 steps; this position needs 6."
    swapped = (ProofStep("right", proof.path[0].hash), *proof.path[1:])
    [failure] = verify(root, [dataclasses.replace(proof, path=swapped)]).failures
    assert failure == "Position 3: step 1 puts the sibling on the right; it belongs left."
    [failure] = verify(root, [dataclasses.replace(proof, salt=b"x")]).failures
    assert failure == "Position 3: the salt is 1 bytes, not 32."
    [failure] = verify(root, [dataclasses.replace(proof, position=52)]).failures
    assert failure == "Position 52: outside the deck (0 to 51)."
    twice = verify(root, [proof, proof])
    assert "Position 3 is revealed twice." in twice.failures and not twice.ok
    assert verify(root, []).failures == ["Nothing is revealed: there is no card to check."]
    assert "The root is 3 bytes" in verify(b"abc", [proof]).failures[0]


def test_a_card_revealed_at_two_positions_is_caught_even_with_valid_looking_proofs() -> None:
    root, tree = commit(range(52), TEST_SALTS)
    a, b = reveal(tree, [0, 1])
    verdict = verify(root, [a, dataclasses.replace(b, card=a.card)])
    assert any("a deck holds each card once" in f for f in verdict.failures)


def test_commit_refuses_a_deck_that_is_not_52_distinct_cards_and_bad_salts() -> None:
    with pytest.raises(FairnessError, match="each of the 52 cards once"):
        commit([0] * 52, TEST_SALTS)
    with pytest.raises(FairnessError, match="each of the 52 cards once"):
        commit(range(51), TEST_SALTS)
    with pytest.raises(FairnessError, match="one salt per card"):
        commit(range(52), TEST_SALTS[:-1])
    with pytest.raises(FairnessError, match="32 bytes, not 5"):
        commit(range(52), [b"short"] * 52)
    with pytest.raises(FairnessError, match="outside the deck"):
        reveal(commit(range(52), TEST_SALTS)[1], [52])


def test_the_deals_root_is_the_commitments_root() -> None:
    """``deck_root`` (the deal's, without the tree) gives ``commit``'s root for any
    deck and salts, and refuses what ``commit`` refuses, with the same sentence."""
    rng = random.Random(52)
    for _ in range(200):
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        salts = [rng.randbytes(32) for _ in range(DECK_SIZE)]
        assert deck_root(deck, salts) == commit(deck, salts)[0]
    for deck, salts in (
        ([0] * 52, TEST_SALTS),
        (range(51), TEST_SALTS),
        (range(52), TEST_SALTS[:-1]),
        (range(52), [b"short"] * 52),
    ):
        with pytest.raises(FairnessError) as by_commit:
            commit(deck, salts)
        with pytest.raises(FairnessError, match=re.escape(str(by_commit.value))):
            deck_root(deck, salts)


def test_salts_come_from_the_source_given() -> None:
    """In one call, for the 52 salts' bytes, cut in order: salt ``i`` is bytes
    ``32 i`` to ``32 i + 31`` of what the source gave."""
    calls: list[int] = []

    def source(n: int) -> bytes:
        calls.append(n)
        return bytes(k // 32 for k in range(n))

    salts = new_salts(source)
    assert calls == [32 * 52]
    assert salts == tuple(bytes([i]) * 32 for i in range(52))
    with pytest.raises(FairnessError, match="32 bytes"):
        new_salts(lambda n: b"x")


# ---------------------------------------------------------------------- dealing


def test_the_dealing_map_names_every_card_as_the_hand_dealt_it() -> None:
    for seed in range(80):
        hand, _ = random_record(seed)
        dealt = dealing_map(hand.seats, streets_dealt(hand))
        assert [d.position for d in dealt] == list(range(52))
        burns = [e.card for e in hand.events if isinstance(e, CardBurned)]
        board = []
        for d in dealt:
            card = hand.deck[d.position]
            if d.kind == "hole":
                assert d.seat is not None and d.number is not None
                assert hand.hole[hand.seats.index(d.seat)][d.number - 1] == card
            elif d.kind == "burn":
                assert card == burns.pop(0)
            elif d.kind == "board":
                board.append(card)
            else:
                assert d.position >= hand.deck_pos
        assert board == hand.board and not burns


def test_a_player_may_see_their_hole_cards_the_board_and_shown_hands_never_burns() -> None:
    for seed in range(60):
        hand, _ = random_record(seed)
        dealt = {d.position: d for d in dealing_map(hand.seats, streets_dealt(hand))}
        for viewer in [Viewer.player(s) for s in hand.seats] + [Viewer.observer()]:
            visible = disclose(hand, viewer).visible
            for position in visible_positions(hand, viewer):
                d = dealt[position]
                assert d.kind == "board" or (d.kind == "hole" and d.seat in visible)
            seen = {hand.deck[p] for p in visible_positions(hand, viewer)}
            assert seen == set(hand.board) | {c for cards in visible.values() for c in cards}
        assert visible_positions(hand, Viewer.administrator()) == list(range(52))


# ---------------------------------------------------------------------- the file


def test_a_players_file_verifies_and_holds_no_other_salt_or_card() -> None:
    for seed in range(40):
        record = committed_record(seed)
        assert record.deck_salts is not None
        seats = list(record.setup.seats)
        for viewer in [Viewer.player(seats[seed % len(seats)]), Viewer.observer()]:
            document = proof_document(record, viewer)
            text = json.dumps(document)
            result = verify_document(json.loads(text))
            revealed = {leaf["position"] for leaf in document["leaves"]}
            if revealed:
                assert result.ok, result.verdict.failures
            else:  # an observer of a hand won before the flop sees no card
                assert result.verdict.failures == [
                    "Nothing is revealed: there is no card to check."
                ]
            hand = replay(record)
            assert revealed == set(visible_positions(hand, viewer))
            for position, salt in enumerate(record.deck_salts):
                assert (salt.hex() in text) == (position in revealed), (seed, position)


def test_the_file_says_what_each_position_was() -> None:
    from tests.history.test_pokerstars import showdown

    _, record = showdown()
    salts = salts_for(5)
    root, _ = commit(record.deck, salts)
    record = dataclasses.replace(record, deck_root=root, deck_salts=tuple(salts))
    document = proof_document(record, Viewer.player(6))
    assert document["format"] == "cardroom-deck-proof" and document["version"] == 1
    assert document["root"] == root.hex() and document["viewer"] == "seat 6 (fay)"
    assert document["dealing"] == {
        "seats": [1, 3, 5, 6],
        "names": {"1": "ann", "3": "cy", "5": "eve", "6": "fay"},
        "streets": ["flop", "turn", "river"],
    }
    meanings = [(leaf["position"], leaf["card"], leaf["meaning"]) for leaf in document["leaves"]]
    assert meanings == [
        (0, "Ah", "seat 1 (ann), hole card 1"),  # shown at the showdown
        (3, "8d", "seat 6 (fay), hole card 1"),
        (4, "Kh", "seat 1 (ann), hole card 2"),
        (7, "8c", "seat 6 (fay), hole card 2"),
        (9, "Ks", "flop card 1"),
        (10, "7h", "flop card 2"),
        (11, "2c", "flop card 3"),
        (13, "9d", "turn"),
        (15, "3s", "river"),
    ]
    assert document["leaves"][1]["dealt_as"] == {"kind": "hole", "seat": 6, "number": 1}


def test_a_file_that_misstates_where_a_card_was_dealt_is_not_verified() -> None:
    record = committed_record(2)
    document = proof_document(record, Viewer.player(record.setup.seats[0]))
    document["leaves"][0]["dealt_as"] = {"kind": "board", "street": "river", "number": 1}
    result = verify_document(document)
    assert not result.ok
    assert any("by the dealing order it is" in f for f in result.verdict.failures)


def test_a_tampered_file_is_not_verified() -> None:
    record = committed_record(3)
    document = proof_document(record, Viewer.administrator())
    assert verify_document(document).ok
    changes: list[Callable[[Any], None]] = [
        lambda d: d["leaves"][5].update(card="As" if d["leaves"][5]["card"] != "As" else "Ks"),
        lambda d: d["leaves"][5].update(salt="00" * 32),
        lambda d: d["leaves"][5]["proof"][2].update(hash="11" * 32),
        lambda d: d.update(root="22" * 32),
        lambda d: d["leaves"][5].update(position=6),
    ]
    for change in changes:
        bad = json.loads(json.dumps(document))
        change(bad)
        assert not verify_document(bad).ok


def test_a_record_without_or_against_its_commitment_gives_no_file() -> None:
    _, record = random_record(4)
    with pytest.raises(FairnessError, match="without a deck commitment"):
        proof_document(record, Viewer.administrator())
    committed = committed_record(4)
    deck = list(committed.deck)
    deck[0], deck[1] = deck[1], deck[0]
    swapped = dataclasses.replace(committed, deck=tuple(deck))
    with pytest.raises(FairnessError, match="do not match the published commitment"):
        proof_document(swapped, Viewer.administrator())


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"format": "x"}, "not a deck verification file"),
        ({"format": "cardroom-deck-proof", "version": 9}, "version 1"),
        ({"format": "cardroom-deck-proof", "version": 1, "root": 5}, "root must be"),
        ({"format": "cardroom-deck-proof", "version": 1, "root": "zz"}, "not hexadecimal"),
        ({"format": "cardroom-deck-proof", "version": 1, "root": "00"}, "dealing"),
    ],
)
def test_files_that_are_not_verification_files_get_a_sentence(data: Any, message: str) -> None:
    with pytest.raises(ProofFormatError, match=message):
        verify_document(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["dealing"].update(seats=[1]), "2 to 10 seat numbers"),
        (lambda d: d["dealing"].update(streets=["river"]), "streets dealt"),
        (lambda d: d.update(leaves={}), "list of revealed positions"),
        (lambda d: d["leaves"].__setitem__(0, 7), "Leaf 1 is not an object"),
        (lambda d: d["leaves"][0].update(card="Zz"), "Leaf 1: 'Zz' is not a card"),
        (lambda d: d["leaves"][0].update(position="3"), "position must be a whole number"),
        (lambda d: d["leaves"][0].update(proof=None), "has no proof"),
        (lambda d: d["leaves"][0]["proof"][0].update(side="up"), "step 1: give a side"),
        (lambda d: d["leaves"][0].update(salt=None), "salt must be a hexadecimal"),
    ],
)
def test_malformed_leaves_get_a_sentence(change: Any, message: str) -> None:
    document = proof_document(committed_record(6), Viewer.administrator())
    change(document)
    with pytest.raises(ProofFormatError, match=re.escape(message)):
        verify_document(document)


# ---------------------------------------------------------------------- the command


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Any:
    # the command is offered once cardroom.cli lists verify_cmd; test it as if it did
    modules = (*cardroom.cli.COMMAND_MODULES, "verify_cmd")
    monkeypatch.setattr(cardroom.cli, "COMMAND_MODULES", tuple(dict.fromkeys(modules)))
    return cardroom.cli.main


def test_verify_command_exit_codes_and_verdicts(
    cli: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.history.test_pokerstars import showdown

    _, record = showdown()
    salts = salts_for(9)
    root, _ = commit(record.deck, salts)
    record = dataclasses.replace(record, deck_root=root, deck_salts=tuple(salts))
    document = proof_document(record, Viewer.player(6))
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(document, indent=2))
    assert cli(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "Hand #1002 at Oak, as seen by seat 6 (fay)" in out
    assert "position  3  8d  seat 6 (fay), hole card 1" in out
    assert "Verified: all 9 revealed cards match the commitment" in out

    document["leaves"][1]["card"] = "Ad"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(document))
    assert cli(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "NOT VERIFIED" in out and "Position 3: Ad with this salt and proof" in out

    for content, message in [
        ("{not json", "is not JSON"),
        ('{"format": "other"}', "not a deck verification file"),
    ]:
        path = tmp_path / "other.json"
        path.write_text(content)
        assert cli(["verify", str(path)]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert cli(["verify", str(tmp_path / "missing.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_the_by_hand_check_in_the_docs_verifies_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"```python\n(# verify_by_hand\.py.*?)```", text, re.S)
    assert match, "docs/fairness.md has the by-hand script"
    record = committed_record(8)
    document = proof_document(record, Viewer.player(record.setup.seats[0]))
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document))
    namespace: dict[str, Any] = {"__name__": "by_hand"}
    exec(compile(match.group(1), "verify_by_hand.py", "exec"), namespace)
    assert namespace["check"](str(path)) is True
    document["leaves"][0]["salt"] = "ff" * 32
    path.write_text(json.dumps(document))
    assert namespace["check"](str(path)) is False
    capsys.readouterr()
