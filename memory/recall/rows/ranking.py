"""The ranking of `memory.recall.ranking`, over one person's rows (`person_rows`) instead of records read one by one.

The same pool and the same scores, as array operations:
- the pool: the dense ranking (cosine with the question's vector) and the hybrid one (the dense ranking and the
  keyword one fused by reciprocal rank, as the index fuses them), over the rows the question may see (its
  scopes, still true at its moment);
- relevance: BM25 over the pool's stems, a share for the meaning rank, the cosine; less for a memory whose own
  words share nothing with the question, more for one that says a name it asks about; the conversation prior;
- score: fading, importance, dated memories for a "when" question, memories from around a date it names.
Each step is one compiled loop (`kernels`); what stays here is reading the question's postings and the records.
Two differences from the index: the keyword ranking's IDF is the person's own (their memories), where the index's
is the whole collection's, every person's memories (among one person's memories, theirs is the one that tells
rare words); and of candidates with equal scores at the end of a ranking's list, the earlier written are kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from bot.engine.model import RecallQuery
from bot.engine.when.dates import FoundDate
from memory.qdrant.driver import RRF_K
from memory.qdrant.rankings import MIN_CANDIDATES
from memory.recall.facts import microseconds
from memory.recall.lexical import K1 as LEXICAL_K1
from memory.recall.lexical import B as LEXICAL_B
from memory.recall.lexical import asked_names, stems
from memory.recall.ranking import SESSION_TOP, WHEN_QUESTION, Ranked, RecallWeights, near_date
from memory.recall.rows import kernels
from memory.recall.rows.person_rows import PersonRows
from memory.records import MemoryRecord
from memory.words.sparse import encode_query

Rows = npt.NDArray[np.intp]
Floats = npt.NDArray[np.float64]


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
    return cast(Floats, kernels.keyword_scores(rows, idf[which] * values, person.alive, person.size))


def _pool(person: PersonRows, vector: npt.NDArray[np.float32], query: RecallQuery, similar_limit: int,
          hybrid_limit: int) -> tuple[Rows, Floats, Floats]:  # fmt: skip
    """The candidates (rows), each with its meaning rank and cosine, as `memory.recall.ranking._pool` gives them
    from a hybrid search of `hybrid_limit` and a dense one of `similar_limit`."""
    n = person.size
    codes = np.array(person.scope_codes(query.scopes), dtype=np.int32)
    seen = kernels.allowed_rows(person.alive, person.valid_to, person.scope, codes, microseconds(query.at), n)
    if not len(seen):
        return seen, np.zeros(0), np.zeros(0)
    cosine = person.vectors[:n] @ vector
    by_words = keyword_scores(person, query.text)
    dense_limit = max(MIN_CANDIDATES, similar_limit, hybrid_limit)
    return cast(tuple[Rows, Floats, Floats], kernels.pool(seen, cosine, by_words, n, dense_limit,
                max(MIN_CANDIDATES, hybrid_limit), similar_limit, hybrid_limit, float(RRF_K)))  # fmt: skip


def _relevances(person: PersonRows, pool: Rows, ranks: Floats, cosines: Floats, question: str,
                weights: RecallWeights) -> Floats:  # fmt: skip
    terms = frozenset(stems(question))
    stem_rows, counts, which, found = person.postings_of(person.stems, terms)
    own_rows = person.postings_of(person.own, terms)[0]
    names = asked_names(question)
    name_rows = person.postings_of(person.own, names)[0] if names else own_rows
    return cast(Floats, kernels.relevances(
        pool, ranks, cosines, person.size, person.length, stem_rows, counts, which, len(found), own_rows, name_rows,
        bool(names), LEXICAL_K1, LEXICAL_B, weights.rank_weight, weights.rank_scale, weights.similarity_weight,
        weights.context_only, weights.named_boost))  # fmt: skip


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
    values = kernels.with_session_prior(person.session[pool], values, weights.session_weight, SESSION_TOP)
    when = weights.temporal_boost if WHEN_QUESTION.search(query.text) is not None else 1.0
    scores = kernels.scored(pool, values, microseconds(query.at), person.moment, person.half_life, person.floor,
                            person.weight, person.dated, when)  # fmt: skip
    # A row in the pool is alive: its record is there.
    every = cast(list[MemoryRecord], person.records)
    if question_dates:
        for i, row in enumerate(pool.tolist()):
            if any(near_date(every[row], found) for found in question_dates):
                scores[i] *= weights.near_date_boost
    order = np.argsort(-scores, kind="stable")
    return list(zip(map(every.__getitem__, pool[order].tolist()), scores[order].tolist(), strict=True))


def warm_up() -> None:
    """Every kernel compiled (or loaded from numba's cache) for the types a recall gives them, over a person with
    no rows: seconds of CPU the first time, for a worker thread before the first recall."""
    person = PersonRows("warm-up", 4)
    rows, values, which, _ = person.postings_of(person.keywords, ())
    kernels.allowed_rows(person.alive, person.valid_to, person.scope, np.zeros(1, dtype=np.int32), 0, 1)
    by_words = kernels.keyword_scores(rows, values[which], person.alive, 1)
    cosine = np.zeros(1, dtype=np.float32)
    one = np.zeros(1, dtype=np.intp)
    pool, ranks, cosines = kernels.pool(one, cosine, by_words, 1, 1, 1, 1, 1, float(RRF_K))
    values = kernels.relevances(pool, ranks, cosines, 1, person.length, rows, values, which, 0, rows, rows, False,
                                1.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0)  # fmt: skip
    values = kernels.with_session_prior(person.session[pool], values, 0.5, SESSION_TOP)
    kernels.scored(pool, values, 0, person.moment, person.half_life, person.floor, person.weight, person.dated, 1.0)
