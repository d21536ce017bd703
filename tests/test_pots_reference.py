"""``side_pots`` against its rule written out plainly (the form it had before it
was written for speed): the same pots for any contributions, folds and dead money."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from cardroom.pots import Pot, side_pots


def _reference(contributed: Sequence[int], folded: Sequence[bool], dead_money: int) -> list[Pot]:
    live_levels = sorted({c for c, f in zip(contributed, folded, strict=True) if not f and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in live_levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(
            i
            for i, (c, f) in enumerate(zip(contributed, folded, strict=True))
            if not f and c >= level
        )
        pots.append(Pot(amount, eligible))
        previous = level
    leftover = sum(c - previous for c in contributed if c > previous)
    if leftover:
        if pots:
            pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
        else:
            pots.append(Pot(leftover, tuple(i for i, f in enumerate(folded) if not f)))
    if dead_money:
        if pots:
            pots[0] = Pot(pots[0].amount + dead_money, pots[0].eligible)
        else:
            pots.append(Pot(dead_money, tuple(i for i, f in enumerate(folded) if not f)))
    return pots


@given(
    st.lists(
        st.tuples(st.sampled_from([0, 1, 2, 5, 7, 40, 100, 101]), st.booleans()),
        min_size=2,
        max_size=10,
    ),
    st.sampled_from([0, 0, 3, 25]),
)
def test_side_pots_match_the_rule_written_out(
    players: list[tuple[int, bool]], dead_money: int
) -> None:
    contributed = [c for c, _ in players]
    folded = [f for _, f in players]
    pots = side_pots(contributed, folded, dead_money)
    assert pots == _reference(contributed, folded, dead_money)
    assert all(type(pot) is Pot for pot in pots)
    assert sum(pot.amount for pot in pots) == sum(contributed) + dead_money or not pots
