"""A recall's last step, CPU only: the candidates ranked (`ranking`, or over a person's rows, `rows.ranking`), the
question's dates read, and what is shown chosen (`selection`). All of it Python or numpy on the event loop: a
worker thread would only add its hand-over, since the work holds the interpreter from start to end."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.model import RecalledMemory, RecallQuery
from bot.engine.when.dates import resolve_dates
from memory.recall.lexical import question_terms
from memory.recall.ranking import Ranked, RecallWeights, rank
from memory.recall.rows.person_rows import PersonRows
from memory.recall.rows.ranking import rank_rows
from memory.recall.selection import select
from memory.records import ScoredMemory


def from_searches(hits: Sequence[ScoredMemory], similar: Sequence[ScoredMemory], query: RecallQuery,
                  weights: RecallWeights) -> list[RecalledMemory]:  # fmt: skip
    """From the index's hybrid (`hits`) and dense (`similar`) searches."""
    question_dates = resolve_dates(query.text, query.at, query.timezone)
    ranked = [r for r in rank(hits, query, question_dates, similar, weights) if r[0].is_current(query.at)]
    return shown(ranked, query, weights)


def ranked_rows(rows: PersonRows, vector: Sequence[float], query: RecallQuery, weights: RecallWeights,
                similar_limit: int, hybrid_limit: int) -> list[Ranked]:  # fmt: skip
    """The person's rows ranked as the pool of a dense search of `similar_limit` and a hybrid one of
    `hybrid_limit` would be."""
    question_dates = resolve_dates(query.text, query.at, query.timezone)
    return rank_rows(rows, vector, query, question_dates, weights, similar_limit, hybrid_limit)


def from_rows(rows: PersonRows, vector: Sequence[float], query: RecallQuery, weights: RecallWeights,
              similar_limit: int, hybrid_limit: int) -> list[RecalledMemory]:  # fmt: skip
    """From the person's rows (memory/recall/rows/), with the question's vector."""
    return shown(ranked_rows(rows, vector, query, weights, similar_limit, hybrid_limit), query, weights)


def shown(ranked: list[Ranked], query: RecallQuery, weights: RecallWeights) -> list[RecalledMemory]:
    """What of `ranked` is shown, within the query's count and word budget."""
    return select(ranked, query.limit, query.max_words, question_terms(query.text), weights)
