"""The small tests the pattern finder believes in: label permutation, exact hypergeometric tail, Holm.

Pure numpy and the standard library (no scipy in the project); deterministic through a fixed seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np

_CHUNK = 256


def group_share_pvalues(
    groups: np.ndarray, counts: np.ndarray, n_groups: int, *, permutations: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Is each label over-represented in each group? Units (e.g. days) carry a group (e.g. weekday) and
    counts per label; the statistic is a group's share of a label among its readings, and the null shuffles
    the groups among the units (so a heavy day counts once, wherever it falls).

    Returns (observed shares, one-sided p-values), both (n_groups, labels); p = (1 + #as extreme) / (1 + N).
    """
    units, labels = counts.shape
    onehot = np.zeros((units, n_groups), dtype=np.float64)
    onehot[np.arange(units), groups] = 1.0
    totals = counts.sum(axis=1)
    observed = _shares(onehot.T @ counts, onehot.T @ totals)
    as_extreme = np.zeros((n_groups, labels))
    rng = np.random.default_rng(seed)
    done = 0
    while done < permutations:
        size = min(_CHUNK, permutations - done)
        shuffled = rng.permuted(np.tile(groups, (size, 1)), axis=1)
        hot = np.zeros((size, units, n_groups))
        np.put_along_axis(hot, shuffled[:, :, None], 1.0, axis=2)
        shares = _shares(np.einsum("pug,ul->pgl", hot, counts), np.einsum("pug,u->pg", hot, totals))
        as_extreme += (shares >= observed[None] - 1e-12).sum(axis=0)
        done += size
    return observed, (1.0 + as_extreme) / (1.0 + permutations)


def _shares(counts: np.ndarray, totals: np.ndarray) -> np.ndarray:
    return np.divide(counts, totals[..., None], out=np.zeros_like(counts), where=totals[..., None] > 0)


def window_shift_pvalue(values: np.ndarray, windows: np.ndarray, *, permutations: int, seed: int) -> tuple[float, int]:
    """Did the values in any of the recent windows (boolean masks, one row each) shift from the rest?

    The statistic is the largest standardised mean difference over the windows, and the null shuffles the
    values, so trying several windows costs no correction beyond this one max. Two-sided. Returns the
    p-value and the index of the window with the largest shift."""
    sizes = windows.sum(axis=1)
    rest = len(values) - sizes
    scale = np.sqrt(1.0 / sizes + 1.0 / rest)

    def largest(batch: np.ndarray) -> np.ndarray:
        inside = batch @ windows.T.astype(np.float64)
        diff = inside / sizes - (batch.sum(axis=1, keepdims=True) - inside) / rest
        return np.asarray(np.abs(diff) / scale)

    observed = largest(values[None, :])[0]
    best = int(np.argmax(observed))
    rng = np.random.default_rng(seed)
    as_extreme = 0
    done = 0
    while done < permutations:
        size = min(_CHUNK * 8, permutations - done)
        shuffled = rng.permuted(np.tile(values, (size, 1)), axis=1)
        as_extreme += int((largest(shuffled).max(axis=1) >= observed[best] - 1e-12).sum())
        done += size
    return (1.0 + as_extreme) / (1.0 + permutations), best


def hypergeometric_tail(successes_drawn: int, drawn: int, successes: int, population: int) -> float:
    """P(X >= successes_drawn) drawing `drawn` of `population` that holds `successes` (exact, one-sided)."""
    top = min(drawn, successes)
    total = comb(population, drawn)
    hits = sum(comb(successes, x) * comb(population - successes, drawn - x) for x in range(successes_drawn, top + 1))
    return hits / total


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (family-wise error), in the input order."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
