"""The seam between the hybrid index and a Qdrant backend (embedded edge shard or server).

The index speaks in these plain values; each driver translates them to its library's types. Every
`Where` carries a user key, so no driver call can reach across people.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from memory.words.sparse import SparseTerms

DENSE = "dense"
SPARSE = "sparse"
RRF_K = 60  # the usual reciprocal-rank-fusion constant; both backends use the same one


@dataclass(frozen=True, slots=True)
class Where:
    """Which of one person's memories an operation applies to (None = no restriction on that field)."""

    user_key: str
    ids: tuple[str, ...] | None = None
    scopes: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None
    current_after: float | None = None  # a timestamp: keep records whose valid_to is later
    created_before: float | None = None  # a timestamp: keep records created earlier
    created_after: float | None = None  # a timestamp: keep records created later
    listed_only: bool = False  # leave out episodes hidden by their twin fact (see payload.HIDDEN_BY)


@dataclass(frozen=True, slots=True)
class IndexPoint:
    point_id: str
    dense: list[float]
    sparse: SparseTerms
    payload: dict[str, Any]


class Hit(NamedTuple):
    """A NamedTuple rather than a frozen dataclass: a recall builds ~700 of them, at a third of the cost each."""

    point_id: str
    score: float
    payload: dict[str, Any]


class IndexDriver(Protocol):
    async def upsert(self, user_key: str, points: Sequence[IndexPoint]) -> None:
        """Insert new points, or replace existing ones only where they belong to `user_key`."""
        ...

    async def hybrid(
        self, dense: list[float], sparse: SparseTerms, where: Where, limit: int, candidates: int
    ) -> list[Hit]:
        """Dense and sparse candidates fused with RRF (sparse skipped when it has no terms)."""
        ...

    async def nearest(self, dense: list[float], where: Where, limit: int, *, with_payload: bool = True) -> list[Hit]:
        """Dense only; the score is the cosine similarity. Without payload, each hit's payload is empty."""
        ...

    async def rankings(
        self, dense: list[float], sparse: SparseTerms, where: Where, limit: int, keyword_limit: int | None = None
    ) -> tuple[list[Hit], list[Hit]]:
        """The dense ranking (score = cosine, `limit` long) and the keyword one (`keyword_limit`, else `limit`;
        empty without terms), best first, ids only."""
        ...

    async def holders(self, terms: Sequence[SparseTerms], where: Where, limit: int) -> list[set[str]]:
        """For each of `terms`, the ids of the points (up to `limit`) whose keyword vector shares a term with it."""
        ...

    async def newest(
        self, where: Where, limit: int, *, with_payload: bool = True, oldest_first: bool = False
    ) -> list[Hit]:
        """Matching points, newest `created_at` first, or oldest first; the score is the `created_at`
        timestamp. Without payload (an empty dict) a walk costs less: walk the ids, then fetch the page."""
        ...

    async def with_vectors(self, where: Where) -> list[tuple[Hit, list[float], SparseTerms]]:
        """Every point `where` selects, with its payload, its dense vector and its keyword terms (recall's rows
        are built from them), in no particular order."""
        ...

    async def points(self, user_key: str, ids: Sequence[str]) -> list[Hit]:
        """The payloads of the person's points among `ids`, in no particular order (score 0); an id that is
        unknown or someone else's is left out. Cheaper than `newest` by ids: nothing to filter or order."""
        ...

    async def count(self, where: Where) -> int: ...

    async def set_payload(self, where: Where, payload: dict[str, Any]) -> None: ...

    async def delete(self, where: Where) -> None: ...

    async def walk(self, after: str | None, limit: int) -> tuple[list[Hit], str | None]:
        """Every point of every person, in id order, a page at a time (payload, no vectors): the page after
        `after` (None: the first) and where the next one starts (None: that was the last). For a reindex."""
        ...

    async def total(self) -> int:
        """How many points the index holds, all people together."""
        ...

    async def optimize(self) -> None:
        """Compact storage after deletions (an erasure), off the event loop."""
        ...

    async def close(self) -> None:
        """Flush and release the backend."""
        ...
