"""The index contract's fixtures: the index on each backend and variant (cached, sealed), and the bare drivers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from qdrant_client import AsyncQdrantClient

from memory.embedding import UseEmbedder
from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key
from memory.qdrant.driver import IndexDriver
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.qdrant.server import ServerDriver
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder


@pytest.fixture(scope="session")
async def use_embedder() -> UseEmbedder:
    return await shared_use_embedder()


async def _open_driver(backend: str, path: Path, dimension: int) -> IndexDriver:
    if backend == "edge":
        return await EdgeDriver.open(path / "qdrant", dimension)
    return await ServerDriver.open(AsyncQdrantClient(location=":memory:"), dimension)


@pytest.fixture(params=["edge", "edge-cached", "server", "edge-sealed"])
async def index(
    request: pytest.FixtureRequest, tmp_path: Path, use_embedder: UseEmbedder, clock: FakeClock, redis_url: str
) -> AsyncIterator[QdrantMemoryIndex]:
    backend, _, variant = str(request.param).partition("-")
    driver = await _open_driver(backend, tmp_path, use_embedder.dimension)
    # "cached": the embedded engine as the app opens it, keeping records read by searches in process.
    # "sealed": the same contract with every payload's words encrypted (SOUVENIR_ENCRYPTION_KEY).
    client = aioredis.from_url(redis_url) if variant == "sealed" else None
    cipher = PersonCipher(RedisDataKeys(client, new_master_key())) if client is not None else None
    cached = 1000 if variant == "cached" else 0
    memory_index = QdrantMemoryIndex(driver, use_embedder, clock, cipher=cipher, cached_records=cached)
    try:
        yield memory_index
    finally:
        await memory_index.close()
        if client is not None:
            await client.aclose()


@pytest.fixture(params=["edge", "server"])
async def driver(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[IndexDriver]:
    backend_driver = await _open_driver(request.param, tmp_path, 4)
    try:
        yield backend_driver
    finally:
        await backend_driver.close()


@pytest.fixture(params=["edge", "server"])
async def short_walk_index(
    request: pytest.FixtureRequest, tmp_path: Path, use_embedder: UseEmbedder, clock: FakeClock
) -> AsyncIterator[QdrantMemoryIndex]:
    """Deep pages are located by counts beyond 2 ids, so a dozen memories exercise what 20,000 would."""
    driver = await _open_driver(request.param, tmp_path, use_embedder.dimension)
    memory_index = QdrantMemoryIndex(driver, use_embedder, clock, walk=2)
    try:
        yield memory_index
    finally:
        await memory_index.close()
