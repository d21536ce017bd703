"""``cardroom simulate --tournament`` and ``--cash``: whole games of bots end with a
conservation check."""

from __future__ import annotations

import argparse
import json

import pytest

from cardroom.cli import CommandError
from cardroom.cli.simulate_cmd import run_cash, run_tournament
from cardroom.table_simulate import play_cash, play_tournament


def args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "players": 6,
        "seed": 1,
        "hands": None,
        "preset": "house",
        "json": True,
    }
    base.update(kw)
    return argparse.Namespace(**base)


@pytest.mark.parametrize("preset", ["house", "legacy", "arena"])
def test_tournaments_play_to_a_winner(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_tournament(args(preset=preset, players=5, seed=2)) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["finished"] and report["conserved"]
    places = report["places"]
    assert len(places) == 5 and places[0]["place"] == 1
    if preset != "arena":
        assert sum(p["prize"] for p in places) == 5 * 1000


@pytest.mark.parametrize("preset", ["house", "legacy", "standard"])
def test_cash_sessions_conserve_money(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cash(args(preset=preset, hands=150, seed=3)) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 150 and report["conserved"]


def test_a_seed_replays_the_same_game() -> None:
    assert play_tournament("house", 4, 7) == play_tournament("house", 4, 7)
    assert play_cash("house", 4, 50, 7) == play_cash("house", 4, 50, 7)


def test_text_summaries(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_tournament(args(json=False, players=3)) == 0
    out = capsys.readouterr().out
    assert "Finishing order:" in out and "1st" in out and "conserved" in out
    assert run_cash(args(json=False, hands=20)) == 0
    assert "20 hands" in capsys.readouterr().out


def test_refusals() -> None:
    with pytest.raises(CommandError, match="no cash games"):
        run_cash(args(preset="arena"))
    with pytest.raises(CommandError, match="no tournaments"):
        run_tournament(args(preset="standard"))
    with pytest.raises(CommandError, match="2 to 10"):
        run_tournament(args(players=11))


def test_a_lost_money_record_fails_the_conservation_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import cardroom.table_simulate as sim

    real = sim.balance_changes

    def lose_debits(events: object) -> dict[int, int]:
        return {p: c for p, c in real(events).items() if c > 0}  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "balance_changes", lose_debits)
    assert run_cash(args(hands=30)) == 1
    assert run_tournament(args(players=3)) == 1
    capsys.readouterr()
