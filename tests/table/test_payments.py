"""Who pays whom (``cardroom.table.payments``): worked examples, and for many random
tables that the payments settle every net with at most one fewer than the players
with a result."""

from __future__ import annotations

import random

from cardroom.table.payments import Payment, settle_up, unsettled


def test_one_loser_pays_two_winners_largest_first() -> None:
    assert settle_up({"ann": 300, "bob": -1000, "cyd": 700}) == (
        Payment("bob", "cyd", 700),
        Payment("bob", "ann", 300),
    )


def test_largest_debtor_pays_largest_creditor() -> None:
    # dee owes 600 and pays ann (owed 500) first, then 100 to bob; cyd's 300 goes to
    # bob, who was owed 400: three payments for four players.
    nets = {"ann": 500, "bob": 400, "cyd": -300, "dee": -600}
    assert settle_up(nets) == (
        Payment("dee", "ann", 500),
        Payment("cyd", "bob", 300),
        Payment("dee", "bob", 100),
    )


def test_nobody_up_or_down_pays_nothing() -> None:
    assert settle_up({"ann": 0, "bob": 0}) == ()
    assert settle_up({}) == ()


def test_nets_that_do_not_sum_to_zero_settle_as_far_as_they_can() -> None:
    nets = {"ann": 500, "bob": -300}
    assert settle_up(nets) == (Payment("bob", "ann", 300),)
    assert unsettled(nets) == 200


def test_random_tables_settle_in_at_most_n_minus_one_payments() -> None:
    rng = random.Random(22)
    for _ in range(500):
        n = rng.randint(2, 10)
        nets = [rng.randint(-5000, 5000) for _ in range(n - 1)]
        nets.append(-sum(nets))
        table = {f"p{k}": v for k, v in enumerate(nets)}
        payments = settle_up(table)
        with_result = sum(1 for v in nets if v)
        assert len(payments) <= max(with_result - 1, 0)
        left = dict(table)
        for p in payments:
            assert p.amount > 0 and table[p.payer] < 0 < table[p.payee]
            left[p.payer] += p.amount
            left[p.payee] -= p.amount
        assert all(v == 0 for v in left.values())
