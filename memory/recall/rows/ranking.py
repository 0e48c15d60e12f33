"""The ranking of `memory.recall.ranking`, over one person's rows (`person_rows`) instead of records read one by one.

The same pool and the same scores, as array operations:
- the pool: the dense ranking (cosine with the question's vector) and the hybrid one (the dense ranking and the
  keyword one fused by reciprocal rank, as the index fuses them), over the rows the question may see (its
  scopes, still true at its moment);
- relevance: BM25 over the pool's stems, a share for the meaning rank, the cosine; less for a memory whose own
  words share nothing with the question, more for one that says a name it asks about; the conversation prior;
- score: fading, importance, dated memories for a "when" question, memories from around a date it names.
One difference: the keyword ranking's IDF is the person's own (their memories), where the index's is the whole
collection's, every person's memories; among one person's memories, theirs is the one that tells rare words.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from bot.engine.model import RecallQuery
from bot.engine.when.dates import FoundDate
from memory.qdrant.driver import RRF_K
from memory.qdrant.rankings import MIN_CANDIDATES
from memory.recall.facts import microseconds
from memory.recall.lexical import K1 as LEXICAL_K1
from memory.recall.lexical import B as LEXICAL_B
from memory.recall.lexical import asked_names, question_terms
from memory.recall.ranking import SESSION_TOP, WHEN_QUESTION, Ranked, RecallWeights, period_days
from memory.recall.rows.person_rows import PersonRows
from memory.records import MemoryRecord
from memory.words.sparse import encode_query

Rows = npt.NDArray[np.intp]
Floats = npt.NDArray[np.float64]


def _best(values: npt.NDArray[np.floating[Any]], rows: Rows, limit: int) -> Rows:
    """The `limit` rows of `rows` with the highest values, best first (ties in row order)."""
    if len(rows) > limit:
        rows = np.sort(rows[np.argpartition(-values[rows], limit - 1)[:limit]])
    return rows[np.argsort(-values[rows], kind="stable")]


def keyword_scores(person: PersonRows, text: str) -> Floats:
    """The index's keyword score of each row: the question's terms' IDF times each row's saturated tf."""
    corpus = person.corpus
    documents, frequencies = (person.living, person.frequency) if corpus is None else (corpus.documents,
                                                                                       corpus.frequency)  # fmt: skip
    rows, values, which, found = person.postings_of(person.keywords, encode_query(text, person.keyword_key).indices)
    if not len(rows):
        return np.zeros(person.size)
    frequency = np.array([frequencies.get(term, 0) for term in found], dtype=np.float64)
    idf = np.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))
    return cast(Floats, np.bincount(rows, weights=idf[which] * values * person.alive[rows], minlength=person.size))


def _fused(dense: Rows, keyword: Rows, limit: int, size: int) -> Rows:
    """Reciprocal rank fusion, as the index's (`memory.qdrant.rankings.rrf`): ties in the order first seen."""
    scores = np.zeros(size)
    scores[dense] += 1.0 / (RRF_K + np.arange(1, len(dense) + 1))
    in_dense = scores > 0
    scores[keyword] += 1.0 / (RRF_K + np.arange(1, len(keyword) + 1))
    order = np.concatenate([dense, keyword[~in_dense[keyword]]])
    return order[np.argsort(-scores[order], kind="stable")[:limit]]


def _pool(person: PersonRows, vector: npt.NDArray[np.float32], query: RecallQuery, similar_limit: int,
          hybrid_limit: int) -> tuple[Rows, Floats, Floats]:  # fmt: skip
    """The candidates (rows), each with its meaning rank and cosine, as `memory.recall.ranking._pool` gives them
    from a hybrid search of `hybrid_limit` and a dense one of `similar_limit`."""
    n = person.size
    allowed = person.alive[:n] & (person.valid_to[:n] > microseconds(query.at))
    scopes = person.scope[:n]
    in_scope = np.zeros(n, dtype=np.bool_)
    for code in person.scope_codes(query.scopes):
        in_scope |= scopes == code
    allowed &= in_scope
    seen = np.flatnonzero(allowed)
    if not len(seen):
        return seen, np.zeros(0), np.zeros(0)
    dense, cosine = person.dense.best(vector, allowed, max(MIN_CANDIDATES, similar_limit, hybrid_limit))
    by_words = keyword_scores(person, query.text)
    keyword = _best(by_words, seen[by_words[seen] > 0], max(MIN_CANDIDATES, hybrid_limit))
    hybrid = _fused(dense, keyword, hybrid_limit, n)
    similar = dense[:similar_limit]
    in_similar = np.zeros(n, dtype=np.bool_)
    in_similar[similar] = True
    extra = hybrid[~in_similar[hybrid]]
    pool = np.concatenate([similar, extra])
    ranks = np.concatenate([np.arange(len(similar), dtype=np.float64), np.full(len(extra), float(len(similar)))])
    cosines = cosine[:similar_limit].astype(np.float64)
    cosines = np.concatenate([cosines, np.full(len(extra), cosines.min())])
    return pool, ranks, cosines


def _saying(person: PersonRows, terms: frozenset[str], place: Rows, size: int) -> npt.NDArray[np.bool_]:
    """Which of the pool (`place`: row -> its place in the pool, or -1) say one of `terms` in their own words."""
    out = np.zeros(size, dtype=np.bool_)
    rows, _, _, _ = person.postings_of(person.own, terms)
    at = place[rows]
    out[at[at >= 0]] = True
    return out


def _relevances(person: PersonRows, pool: Rows, ranks: Floats, cosines: Floats, question: str,
                weights: RecallWeights) -> Floats:  # fmt: skip
    size = len(pool)
    place = np.full(person.size, -1, dtype=np.intp)
    place[pool] = np.arange(size)
    terms = question_terms(question)
    keyword = np.zeros(size)
    lengths = person.length[pool]
    average = float(lengths.sum()) / size or 1.0
    rows, counts, which, found = person.postings_of(person.stems, terms)
    at = place[rows]
    held = at >= 0
    at, counts, which = at[held], counts[held], which[held]
    if len(at):  # BM25 with the pool's own IDF (`memory.recall.lexical.keyword_scores_of`)
        frequency = np.bincount(which, minlength=len(found))
        idf = np.log(1 + (size - frequency + 0.5) / (frequency + 0.5))
        norm = LEXICAL_K1 * (1.0 - LEXICAL_B + LEXICAL_B * lengths[at] / average)
        scores = idf[which] * counts * (LEXICAL_K1 + 1.0) / (counts + norm)
        keyword = cast(Floats, np.bincount(at, weights=scores, minlength=size))
    best = keyword.max() if size else 0.0
    if best > 0:
        keyword /= best
    values = keyword + weights.rank_weight / (1.0 + ranks / weights.rank_scale) + weights.similarity_weight * cosines
    values[~_saying(person, terms, place, size)] *= weights.context_only
    names = asked_names(question)
    if names:
        values[_saying(person, names, place, size)] *= weights.named_boost
    return values


def _with_session_prior(sessions: npt.NDArray[np.int32], values: Floats, weight: float) -> Floats:
    """`memory.recall.ranking._session_prior`: each value lifted by its conversation's match (the sum of its best
    SESSION_TOP values) over the best conversation's."""
    if weight <= 0 or not len(values):
        return values
    order = np.lexsort((-values, sessions))
    grouped = sessions[order]
    first = np.empty(len(order), dtype=np.bool_)
    first[0] = True
    np.not_equal(grouped[1:], grouped[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    within = np.arange(len(order)) - starts[group]
    top = within < SESSION_TOP
    strength = np.bincount(group[top], weights=values[order][top], minlength=len(starts))
    best = strength.max()
    if best <= 0:
        return values
    lift = np.empty(len(values))
    lift[order] = strength[group]
    return values * (1.0 + weight * lift / best)


def rank_rows(person: PersonRows, vector: Sequence[float], query: RecallQuery,
              question_dates: list[FoundDate], weights: RecallWeights, similar_limit: int,
              hybrid_limit: int) -> list[Ranked]:  # fmt: skip
    """The pool of a hybrid search of `hybrid_limit` and a dense one of `similar_limit`, best first, as
    `memory.recall.ranking.rank` ranks the pool of those two searches."""
    unit = np.asarray(vector, dtype=np.float32)
    norm = math.sqrt(float(unit @ unit))
    pool, ranks, cosines = _pool(person, unit / norm if norm > 0 else unit, query, similar_limit, hybrid_limit)
    if not len(pool):
        return []
    values = _relevances(person, pool, ranks, cosines, query.text, weights)
    values = _with_session_prior(person.session[pool], values, weights.session_weight)
    age_days = np.maximum(0.0, (microseconds(query.at) - person.moment[pool]) / 10**6 / 86400.0)
    half_life = person.half_life[pool]
    fading = np.ones(len(pool))
    fades = np.isfinite(half_life)
    fading[fades] = np.maximum(person.floor[pool][fades], 0.5 ** (age_days[fades] / half_life[fades]))
    scores = values * fading * person.weight[pool]
    if WHEN_QUESTION.search(query.text) is not None:
        scores[person.dated[pool]] *= weights.temporal_boost
    if question_dates:  # `memory.recall.ranking.near_date`, over the rows' days
        local, said = person.local_day[pool], person.said_day[pool]
        near = np.zeros(len(pool), dtype=np.bool_)
        for found in question_dates:
            start, end = period_days(found)
            near |= ((local >= start) & (local <= end)) | ((said >= start) & (said <= end))
        scores[near] *= weights.near_date_boost
    every = cast(list[MemoryRecord], person.records)  # a row in the pool is alive: its record is there
    order = np.argsort(-scores, kind="stable")
    return list(zip(map(every.__getitem__, pool[order].tolist()), scores[order].tolist(), strict=True))
