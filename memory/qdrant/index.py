"""The hybrid memory index: MemoryIndex + MemoryCatalog over one Qdrant backend (edge or server).

Texts are embedded on the way in and out (dense: the injected Embedder; sparse: BM25 terms). Every
operation takes a user key and every backend call is filtered on it: a memory id belonging to
someone else matches nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.engine.ports import Clock
from bot.errors import InvalidInput
from memory.ports import Embedder
from memory.privacy.crypto import PlainCipher, Sealer, TextCipher
from memory.qdrant.driver import Hit, IndexDriver, IndexPoint, Where
from memory.qdrant.hit_records import records_of
from memory.qdrant.ids import canonical_ids, require_user
from memory.qdrant.keywords import document_terms, query_terms
from memory.qdrant.paging import WALK, listing_where, newest_page
from memory.qdrant.payload import HIDDEN_BY, payload_to_record, record_to_payload, timestamp, valid_to_fields
from memory.qdrant.person_points import person_points
from memory.qdrant.rankings import (
    KEPT_ENOUGH,
    MIN_CANDIDATES,
    SEARCH_MODES,
    Asked,
    LastSearch,
    Ranking,
    allows,
    loose_where,
    rrf,
)
from memory.qdrant.record_cache import RecordCache
from memory.qdrant.sealed_payload import seal_payload
from memory.qdrant.vectors import KnownVectors
from memory.qdrant.word_hits import newest_holding
from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory
from memory.words.sparse import tokenize

if TYPE_CHECKING:  # recall's rows read this package (its keyword terms): only their types here
    from memory.recall.rows.keeper import PersonPoints, RecallRows
    from memory.recall.rows.person_rows import PersonRows

log = logging.getLogger(__name__)


class QdrantMemoryIndex:
    def __init__(
        self,
        driver: IndexDriver,
        embedder: Embedder,
        clock: Clock,
        *,
        walk: int = WALK,
        cached_records: int = 0,
        cipher: TextCipher | None = None,
        read_ahead: Callable[[Sequence[MemoryRecord]], None] | None = None,
        rows: RecallRows | None = None,
    ) -> None:
        """`cached_records`: how many records read by searches are kept in process (0: none) — only for a
        backend this process alone writes to (see memory/qdrant/record_cache.py). `read_ahead`: given each
        written record in a worker thread, as searches will give it back, where records are kept
        (memory/recall/ahead.py). `rows`: where people's memories are kept as rows for recall, told of every
        write (memory/recall/rows/) — like `cached_records`, only for a backend this process alone writes to."""
        self._driver = driver
        self._cache = RecordCache(cached_records)
        # Seals each payload's words with its person's data key (SOUVENIR_ENCRYPTION_KEY); filters stay clear.
        self._cipher: TextCipher = cipher or PlainCipher()
        self._walk = walk
        self._vectors = KnownVectors(embedder)
        self._clock = clock
        # Count-then-change operations (supersede, remove, forget) must not interleave.
        self._writes = asyncio.Lock()
        # The last search: recall searches twice with one text, and the second reuses its dense ranking and
        # reads only the payloads the first did not bring (reading payloads is most of a search's cost). Any
        # write forgets it.
        self._last_found: LastSearch | None = None
        self._compact_on_close = False  # memories were deleted: purge them from the files before closing
        self._read_ahead = read_ahead
        self._rows = rows

    # ---- MemoryIndex ----

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        if not records:
            return
        for record in records:
            require_user(record.user_key)
            if canonical_ids([record.memory_id]) != (record.memory_id,):
                raise InvalidInput(f"memory_id must be a canonical UUID string, got {record.memory_id!r}")
        vectors = await self._vectors.of_records(records)
        payloads = [record_to_payload(r) for r in records]
        sealers: dict[str, Sealer] = {}  # with encryption: each person's, which also keys their keyword ids
        if self._cipher.enabled:
            sealers = {u: await self._cipher.sealer(u) for u in {r.user_key for r in records}}
            payloads = [seal_payload(p, sealers[r.user_key]) for r, p in zip(records, payloads, strict=True)]
        points = [
            IndexPoint(r.memory_id, vector, document_terms(r, sealers.get(r.user_key)), payload)
            for r, vector, payload in zip(records, vectors, payloads, strict=True)
        ]
        self._last_found = None
        by_user: dict[str, list[IndexPoint]] = {}
        for record, point in zip(records, points, strict=True):
            by_user.setdefault(record.user_key, []).append(point)
        written = [r.memory_id for r in records]
        async with self._writes:
            self._cache.changing(written)
            try:
                for user_key, user_points in by_user.items():
                    # Conditional upsert: an id that already names someone else's memory is left alone.
                    await self._driver.upsert(user_key, user_points)
            finally:
                self._cache.changing(written)
            kept: list[MemoryRecord] = []
            if self._cache.enabled:
                # As a read would give them back (the next message's consolidation finds them without a read).
                plain = [record_to_payload(r) for r in records] if self._cipher.enabled else payloads
                kept = [payload_to_record(r.memory_id, p) for r, p in zip(records, plain, strict=True)]
                self._cache.keep(kept, self._cache.generation)
        if self._read_ahead is not None and kept:
            # Only the records kept here: with a server, the next recall may be another replica's.
            try:
                await asyncio.to_thread(self._read_ahead, kept)
            except Exception:  # written all the same: a recall reads what this could not
                log.warning("could not read %d written memories ahead of recall", len(kept), exc_info=True)
        if self._rows is not None and kept:  # the very records kept and read ahead: their analyses are done
            self._rows.written(kept, vectors, [p.sparse for p in points], self._person_points)

    async def embed_ahead(self, texts: Sequence[str], memories: Sequence[MemoryRecord] = ()) -> None:
        await self._vectors.ahead(texts, memories)

    async def text_vector(self, text: str) -> list[float]:
        return await self._vectors.of_query(text)

    async def search(self, query: IndexQuery) -> list[ScoredMemory]:
        require_user(query.user_key)
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
        dense = await self._vectors.of_query(query.text)
        last = self._last_found
        if query.mode == "dense":
            if last is not None and last.serves(query.user_key, query.text, where, query.limit):
                ranking, records = Ranking(last.dense[: query.limit], last.exhausted), last.records
            else:
                known = last.records if last is not None and last.user_key == query.user_key else {}
                [ranking], records = await self._rankings(where, Asked(dense, query.limit), known)
            records = await self._read(where.user_key, [h.point_id for h in ranking.hits], records)
            found = [ScoredMemory(records[h.point_id], h.score) for h in ranking.hits if h.point_id in records]
            self._last_found = LastSearch(query.user_key, query.text, where, ranking.hits, ranking.exhausted, records)
            return found
        # Hybrid: one dense and one keyword ranking, ids only, fused by rank here; the dense ranking is kept for
        # the dense search that follows in a recall (one scan of the vectors instead of two), and the records of
        # its first `read_dense` are read with the fused ones (one read instead of two).
        # Each ranking only as long as what is used of it: the fused `limit`, and for the dense one the first
        # `read_dense` the dense search that follows reads. Qdrant's sparse search took ~3.3 ms at 300 against
        # ~1 ms at 100 on the five LoCoMo conversations' index; each point of a ranking costs ~4 µs to read out.
        # A dense ranking of 150 rather than 300 lets a few more keyword matches into the fused 100: R@10 0.784
        # -> 0.788 (folds 0.784 -> 0.788), recall p50 18.1 -> 16.0 ms (`souvenir eval locomo --folds`).
        candidates = max(MIN_CANDIDATES, query.read_dense, query.limit)
        keywords = max(MIN_CANDIDATES, query.limit)
        asked = Asked(dense, candidates, await query_terms(self._cipher, query.user_key, query.text), keywords)
        rankings, records = await self._rankings(where, asked, {})
        dense_ranking = rankings[0]
        fused = rrf([r.hits for r in rankings], query.limit)
        wanted = [h.point_id for h in fused] + [h.point_id for h in dense_ranking.hits[: max(query.read_dense, 0)]]
        records = await self._read(where.user_key, wanted, records)
        self._last_found = LastSearch(
            query.user_key, query.text, where, dense_ranking.hits, dense_ranking.exhausted, records
        )
        return [ScoredMemory(records[h.point_id], h.score) for h in fused if h.point_id in records]

    async def _rankings(
        self, where: Where, asked: Asked, known: dict[str, MemoryRecord]
    ) -> tuple[list[Ranking], dict[str, MemoryRecord]]:
        """The dense ranking of what `where` selects (and the keyword one when `asked` has terms), each as long
        as asked, and the records read on the way (by id)."""
        loose = loose_where(where) if self._cache.enabled else where
        if loose is not where:
            found = await self._ranked_by(loose, asked)
            records = await self._read(where.user_key, [h.point_id for hits in found for h in hits], known)
            rankings = []
            for hits, limit in zip(found, asked.limits, strict=True):
                kept = [h for h in hits if (r := records.get(h.point_id)) is not None and allows(where, r)]
                rankings.append(Ranking(kept, exhausted=len(hits) < limit))
            if all(r.exhausted or len(r.hits) >= KEPT_ENOUGH * n for r, n in zip(rankings, asked.limits, strict=True)):
                return rankings, records
            known = records
        found = await self._ranked_by(where, asked)
        return [Ranking(hits, len(hits) < limit) for hits, limit in zip(found, asked.limits, strict=True)], known

    async def _ranked_by(self, where: Where, asked: Asked) -> list[list[Hit]]:
        if not asked.terms:
            return [await self._driver.nearest(asked.dense, where, asked.limit, with_payload=False)]
        return list(
            await self._driver.rankings(asked.dense, asked.terms, where, asked.limit, keyword_limit=asked.keywords)
        )

    async def _read(self, user_key: str, ids: Sequence[str], known: dict[str, MemoryRecord]) -> dict[str, MemoryRecord]:
        """The records of `ids` by id: those in `known` (read a moment ago) as they are, the rest read now; one
        removed meanwhile is left out."""
        wanted = dict.fromkeys(ids)
        records = {i: known[i] for i in wanted if i in known}
        records.update(self._cache.known(user_key, (i for i in wanted if i not in records)))
        missing = [i for i in wanted if i not in records]
        if not missing:
            return records
        generation = self._cache.generation
        fresh = await records_of(await self._driver.points(user_key, missing), self._cipher)
        self._cache.keep(fresh, generation)
        records.update((r.memory_id, r) for r in fresh)
        return records

    async def recall_rows(self, user_key: str, *, wait: bool = False) -> PersonRows | None:
        """The person's memories as rows (memory/recall/rows/); None where none are kept, or while they are built
        (in the background, or now with `wait`)."""
        require_user(user_key)
        if self._rows is None:
            return None
        return await self._rows.ready(user_key, self._person_points, wait=wait)

    async def _person_points(self, user_key: str) -> PersonPoints:
        return await person_points(self._driver, self._cache, self._cipher, user_key)

    async def supersede(self, user_key: str, memory_ids: Sequence[str], at: datetime) -> int:
        """Only records still current at `at` change: an older valid_to is kept as it was."""
        require_user(user_key)
        ids = canonical_ids(memory_ids)
        if not ids:
            return 0
        return await self._set_payload(
            Where(user_key=user_key, ids=ids, current_after=timestamp(at)), valid_to_fields(at)
        )

    async def hide(self, user_key: str, episode_id: str, fact_id: str) -> int:
        """Mark the episode `episode_id` as the twin of `fact_id`: listings show the fact alone."""
        require_user(user_key)
        ids = canonical_ids([episode_id])
        if not ids:
            return 0
        return await self._set_payload(Where(user_key=user_key, ids=ids, kinds=(MemoryKind.EPISODIC.value,)),
                                       {HIDDEN_BY: fact_id})  # fmt: skip

    async def remove(self, user_key: str, memory_ids: Sequence[str]) -> int:
        require_user(user_key)
        ids = canonical_ids(memory_ids)
        if not ids:
            return 0
        self._vectors.clear()  # recent messages' texts: the forgotten one may be among them
        return await self._delete(Where(user_key=user_key, ids=ids))

    # ---- MemoryCatalog ----

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]:
        """The user's records among `memory_ids`, in the order asked; unknown or foreign ids are skipped."""
        require_user(user_key)
        ids = canonical_ids(memory_ids)
        if not ids:
            return []
        hits = await self._driver.newest(Where(user_key=user_key, ids=ids), len(ids))
        by_id = {h.point_id: h for h in hits}
        return await records_of([by_id[i] for i in ids if i in by_id], self._cipher)

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
        """Newest first. `kinds` narrows the listing (e.g. to dated memories), `listed_only` leaves out the
        episodes hidden by their twin fact, `created_before` keeps older records only."""
        require_user(user_key)
        if limit <= 0 or (kinds is not None and not kinds):
            return []
        offset = max(offset, 0)
        where = listing_where(user_key, self._now(current_only), kinds, listed_only, created_before)
        page = await newest_page(self._driver, where, offset, limit, self._walk)
        return await records_of(page, self._cipher)

    async def matching(
        self, user_key: str, text: str, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> list[MemoryRecord]:  # fmt: skip
        """The person's memories that best match `text` by its words and its meaning (the keyword and dense
        rankings fused), whatever their scope and whether still true: the memory browser's search. Best first,
        `limit` at most; only those read, never the whole listing."""
        require_user(user_key)
        if limit <= 0 or not text.strip() or (kinds is not None and not kinds):
            return []
        where = listing_where(user_key, None, kinds, listed_only)
        asked = Asked(await self._vectors.of_query(text), max(MIN_CANDIDATES, limit),
                      await query_terms(self._cipher, user_key, text), max(MIN_CANDIDATES, limit))  # fmt: skip
        fused = rrf(await self._ranked_by(where, asked), limit)
        records = await self._read(user_key, [h.point_id for h in fused], {})
        return [records[h.point_id] for h in fused if h.point_id in records]

    async def holding_words(
        self, user_key: str, text: str, offset: int, limit: int, *, kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> tuple[list[MemoryRecord], int] | None:  # fmt: skip
        """Memories holding every keyword of `text`, newest first, and how many (memory/qdrant/word_hits); None
        when `text` holds no keyword (stopwords only)."""
        require_user(user_key)
        if not tokenize(text):
            return None
        if kinds is not None and not kinds:
            return [], 0
        where = listing_where(user_key, None, kinds, listed_only)
        terms = await query_terms(self._cipher, user_key, text)
        page, total = await newest_holding(self._driver, where, terms, max(offset, 0), limit)
        records = await self._read(user_key, page, {})
        return [records[i] for i in page if i in records], total

    async def count(
        self,
        user_key: str,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> int:
        require_user(user_key)
        if kinds is not None and not kinds:
            return 0
        return await self._driver.count(listing_where(user_key, self._now(current_only), kinds, listed_only))

    async def forget_user(self, user_key: str) -> int:
        """Every memory of the person. The segments are compacted (their texts leave the files) when the index
        closes, not now: on the embedded engine that holds the interpreter for seconds on a large shard
        (2.4 s after erasing 10,000 of 20,000 memories), which would stall every conversation."""
        require_user(user_key)
        self._vectors.clear()
        return await self._delete(Where(user_key=user_key))

    # ---- helpers ----

    async def _set_payload(self, where: Where, fields: dict[str, Any]) -> int:
        """Set `fields` on the records `where` selects (`where.ids` given); how many there were."""
        ids = where.ids or ()
        self._last_found = None
        async with self._writes:
            changed = await self._driver.count(where)
            if changed:
                self._cache.changing(ids)
                try:
                    await self._driver.set_payload(where, fields)
                finally:
                    self._cache.changing(ids)
                if self._rows is not None:  # their rows take the records as they are now, as kept here
                    generation = self._cache.generation
                    fresh = await records_of(await self._driver.points(where.user_key, list(ids)), self._cipher)
                    self._cache.keep(fresh, generation)
                    self._rows.changed(where.user_key, fresh)
        return changed

    async def _delete(self, where: Where) -> int:
        self._last_found = None
        async with self._writes:
            gone = await self._driver.count(where)
            if gone:
                ids, person = (where.ids, None) if where.ids is not None else ((), where.user_key)
                if self._rows is not None:  # their words leave this process now; rows are built again from the rest
                    self._rows.dropped(where.user_key)
                self._cache.changing(ids, person)
                try:
                    await self._driver.delete(where)
                finally:
                    self._cache.changing(ids, person)
                self._compact_on_close = True  # erased words leave the files when the index closes
        return gone

    def _now(self, current_only: bool) -> datetime | None:
        return self._clock.now() if current_only else None

    async def close(self) -> None:
        if self._rows is not None:
            await self._rows.close()
        if self._compact_on_close:
            await self._driver.optimize()
        await self._driver.close()
