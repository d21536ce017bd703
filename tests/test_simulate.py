"""The random-play driver (``cardroom.simulate``) and ``cardroom simulate``."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import pytest

from cardroom.cli import main
from cardroom.deck import SeededRandomSource
from cardroom.events import HandShown, PlayerActed, PotAwarded
from cardroom.hand import Hand
from cardroom.rules import PRESETS, preset
from cardroom.simulate import (
    DEFAULT_POLICY,
    FastRandomSource,
    Policy,
    SimulationError,
    SimulationReport,
    play_random_hand,
    random_deck,
    random_setup,
    simulate,
)

DEFAULT_RATE_FLOOR = 0.3  # all-ins are at least this common under the default policy

REPORT_KEYS = {
    "hands",
    "seconds",
    "hands_per_s",
    "showdown_rate",
    "all_in_rate",
    "side_pot_rate",
    "chips_conserved",
}


def without_timing(report: SimulationReport) -> dict[str, Any]:
    data = report.to_dict()
    del data["seconds"], data["hands_per_s"]
    return data


# ------------------------------------------------------------------ the random source


def test_fast_source_is_deterministic_per_seed() -> None:
    a, b, c = FastRandomSource(7), FastRandomSource(7), FastRandomSource(8)
    first = [a.randbelow(1000) for _ in range(2000)]  # crosses a 512-word block
    assert first == [b.randbelow(1000) for _ in range(2000)]
    assert first != [c.randbelow(1000) for _ in range(2000)]
    assert FastRandomSource("7").randbelow(10**9) == FastRandomSource(7).randbelow(10**9)


def test_fast_source_draws_stay_in_range_and_cover_it() -> None:
    source = FastRandomSource(1)
    for n in (1, 2, 3, 7, 52, 100, 2**32 + 1, 2**63 + 5, 2**64, 2**64 + 1, 10**40):
        draws = [source.randbelow(n) for _ in range(300)]
        assert all(0 <= d < n for d in draws)
        if n <= 7:
            assert set(draws) == set(range(n))
    for bad in (0, -1, -(2**70)):
        with pytest.raises(ValueError):
            source.randbelow(bad)


def test_fast_source_is_uniform() -> None:
    # A chi-square test on 60,000 draws below 6: 5 degrees of freedom, and 20.5 is
    # the 0.1% critical value. The seed is fixed, so the outcome is too.
    source = FastRandomSource("uniformity")
    n, count = 6, 60_000
    counts = Counter(source.randbelow(n) for _ in range(count))
    expected = count / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert chi2 < 20.5


def test_fast_source_rejects_the_words_that_would_bias_a_draw() -> None:
    # Below 3, Lemire's multiply-shift maps the word 0 to a product whose low 64 bits
    # (0) fall under 2**64 mod 3 = 1: taking it would make 0 a little more likely, so
    # it is rejected and the next word, 2**63, gives (3 * 2**63) >> 64 = 1.
    source = FastRandomSource(0)
    source._words = [2**64 - 1, 2**63, 0]  # drawn from the end
    assert source.randbelow(3) == 1
    assert source.randbelow(3) == 2  # the word after: (3 * (2**64 - 1)) >> 64


def test_fast_source_draws_wider_than_a_word_by_rejection() -> None:
    # Above 2**64 a draw takes just enough bits, here the top 65 of two words, and
    # rejects values >= n: (2**64 - 1, 2**63) gives 2**65 - 1, rejected; (1, 7) gives
    # ((1 << 64) | 7) >> 63 = 2.
    source = FastRandomSource(0)
    n = 2**64 + 1
    source._words = [7, 1, 2**63, 2**64 - 1]  # drawn from the end
    assert source.randbelow(n) == 2
    assert source._words == []
    # and statistically: a third of draws below 3 * 2**70 fall in each third
    source = FastRandomSource("wide")
    n = 3 * 2**70
    thirds = Counter(source.randbelow(n) * 3 // n for _ in range(3000))
    assert set(thirds) == {0, 1, 2}
    assert all(900 < count < 1100 for count in thirds.values())


def test_random_deck_is_a_uniform_prefix_of_distinct_cards() -> None:
    source = FastRandomSource(5)
    first_cards: Counter[int] = Counter()
    for _ in range(5200):
        deck = random_deck(source, 20)
        assert len(deck) == 20 == len(set(deck))
        assert all(0 <= c < 52 for c in deck)
        first_cards[deck[0]] += 1
    # each card leads about 100 times in 5,200 decks
    assert set(first_cards) == set(range(52))
    assert max(first_cards.values()) < 160 and min(first_cards.values()) > 50


def test_random_setup_draws_stacks_from_one_chip_up() -> None:
    source = FastRandomSource(9)
    stacks = [s for _ in range(500) for s in random_setup(source, 6).stacks]
    assert min(stacks) >= 1
    assert max(stacks) <= 150 * 100
    assert sum(s < 100 for s in stacks) > 0  # some cannot cover the big blind


# ------------------------------------------------------------------ the driver


def test_policy_decides_by_its_chances() -> None:
    policy = Policy(facing_a_bet=(40, 30, 10, 15, 5), free_check=(50, 20, 25, 5))
    facing = Counter(policy.decide(u, False) for u in range(100))
    free = Counter(policy.decide(u, True) for u in range(100))
    assert facing == {"fold": 40, "call": 30, "min": 10, "random": 15, "all_in": 5}
    assert free == {"check": 50, "min": 20, "random": 25, "all_in": 5}
    assert policy.cuts == (40, 70, 80, 95, 50, 70, 95)
    assert policy.describe().startswith("facing a bet fold 40%, call 30%")
    for bad in (-1, 100):
        with pytest.raises(ValueError):
            policy.decide(bad, True)


@pytest.mark.parametrize(
    ("facing", "free"),
    [((40, 30, 10, 15, 6), (50, 20, 25, 5)), ((40, 30, 10, 15, 5), (50, 20, 35, -5))],
)
def test_policy_chances_must_add_up_to_100(
    facing: tuple[int, int, int, int, int], free: tuple[int, int, int, int]
) -> None:
    with pytest.raises(ValueError):
        Policy(facing, free)


def test_policy_changes_the_play() -> None:
    passive = Policy(facing_a_bet=(0, 100, 0, 0, 0), free_check=(100, 0, 0, 0))
    report = simulate(200, 6, seed=1, policy=passive)
    # nobody folds or raises: every hand is checked or called down to a showdown,
    # and only a stack shorter than the big blind goes all in (posting or calling it)
    assert report.showdown_rate == 1
    assert report.side_pot_rate <= report.all_in_rate < DEFAULT_RATE_FLOOR
    default = simulate(200, 6, seed=1)
    assert default.all_in_rate > DEFAULT_RATE_FLOOR
    assert without_timing(default) == without_timing(
        simulate(200, 6, seed=1, policy=DEFAULT_POLICY)
    )


@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_driver_outcome_agrees_with_the_event_log(preset_name: str) -> None:
    source = FastRandomSource(preset_name)
    for _ in range(300):
        setup = random_setup(source, 1 + 1 + source.randbelow(9))
        hand = Hand.start(preset(preset_name), setup, random_deck(source, 28))
        outcome = play_random_hand(hand, source)
        events = hand.events
        assert hand.is_over
        assert outcome.actions == sum(isinstance(e, PlayerActed) for e in events)
        assert outcome.showdown == any(isinstance(e, HandShown) for e in events)
        assert outcome.pots == sum(isinstance(e, PotAwarded) for e in events)
        went_all_in = any(getattr(e, "all_in", False) for e in events)
        assert outcome.all_in == went_all_in
        assert outcome.chips_conserved
        assert sum(hand.stacks) == sum(setup.stacks)


def test_driver_stops_a_hand_that_never_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    source = FastRandomSource(1)
    hand = Hand.start(preset("house"), random_setup(source, 3), random_deck(source, 14))
    monkeypatch.setattr(hand, "act", lambda action: None)  # an engine stuck in place
    with pytest.raises(SimulationError, match="without ending"):
        play_random_hand(hand, source)


def test_driver_takes_any_random_source() -> None:
    report = simulate(50, 4, source=SeededRandomSource("any"))
    assert report.hands == 50 and report.chips_conserved


def test_simulate_reports_rates_and_conservation() -> None:
    report = simulate(600, 6, seed=11)
    assert report.hands == 600
    assert report.chips_conserved
    for rate in (report.showdown_rate, report.all_in_rate, report.side_pot_rate):
        assert 0 <= rate <= 1
    # the policy is meant to make all-ins and side pots common
    assert report.side_pot_rate > 0.2
    assert report.all_in_rate > report.side_pot_rate
    assert report.showdown_rate >= report.side_pot_rate


def test_heads_up_has_no_side_pots() -> None:
    report = simulate(400, 2, seed=4)
    assert report.side_pot_rate == 0
    assert report.all_in_rate > 0 and report.showdown_rate > 0


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("preset_name", sorted(PRESETS))
def test_every_table_size_and_preset_conserves_chips(players: int, preset_name: str) -> None:
    assert simulate(40, players, seed=players, rules=preset_name).chips_conserved


def test_same_seed_same_hands_other_seed_other_hands() -> None:
    a = simulate(300, 6, seed=21, rules="standard")
    b = simulate(300, 6, seed=21, rules="standard")
    c = simulate(300, 6, seed=22, rules="standard")
    assert without_timing(a) == without_timing(b)
    assert without_timing(a) != without_timing(c)


def test_clock_is_injected_and_progress_is_reported() -> None:
    ticks = iter([10.0, 12.5])
    seen: list[int] = []
    report = simulate(
        25, 3, seed=1, clock=lambda: next(ticks), progress=seen.append, progress_every=10
    )
    assert report.seconds == 2.5
    assert report.hands_per_s == 10.0
    assert seen == [10, 20, 25]


@pytest.mark.parametrize(("hands", "players"), [(0, 6), (10, 1), (10, 11)])
def test_simulate_refuses_impossible_runs(hands: int, players: int) -> None:
    with pytest.raises(ValueError):
        simulate(hands, players)


# ------------------------------------------------------------------ the command


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_is_one_line_with_exactly_the_report_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(capsys, "--hands", "120", "--players", "5", "--seed", "3", "--json")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert set(data) == REPORT_KEYS
    assert data["hands"] == 120
    assert data["chips_conserved"] is True
    assert data["seconds"] > 0 and data["hands_per_s"] > 0
    assert data == {**data, **without_timing(simulate(120, 5, seed=3))}


def test_cli_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        _, out, _ = run_cli(capsys, "--hands", "80", "--seed", "9", "--preset", "arena", "--json")
        data = json.loads(out)
        del data["seconds"], data["hands_per_s"]
        runs.append(data)
    assert runs[0] == runs[1]


def test_cli_human_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--hands", "60", "--players", "3", "--seed", "2")
    assert code == 0
    assert "Played 60 hands of 3 players under house rules (seed 2)" in out
    assert "Chips were conserved in every hand." in out


def test_cli_progress_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, _ = run_cli(capsys, "--hands", "150", "--seed", "2")
    assert code == 0
    assert "Played 150 hands" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--cash", "--hands", "40"], "A cash game under house rules (seed 2): 40 hands"),
        (["--tournament", "--players", "3"], "Tournament of 3 bots under house rules (seed 2)"),
    ],
)
def test_cli_table_games_show_a_progress_bar_on_a_terminal(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    said: str,
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, _ = run_cli(capsys, *argv, "--seed", "2")
    assert code == 0
    assert said in out


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--players", "1"], "A hand needs 2 to 10 players, not 1."),
        (["--players", "11"], "A hand needs 2 to 10 players, not 11."),
        (["--hands", "0"], "Play at least one hand, not 0."),
        (["--hands", "-5"], "Play at least one hand, not -5."),
        (["--preset", "vegas"], "'vegas' is not a preset (use house, standard, arena, legacy)."),
        (["--tournament", "--players", "12"], "A hand needs 2 to 10 players, not 12."),
    ],
)
def test_cli_refuses_bad_input_with_a_sentence(
    capsys: pytest.CaptureFixture[str], argv: list[str], sentence: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err == f"cardroom: {sentence}\n"


@pytest.mark.parametrize("flag", ["--tournament", "--cash"])
def test_cli_plays_table_games_with_the_arguments_given(
    capsys: pytest.CaptureFixture[str], flag: str
) -> None:
    argv = [flag, "--players", "4", "--seed", "5", "--preset", "legacy", "--json"]
    code, out, err = run_cli(capsys, *argv, *(["--hands", "30"] if flag == "--cash" else []))
    report = json.loads(out)
    assert (code, err) == (0, "")
    assert (report["seed"], report["preset"], report["conserved"]) == (5, "legacy", True)
    if flag == "--tournament":
        assert report["players"] == 4 and len(report["places"]) == 4
    else:
        assert report["hands"] == 30


@pytest.mark.parametrize(
    ("argv", "sentence"),
    [
        (["--tournament", "--preset", "standard"], "standard rules have no tournaments."),
        (["--cash", "--preset", "arena"], "arena rules have no cash games."),
    ],
)
def test_cli_says_which_table_games_the_rules_have(
    capsys: pytest.CaptureFixture[str], argv: list[str], sentence: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert (code, out, err) == (2, "", f"cardroom: {sentence}\n")


def test_cli_tournament_and_cash_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["simulate", "--tournament", "--cash"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
