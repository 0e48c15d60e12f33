"""A brute-force, in-memory MemoryIndex + MemoryCatalog for unit tests of the memory pipeline.

Dense vectors are hashed words and character trigrams (so "steak" is near "steaks", never near "jazz");
hybrid search fuses that ranking with keyword overlap by reciprocal rank, like the real index does.
Every call is filtered on the user key, as in the real index.
"""

from __future__ import annotations

import math
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory
from memory.words.sparse import tokenize

DIMENSION = 256
RRF_K = 60


class HashingEmbedder:
    @property
    def dimension(self) -> int:
        return DIMENSION

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.vector(t) for t in texts]

    @staticmethod
    def vector(text: str) -> list[float]:
        out = [0.0] * DIMENSION
        for token in tokenize(text):
            out[zlib.crc32(token.encode()) % DIMENSION] += 1.0
            padded = f"#{token}#"
            for i in range(len(padded) - 2):
                out[zlib.crc32(padded[i : i + 3].encode()) % DIMENSION] += 0.3
        norm = math.sqrt(sum(v * v for v in out)) or 1.0
        return [v / norm for v in out]


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


class FakeMemoryIndex:
    def __init__(self) -> None:
        self.records: dict[str, MemoryRecord] = {}
        self._vectors: dict[str, list[float]] = {}
        self.searches: list[IndexQuery] = []

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        for record in records:
            assert record.user_key, "a user key is required"
            assert str(uuid.UUID(record.memory_id)) == record.memory_id
            self.records[record.memory_id] = record
            self._vectors[record.memory_id] = HashingEmbedder.vector(record.text)

    async def embed_ahead(self, texts: Sequence[str], memories: Sequence[MemoryRecord] = ()) -> None:
        self.embedded_ahead = [*getattr(self, "embedded_ahead", []), *texts, *(m.text for m in memories)]

    async def text_vector(self, text: str) -> list[float]:
        return HashingEmbedder.vector(text)

    def _matching(self, query: IndexQuery) -> list[MemoryRecord]:
        return [
            r
            for r in self.records.values()
            if r.user_key == query.user_key
            and r.scope in query.scopes
            and (query.kinds is None or r.kind in query.kinds)
            and (not query.current_only or r.is_current(query.at))
        ]

    async def search(self, query: IndexQuery) -> list[ScoredMemory]:
        assert query.user_key, "a user key is required"
        self.searches.append(query)
        pool = self._matching(query)
        vector = HashingEmbedder.vector(query.text)
        dense = sorted(pool, key=lambda r: _cosine(vector, self._vectors[r.memory_id]), reverse=True)
        if query.mode == "dense":
            return [ScoredMemory(r, _cosine(vector, self._vectors[r.memory_id])) for r in dense[: query.limit]]
        terms = set(tokenize(query.text))
        overlap = {r.memory_id: len(terms & set(tokenize(r.text))) for r in pool}
        keyword = sorted((r for r in pool if overlap[r.memory_id]), key=lambda r: overlap[r.memory_id], reverse=True)
        fused: dict[str, float] = {}
        for ranking in (dense, keyword):
            for rank, record in enumerate(ranking):
                fused[record.memory_id] = fused.get(record.memory_id, 0.0) + 1.0 / (RRF_K + rank + 1)
        best = sorted(fused.items(), key=lambda kv: kv[1], reverse=True)[: query.limit]
        return [ScoredMemory(self.records[i], s) for i, s in best]

    async def supersede(self, user_key: str, memory_ids: Sequence[str], at: datetime) -> int:
        changed = 0
        for memory_id in memory_ids:
            record = self.records.get(memory_id)
            if record is not None and record.user_key == user_key and record.is_current(at):
                self.records[memory_id] = replace(record, valid_to=at)
                changed += 1
        return changed

    async def remove(self, user_key: str, memory_ids: Sequence[str]) -> int:
        gone = [i for i in memory_ids if i in self.records and self.records[i].user_key == user_key]
        for memory_id in gone:
            del self.records[memory_id]
        return len(gone)

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]:
        return [self.records[i] for i in memory_ids if i in self.records and self.records[i].user_key == user_key]

    async def hide(self, user_key: str, episode_id: str, fact_id: str) -> int:
        record = self.records.get(episode_id)
        if record is None or record.user_key != user_key or record.kind is not MemoryKind.EPISODIC:
            return 0
        self.records[episode_id] = replace(record, hidden_by=fact_id)
        return 1

    def _owned(
        self,
        user_key: str,
        current_only: bool,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
        created_before: datetime | None = None,
    ) -> list[MemoryRecord]:
        owned = [
            r
            for r in self.records.values()
            if r.user_key == user_key
            and (not current_only or r.valid_to is None)
            and (kinds is None or r.kind in kinds)
            and (not listed_only or r.hidden_by is None)
            and (created_before is None or r.created_at < created_before)
        ]
        return sorted(owned, key=lambda r: r.created_at, reverse=True)

    async def scroll(
        self,
        user_key: str,
        offset: int,
        limit: int,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
        created_before: datetime | None = None,
    ) -> list[MemoryRecord]:
        owned = self._owned(user_key, current_only, kinds, listed_only, created_before)
        return owned[max(offset, 0) : max(offset, 0) + max(limit, 0)]

    async def count(
        self,
        user_key: str,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> int:
        return len(self._owned(user_key, current_only, kinds, listed_only))

    async def matching(
        self, user_key: str, text: str, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> list[MemoryRecord]:  # fmt: skip
        words = set(text.casefold().split())
        owned = self._owned(user_key, False, kinds, listed_only)
        return [r for r in owned if words & set(r.text.casefold().split())][: max(limit, 0)]

    async def holding_words(
        self, user_key: str, text: str, offset: int, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> tuple[list[MemoryRecord], int] | None:  # fmt: skip
        wanted = set(tokenize(text))
        if not wanted:
            return None
        owned = [r for r in self._owned(user_key, False, kinds, listed_only) if wanted <= set(tokenize(r.text))]
        return owned[max(offset, 0) : max(offset, 0) + max(limit, 0)], len(owned)

    async def forget_user(self, user_key: str) -> int:
        gone = [i for i, r in self.records.items() if r.user_key == user_key]
        for memory_id in gone:
            del self.records[memory_id]
        return len(gone)
