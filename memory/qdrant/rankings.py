"""What a search asks Qdrant for (the dense and keyword rankings), their fusion, and the last search kept."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter

from memory.qdrant.driver import RRF_K, Hit, Where
from memory.qdrant.payload import timestamp
from memory.records import MemoryRecord
from memory.words.sparse import SparseTerms

SEARCH_MODES = ("hybrid", "dense")
MIN_CANDIDATES = 50  # per retriever, before fusion

# Searching a person's memories by who they are alone and sorting out scope and validity on the records read
# costs a fraction of filtering them in the index, which checks each condition for every point it scans: at
# 3,300 memories a person, 1.4 against 3.1 ms for the dense ranking and 0.7 against 2.0 ms for the keyword one
# (bench/floor.py's index). Unless too many are sorted out: then the index filters after all.
KEPT_ENOUGH = 0.9


def rrf(rankings: Sequence[Sequence[Hit]], limit: int) -> list[Hit]:
    """Reciprocal rank fusion (as Qdrant's: 1 / (k + rank), rank from 1), the best `limit` first (ties in the
    order first seen: nlargest is sorted(..., reverse=True)[:limit], without sorting or wrapping the rest)."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.point_id] = scores.get(hit.point_id, 0.0) + 1.0 / (RRF_K + rank)
    return [Hit(i, score, {}) for i, score in heapq.nlargest(limit, scores.items(), key=itemgetter(1))]


@dataclass(frozen=True, slots=True)
class LastSearch:
    user_key: str
    text: str
    where: Where
    dense: list[Hit]  # its dense ranking, ids and cosine: the exact start of the ranking of what `where` allows
    exhausted: bool  # nothing more matches: the ranking is whole
    records: dict[str, MemoryRecord]

    def serves(self, user_key: str, text: str, where: Where, limit: int) -> bool:
        """Whether its dense ranking is the start of a dense search for this question."""
        complete = limit <= len(self.dense) or self.exhausted
        return (self.user_key, self.text, self.where) == (user_key, text, where) and complete


@dataclass(frozen=True, slots=True)
class Ranking:
    hits: list[Hit]  # best first: the exact start of the ranking of what the search's `where` allows
    exhausted: bool  # nothing more matches


@dataclass(frozen=True, slots=True)
class Asked:
    """The rankings a search asks for: the dense one, `limit` long, and with terms the keyword one."""

    dense: list[float]
    limit: int
    terms: SparseTerms | None = None
    keywords: int = 0

    @property
    def limits(self) -> list[int]:
        return [self.limit, self.keywords] if self.terms else [self.limit]


def loose_where(where: Where) -> Where:
    """What to ask the index for when the person's records are kept in process (cheap to check): the person alone,
    when `where` has no condition but scope and validity; otherwise `where` itself."""
    if where.kinds is not None or where.ids is not None or where.listed_only:
        return where
    if where.created_before is not None or where.created_after is not None:
        return where
    return Where(user_key=where.user_key)


def allows(where: Where, record: MemoryRecord) -> bool:
    """Whether `record` is among what `where` selects (for the conditions a loose search leaves out)."""
    if where.scopes is not None and record.scope not in where.scopes:
        return False
    if where.current_after is not None and record.valid_to is not None:
        return timestamp(record.valid_to) > where.current_after
    return True
