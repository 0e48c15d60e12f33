"""The version of what Souvenir stores, and which memory index is in use — one Redis hash all replicas share.

`souvenir:schema`: `version` (the stored layout's version; absent = a store from before versioning, 0),
`index_generation` (which memory index serves: 0 is `data_dir/qdrant` or the `souvenir_memories` collection,
n > 0 is `qdrant-n` or `souvenir_memories_n`), `index_embedding` (the embedding model that built it, as
`embedding_id` names it), `index_dimension` (its vector size, once known) and `index_keywords` (how its
keyword ids were made: `crc32` in clear, or `keyed-v1` under each person's key when encryption is on; absent
in a store from before they were recorded, and set at the next start). `migrate` brings an older store
up to `SCHEMA_VERSION`, one step at a time, each step idempotent and written in one transaction with its version.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from bot.errors import ConfigError

SCHEMA_KEY = "souvenir:schema"
SCHEMA_VERSION = 1
KEYWORDS_PLAIN = "crc32"
KEYWORDS_KEYED = "keyed-v1"


def keywords_for(encrypted: bool) -> str:
    """How keyword ids are made (memory/words/sparse.py): keyed per person with encryption on, so the index does not
    spell out the words; in clear without it, as the words are then stored in clear anyway."""
    return KEYWORDS_KEYED if encrypted else KEYWORDS_PLAIN


def embedding_id(provider: str, model: str | None) -> str:
    """The embedding model as the settings name it (SOUVENIR_EMBEDDING_PROVIDER, SOUVENIR_EMBEDDING_MODEL): a
    different id means different vectors."""
    if provider == "use":
        return "use:universal-sentence-encoder-multilingual"
    return f"openai-compatible:{model or 'default'}"


@dataclass(frozen=True, slots=True)
class IndexInUse:
    generation: int
    embedding: str
    dimension: int | None  # None until a process with the embedder loaded records it
    keywords: str | None = None  # None until a start records it (see `settle_keywords`)


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class SchemaRecord:
    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client

    async def version(self) -> int:
        return int(_text(await self._redis.hget(SCHEMA_KEY, "version")) or 0)  # type: ignore[misc]

    async def index(self) -> IndexInUse | None:
        fields = {_text(k): _text(v) for k, v in (await self._redis.hgetall(SCHEMA_KEY)).items()}  # type: ignore[misc]
        if fields.get("index_embedding") is None:
            return None
        dimension = fields.get("index_dimension")
        return IndexInUse(int(fields.get("index_generation") or 0), fields["index_embedding"] or "",
                          int(dimension) if dimension else None, fields.get("index_keywords"))  # fmt: skip

    async def note_dimension(self, in_use: IndexInUse, dimension: int) -> IndexInUse:
        """Record the vector size of the index in use, the first time a process knows it."""
        if in_use.dimension is None:
            await self._redis.hsetnx(SCHEMA_KEY, "index_dimension", dimension)  # type: ignore[misc]
            return replace(in_use, dimension=dimension)
        return in_use

    async def settle_keywords(self, in_use: IndexInUse, wanted: str, points: int) -> IndexInUse:
        """Record how the keyword ids of the index in use were made, the first time a start opens it: an empty
        index is built the way this start wants (`wanted`; also when it was recorded otherwise: there is nothing
        to rebuild), one that holds memories from before the record existed has crc32 ids, the only ones there
        were."""
        if points == 0 and in_use.keywords != wanted:
            await self._redis.hset(SCHEMA_KEY, "index_keywords", wanted)  # type: ignore[misc]
            return replace(in_use, keywords=wanted)
        if in_use.keywords is not None:
            return in_use
        await self._redis.hsetnx(SCHEMA_KEY, "index_keywords", KEYWORDS_PLAIN)  # type: ignore[misc]
        recorded = _text(await self._redis.hget(SCHEMA_KEY, "index_keywords"))  # type: ignore[misc]
        return replace(in_use, keywords=recorded)

    async def switch_index(self, expected_generation: int, new: IndexInUse) -> None:
        """Point every replica at a new index, atomically, only if the one in use is still `expected`."""
        async with self._redis.pipeline(transaction=True) as pipe:
            try:
                await pipe.watch(SCHEMA_KEY)
                current = _text(await pipe.hget(SCHEMA_KEY, "index_generation"))  # type: ignore[misc]
                if int(current or 0) != expected_generation:
                    raise ConfigError(f"the memory index in use changed meanwhile (now generation {current})")
                pipe.multi()
                pipe.hset(SCHEMA_KEY, mapping={"index_generation": new.generation, "index_embedding": new.embedding,
                                               "index_dimension": new.dimension or 0,
                                               "index_keywords": new.keywords or KEYWORDS_PLAIN})  # fmt: skip
                await pipe.execute()
            except WatchError as exc:
                raise ConfigError("the memory index in use changed meanwhile; run `souvenir reindex` again") from exc


async def migrate(client: aioredis.Redis, embedding: str) -> list[str]:
    """Bring the store up to SCHEMA_VERSION; one line per step done (none: it was already current). `embedding`:
    the configured embedding model's `embedding_id`."""
    record = SchemaRecord(client)
    done: list[str] = []
    version = await record.version()
    if version > SCHEMA_VERSION:
        raise ConfigError(
            f"the stored data has schema version {version}, newer than this Souvenir ({SCHEMA_VERSION}): "
            "upgrade Souvenir rather than run an older one on it"
        )
    if version < 1:
        done.append(await _to_1(client, embedding))
    return done


async def _to_1(client: aioredis.Redis, embedding: str) -> str:
    """Version 1 records which index is in use and what built it: the existing index (generation 0), built —
    before versioning there was no other way — with the embedding model configured now (its vector size is
    checked when it opens, and recorded then)."""
    async with client.pipeline(transaction=True) as pipe:
        pipe.hsetnx(SCHEMA_KEY, "index_generation", 0)
        pipe.hsetnx(SCHEMA_KEY, "index_embedding", embedding)
        pipe.hset(SCHEMA_KEY, "version", 1)
        await pipe.execute()
    return f"schema 0 → 1: recorded the memory index in use (generation 0, built with {embedding})"


def check_index(in_use: IndexInUse, configured: str, dimension: int) -> None:
    """At start: the configured embedder (its `embedding_id`) must be the one that built the index in use."""
    if in_use.embedding == configured and in_use.dimension in (None, dimension):
        return
    built = f"{in_use.embedding}" + (f", {in_use.dimension}-d" if in_use.dimension else "")
    raise ConfigError(
        f"the memory index was built with {built} but the settings now give {configured}, {dimension}-d "
        "(SOUVENIR_EMBEDDING_PROVIDER / SOUVENIR_EMBEDDING_MODEL changed). Run `souvenir reindex` to re-embed "
        "every memory with the new model (the running bot keeps answering from the old index until the new one "
        "is ready), or set the embedding settings back."
    )


def check_keywords(in_use: IndexInUse, wanted: str) -> None:
    """At start: the index's keyword ids must be made the way this start makes them (`keywords_for`)."""
    if in_use.keywords in (None, wanted):
        return
    if wanted == KEYWORDS_KEYED:
        raise ConfigError(
            "the memory index's keyword ids are plain hashes of the words (made before they were keyed per "
            "person), which spell the words out next to encrypted memories. Run `souvenir reindex` once with "
            "SOUVENIR_ENCRYPTION_KEY set to rebuild them keyed (the running bot keeps answering from the old "
            "index until the new one is ready)."
        )
    raise ConfigError(
        "the memory index's keyword ids are keyed per person, which needs SOUVENIR_ENCRYPTION_KEY; set it "
        "back, or run `souvenir reindex` without it to rebuild them in clear"
    )


def keywords_to_do(in_use: IndexInUse, wanted: str) -> str | None:
    """For `souvenir migrate`, which does not open the index: what a start would ask of its keyword ids, if
    anything (`wanted`: `keywords_for` this configuration)."""
    if in_use.keywords is not None and in_use.keywords != wanted:
        how = "keyed per person" if wanted == KEYWORDS_KEYED else "in clear (SOUVENIR_ENCRYPTION_KEY is not set)"
        return f"to do: run `souvenir reindex` to rebuild the memory index's keyword ids {how}; a start refuses it"
    if in_use.keywords is None and in_use.dimension is not None and wanted == KEYWORDS_KEYED:
        return (
            "to do: the memory index was written by a version whose keyword ids were not keyed per person; if it "
            "holds memories, run `souvenir reindex` to key them (a start refuses it until then)"
        )
    return None


def keywords_check(client: aioredis.Redis, in_use: IndexInUse, *, encrypted: bool) -> Callable[[int], Awaitable[None]]:
    """For a start, once the memory index is open (told how many memories it holds): its keyword ids must be
    made as `keywords_for(encrypted)` says (else: `souvenir reindex`); a store from before they were recorded
    gets them recorded."""

    async def check(points: int) -> None:
        wanted = keywords_for(encrypted)
        check_keywords(await SchemaRecord(client).settle_keywords(in_use, wanted, points), wanted)

    return check
