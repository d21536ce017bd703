"""Greedy search for compact per-rank weights (the batch evaluator's rank key).

We want 13 non-negative integers w[0..12] such that any two different multisets of
exactly ``n`` ranks (n = 0..7, each rank at most four times) have different sums
``sum(w[r] for r in multiset)``. Then the sum of a 7-card hand's weights identifies
its rank multiset and a dense table indexed by that sum gives the non-flush rank.
Only multisets of the same size need different sums (the batch path only ever adds
exactly seven weights), which allows smaller weights than full uniqueness.

Greedy: w[0] = 0, then each next weight is the smallest value above the previous one
that keeps all sums distinct within each size. Adding weight w with multiplicity
j1 to one multiset and j2 < j1 to another collides exactly when
``(j1 - j2) * w == s2 - s1`` for sums s2 of size m and s1 of size m - (j1 - j2); the
set of such differences is computed at once with FFT correlations.

Run: ``.venv/bin/python scripts/find_rank_weights.py``; it prints the weights and the
largest 5-, 6- and 7-card key. The result is committed as ``RANK_WEIGHTS`` in
``cardroom/evaluator_tables.py`` and proved by ``tests/test_evaluator_batch.py``.
"""

from __future__ import annotations

import time

import numpy as np

MAX_CARDS = 7
MAX_COPIES = 4
RANKS = 13


def extend(sums: list[np.ndarray], w: int) -> list[np.ndarray]:
    """Sums by size after adding a rank of weight ``w`` (0 to 4 copies)."""
    out = []
    for n in range(MAX_CARDS + 1):
        parts = [sums[n - j] + j * w for j in range(min(MAX_COPIES, n) + 1)]
        out.append(np.concatenate(parts))
    return out


def forbidden(sums: list[np.ndarray]) -> list[np.ndarray]:
    """For d = 1..4, a boolean array: True at x when x = s2 - s1 > 0 for some s2 of
    size m and s1 of size m - d (both from ``sums``)."""
    top = max(int(s.max()) for s in sums if len(s))
    size = 1
    while size < 2 * (top + 1):
        size *= 2
    spectra = []
    for s in sums:
        ind = np.zeros(size)
        ind[s] = 1.0
        spectra.append(np.fft.rfft(ind))
    result = [np.zeros(0, dtype=bool)]
    for d in range(1, MAX_COPIES + 1):
        acc = np.zeros(size // 2 + 1, dtype=complex)
        for m in range(d, MAX_CARDS + 1):
            acc += spectra[m] * np.conj(spectra[m - d])
        corr = np.fft.irfft(acc, size)  # corr[x] = #pairs with s2 - s1 = x (mod size)
        result.append(corr[: top + 1] > 0.5)
    return result


def search() -> list[int]:
    weights = [0]
    sums = extend([np.zeros(1, dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * 7, 0)
    while len(weights) < RANKS:
        diffs = forbidden(sums)
        w = weights[-1] + 1
        while any(d * w < len(diffs[d]) and diffs[d][d * w] for d in range(1, 5)):
            w += 1
        weights.append(w)
        sums = extend(sums, w)
        for n, s in enumerate(sums):
            assert len(np.unique(s)) == len(s), (n, w)
        print(f"rank {len(weights) - 1:2d}: weight {w}", flush=True)
    return weights


def main() -> None:
    start = time.perf_counter()
    weights = search()
    print("RANK_WEIGHTS =", tuple(weights))
    print(f"searched in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
