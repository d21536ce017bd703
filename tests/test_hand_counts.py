"""The hand's running count of players with chips (``_with_chips``, kept move by move
for the legal actions) equals a fresh count from its stacks and folds after every
action and at the end, as a hand read back from its stored state counts them: the
committer's kept table is compared with the stored one on exactly that
(``kept_tables.check_kept``). An all-in player paid by the pots once drifted."""

from __future__ import annotations

import random

from cardroom.actions import Action, ActionKind
from cardroom.hand import Hand, HandSetup
from cardroom.rules import PRESETS


def test_the_running_count_is_the_fresh_count_after_every_action() -> None:
    rng = random.Random(1)
    for rules in PRESETS.values():
        for _ in range(1500):
            stacks = [rng.choice([1, 3, 5, 10, 50, 200]) for _ in range(rng.randint(2, 6))]
            hand = Hand.start(rules, HandSetup.simple(stacks, 1, 2), rng.sample(range(52), 52))
            while not hand.is_over:
                legal = hand.legal_actions()
                choices = [Action(ActionKind.CHECK if legal.to_call == 0 else ActionKind.CALL)]
                if legal.can_fold:
                    choices.append(Action(ActionKind.FOLD))
                if legal.max_to:
                    kind = ActionKind.RAISE if legal.to_call or legal.bet else ActionKind.BET
                    choices.append(Action(kind, rng.choice([legal.min_to, legal.max_to])))
                hand.act(rng.choice(choices))
                running = hand._with_chips
                hand._count_players()
                assert running == hand._with_chips, (stacks, hand.events[-3:])
