"""Scale-out backend: a Qdrant server through qdrant-client's async API, one shared collection.

People are tenants of the collection (`user_key` is a tenant keyword index, and HNSW graphs are
built per tenant with `payload_m` instead of one global graph).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from qdrant_client import AsyncQdrantClient, models
from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

from bot.errors import ConfigError, StoreUnavailable
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

COLLECTION = "souvenir_memories"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CollectionLayout:
    """How the collection spreads over a distributed Qdrant cluster (docs/deployment.md). The shard count is
    fixed when the collection is created; replication and write consistency follow the settings on start."""

    shard_number: int = 1
    replication_factor: int = 1
    write_consistency_factor: int = 1


T = TypeVar("T")


async def _call(awaitable: Awaitable[T]) -> T:
    try:
        return await awaitable
    except (ResponseHandlingException, UnexpectedResponse, OSError) as exc:
        raise StoreUnavailable(f"Qdrant server: {exc}") from exc


def _filter(where: Where) -> models.Filter:
    must: list[models.Condition] = [models.FieldCondition(key=USER_KEY, match=models.MatchValue(value=where.user_key))]
    if where.ids is not None:
        must.append(models.HasIdCondition(has_id=list(where.ids)))
    if where.scopes is not None:
        must.append(models.FieldCondition(key=SCOPE, match=models.MatchAny(any=list(where.scopes))))
    if where.kinds is not None:
        must.append(models.FieldCondition(key=KIND, match=models.MatchAny(any=list(where.kinds))))
    if where.current_after is not None:
        must.append(models.FieldCondition(key=VALID_TO_TS, range=models.Range(gt=where.current_after)))
    if where.created_before is not None:
        must.append(models.FieldCondition(key=CREATED_AT_TS, range=models.Range(lt=where.created_before)))
    if where.created_after is not None:
        must.append(models.FieldCondition(key=CREATED_AT_TS, range=models.Range(gt=where.created_after)))
    if where.listed_only:
        must.append(models.IsEmptyCondition(is_empty=models.PayloadField(key=HIDDEN_BY)))
    return models.Filter(must=must)


def _sparse(terms: SparseTerms) -> models.SparseVector:
    return models.SparseVector(indices=list(terms.indices), values=list(terms.values))


def _hits(points: Sequence[models.ScoredPoint] | Sequence[models.Record]) -> list[Hit]:
    return [Hit(str(p.id), float(getattr(p, "score", 0.0) or 0.0), dict(p.payload or {})) for p in points]


class ServerDriver:
    def __init__(self, client: AsyncQdrantClient, collection: str) -> None:
        self._client = client
        self._collection = collection

    @classmethod
    async def open(
        cls,
        client: AsyncQdrantClient,
        dimension: int,
        collection: str = COLLECTION,
        layout: CollectionLayout = CollectionLayout(),
        metadata: dict[str, Any] | None = None,
    ) -> ServerDriver:
        """Use `collection`, creating it with its indexes and `layout` on first start; checks the vector size."""
        if await _call(client.collection_exists(collection)):
            info = await _call(client.get_collection(collection))
            vectors = info.config.params.vectors
            size = vectors[DENSE].size if isinstance(vectors, dict) and DENSE in vectors else None
            if size != dimension:
                raise ConfigError(
                    f"Qdrant collection {collection!r} holds {size}-d vectors but the embedder makes "
                    f"{dimension}-d ones (was SOUVENIR_EMBEDDING_PROVIDER changed?)"
                )
            await _create_indexes(client, collection, exclude=set(info.payload_schema))  # fields added later
            await _follow_layout(client, collection, info.config.params, layout)
            return cls(client, collection)
        await _create(client, collection, dimension, layout, metadata)
        return cls(client, collection)

    async def upsert(self, user_key: str, points: Sequence[IndexPoint]) -> None:
        structs = [
            models.PointStruct(id=p.point_id, vector={DENSE: p.dense, SPARSE: _sparse(p.sparse)}, payload=p.payload)
            for p in points
        ]
        mine = _filter(Where(user_key=user_key))
        await _call(self._client.upsert(self._collection, points=structs, update_filter=mine, wait=True))

    async def hybrid(
        self, dense: list[float], sparse: SparseTerms, where: Where, limit: int, candidates: int
    ) -> list[Hit]:
        flt = _filter(where)
        prefetch = [models.Prefetch(query=dense, using=DENSE, limit=candidates, filter=flt)]
        if sparse:
            prefetch.append(models.Prefetch(query=_sparse(sparse), using=SPARSE, limit=candidates, filter=flt))
        response = await _call(
            self._client.query_points(
                self._collection,
                prefetch=prefetch,
                query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)),
                query_filter=flt,
                limit=limit,
                with_payload=True,
            )
        )
        return _hits(response.points)

    async def nearest(self, dense: list[float], where: Where, limit: int, *, with_payload: bool = True) -> list[Hit]:
        response = await _call(
            self._client.query_points(
                self._collection,
                query=dense,
                using=DENSE,
                query_filter=_filter(where),
                limit=limit,
                with_payload=with_payload,
            )
        )
        return _hits(response.points)

    async def rankings(
        self, dense: list[float], sparse: SparseTerms, where: Where, limit: int, keyword_limit: int | None = None
    ) -> tuple[list[Hit], list[Hit]]:
        flt = _filter(where)
        requests = [models.QueryRequest(query=dense, using=DENSE, filter=flt, limit=limit, with_payload=False)]
        if sparse:
            requests.append(
                models.QueryRequest(
                    query=_sparse(sparse), using=SPARSE, filter=flt, limit=keyword_limit or limit, with_payload=False
                )
            )
        responses = await _call(self._client.query_batch_points(self._collection, requests=requests))
        found = [_hits(response.points) for response in responses]
        return found[0], found[1] if len(found) > 1 else []

    async def holders(self, terms: Sequence[SparseTerms], where: Where, limit: int) -> list[set[str]]:
        if not terms:
            return []
        flt = _filter(where)
        requests = [models.QueryRequest(query=_sparse(t), using=SPARSE, filter=flt, limit=limit, with_payload=False)
                    for t in terms]  # fmt: skip
        responses = await _call(self._client.query_batch_points(self._collection, requests=requests))
        return [{str(p.id) for p in response.points} for response in responses]

    async def newest(
        self, where: Where, limit: int, *, with_payload: bool = True, oldest_first: bool = False
    ) -> list[Hit]:
        direction = models.Direction.ASC if oldest_first else models.Direction.DESC
        records, _next = await _call(
            self._client.scroll(
                self._collection,
                scroll_filter=_filter(where),
                limit=limit,
                order_by=models.OrderBy(key=CREATED_AT_TS, direction=direction),
                with_payload=with_payload,
                with_vectors=False,
            )
        )
        return [Hit(str(r.id), float(r.order_value or 0.0), dict(r.payload or {})) for r in records]

    async def walk(self, after: str | None, limit: int) -> tuple[list[Hit], str | None]:
        records, following = await _call(
            self._client.scroll(self._collection, limit=limit, offset=after, with_payload=True, with_vectors=False)
        )
        return _hits(records), None if following is None else str(following)

    async def total(self) -> int:
        return (await _call(self._client.count(self._collection, exact=True))).count

    async def with_vectors(self, where: Where) -> list[tuple[Hit, list[float], SparseTerms]]:
        out: list[tuple[Hit, list[float], SparseTerms]] = []
        after = None
        while True:
            scroll = self._client.scroll(
                self._collection, scroll_filter=_filter(where), limit=1000, offset=after, with_payload=True,
                with_vectors=[DENSE, SPARSE],
            )  # fmt: skip
            records, after = await _call(scroll)
            for record in records:
                vectors: Any = record.vector if isinstance(record.vector, dict) else {DENSE: record.vector}
                sparse = vectors.get(SPARSE)
                terms = SparseTerms(tuple(sparse.indices), tuple(sparse.values)) if sparse else SparseTerms((), ())
                out.append((_hits([record])[0], list(vectors[DENSE]), terms))
            if after is None:
                return out

    async def points(self, user_key: str, ids: Sequence[str]) -> list[Hit]:
        if not ids:
            return []
        where = Where(user_key=user_key, ids=tuple(ids))
        records, _next = await _call(
            self._client.scroll(
                self._collection, scroll_filter=_filter(where), limit=len(ids), with_payload=True, with_vectors=False
            )
        )
        return _hits(records)

    async def count(self, where: Where) -> int:
        result = await _call(self._client.count(self._collection, count_filter=_filter(where), exact=True))
        return result.count

    async def set_payload(self, where: Where, payload: dict[str, Any]) -> None:
        await _call(self._client.set_payload(self._collection, payload=payload, points=_filter(where), wait=True))

    async def delete(self, where: Where) -> None:
        selector = models.FilterSelector(filter=_filter(where))
        await _call(self._client.delete(self._collection, points_selector=selector, wait=True))

    async def optimize(self) -> None:
        """Nothing to ask: the server's own optimizers vacuum deleted points."""

    async def close(self) -> None:
        await self._client.close()


async def _create(
    client: AsyncQdrantClient,
    collection: str,
    dimension: int,
    layout: CollectionLayout,
    metadata: dict[str, Any] | None = None,
) -> None:
    """`metadata` (what built the collection: schema version, embedding model, vector size) is for whoever looks
    at the cluster; Souvenir itself reads the index in use from Redis (memory/redis/schema.py)."""
    try:
        await client.create_collection(
            collection,
            vectors_config={DENSE: models.VectorParams(size=dimension, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            hnsw_config=models.HnswConfigDiff(m=0, payload_m=16),
            shard_number=layout.shard_number,
            replication_factor=layout.replication_factor,
            write_consistency_factor=layout.write_consistency_factor,
            metadata=metadata,
        )
    except UnexpectedResponse as exc:
        if exc.status_code != 409:  # another process created it first: fine
            raise StoreUnavailable(f"Qdrant server: {exc}") from exc
    except (ResponseHandlingException, OSError) as exc:
        raise StoreUnavailable(f"Qdrant server: {exc}") from exc
    await _create_indexes(client, collection, exclude=set())


async def _follow_layout(
    client: AsyncQdrantClient, collection: str, params: models.CollectionParams, layout: CollectionLayout
) -> None:
    """Replication and write consistency can change on a live collection; the shard count cannot."""
    if params.shard_number is not None and params.shard_number != layout.shard_number:
        log.warning(
            "Qdrant collection %r has %s shards, SOUVENIR_QDRANT_SHARDS says %s: the shard count is fixed at creation",
            collection, params.shard_number, layout.shard_number,
        )  # fmt: skip
    stored = (params.replication_factor or 1, params.write_consistency_factor or 1)
    if stored != (layout.replication_factor, layout.write_consistency_factor):
        change = models.CollectionParamsDiff(
            replication_factor=layout.replication_factor, write_consistency_factor=layout.write_consistency_factor
        )
        await _call(client.update_collection(collection, collection_params=change))


async def _create_indexes(client: AsyncQdrantClient, collection: str, exclude: set[str]) -> None:
    for field in KEYWORD_FIELDS:
        if field in exclude:
            continue
        schema = models.KeywordIndexParams(type=models.KeywordIndexType.KEYWORD, is_tenant=field == USER_KEY)
        await _call(client.create_payload_index(collection, field, field_schema=schema, wait=True))
    for field in FLOAT_FIELDS:
        if field in exclude:
            continue
        await _call(
            client.create_payload_index(collection, field, field_schema=models.PayloadSchemaType.FLOAT, wait=True)
        )
