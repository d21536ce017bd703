"""Reading and writing PHH; the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardroom.history import phh
from tests.handkit import act, deal

DWAN_IVEY = Path(__file__).resolve().parents[3] / "shared/phh/hands/historical/dwan-ivey-2009.phh"
BB_ANTE_ALL_IN = (
    Path(__file__).resolve().parents[3] / "shared/phh/hands/wsop/2023/43/5/03-02-41.phh"
)


# pre-flop: all call a raise to 40; flop: a bet, a short stack all in, a fold, calls
SCRIPT = ("c", "r40", "c", "c", "c", "x", "b100", "a", "c", "f", "c", "x", "x", "x", "x")


def test_uniform_antes_all_in_and_showdown_lines_before_the_river() -> None:
    hand = phh.replay_text(DWAN_IVEY.read_text())
    assert hand.stacks == [572100, 1997500, 1109500]


def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    # the big blind goes all in with 225,000 of ante behind him and loses: the ante
    # is not a contribution anyone had to match, so none of it comes back
    hand = phh.replay_text(BB_ANTE_ALL_IN.read_text())
    assert hand.stacks == [2200000, 0, 2675000, 3125000, 21700000]


def test_heads_up_arrays_apply_in_reverse() -> None:
    text = """
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 AsAh", "d dh p2 KsKh", "p2 cbr 6", "p1 cc", "d db 2c3d8h",
           "p1 cc", "p2 cc", "d db 9c", "p1 cc", "p2 cc", "d db Td", "p1 cc", "p2 cc"]
"""
    hand = phh.replay_text(text)
    assert hand.seats == [1, 2] and hand.setup.big_blind_seat == 1
    assert hand.stacks == [106, 94]


def test_written_hand_reads_back_and_replays_to_the_same_stacks() -> None:
    hand = deal(
        [1000, 2000, 300, 800],
        (5, 10),
        rules="standard",
        hole=["AsAh", "KsKh", "QsQh", "7c2d"],
        board="2c3d8h9cTd",
    )
    act(hand, *SCRIPT)
    assert hand.is_over
    text = phh.dumps(phh.history_of(hand))
    again = phh.replay_text(text)
    assert again.stacks == hand.stacks
    assert phh.loads(text).finishing_stacks == hand.stacks


def test_written_hand_loads_in_pokerkit_to_the_same_stacks() -> None:
    pokerkit = pytest.importorskip("pokerkit")  # a test dependency: always installed
    hand = deal(
        [1000, 2000, 300, 800],
        (5, 10),
        rules="standard",
        hole=["AsAh", "KsKh", "QsQh", "7c2d"],
        board="2c3d8h9cTd",
    )
    act(hand, *SCRIPT)
    history = pokerkit.HandHistory.loads(phh.dumps(phh.history_of(hand)))
    state = list(history)[-1]
    assert list(state.stacks) == hand.stacks


def test_hidden_cards_are_written_as_unknown_unless_shown() -> None:
    hand = deal([1000] * 3, hole=["AsAh", "KsKh", "7c2d"], board="QdJc9s4h3c", rules="standard")
    act(hand, "f", "c", "x", "x", "x", "x", "x", "x", "x")
    text = phh.dumps(phh.history_of(hand, hidden=frozenset({1, 2, 3})))
    assert "d dh p3 ????" in text  # folded: never shown
    assert "d dh p2 ????" in text  # mucked at the ordered showdown: never shown
    assert "d dh p1 AsAh" in text and "p1 sm AsAh" in text  # shown first
    assert "7c2d" not in text and "KsKh" not in text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'FT'", "Only No-Limit"),
        ("not toml ===", "Not a PHH document"),
        (
            "variant = 'NT'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\n"
            "starting_stacks=[10,10]\nactions=['p1 cbr 1']",
            "refused",
        ),
        (
            "variant = 'NT'\nantes=[0,0,0]\nblinds_or_straddles=[1,2,4]\nmin_bet=2\n"
            "starting_stacks=[10,10,10]\nactions=[]",
            "Straddles",
        ),
        (
            "variant = 'NT'\nantes=[0,0]\nblinds_or_straddles=[1,2]\nmin_bet=2\n"
            "starting_stacks=[10,10]\nactions=['d dh p1 AsAs']",
            "twice",
        ),
    ],
)
def test_bad_documents_get_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(phh.PHHError, match=message):
        phh.replay_text(text)


def test_cli_replays_files_and_folders(tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    folder.mkdir()
    (folder / "a.phh").write_text(DWAN_IVEY.read_text())
    (folder / "bad.phh").write_text("variant = 'FT'")
    result = subprocess.run(
        [sys.executable, "-m", "cardroom", "phh", "replay", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines == [
        {"path": str(folder / "a.phh"), "finishing_stacks": [572100, 1997500, 1109500]}
    ]
    assert "bad.phh" in result.stderr and "Traceback" not in result.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "cardroom", "phh", "replay", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2 and "neither a file nor a folder" in missing.stderr
