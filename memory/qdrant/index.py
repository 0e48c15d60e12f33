"""The hybrid memory index: MemoryIndex + MemoryCatalog over one Qdrant backend (edge or server).

Texts are embedded on the way in and out (dense: the injected Embedder; sparse: BM25 terms). Every
operation takes a user key and every backend call is filtered on it: a memory id belonging to
someone else matches nothing.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime

from bot.engine.ports import Clock
from bot.errors import InvalidInput
from memory.ports import Embedder
from memory.qdrant.driver import Hit, IndexDriver, IndexPoint, Where
from memory.qdrant.payload import payload_to_record, record_to_payload, timestamp, valid_to_fields
from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory
from memory.sparse import encode_document, encode_query

SEARCH_MODES = ("hybrid", "dense")
MIN_CANDIDATES = 50  # per retriever, before fusion
QUERY_VECTORS = 64  # recent query texts whose embedding is kept: recall searches twice with one text


def _canonical_ids(memory_ids: Sequence[str]) -> tuple[str, ...]:
    """Valid UUIDs in canonical form; anything else cannot name a memory and is dropped."""
    out: list[str] = []
    for memory_id in memory_ids:
        try:
            out.append(str(uuid.UUID(str(memory_id))))
        except ValueError:
            continue
    return tuple(dict.fromkeys(out))


def _require_user(user_key: str) -> None:
    if not user_key:
        raise InvalidInput("a user key is required")


def sparse_text(record: MemoryRecord) -> str:
    """What keyword search sees: the text plus the short label and whose it is."""
    return " ".join(part for part in (record.text, record.label, record.subject) if part)


class QdrantMemoryIndex:
    def __init__(self, driver: IndexDriver, embedder: Embedder, clock: Clock) -> None:
        self._driver = driver
        self._embedder = embedder
        self._clock = clock
        # Count-then-change operations (supersede, remove, forget) must not interleave.
        self._writes = asyncio.Lock()
        self._query_vectors: OrderedDict[str, list[float]] = OrderedDict()

    # ---- MemoryIndex ----

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        if not records:
            return
        for record in records:
            _require_user(record.user_key)
            if _canonical_ids([record.memory_id]) != (record.memory_id,):
                raise InvalidInput(f"memory_id must be a canonical UUID string, got {record.memory_id!r}")
        vectors = await self._embedder.embed([r.text for r in records])
        points = [
            IndexPoint(r.memory_id, vector, encode_document(sparse_text(r)), record_to_payload(r))
            for r, vector in zip(records, vectors, strict=True)
        ]
        by_user: dict[str, list[IndexPoint]] = {}
        for record, point in zip(records, points, strict=True):
            by_user.setdefault(record.user_key, []).append(point)
        async with self._writes:
            for user_key, user_points in by_user.items():
                # Conditional upsert: an id that already names someone else's memory is left alone.
                await self._driver.upsert(user_key, user_points)

    async def search(self, query: IndexQuery) -> list[ScoredMemory]:
        _require_user(query.user_key)
        if query.mode not in SEARCH_MODES:
            raise ValueError(f"unknown search mode {query.mode!r}; expected one of {SEARCH_MODES}")
        if query.limit <= 0 or not query.scopes or (query.kinds is not None and not query.kinds):
            return []
        where = Where(
            user_key=query.user_key,
            scopes=tuple(query.scopes),
            kinds=None if query.kinds is None else tuple(MemoryKind(k).value for k in query.kinds),
            current_after=timestamp(query.at) if query.current_only else None,
        )
        dense = await self._query_vector(query.text)
        if query.mode == "dense":
            hits = await self._driver.nearest(dense, where, query.limit)
        else:
            candidates = max(MIN_CANDIDATES, 3 * query.limit)
            hits = await self._driver.hybrid(dense, encode_query(query.text), where, query.limit, candidates)
        return [ScoredMemory(payload_to_record(h.point_id, h.payload), h.score) for h in hits]

    async def supersede(self, user_key: str, memory_ids: Sequence[str], at: datetime) -> int:
        """Only records still current at `at` change: an older valid_to is kept as it was."""
        _require_user(user_key)
        ids = _canonical_ids(memory_ids)
        if not ids:
            return 0
        where = Where(user_key=user_key, ids=ids, current_after=timestamp(at))
        async with self._writes:
            changed = await self._driver.count(where)
            if changed:
                await self._driver.set_payload(where, valid_to_fields(at))
        return changed

    async def remove(self, user_key: str, memory_ids: Sequence[str]) -> int:
        _require_user(user_key)
        ids = _canonical_ids(memory_ids)
        if not ids:
            return 0
        self._query_vectors.clear()  # recent messages' texts: the forgotten one may be among them
        return await self._delete(Where(user_key=user_key, ids=ids))

    # ---- MemoryCatalog ----

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]:
        """The user's records among `memory_ids`, in the order asked; unknown or foreign ids are skipped."""
        _require_user(user_key)
        ids = _canonical_ids(memory_ids)
        if not ids:
            return []
        hits = await self._driver.newest(Where(user_key=user_key, ids=ids), len(ids))
        by_id = {h.point_id: h for h in hits}
        return [self._record(by_id[i]) for i in ids if i in by_id]

    async def scroll(
        self,
        user_key: str,
        offset: int,
        limit: int,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
    ) -> list[MemoryRecord]:
        """Newest first. `kinds` (beyond the port) narrows the listing, e.g. to temporal memories."""
        _require_user(user_key)
        if limit <= 0 or (kinds is not None and not kinds):
            return []
        offset = max(offset, 0)
        # Ordered scrolls page by value, not by position: read through the page and drop the head.
        # People hold at most tens of thousands of memories, and listings start at the top.
        hits = await self._driver.newest(self._where_user(user_key, current_only, kinds), offset + limit)
        return [self._record(h) for h in hits[offset:]]

    async def count(
        self, user_key: str, *, current_only: bool = False, kinds: Sequence[MemoryKind] | None = None
    ) -> int:
        _require_user(user_key)
        if kinds is not None and not kinds:
            return 0
        return await self._driver.count(self._where_user(user_key, current_only, kinds))

    async def forget_user(self, user_key: str) -> int:
        """Every memory of the person; the segments are then compacted so their texts leave the files too."""
        _require_user(user_key)
        self._query_vectors.clear()
        gone = await self._delete(Where(user_key=user_key))
        if gone:
            await self._driver.optimize()
        return gone

    # ---- helpers ----

    async def _query_vector(self, text: str) -> list[float]:
        vector = self._query_vectors.get(text)
        if vector is None:
            [vector] = await self._embedder.embed([text])
            self._query_vectors[text] = vector
            while len(self._query_vectors) > QUERY_VECTORS:
                self._query_vectors.popitem(last=False)
        else:
            self._query_vectors.move_to_end(text)
        return vector

    async def _delete(self, where: Where) -> int:
        async with self._writes:
            gone = await self._driver.count(where)
            if gone:
                await self._driver.delete(where)
        return gone

    def _where_user(self, user_key: str, current_only: bool, kinds: Sequence[MemoryKind] | None = None) -> Where:
        now = timestamp(self._clock.now()) if current_only else None
        wanted = None if kinds is None else tuple(MemoryKind(k).value for k in kinds)
        return Where(user_key=user_key, current_after=now, kinds=wanted)

    @staticmethod
    def _record(hit: Hit) -> MemoryRecord:
        return payload_to_record(hit.point_id, hit.payload)

    async def close(self) -> None:
        await self._driver.close()
