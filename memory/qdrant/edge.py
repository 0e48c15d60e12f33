"""Embedded backend: one Qdrant Edge shard in `data_dir/qdrant`, in-process, no server to run.

qdrant-edge's API is synchronous, and its calls go through `asyncio.to_thread`, but for the recall's two
rankings: a search holds the interpreter's lock from start to end (a thread counting beside it gets as little done
as beside Python code), so the event loop waits for it just the same in a worker thread, and the hand-over to one
costs ~0.15 ms of each recall. For the same reason, a person's points with their vectors (what recall's rows are
built from) are read on the loop, a page at a time, the loop's turn given back between pages. Writes are
serialised by the index above.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from bot.errors import ConfigError, StoreUnavailable
from memory.qdrant import edge_rewrite
from memory.qdrant.driver import DENSE, RRF_K, SPARSE, Hit, IndexPoint, Where
from memory.qdrant.payload import (
    CREATED_AT_TS,
    FLOAT_FIELDS,
    HIDDEN_BY,
    KEYWORD_FIELDS,
    KIND,
    SCOPE,
    USER_KEY,
    VALID_TO_TS,
)
from memory.words.sparse import SparseTerms
from memory.words.text_caches import WordCache

_CONFIG_FILE = "edge_config.json"
# The write-ahead log only shrinks on flush: flush after this many written points.
FLUSH_EVERY_POINTS = 2000


def _config(dimension: int) -> qe.EdgeConfig:
    # float16 halves the biggest part of the shard's memory; cosine ranks don't notice.
    dense = qe.EdgeVectorParams(size=dimension, distance=qe.Distance.Cosine, datatype=qe.VectorStorageDatatype.Float16)
    return qe.EdgeConfig(
        vectors={DENSE: dense},
        sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        # One search thread: by default a search is split over threads of the shard's own, and with the other
        # core busy it waits for the slowest of them. The dense and keyword rankings of a recall at 3,300
        # memories, one core kept busy: p95 6.2-7.0 -> 3.8-4.0 ms (p50 3.1-3.2 -> 3.0); idle: p95 4.8-5.0 ->
        # 3.9-4.2 ms (two shards of the same points in one process, queries interleaved). A whole recall
        # (bench.memory_scale's fill, two indexes interleaved) moved within the noise: p50 -0.3 to -0.5 ms.
        max_search_threads=1,
        # One graph per person, none over everyone (as the server collection, memory/qdrant/server.py): every
        # search is filtered by `user_key` (a tenant index), and a person's filtered search only walks a graph
        # past `full_scan_threshold` (10,000 KB: ~10,000 of these vectors); below it, it scores their points
        # off the payload index. So a graph is built only for a person with more memories than that, and only
        # of theirs; the graph over everyone served those people alone, walked with their filter.
        # 30k memories over 100 people, one with 20k and one with 300 (shared 2-core box; a person's two rankings,
        # dense 150 + keywords 100, the configs' queries interleaved): with USE vectors of 3,000 sentences,
        # jittered (load ~10), the first optimize 90.4 -> 17.4 s; at 20k memories p50 0.70 -> 0.53 ms, p95 7.96
        # -> 6.32 ms (2,000 queries), top 10 as an exact search's with both; at 300, p50 0.10 / p95 0.17 ms with
        # both. With random vectors (load ~2): optimize 15.9 -> 9.2 s; at 20k p50 1.69 -> 1.78 ms, p95 2.14 ->
        # 2.31 ms, top-10 overlap with the exact search 0.34 -> 0.49.
        # At 100k memories over 100 people no one passes the threshold: no graph at all (docs/privacy.md#erasure).
        # Never indexing (a higher `indexing_threshold`) costs nothing to build either, but the 20k person's
        # search doubles (random vectors: 3.67 ms).
        hnsw_config=qe.HnswIndexConfig(m=0, ef_construct=100, full_scan_threshold=10_000, payload_m=16),
    )


def _filter(where: Where) -> qe.Filter:
    must: list[Any] = [qe.FieldCondition(USER_KEY, match=qe.MatchValue(where.user_key))]
    if where.ids is not None:
        must.append(qe.HasIdCondition(set(where.ids)))
    if where.scopes is not None:
        must.append(qe.FieldCondition(SCOPE, match=qe.MatchAny(list(where.scopes))))
    if where.kinds is not None:
        must.append(qe.FieldCondition(KIND, match=qe.MatchAny(list(where.kinds))))
    if where.current_after is not None:
        must.append(qe.FieldCondition(VALID_TO_TS, range=qe.RangeFloat(gt=where.current_after)))
    if where.created_before is not None:
        must.append(qe.FieldCondition(CREATED_AT_TS, range=qe.RangeFloat(lt=where.created_before)))
    if where.created_after is not None:
        must.append(qe.FieldCondition(CREATED_AT_TS, range=qe.RangeFloat(gt=where.created_after)))
    if where.listed_only:
        must.append(qe.IsEmptyCondition(HIDDEN_BY))
    return qe.Filter(must=must)


def _sparse(terms: SparseTerms) -> qe.SparseVector:
    return qe.SparseVector(list(terms.indices), list(terms.values))


def _hits(points: Sequence[Any]) -> list[Hit]:
    return [Hit(str(p.id), float(getattr(p, "score", 0.0) or 0.0), dict(p.payload or {})) for p in points]


# A point id's text by the id's 128 bits: `p.id` is a uuid.UUID built for each point of a result (~2 µs), and
# hashing it or making it a str costs as much again, in Python; its `.int` and a dict lookup cost ~0.1 µs.
_ID_TEXTS: WordCache[int, str] = WordCache(lambda bits: str(uuid.UUID(int=bits)), maxsize=65536)
VECTOR_PAGE = 16  # points read with their vectors at a time: ~1 ms of the event loop (`with_vectors`)
_NO_PAYLOAD: dict[str, Any] = {}  # shared by the rankings' hits, which are never given one


def _ranked(points: Sequence[Any]) -> list[Hit]:
    """Ids and scores only."""
    texts = _ID_TEXTS
    return [Hit(texts[p.id.int], p.score, _NO_PAYLOAD) for p in points]


def _vectors(vectors: Any) -> tuple[list[float], SparseTerms]:
    """A point's dense vector and keyword terms, from the vectors a read gives back by name."""
    sparse = vectors.get(SPARSE)
    terms = SparseTerms(tuple(sparse.indices), tuple(sparse.values)) if sparse is not None else SparseTerms((), ())
    return list(vectors[DENSE]), terms


def _open_shard(path: Path, dimension: int) -> qe.EdgeShard:
    config = _config(dimension)
    if (path / _CONFIG_FILE).exists():
        try:
            shard = qe.EdgeShard.load(str(path), config)
        except Exception as exc:  # the library raises plain exceptions: tell the causes apart by message
            message = str(exc)
            if "incompatible" in message.lower():
                raise ConfigError(
                    f"the memory index at {path} cannot be opened with {dimension}-d embeddings "
                    f"(was SOUVENIR_EMBEDDING_PROVIDER changed?): {message}"
                ) from exc
            if "WouldBlock" in message:
                raise StoreUnavailable(
                    f"the memory index at {path} is already in use (another Souvenir process running?): {message}"
                ) from exc
            raise
    else:
        shard = _create_shard(path, dimension)
    _ensure_payload_indexes(shard)
    # Segments written since the last start are searched without their vector index until optimized (at 20k
    # memories for one person, recall p50 27 → 14 ms). qdrant-edge holds the interpreter for the whole call,
    # so it runs here, before anything is served, and after erasures (cheap when little changed), never
    # while conversations wait.
    shard.optimize()
    return shard


def _create_shard(path: Path, dimension: int) -> qe.EdgeShard:
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    shard = qe.EdgeShard.create(str(path), _config(dimension))
    _ensure_payload_indexes(shard)
    return shard


def _open_purged(path: Path, dimension: int) -> qe.EdgeShard:
    """The shard, with a swap a dead process left finished, and rewritten if an erasure was never purged."""
    if edge_rewrite.recover(path):
        _purge(qe.EdgeShard.load(str(path), _config(dimension)), path, dimension)
    return _open_shard(path, dimension)


def _purge(shard: qe.EdgeShard, path: Path, dimension: int) -> None:
    """Rewrite the shard without its deleted points (see edge_rewrite); `shard` is closed."""
    shard.flush()
    edge_rewrite.rewrite(shard, path, lambda p: _create_shard(p, dimension))


def _index_params(field: str) -> qe.KeywordIndexParams | qe.FloatIndexParams:
    # Graphs only per person: with `enable_hnsw` left on, the optimizer also builds a graph for every value or
    # range of these fields holding more than `full_scan_threshold` of points (one `kind` holds nearly
    # everyone's memories), which no search walks without the person's filter. With m=0, 30k memories over
    # 100 people (random vectors, one run, the box loaded): optimize 101 s with them, 25 s without.
    if field == USER_KEY:
        return qe.KeywordIndexParams(is_tenant=True)
    if field in KEYWORD_FIELDS:
        return qe.KeywordIndexParams(is_tenant=False, enable_hnsw=False)
    return qe.FloatIndexParams(enable_hnsw=False)


def _ensure_payload_indexes(shard: qe.EdgeShard) -> None:
    # Also on load: a first start interrupted between creating the shard and its indexes heals here, and a shard
    # made before the per-person graphs gets its field indexes remade without graphs (a moment; the optimize
    # that follows rebuilds its indexed segments with the shard's new graph config, once).
    existing = shard.info().payload_schema
    for field in (*KEYWORD_FIELDS, *FLOAT_FIELDS):
        params = _index_params(field)
        found = existing.get(field)
        if found is None or found.params is None or found.params.enable_hnsw != params.enable_hnsw:
            shard.update(qe.UpdateOperation.create_field_index(field, params))


class EdgeDriver:
    def __init__(self, shard: qe.EdgeShard, path: Path, dimension: int) -> None:
        self._shard = shard
        self._path = path
        self._dimension = dimension
        self._unflushed = 0
        self._erased = edge_rewrite.marker_path(path).exists()

    @classmethod
    async def open(cls, path: Path, dimension: int) -> EdgeDriver:
        try:
            shard = await asyncio.to_thread(_open_purged, path, dimension)
        except ConfigError:
            raise
        except Exception as exc:
            raise StoreUnavailable(f"cannot open the embedded memory index at {path}: {exc}") from exc
        return cls(shard, path, dimension)

    async def upsert(self, user_key: str, points: Sequence[IndexPoint]) -> None:
        def write() -> None:  # the points are built in the worker too: ~1 ms of the event loop's time per call
            edge_points = [qe.Point(p.point_id, {DENSE: p.dense, SPARSE: _sparse(p.sparse)}, p.payload) for p in points]
            operation = qe.UpdateOperation.upsert_points(edge_points, condition=_filter(Where(user_key=user_key)))
            self._update(operation, len(edge_points))

        await asyncio.to_thread(write)

    async def hybrid(
        self, dense: list[float], sparse: SparseTerms, where: Where, limit: int, candidates: int
    ) -> list[Hit]:
        flt = _filter(where)
        prefetches = [qe.Prefetch(limit=candidates, query=qe.Query.Nearest(dense, using=DENSE), filter=flt)]
        if sparse:
            prefetches.append(
                qe.Prefetch(limit=candidates, query=qe.Query.Nearest(_sparse(sparse), using=SPARSE), filter=flt)
            )
        # The stub types Fusion.Rrf as a nested class rather than a Fusion variant.
        fusion: Any = qe.Fusion.Rrf(k=RRF_K)
        request = qe.QueryRequest(limit=limit, prefetches=prefetches, query=fusion, filter=flt, with_payload=True)
        return await asyncio.to_thread(self._query, request)

    async def nearest(self, dense: list[float], where: Where, limit: int, *, with_payload: bool = True) -> list[Hit]:
        request = qe.QueryRequest(
            limit=limit, query=qe.Query.Nearest(dense, using=DENSE), filter=_filter(where), with_payload=with_payload
        )
        return await asyncio.to_thread(self._query, request)

    async def rankings(
        self, dense: list[float], sparse: SparseTerms, where: Where, limit: int, keyword_limit: int | None = None
    ) -> tuple[list[Hit], list[Hit]]:
        flt = _filter(where)
        nearest = [(qe.Query.Nearest(dense, using=DENSE), limit)]
        if sparse:
            nearest.append((qe.Query.Nearest(_sparse(sparse), using=SPARSE), keyword_limit or limit))
        queries = [qe.QueryRequest(limit=n, query=q, filter=flt, with_payload=False) for q, n in nearest]

        # Called in place (the module's docstring says why): ~1.5 ms at 3,800 memories a person, ~0.3 ms at 400.
        found = [_ranked(points) for points in self._shard.query_batch(qe.QueryBatchRequest(queries))]
        return found[0], found[1] if len(found) > 1 else []

    async def holders(self, terms: Sequence[SparseTerms], where: Where, limit: int) -> list[set[str]]:
        flt = _filter(where)
        queries = [qe.QueryRequest(limit=limit, query=qe.Query.Nearest(_sparse(t), using=SPARSE), filter=flt,
                                   with_payload=False) for t in terms]  # fmt: skip

        def each() -> list[set[str]]:  # one call: the interpreter is handed over once
            found = self._shard.query_batch(qe.QueryBatchRequest(queries))
            return [{h.point_id for h in _ranked(points)} for points in found]

        return await asyncio.to_thread(each) if queries else []

    async def newest(
        self, where: Where, limit: int, *, with_payload: bool = True, oldest_first: bool = False
    ) -> list[Hit]:
        request = qe.ScrollRequest(
            limit=limit,
            filter=_filter(where),
            with_payload=with_payload,
            with_vector=False,
            order_by=qe.OrderBy(CREATED_AT_TS, qe.Direction.Asc if oldest_first else qe.Direction.Desc),
        )
        return await asyncio.to_thread(self._scroll, request)

    async def with_vectors(self, where: Where) -> list[tuple[Hit, list[float], SparseTerms]]:
        # A page at a time on the event loop, its turn given back between pages: the shard holds the interpreter's
        # lock for a whole read (above), and making its points Python objects holds it too, so in a worker thread
        # one person's ~700 points with their vectors (~35 ms) held the loop just the same, and every recall
        # meanwhile waited (memory/recall/rows/keeper.py `_built`).
        out: list[tuple[Hit, list[float], SparseTerms]] = []
        after = None
        while True:
            request = qe.ScrollRequest(limit=VECTOR_PAGE, offset=after, filter=_filter(where), with_payload=True,
                                       with_vector=[DENSE, SPARSE])  # fmt: skip
            records, after = self._shard.scroll(request)
            out += [(Hit(str(r.id), 0.0, dict(r.payload or {})), *_vectors(r.vector)) for r in records]
            if after is None:
                return out
            await asyncio.sleep(0)

    async def points(self, user_key: str, ids: Sequence[str]) -> list[Hit]:
        wanted: list[qe.PointId] = list(ids)

        def read() -> list[Hit]:
            # By id, no filter (half the cost of a filtered scroll); whose each point is, is checked here.
            records = self._shard.retrieve(wanted, with_payload=True, with_vector=False)
            hits = (Hit(str(r.id), 0.0, dict(r.payload or {})) for r in records)
            return [h for h in hits if h.payload.get(USER_KEY) == user_key]

        return await asyncio.to_thread(read) if wanted else []

    # Results become Hits in the worker thread too: reading hundreds of payloads into dicts is no work
    # for the event loop.
    def _query(self, request: qe.QueryRequest) -> list[Hit]:
        return _hits(self._shard.query(request))

    def _scroll(self, request: qe.ScrollRequest) -> list[Hit]:
        records, _next = self._shard.scroll(request)
        return [Hit(str(r.id), float(r.order_value or 0.0), dict(r.payload or {})) for r in records]

    async def walk(self, after: str | None, limit: int) -> tuple[list[Hit], str | None]:
        request = qe.ScrollRequest(limit=limit, offset=after, with_payload=True, with_vector=False)

        def page() -> tuple[list[Hit], str | None]:
            records, following = self._shard.scroll(request)
            hits = [Hit(str(r.id), 0.0, dict(r.payload or {})) for r in records]
            return hits, None if following is None else str(following)

        return await asyncio.to_thread(page)

    async def total(self) -> int:
        return await asyncio.to_thread(self._shard.count, qe.CountRequest(exact=True))

    async def count(self, where: Where) -> int:
        return await asyncio.to_thread(self._shard.count, qe.CountRequest(exact=True, filter=_filter(where)))

    async def set_payload(self, where: Where, payload: dict[str, Any]) -> None:
        operation = qe.UpdateOperation.set_payload_by_filter(_filter(where), payload)
        await asyncio.to_thread(self._update, operation, 1)

    async def delete(self, where: Where) -> None:
        operation = qe.UpdateOperation.delete_points_by_filter(_filter(where))

        def mark_and_delete() -> None:
            # The marker first: a process that dies before closing still purges the bytes at the next open.
            edge_rewrite.mark_erased(self._path)
            self._update(operation, 1)

        await asyncio.to_thread(mark_and_delete)
        self._erased = True

    def _update(self, operation: qe.UpdateOperation, weight: int) -> None:
        self._shard.update(operation)
        self._unflushed += weight
        if self._unflushed >= FLUSH_EVERY_POINTS:
            self._unflushed = 0
            self._shard.flush()

    async def optimize(self) -> None:
        """Nothing now: after deletions the shard is rewritten as it closes (see edge_rewrite), which also
        leaves it compact. optimize alone keeps a small segment's deleted payloads in its files, and the
        write-ahead log keeps every write's bytes."""

    async def close(self) -> None:
        def flush_and_close() -> None:
            if self._erased:
                _purge(self._shard, self._path, self._dimension)
                return
            self._shard.flush()
            self._shard.close()

        await asyncio.to_thread(flush_and_close)
