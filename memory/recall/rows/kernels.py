"""The rows' ranking loops, compiled (numba): each of `ranking`'s steps as one pass over plain arrays.

In numpy each step was a dozen array operations of a few microseconds each, ~100 for a recall, and each cost
twice as much when the recall had just waited for its query's embedding (cold caches): the ranking took ~1 ms
at 3,800 memories, half of what a recall adds to the embedding. Here each step is one call.

They compute what `ranking`'s numpy did, in the same order (the same sums, term by term), so what recall shows
does not change. Compiled on first use and cached on disk beside this module (`cache=True`);
`memory.recall.rows.ranking.warm_up` compiles or loads them before the first recall (a few seconds the first time,
less than a second after). Only numba and numpy here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

_Function = TypeVar("_Function", bound=Callable[..., Any])
try:
    njit(cache=True)(lambda: None)
    _CACHED = True
except RuntimeError:  # nowhere to write numba's cache (a read-only install, no home): compiled at each start
    _CACHED = False


def _compiled(function: _Function) -> _Function:
    """Compiled on first call (or loaded from the cache); the interpreter's lock let go while it runs."""
    return cast(_Function, njit(cache=_CACHED, nogil=True, boundscheck=False)(function))


@_compiled
def _worse(keys: Any, heap: Any, a: int, b: int) -> bool:
    """Whether the heap's entry `a` ranks below `b`: a lower value, or an equal one and a later row."""
    return keys[a] < keys[b] or (keys[a] == keys[b] and heap[a] > heap[b])


@_compiled
def _sift_down(heap: Any, keys: Any, at: int, size: int) -> None:
    """Restores the heap below `at`: each entry above the ones below it, the worst at the top."""
    while True:
        low, left = at, 2 * at + 1
        if left < size and _worse(keys, heap, left, low):
            low = left
        if left + 1 < size and _worse(keys, heap, left + 1, low):
            low = left + 1
        if low == at:
            return
        keys[at], keys[low] = keys[low], keys[at]
        heap[at], heap[low] = heap[low], heap[at]
        at = low


@_compiled
def best(values: Any, rows: Any, limit: int) -> Any:
    """The `limit` rows of `rows` (ascending) with the highest values, best first; ties in row order. One pass
    with a heap of the best so far, its worst on top: a later row enters only with a higher value than that."""
    count = len(rows)
    if count > limit:
        heap = rows[:limit].copy()
        keys = np.empty(limit, dtype=np.float64)
        for i in range(limit):
            keys[i] = values[heap[i]]
        for at in range(limit // 2 - 1, -1, -1):
            _sift_down(heap, keys, at, limit)
        for i in range(limit, count):
            value = values[rows[i]]
            if value > keys[0]:
                keys[0] = value
                heap[0] = rows[i]
                _sift_down(heap, keys, 0, limit)
        rows = np.sort(heap)
    keys = np.empty(len(rows), dtype=np.float64)
    for i in range(len(rows)):
        keys[i] = -values[rows[i]]
    return rows[np.argsort(keys, kind="mergesort")]


@_compiled
def allowed_rows(alive: Any, valid_to: Any, scope: Any, codes: Any, at: int, size: int) -> Any:
    """The rows still there, still true at `at`, in one of the scopes `codes`."""
    wanted = np.zeros(codes.max() + 1 if len(codes) else 1, dtype=np.bool_)
    for code in codes:
        wanted[code] = True
    out = np.empty(size, dtype=np.intp)
    count = 0
    for row in range(size):
        code = scope[row]
        if alive[row] and valid_to[row] > at and code < len(wanted) and wanted[code]:
            out[count] = row
            count += 1
    return out[:count]


@_compiled
def keyword_scores(rows: Any, weights: Any, alive: Any, size: int) -> Any:
    """Each row's keyword score: the sum of its postings' weights (IDF times saturated tf), living rows only."""
    out = np.zeros(size, dtype=np.float64)
    for i in range(len(rows)):
        row = rows[i]
        out[row] += weights[i] * (1.0 if alive[row] else 0.0)
    return out


@_compiled
def pool(seen: Any, cosine: Any, by_words: Any, size: int, dense_limit: int, keyword_limit: int,
         similar_limit: int, hybrid_limit: int, rrf_k: float) -> Any:  # fmt: skip
    """The candidates of the dense ranking (`similar_limit`) and of the hybrid one (`hybrid_limit`, the dense and
    the keyword rankings fused by reciprocal rank), each once, with its meaning rank and cosine."""
    dense = best(cosine, seen, dense_limit)
    matching = np.empty(len(seen), dtype=seen.dtype)
    count = 0
    for row in seen:
        if by_words[row] > 0:
            matching[count] = row
            count += 1
    keyword = best(by_words, matching[:count], keyword_limit)
    fused = np.zeros(size, dtype=np.float64)
    for i in range(len(dense)):
        fused[dense[i]] += 1.0 / (rrf_k + (i + 1))
    order = np.empty(len(dense) + len(keyword), dtype=seen.dtype)
    order[: len(dense)] = dense
    count = len(dense)
    for i in range(len(keyword)):
        row = keyword[i]
        if fused[row] == 0:
            order[count] = row
            count += 1
        fused[row] += 1.0 / (rrf_k + (i + 1))
    order = order[:count]
    keys = np.empty(count, dtype=np.float64)
    for i in range(count):
        keys[i] = -fused[order[i]]
    hybrid = order[np.argsort(keys, kind="mergesort")[:hybrid_limit]]
    similar = dense[:similar_limit]
    in_similar = np.zeros(size, dtype=np.bool_)
    for row in similar:
        in_similar[row] = True
    out = np.empty(len(similar) + len(hybrid), dtype=seen.dtype)
    out[: len(similar)] = similar
    count = len(similar)
    for row in hybrid:
        if not in_similar[row]:
            out[count] = row
            count += 1
    out = out[:count]
    ranks = np.empty(count, dtype=np.float64)
    cosines = np.empty(count, dtype=np.float64)
    lowest = np.inf
    for i in range(len(similar)):
        ranks[i] = i
        cosines[i] = cosine[similar[i]]
        lowest = min(lowest, cosines[i])
    for i in range(len(similar), count):
        ranks[i] = len(similar)
        cosines[i] = lowest
    return out, ranks, cosines


@_compiled
def _places(pool: Any, size: int) -> Any:
    place = np.full(size, -1, dtype=np.intp)
    for i in range(len(pool)):
        place[pool[i]] = i
    return place


@_compiled
def _saying(place: Any, rows: Any, count: int) -> Any:
    out = np.zeros(count, dtype=np.bool_)
    for row in rows:
        at = place[row]
        if at >= 0:
            out[at] = True
    return out


@_compiled
def relevances(pool: Any, ranks: Any, cosines: Any, size: int, length: Any, stem_rows: Any, stem_counts: Any,
               stem_which: Any, terms_found: int, own_rows: Any, name_rows: Any, names: bool, k1: float, b: float,
               rank_weight: float, rank_scale: float, similarity_weight: float, context_only: float,
               named_boost: float) -> Any:  # fmt: skip
    """BM25 over the pool's stems (the pool's own IDF), normalised by the best; a share for the meaning rank and the
    cosine; less for a candidate whose own words share nothing with the question, more for one saying a name it
    asks about."""
    count = len(pool)
    place = _places(pool, size)
    lengths = np.empty(count, dtype=np.float64)
    for i in range(count):
        lengths[i] = length[pool[i]]
    average = lengths.sum() / count
    if average == 0:
        average = 1.0
    keyword = np.zeros(count, dtype=np.float64)
    frequency = np.zeros(terms_found, dtype=np.float64)
    for i in range(len(stem_rows)):
        if place[stem_rows[i]] >= 0:
            frequency[stem_which[i]] += 1
    idf = np.log(1 + (count - frequency + 0.5) / (frequency + 0.5))
    for i in range(len(stem_rows)):
        at = place[stem_rows[i]]
        if at >= 0:
            tf = stem_counts[i]
            norm = k1 * (1.0 - b + b * lengths[at] / average)
            keyword[at] += idf[stem_which[i]] * tf * (k1 + 1.0) / (tf + norm)
    top = keyword.max() if count else 0.0
    values = np.empty(count, dtype=np.float64)
    saying = _saying(place, own_rows, count)
    named = _saying(place, name_rows, count)
    for i in range(count):
        score = keyword[i] / top if top > 0 else keyword[i]
        value = score + rank_weight / (1.0 + ranks[i] / rank_scale) + similarity_weight * cosines[i]
        if not saying[i]:
            value *= context_only
        if names and named[i]:
            value *= named_boost
        values[i] = value
    return values


@_compiled
def with_session_prior(sessions: Any, values: Any, weight: float, top: int) -> Any:
    """Each value lifted by its conversation's match (the sum of its best `top` values) over the best one's."""
    count = len(values)
    if weight <= 0 or count == 0:
        return values
    keys = np.empty(count, dtype=np.float64)
    for i in range(count):
        keys[i] = -values[i]
    order = np.argsort(keys, kind="mergesort")
    order = order[np.argsort(sessions[order], kind="mergesort")]  # by conversation, best first within one
    strength = np.zeros(count, dtype=np.float64)
    group = np.empty(count, dtype=np.intp)
    groups, within = -1, 0
    for k in range(count):
        i = order[k]
        if k == 0 or sessions[i] != sessions[order[k - 1]]:
            groups += 1
            within = 0
        group[k] = groups
        if within < top:
            strength[groups] += values[i]
        within += 1
    strongest = strength[: groups + 1].max()
    if strongest <= 0:
        return values
    out = np.empty(count, dtype=np.float64)
    for k in range(count):
        i = order[k]
        out[i] = values[i] * (1.0 + weight * strength[group[k]] / strongest)
    return out


@_compiled
def scored(pool: Any, values: Any, at: int, moment: Any, half_life: Any, floor: Any, weight: Any, dated: Any,
           when_boost: float) -> Any:  # fmt: skip
    """Relevance faded by age (down to each memory's floor), times its weight; dated memories lifted by
    `when_boost` (1.0 unless the question asks when)."""
    out = np.empty(len(pool), dtype=np.float64)
    for i in range(len(pool)):
        row = pool[i]
        fading = 1.0
        life = half_life[row]
        if math.isfinite(life):
            age_days = max(0.0, (at - moment[row]) / 10**6 / 86400.0)
            fading = max(floor[row], 0.5 ** (age_days / life))
        score = values[i] * fading * weight[row]
        if dated[row]:
            score *= when_boost
        out[i] = score
    return out
