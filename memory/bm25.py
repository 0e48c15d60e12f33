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
    n = len(docs)
    weights = {t: idf(n, df) for t in terms if (df := sum(1 for d in docs if t in d))}
    return [
        sum(w * saturated_tf(d[t], length, average, k1, b) for t, w in weights.items() if t in d)
        for d, length in zip(docs, lengths, strict=True)
    ]
