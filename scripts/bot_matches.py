"""How the bot levels play and how they fare: the figures in docs/bots.md.

1. Duplicate heads-up matches (every deal played twice, seats swapped; 100 big
   blinds each at the start of every hand): big blinds won per 100 hands by the
   first player, with the standard error.
2. Style at a six-handed table (two bots of each level, moving one seat round every
   hand, 100 big blinds each at the start of every hand): VPIP (hands where the bot
   put chips in voluntarily pre-flop), PFR (hands it raised pre-flop), the post-flop
   aggression factor (bets and raises per call), bluffs per post-flop decision, and
   the reasons it gave.

Run: ``.venv/bin/python scripts/bot_matches.py [--deals N] [--hands N]``. Seeded:
the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict

from cardroom.actions import Action, ActionKind
from cardroom.bots import LEVELS, Bot, Decision, SeatView
from cardroom.bots.match import CallingStation, Player, RandomPlayer, duplicate_match, play
from cardroom.deck import SeededRandomSource, shuffled_deck
from cardroom.hand import Hand, HandSetup
from cardroom.rules import preset


def opponent(name: str, seed: str) -> Player:
    if name == "calling station":
        return CallingStation()
    if name == "random":
        return RandomPlayer(SeededRandomSource(seed))
    return Bot(name, SeededRandomSource(seed))


class Recorder:
    def __init__(self, name: str, seed: str) -> None:
        self.bot = Bot(name, SeededRandomSource(seed))
        self.hand = 0
        self.log: list[tuple[int, SeatView, Decision]] = []

    def act(self, view: SeatView) -> Action:
        decision = self.bot.decide(view)
        self.log.append((self.hand, view, decision))
        return decision.action


def matches(deals: int) -> None:
    pairs = [
        ("regular", "calling station"),
        ("regular", "random"),
        ("regular", "beginner"),
        ("shark", "calling station"),
        ("shark", "random"),
        ("shark", "beginner"),
        ("shark", "regular"),
        ("beginner", "calling station"),
        ("beginner", "random"),
    ]
    print(f"Duplicate heads-up matches, {deals} deals ({2 * deals} hands) each:")
    print("| bot | against | BB/100 | standard error |")
    print("|---|---|---:|---:|")
    for first, second in pairs:
        result = duplicate_match(
            Bot(first, SeededRandomSource(f"{first} 1")),
            opponent(second, f"{second} 2"),
            deals,
            SeededRandomSource(f"deals {first} {second}"),
        )
        print(f"| {first} | {second} | {result.bb_per_100:+.0f} | {result.bb_per_100_error:.0f} |")


def styles(hands: int) -> None:
    names = list(LEVELS)
    bots = [Recorder(names[i % 3], f"style {i}") for i in range(6)]
    source = SeededRandomSource("style deals")
    totals: dict[str, int] = defaultdict(int)
    for number in range(hands):
        # the button stays on seat 6: move the bots one seat round every hand
        seated = {seat: bots[(seat + number) % 6] for seat in range(1, 7)}
        for recorder in bots:
            recorder.hand = number
        hand = Hand.start(
            preset("house"), HandSetup.simple([10_000] * 6, 50, 100), shuffled_deck(source)
        )
        for seat, won in play(hand, seated).items():
            totals[seated[seat].bot.level.name] += won
    print(f"\nSix-handed, two of each level, {hands} hands:")
    print("| level | VPIP | PFR | aggression factor | bluffs per post-flop decision | BB/100 |")
    print("|---|---:|---:|---:|---:|---:|")
    reasons: dict[str, Counter[str]] = {}
    for name in names:
        log = [e for r in bots if r.bot.level.name == name for e in r.log]
        dealt: set[tuple[int, int]] = set()
        vpip: set[tuple[int, int]] = set()
        pfr: set[tuple[int, int]] = set()
        aggressive = calls = post = bluffs = 0
        reasons[name] = Counter(d.reason for _, _, d in log)
        for number, view, decision in log:
            key = (number, view.seat)
            kind = decision.action.kind
            if view.street == 0:
                dealt.add(key)
                if kind is not ActionKind.CHECK and kind is not ActionKind.FOLD:
                    vpip.add(key)
                if kind in (ActionKind.RAISE, ActionKind.BET, ActionKind.ALL_IN):
                    pfr.add(key)
            else:
                post += 1
                aggressive += kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)
                calls += kind is ActionKind.CALL
                bluffs += decision.reason in ("bluff", "bluff raise")
        per_100 = 100 * totals[name] / (2 * hands) / 100
        print(
            f"| {name} | {len(vpip) / len(dealt):.0%} | {len(pfr) / len(dealt):.0%} | "
            f"{aggressive / max(calls, 1):.1f} | {bluffs / max(post, 1):.1%} | {per_100:+.0f} |"
        )
    print("\nReasons given, by level:")
    for name, counted in reasons.items():
        print(f"  {name}: " + ", ".join(f"{r} {n}" for r, n in counted.most_common()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per match (500)")
    parser.add_argument("--hands", type=int, default=600, help="six-handed hands (600)")
    args = parser.parse_args()
    began = time.perf_counter()
    matches(args.deals)
    styles(args.hands)
    print(f"\n{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
