"""``cardroom eval``: hands on stdin, JSON lines out."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from cardroom.cli import main


def run_eval(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str
) -> tuple[int, list[dict[str, object]], list[str]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["eval"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err.splitlines()


def test_one_hand(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, records, errors = run_eval(monkeypatch, capsys, "As Kd Qh Jc Ts 2d 3c\n")
    assert code == 0 and errors == []
    assert records == [
        {
            "category": "straight",
            "name": "Straight, Ace high",
            "rank": records[0]["rank"],
            "best": ["As", "Kd", "Qh", "Jc", "Ts"],
        }
    ]
    assert isinstance(records[0]["rank"], int)
    assert list(records[0]) == ["category", "name", "rank", "best"]


def test_several_hands_of_five_to_seven(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "Ah Ad Kc 9s 4d 3c 2h\nQh Qd Qc 7s 7d 3c\n5s4d3h2sAc\n\n  As Ks Qs Js Ts  \n"
    code, records, errors = run_eval(monkeypatch, capsys, text)
    assert code == 0 and errors == []
    assert [r["name"] for r in records] == [
        "Pair of Aces, King, Nine and Four kickers",
        "Full House, Queens full of Sevens",
        "Straight, Five high",
        "Royal Flush",
    ]
    assert records[2]["best"] == ["5s", "4d", "3h", "2s", "Ac"]
    assert records[0]["rank"] < records[2]["rank"] < records[1]["rank"] < records[3]["rank"]  # type: ignore[operator]


def test_bad_lines_are_reported_and_skipped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "\n".join(
        [
            "As Kd Qh Jc Ts",  # 1 fine
            "As Kd",  # 2 too few
            "As Kd Qh Jc Ts 9s 8s 7s",  # 3 too many
            "As Kd Qh Jc Xx",  # 4 not a card
            "As Kd Qh Jc As",  # 5 twice
            "As Kd Qh Jc T",  # 6 half a card
            "2c 3c 4c 5c 7c",  # 7 fine
        ]
    )
    code, records, errors = run_eval(monkeypatch, capsys, text)
    assert code == 1
    assert [r["category"] for r in records] == ["straight", "flush"]
    assert len(errors) == 5
    for number, error in zip((2, 3, 4, 5, 6), errors, strict=True):
        assert error.startswith(f"cardroom eval: line {number}: ")
        assert error.endswith(".")
    assert "5 to 7 cards, not 2" in errors[0]
    assert "not 8" in errors[1]
    assert "As appears twice" in errors[3]


def test_empty_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_eval(monkeypatch, capsys, "") == (0, [], [])


def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--bench", "2000", "--seed", "1"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"single_per_s", "batch_per_s"}
    assert all(isinstance(v, int) and v > 0 for v in figures.values())


def test_bench_needs_a_positive_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--bench", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cardroom", "eval"],
        input="Kh Kd Kc Ks 3d 2c 2h\nnonsense\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert json.loads(result.stdout)["name"] == "Four of a Kind, Kings, Three kicker"
    assert result.stderr.startswith("cardroom eval: line 2: ")
