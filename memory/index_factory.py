"""The one place that picks the memory backend and the embedder, from the options the wiring builds.

No SOUVENIR_QDRANT_URL: the embedded Qdrant Edge shard under `data_dir/qdrant`.
With SOUVENIR_QDRANT_URL: a Qdrant server (SOUVENIR_QDRANT_API_KEY if it needs one).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import SecretStr

from bot.engine.ports import Clock
from bot.errors import ConfigError
from memory.embedding import UseEmbedder
from memory.embedding.background import warming_up_in_background
from memory.ports import Embedder
from memory.privacy.crypto import TextCipher
from memory.qdrant.driver import IndexDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ahead import read_ahead
from memory.recall.rows.keeper import RecallRows
from memory.words.text_caches import RECORDS_KEPT

if TYPE_CHECKING:
    from memory.qdrant.server import CollectionLayout  # qdrant-client is imported only for a server

EDGE_DIRECTORY = "qdrant"
EMBEDDED_CACHED_RECORDS = RECORDS_KEPT  # records kept by the embedded index between recalls (~1-2 kB each)


class IndexBackend(StrEnum):
    EDGE = "edge"  # embedded, in-process (qdrant-edge-py)
    SERVER = "server"  # a Qdrant server (qdrant-client)


@dataclass(frozen=True)
class IndexOptions:
    """Where the memory index is (SOUVENIR_DATA_DIR, SOUVENIR_QDRANT_*) and the embedding a server's collection
    records as having built it (SOUVENIR_EMBEDDING_PROVIDER and _MODEL)."""

    data_dir: Path  # the embedded index is under data_dir/qdrant
    qdrant_url: str | None = None  # None: the embedded index
    qdrant_api_key: SecretStr | None = None
    qdrant_shards: int = 1
    qdrant_replication: int = 1
    qdrant_write_consistency: int = 1
    embedding_provider: str = "use"
    embedding_model: str | None = None


@dataclass(frozen=True)
class EmbedderOptions:
    """The embedder (SOUVENIR_EMBEDDING_*) and, for an OpenAI-compatible one, how it is called (the LLM's key,
    timeout and retries)."""

    provider: Literal["use", "openai-compatible"] = "use"
    model: str | None = None
    base_url: str | None = None
    api_key: SecretStr | None = None
    timeout_s: float = 60.0
    max_retries: int = 2


def backend_for(options: IndexOptions) -> IndexBackend:
    return IndexBackend.EDGE if options.qdrant_url is None else IndexBackend.SERVER


def edge_directory(generation: int) -> str:
    """Generation 0 is the first index; `souvenir reindex` builds each next one beside it (memory/redis/schema.py)."""
    return EDGE_DIRECTORY if generation == 0 else f"{EDGE_DIRECTORY}-{generation}"


def server_collection(generation: int) -> str:
    from memory.qdrant.server import COLLECTION

    return COLLECTION if generation == 0 else f"{COLLECTION}_{generation}"


async def _open_edge(options: IndexOptions, dimension: int, generation: int = 0) -> IndexDriver:
    from memory.qdrant.edge import EdgeDriver

    return await EdgeDriver.open(options.data_dir / edge_directory(generation), dimension)


def collection_layout(options: IndexOptions) -> CollectionLayout:
    """SOUVENIR_QDRANT_SHARDS, _REPLICATION and _WRITE_CONSISTENCY, for the server's collection."""
    from memory.qdrant.server import CollectionLayout

    return CollectionLayout(
        shard_number=options.qdrant_shards,
        replication_factor=options.qdrant_replication,
        write_consistency_factor=options.qdrant_write_consistency,
    )


async def _open_server(options: IndexOptions, dimension: int, generation: int = 0) -> IndexDriver:
    from qdrant_client import AsyncQdrantClient

    from memory.qdrant.server import ServerDriver

    api_key = options.qdrant_api_key.get_secret_value() if options.qdrant_api_key else None
    client = AsyncQdrantClient(url=options.qdrant_url, api_key=api_key)
    try:
        from memory.redis.schema import SCHEMA_VERSION, embedding_id

        embedding = embedding_id(options.embedding_provider, options.embedding_model)
        built_by = {"souvenir_schema_version": SCHEMA_VERSION, "embedding": embedding, "dimension": dimension}
        return await ServerDriver.open(
            client,
            dimension,
            collection=server_collection(generation),
            layout=collection_layout(options),
            metadata=built_by,
        )
    except BaseException:
        await client.close()
        raise


DRIVERS: dict[IndexBackend, Callable[[IndexOptions, int, int], Awaitable[IndexDriver]]] = {
    IndexBackend.EDGE: _open_edge,
    IndexBackend.SERVER: _open_server,
}


async def open_index_driver(options: IndexOptions, dimension: int, generation: int = 0) -> IndexDriver:
    """The bare driver of one index generation (a reindex reads one and writes the next); close it after use."""
    return await DRIVERS[backend_for(options)](options, dimension, generation)


class _UtcClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@asynccontextmanager
async def open_memory_index(
    options: IndexOptions,
    embedder: Embedder,
    *,
    clock: Clock | None = None,
    cipher: TextCipher | None = None,
    generation: int = 0,
    opened: Callable[[int], Awaitable[None]] | None = None,
) -> AsyncIterator[QdrantMemoryIndex]:
    """The memory index (MemoryIndex + MemoryCatalog + forget_user), flushed and closed on exit; `cipher`
    seals the payloads' words (none: kept clear); `generation` is the one in use (memory/redis/schema.py);
    `opened` is told how many memories the index holds before it serves (it may refuse it by raising)."""
    driver = await open_index_driver(options, embedder.dimension, generation)
    if opened is not None:
        try:
            await opened(await driver.total())
        except BaseException:
            await driver.close()
            raise
    # The embedded engine has one writer, this process (its data dir is locked): records read by recall can
    # be kept. Not with a server, where another replica may change them.
    cached = EMBEDDED_CACHED_RECORDS if backend_for(options) is IndexBackend.EDGE else 0
    rows = RecallRows(embedder.dimension) if cached else None  # kept as records are: only by their one writer
    index = QdrantMemoryIndex(driver, embedder, clock or _UtcClock(), cached_records=cached, cipher=cipher,
                              read_ahead=read_ahead, rows=rows)  # fmt: skip
    try:
        yield index
    finally:
        await index.close()


@asynccontextmanager
async def open_embedder(options: EmbedderOptions) -> AsyncIterator[Embedder]:
    """The embedder `options` name. USE's model (~3 s on a busy box) loads in the background: start-up and the
    first prompt go on meanwhile, and the first embedding waits for it."""
    if options.provider == "use":
        embedder = UseEmbedder()
        try:
            async with warming_up_in_background(embedder):
                yield embedder
        finally:
            embedder.close()
        return
    if options.base_url is None:
        raise ConfigError("SOUVENIR_EMBEDDING_BASE_URL: required when SOUVENIR_EMBEDDING_PROVIDER=openai-compatible")
    from bot.llm.openai_embeddings import OpenAICompatibleEmbedder

    api_key = options.api_key.get_secret_value() if options.api_key else None
    remote = await OpenAICompatibleEmbedder.open(
        options.base_url,
        options.model,
        api_key,
        timeout_s=options.timeout_s,
        max_retries=options.max_retries,
    )
    try:
        yield remote
    finally:
        await remote.aclose()
