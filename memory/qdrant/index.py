"""The hybrid memory index: MemoryIndex + MemoryCatalog over one Qdrant backend (edge or server).

Texts are embedded on the way in and out (dense: the injected Embedder; sparse: BM25 terms). Every
operation takes a user key and every backend call is filtered on it: a memory id belonging to
someone else matches nothing.
"""

from __future__ import annotations

import asyncio
import heapq
import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from operator import itemgetter

from bot.engine.ports import Clock
from bot.errors import InvalidInput, UnreadableText
from memory.crypto import PlainCipher, Sealer, TextCipher
from memory.ports import Embedder
from memory.qdrant.driver import RRF_K, Hit, IndexDriver, IndexPoint, Where
from memory.qdrant.keywords import document_terms, query_terms
from memory.qdrant.payload import (
    CREATED_AT_TS,
    HIDDEN_BY,
    USER_KEY,
    payload_to_record,
    record_to_payload,
    timestamp,
    valid_to_fields,
)
from memory.qdrant.record_cache import RecordCache
from memory.qdrant.sealed_payload import open_payload, seal_payload
from memory.qdrant.vectors import KnownVectors
from memory.records import IndexQuery, MemoryKind, MemoryRecord, ScoredMemory
from memory.sparse import SparseTerms

SEARCH_MODES = ("hybrid", "dense")
MIN_CANDIDATES = 50  # per retriever, before fusion
WALK = 256  # ids walked at most above a page before it is located by counts instead
LOCATE_STEPS = 12
_ON_LOOP = 32  # payloads converted on the event loop at most (~10 µs each); more go to a worker thread


def _canonical_ids(memory_ids: Sequence[str]) -> tuple[str, ...]:
    """Valid UUIDs in canonical form; anything else cannot name a memory and is dropped."""
    out: list[str] = []
    for memory_id in memory_ids:
        try:
            out.append(str(uuid.UUID(str(memory_id))))
        except ValueError:
            continue
    return tuple(dict.fromkeys(out))


def _rrf(rankings: Sequence[Sequence[Hit]], limit: int) -> list[Hit]:
    """Reciprocal rank fusion (as Qdrant's: 1 / (k + rank), rank from 1), the best `limit` first (ties in the
    order first seen: nlargest is sorted(..., reverse=True)[:limit], without sorting or wrapping the rest)."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.point_id] = scores.get(hit.point_id, 0.0) + 1.0 / (RRF_K + rank)
    return [Hit(i, score, {}) for i, score in heapq.nlargest(limit, scores.items(), key=itemgetter(1))]


@dataclass(frozen=True, slots=True)
class _LastSearch:
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
class _Ranking:
    hits: list[Hit]  # best first: the exact start of the ranking of what the search's `where` allows
    exhausted: bool  # nothing more matches


@dataclass(frozen=True, slots=True)
class _Asked:
    """The rankings a search asks for: the dense one, `limit` long, and with terms the keyword one."""

    dense: list[float]
    limit: int
    terms: SparseTerms | None = None
    keywords: int = 0

    @property
    def limits(self) -> list[int]:
        return [self.limit, self.keywords] if self.terms else [self.limit]


# Searching a person's memories by who they are alone and sorting out scope and validity on the records read
# costs a fraction of filtering them in the index, which checks each condition for every point it scans: at
# 3,300 memories a person, 1.4 against 3.1 ms for the dense ranking and 0.7 against 2.0 ms for the keyword one
# (bench/floor.py's index). Unless too many are sorted out: then the index filters after all.
KEPT_ENOUGH = 0.9


def _allows(where: Where, record: MemoryRecord) -> bool:
    """Whether `record` is among what `where` selects (for the conditions `_loose` leaves out)."""
    if where.scopes is not None and record.scope not in where.scopes:
        return False
    if where.current_after is not None and record.valid_to is not None:
        return timestamp(record.valid_to) > where.current_after
    return True


def _require_user(user_key: str) -> None:
    if not user_key:
        raise InvalidInput("a user key is required")


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
    ) -> None:
        """`cached_records`: how many records read by searches are kept in process (0: none) — only for a
        backend this process alone writes to (see memory/qdrant/record_cache.py)."""
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
        self._last_found: _LastSearch | None = None
        self._compact_on_close = False  # memories were deleted: purge them from the files before closing

    # ---- MemoryIndex ----

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        if not records:
            return
        for record in records:
            _require_user(record.user_key)
            if _canonical_ids([record.memory_id]) != (record.memory_id,):
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
            if self._cache.enabled:
                # As a read would give them back (the next message's consolidation finds them without a read).
                plain = [record_to_payload(r) for r in records] if self._cipher.enabled else payloads
                self._cache.keep([payload_to_record(r.memory_id, p) for r, p in zip(records, plain, strict=True)],
                                 self._cache.generation)  # fmt: skip

    async def embed_ahead(self, texts: Sequence[str], memories: Sequence[MemoryRecord] = ()) -> None:
        await self._vectors.ahead(texts, memories)

    async def text_vector(self, text: str) -> list[float]:
        return await self._vectors.of_query(text)

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
        dense = await self._vectors.of_query(query.text)
        last = self._last_found
        if query.mode == "dense":
            if last is not None and last.serves(query.user_key, query.text, where, query.limit):
                ranking, records = _Ranking(last.dense[: query.limit], last.exhausted), last.records
            else:
                known = last.records if last is not None and last.user_key == query.user_key else {}
                [ranking], records = await self._rankings(where, _Asked(dense, query.limit), known)
            records = await self._read(where.user_key, [h.point_id for h in ranking.hits], records)
            found = [ScoredMemory(records[h.point_id], h.score) for h in ranking.hits if h.point_id in records]
            self._last_found = _LastSearch(query.user_key, query.text, where, ranking.hits, ranking.exhausted, records)
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
        asked = _Asked(dense, candidates, await query_terms(self._cipher, query.user_key, query.text), keywords)
        rankings, records = await self._rankings(where, asked, {})
        dense_ranking = rankings[0]
        fused = _rrf([r.hits for r in rankings], query.limit)
        wanted = [h.point_id for h in fused] + [h.point_id for h in dense_ranking.hits[: max(query.read_dense, 0)]]
        records = await self._read(where.user_key, wanted, records)
        self._last_found = _LastSearch(
            query.user_key, query.text, where, dense_ranking.hits, dense_ranking.exhausted, records
        )
        return [ScoredMemory(records[h.point_id], h.score) for h in fused if h.point_id in records]

    async def _rankings(
        self, where: Where, asked: _Asked, known: dict[str, MemoryRecord]
    ) -> tuple[list[_Ranking], dict[str, MemoryRecord]]:
        """The dense ranking of what `where` selects (and the keyword one when `asked` has terms), each as long
        as asked, and the records read on the way (by id)."""
        loose = self._loose(where)
        if loose is not where:
            found = await self._ranked_by(loose, asked)
            records = await self._read(where.user_key, [h.point_id for hits in found for h in hits], known)
            rankings = []
            for hits, limit in zip(found, asked.limits, strict=True):
                kept = [h for h in hits if (r := records.get(h.point_id)) is not None and _allows(where, r)]
                rankings.append(_Ranking(kept, exhausted=len(hits) < limit))
            if all(r.exhausted or len(r.hits) >= KEPT_ENOUGH * n for r, n in zip(rankings, asked.limits, strict=True)):
                return rankings, records
            known = records
        found = await self._ranked_by(where, asked)
        return [_Ranking(hits, len(hits) < limit) for hits, limit in zip(found, asked.limits, strict=True)], known

    async def _ranked_by(self, where: Where, asked: _Asked) -> list[list[Hit]]:
        if not asked.terms:
            return [await self._driver.nearest(asked.dense, where, asked.limit, with_payload=False)]
        return list(
            await self._driver.rankings(asked.dense, asked.terms, where, asked.limit, keyword_limit=asked.keywords)
        )

    def _loose(self, where: Where) -> Where:
        """What to ask the index for: the person alone, when their records are kept here (cheap to check) and
        `where` has no condition but scope and validity; otherwise `where` itself."""
        if not self._cache.enabled or where.kinds is not None or where.ids is not None or where.listed_only:
            return where
        if where.created_before is not None or where.created_after is not None:
            return where
        return Where(user_key=where.user_key)

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
        fresh = await self._records(await self._driver.points(user_key, missing))
        self._cache.keep(fresh, generation)
        records.update((r.memory_id, r) for r in fresh)
        return records

    async def supersede(self, user_key: str, memory_ids: Sequence[str], at: datetime) -> int:
        """Only records still current at `at` change: an older valid_to is kept as it was."""
        _require_user(user_key)
        ids = _canonical_ids(memory_ids)
        if not ids:
            return 0
        where = Where(user_key=user_key, ids=ids, current_after=timestamp(at))
        self._last_found = None
        async with self._writes:
            changed = await self._driver.count(where)
            if changed:
                self._cache.changing(ids)
                try:
                    await self._driver.set_payload(where, valid_to_fields(at))
                finally:
                    self._cache.changing(ids)
        return changed

    async def hide(self, user_key: str, episode_id: str, fact_id: str) -> int:
        """Mark the episode `episode_id` as the twin of `fact_id`: listings show the fact alone."""
        _require_user(user_key)
        ids = _canonical_ids([episode_id])
        if not ids:
            return 0
        where = Where(user_key=user_key, ids=ids, kinds=(MemoryKind.EPISODIC.value,))
        self._last_found = None
        async with self._writes:
            changed = await self._driver.count(where)
            if changed:
                self._cache.changing(ids)
                try:
                    await self._driver.set_payload(where, {HIDDEN_BY: fact_id})
                finally:
                    self._cache.changing(ids)
        return changed

    async def remove(self, user_key: str, memory_ids: Sequence[str]) -> int:
        _require_user(user_key)
        ids = _canonical_ids(memory_ids)
        if not ids:
            return 0
        self._vectors.clear()  # recent messages' texts: the forgotten one may be among them
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
        return await self._records([by_id[i] for i in ids if i in by_id])

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
        _require_user(user_key)
        if limit <= 0 or (kinds is not None and not kinds):
            return []
        offset = max(offset, 0)
        where = self._where_user(user_key, current_only, kinds, listed_only, created_before)
        # Ordered scrolls page by value, not by position: find a created_at just above the page, walk the ids
        # alone from there down to the page, then read only the page (the top page is read at once).
        skip, start = await self._locate(where, offset) if offset > self._walk else (offset, where)
        page = (await self._ordered(start, skip + limit, with_payload=offset == 0))[skip : skip + limit]
        if offset > 0 and page:
            read = await self._driver.newest(Where(user_key=user_key, ids=tuple(h.point_id for h in page)), len(page))
            by_id = {h.point_id: h for h in read}
            page = [by_id[h.point_id] for h in page if h.point_id in by_id]
        return await self._records(page)

    async def _ordered(self, where: Where, limit: int, *, with_payload: bool) -> list[Hit]:
        """At least the `limit` newest, in one total order (newest first, then by id) whichever the call:
        memories created at the same moment (a fact and its message) may straddle two pages, so the group
        tied at the cut is read whole."""
        hits = await self._driver.newest(where, limit, with_payload=with_payload)
        if hits and len(hits) == limit:
            last = hits[-1].score
            tied = replace(where, created_after=math.nextafter(last, -math.inf),
                           created_before=math.nextafter(last, math.inf))  # fmt: skip
            group = await self._driver.newest(tied, await self._driver.count(tied), with_payload=with_payload)
            hits = list({h.point_id: h for h in [*hits, *group]}.values())
        return sorted(hits, key=lambda h: (-h.score, h.point_id))

    async def _locate(self, where: Where, offset: int) -> tuple[int, Where]:
        """A boundary a little above position `offset`: how many to skip below it, and the filter starting there.

        Interpolation search on created_at with filtered counts (cheap with the payload indexes; qdrant-edge
        holds the interpreter while it works, so a few short calls beat one walk past thousands of ids)."""
        ends = [*await self._driver.newest(where, 1), *await self._driver.newest(where, 1, oldest_first=True)]
        if len(ends) < 2:
            return offset, where
        high, low = (float(h.payload[CREATED_AT_TS]) for h in ends)
        newer_high, newer_low = 0, await self._driver.count(replace(where, created_after=low))
        target = offset - self._walk // 2
        for _ in range(LOCATE_STEPS):
            if newer_low <= offset or newer_low == newer_high:
                break
            guess = high - (high - low) * (target - newer_high) / (newer_low - newer_high)
            if not low < guess < high:
                guess = (high + low) / 2
            if not low < guess < high:
                break
            newer = await self._driver.count(replace(where, created_after=guess))
            if newer > offset:
                low, newer_low = guess, newer
            else:
                high, newer_high = guess, newer
                if newer > offset - self._walk:
                    break
        if newer_low <= offset:
            high, newer_high = low, newer_low
        before = math.nextafter(high, math.inf)  # created at or before `high`
        if where.created_before is not None:
            before = min(before, where.created_before)
        return offset - newer_high, replace(where, created_before=before)

    async def count(
        self,
        user_key: str,
        *,
        current_only: bool = False,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
    ) -> int:
        _require_user(user_key)
        if kinds is not None and not kinds:
            return 0
        return await self._driver.count(self._where_user(user_key, current_only, kinds, listed_only))

    async def forget_user(self, user_key: str) -> int:
        """Every memory of the person. The segments are compacted (their texts leave the files) when the index
        closes, not now: on the embedded engine that holds the interpreter for seconds on a large shard
        (2.4 s after erasing 10,000 of 20,000 memories), which would stall every conversation."""
        _require_user(user_key)
        self._vectors.clear()
        return await self._delete(Where(user_key=user_key))

    # ---- helpers ----

    async def _delete(self, where: Where) -> int:
        self._last_found = None
        async with self._writes:
            gone = await self._driver.count(where)
            if gone:
                ids, person = (where.ids, None) if where.ids is not None else ((), where.user_key)
                self._cache.changing(ids, person)
                try:
                    await self._driver.delete(where)
                finally:
                    self._cache.changing(ids, person)
                self._compact_on_close = True  # erased words leave the files when the index closes
        return gone

    def _where_user(
        self,
        user_key: str,
        current_only: bool,
        kinds: Sequence[MemoryKind] | None = None,
        listed_only: bool = False,
        created_before: datetime | None = None,
    ) -> Where:
        now = timestamp(self._clock.now()) if current_only else None
        wanted = None if kinds is None else tuple(MemoryKind(k).value for k in kinds)
        before = None if created_before is None else timestamp(created_before)
        return Where(user_key=user_key, current_after=now, kinds=wanted, listed_only=listed_only,
                     created_before=before)  # fmt: skip

    async def _records(self, hits: list[Hit]) -> list[MemoryRecord]:
        """The hits' records; with encryption, one whose person's data key is gone (erased while it was being
        written) is left out, like a record removed meanwhile."""
        if not self._cipher.enabled:
            if len(hits) <= _ON_LOOP:
                return [payload_to_record(h.point_id, h.payload) for h in hits]
            return await asyncio.to_thread(lambda: [payload_to_record(h.point_id, h.payload) for h in hits])
        openers = {u: await self._cipher.opener(u) for u in {str(h.payload.get(USER_KEY, "")) for h in hits}}
        if len(hits) <= _ON_LOOP:
            return _opened_records(hits, openers)
        return await asyncio.to_thread(_opened_records, hits, openers)

    async def close(self) -> None:
        if self._compact_on_close:
            await self._driver.optimize()
        await self._driver.close()


def _opened_records(hits: Sequence[Hit], openers: dict[str, Sealer]) -> list[MemoryRecord]:
    records: list[MemoryRecord] = []
    for hit in hits:
        try:
            payload = open_payload(hit.payload, openers[str(hit.payload.get(USER_KEY, ""))])
        except UnreadableText:
            continue
        records.append(payload_to_record(hit.point_id, payload))
    return records
