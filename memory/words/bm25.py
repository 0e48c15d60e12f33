"""BM25, once: the term-frequency saturation and IDF that the sparse vectors, the recall re-ranking and the
evaluation's baseline all use (each with its own k1 and b)."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence


def saturated_tf(tf: float, length: float, average_length: float, k1: float, b: float) -> float:
    """tf·(k1+1) / (tf + k1·(1 − b + b·length/average)): how much a term's repeats count in one document."""
    return tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * length / average_length))


def idf(documents: int, frequency: int) -> float:
    """The non-negative BM25 IDF of a term found in `frequency` of `documents` documents."""
    return math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))


def bm25_scores(
    docs: Sequence[Mapping[str, float]], lengths: Sequence[float], terms: Collection[str], k1: float, b: float
) -> list[float]:
    """The BM25 score of each document for `terms`, with IDF taken from `docs` themselves."""
    if not docs:
        return []
    average = (sum(lengths) / len(lengths)) or 1.0
    wanted = terms if isinstance(terms, (set, frozenset)) else set(terms)
    # One pass over the documents for the terms each holds (recall scores ~250 for every question): a keys-view
    # intersection is done in C, and saturated_tf is written out below, ~2x cheaper than term by term.
    present = [d.keys() & wanted for d in docs]
    frequency: dict[str, int] = {}
    for found in present:
        for t in found:
            frequency[t] = frequency.get(t, 0) + 1
    weights = {t: idf(len(docs), df) for t, df in frequency.items()}
    boost = k1 + 1.0
    out: list[float] = []
    for d, length, found in zip(docs, lengths, present, strict=True):
        if not found:
            out.append(0.0)
            continue
        norm = k1 * (1.0 - b + b * length / average)  # saturated_tf's denominator, less the tf
        out.append(sum(weights[t] * d[t] * boost / (d[t] + norm) for t in found))
    return out
