"""Erasing a person compacts the embedded index's segments when it closes, never while conversations wait:
qdrant-edge holds the interpreter for the whole optimize (seconds on a large shard)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryKind, MemoryRecord, MemorySource
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder


class CountingDriver(EdgeDriver):
    optimized = 0

    async def optimize(self) -> None:
        type(self).optimized += 1
        await super().optimize()


def _memory(user: str, text: str) -> MemoryRecord:
    at = datetime(2026, 3, 1, tzinfo=UTC)
    return MemoryRecord(str(uuid.uuid4()), user, MemoryKind.SEMANTIC, text, "en", at, MemorySource("t", "t:dm:1", ()))


async def test_erasure_compacts_on_close_not_while_serving(tmp_path: Path, clock: FakeClock) -> None:
    embedder = await shared_use_embedder()
    driver = await CountingDriver.open(tmp_path / "qdrant", embedder.dimension)
    assert isinstance(driver, CountingDriver)
    index = QdrantMemoryIndex(driver, embedder, clock)
    await index.add([_memory("telegram:1", "My cat Miso sleeps all day"), _memory("telegram:2", "I love jazz")])

    assert await index.forget_user("telegram:1") == 1
    assert CountingDriver.optimized == 0  # nothing held the interpreter on the way
    assert await index.count("telegram:1") == 0 and await index.count("telegram:2") == 1

    await index.close()
    assert CountingDriver.optimized == 1
