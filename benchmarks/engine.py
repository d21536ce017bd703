"""Hands per second of random play, 6-max: Cardroom's engine against PokerKit 0.7.7 and
texasholdem, in the same run, with the same policy and the same stacks.

    .venv/bin/python benchmarks/engine.py [--hands 5000] [--peer-hands 1500] [--rounds 3]
        [--presets house,standard] [--policy default|calm] [--skip-peers]

Every engine plays complete hands of No-Limit Hold'em, blinds 50/100, six players with
random stacks (1 chip to 150 big blinds, drawn from the same seeded stream for all
three), and the same random policy decides each action from the engine's own
legal-action query: ``cardroom.simulate.DEFAULT_POLICY`` (all-ins and side pots are
common), or with ``--policy calm`` fewer all-ins and showdowns; the policy is printed
with the figures.
Each engine deals its own shuffled deck, posts blinds, settles pots and pays winners;
dealer chores are automated in PokerKit (all ten automations). The rounds are
interleaved (ours, PokerKit, texasholdem, ours, ...) so that load on the machine
falls on all three alike; the figure is the median round, the best is shown beside,
both by wall clock and by CPU time (steadier on a shared machine).
Each peer's hands are checked for chip conservation, so a driver mistake cannot pass
for speed.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardroom.simulate import (
    DEFAULT_POLICY,
    FastRandomSource,
    Policy,
    random_setup,
    simulate,
)

PLAYERS = 6
SEED = 20240611
POLICIES = {
    "default": DEFAULT_POLICY,  # side pots common: what `cardroom simulate` plays
    # fewer all-ins and showdowns, for comparison: PokerKit's cost is mostly showdowns
    "calm": Policy(facing_a_bet=(60, 30, 7, 3, 0), free_check=(80, 15, 5, 0)),
}


class Clocks:
    """Wall-clock and CPU seconds of one run. On a shared machine the CPU time is
    the steadier figure: it leaves out the time other processes held the core."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def stop(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def run_ours(hands: int, policy: Policy, preset: str = "house") -> tuple[float, float]:
    clocks = Clocks()
    report = simulate(hands, PLAYERS, SEED, preset, policy=policy)
    elapsed = clocks.stop()
    if not report.chips_conserved:
        raise SystemExit("cardroom: chips not conserved")
    return elapsed


def run_pokerkit(hands: int, policy: Policy) -> tuple[float, float]:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    random.seed(SEED)  # PokerKit shuffles with the random module
    src = FastRandomSource(SEED)
    draw = src.randbelow
    clocks = Clocks()
    for _ in range(hands):
        stacks = random_setup(src, PLAYERS).stacks  # PHH order: small blind first
        state = NoLimitTexasHoldem.create_state(
            automations, True, 0, (50, 100), 100, stacks, PLAYERS
        )
        while state.status:
            to_call = state.checking_or_calling_amount
            if to_call is None:
                raise SystemExit("pokerkit: a manual step is left; automate it")
            choice = policy.decide(draw(100), to_call == 0)
            if choice == "fold":
                state.fold()
                continue
            lo = hi = None
            if choice not in ("check", "call"):
                lo = state.min_completion_betting_or_raising_to_amount
                hi = state.max_completion_betting_or_raising_to_amount
            if lo is None or hi is None:
                state.check_or_call()
            elif choice == "min":
                state.complete_bet_or_raise_to(lo)
            elif choice == "random":
                state.complete_bet_or_raise_to(lo + draw(hi - lo + 1))
            else:
                state.complete_bet_or_raise_to(hi)
        if sum(state.stacks) != sum(stacks):
            raise SystemExit("pokerkit: chips not conserved; the driver is wrong")
    return clocks.stop()


def run_texasholdem(hands: int, policy: Policy) -> tuple[float, float]:
    from texasholdem import ActionType, TexasHoldEm  # type: ignore[import-untyped]

    random.seed(SEED)  # texasholdem shuffles and picks its button with the random module
    src = FastRandomSource(SEED)
    draw = src.randbelow
    game = TexasHoldEm(buyin=15000, big_blind=100, small_blind=50, max_players=PLAYERS)
    clocks = Clocks()
    for _ in range(hands):
        stacks = random_setup(src, PLAYERS).stacks
        for player, chips in zip(game.players, stacks, strict=True):
            player.chips = chips
        game.start_hand()
        while game.is_hand_running():
            moves = game.get_available_moves()
            choice = policy.decide(draw(100), ActionType.CHECK in moves.action_types)
            raises = moves.raise_range
            if choice == "fold":
                game.take_action(ActionType.FOLD)
            elif choice in ("check", "call") or not raises:
                free = ActionType.CHECK in moves.action_types
                game.take_action(ActionType.CHECK if free else ActionType.CALL)
            elif choice == "min":
                game.take_action(ActionType.RAISE, total=raises[0])
            elif choice == "random":
                game.take_action(ActionType.RAISE, total=raises[draw(len(raises))])
            else:
                game.take_action(ActionType.ALL_IN)
        if sum(p.chips for p in game.players) != sum(stacks):
            raise SystemExit("texasholdem: chips not conserved; the driver is wrong")
    return clocks.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per round for ours")
    parser.add_argument("--peer-hands", type=int, default=1500, help="hands per round, peers")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--presets", default="house,standard", help="our rule presets, comma-separated"
    )
    parser.add_argument("--policy", choices=sorted(POLICIES), default="default")
    parser.add_argument("--skip-peers", action="store_true")
    args = parser.parse_args()

    from importlib.metadata import version

    presets = [name.strip() for name in args.presets.split(",") if name.strip()]
    policy = POLICIES[args.policy]
    engines: list[tuple[str, int, Callable[[int], tuple[float, float]]]] = [
        (f"cardroom ({name})", args.hands, partial(run_ours, policy=policy, preset=name))
        for name in presets
    ]
    if not args.skip_peers:
        engines += [
            (
                f"pokerkit {version('pokerkit')}",
                args.peer_hands,
                partial(run_pokerkit, policy=policy),
            ),
            (
                f"texasholdem {version('texasholdem')}",
                args.peer_hands,
                partial(run_texasholdem, policy=policy),
            ),
        ]
    for _, n, run in engines:  # warm-up: imports, tables, caches
        run(max(1, n // 20))
    wall: dict[str, list[float]] = {name: [] for name, _, _ in engines}
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in engines}
    for _ in range(args.rounds):
        for name, n, run in engines:
            wall_s, cpu_s = run(n)
            wall[name].append(n / wall_s)
            cpu[name].append(n / cpu_s)

    print(f"policy {args.policy}: {policy.describe()}")
    print(f"Python {platform.python_version()} on {platform.machine()}, {PLAYERS}-max,", end=" ")
    print(f"median of {args.rounds} interleaved rounds (best in brackets)")
    header = f"{'engine':<22} {'hands':>6} {'hands/s (wall)':>18} {'hands/CPU-s':>18}"
    print(f"{header} {'vs pokerkit':>12}")
    wall_median = {name: statistics.median(r) for name, r in wall.items()}
    cpu_median = {name: statistics.median(r) for name, r in cpu.items()}
    pk = next((k for k in wall_median if k.startswith("pokerkit")), None)
    for name, n, _ in engines:
        versus = "-"
        if pk:
            by_wall = wall_median[name] / wall_median[pk]
            versus = f"{by_wall:.1f}x/{cpu_median[name] / cpu_median[pk]:.1f}x"
        w = f"{wall_median[name]:,.0f} ({max(wall[name]):,.0f})"
        c = f"{cpu_median[name]:,.0f} ({max(cpu[name]):,.0f})"
        print(f"{name:<22} {n:>6} {w:>18} {c:>18} {versus:>12}")
    if pk:
        for name in presets:
            ours = f"cardroom ({name})"
            by_wall = wall_median[ours] / wall_median[pk]
            by_cpu = cpu_median[ours] / cpu_median[pk]
            print(
                f"ratio {ours} / pokerkit: {by_wall:.1f}x by wall clock, "
                f"{by_cpu:.1f}x by CPU time (target 25x)"
            )


if __name__ == "__main__":
    main()
