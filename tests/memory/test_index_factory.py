"""Backend choice from the options, persistence of the embedded index, and clear failures."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.errors import ConfigError, StoreUnavailable
from memory.embedding import UseEmbedder
from memory.index_factory import (
    EmbedderOptions,
    IndexBackend,
    IndexOptions,
    backend_for,
    open_embedder,
    open_memory_index,
)
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource

# The unreachable-server test makes qdrant-client warn (later, from its version check) about the version.
pytestmark = pytest.mark.filterwarnings("ignore:Failed to obtain server version:UserWarning")


class HashEmbedder:
    """A tiny deterministic embedder: these tests are about storage, not meaning."""

    def __init__(self, dimension: int = 8) -> None:
        self._dimension = dimension

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            raw = [b - 127.5 for b in hashlib.sha256(text.encode()).digest()[: self._dimension]]
            norm = sum(x * x for x in raw) ** 0.5
            out.append([x / norm for x in raw])
        return out


def _options(data_dir: Path, qdrant_url: str | None = None) -> IndexOptions:
    return IndexOptions(data_dir, qdrant_url=qdrant_url)


def _record(text: str) -> MemoryRecord:
    return MemoryRecord(
        memory_id=str(uuid.uuid4()),
        user_key="telegram:1",
        kind=MemoryKind.SEMANTIC,
        text=text,
        language="en",
        created_at=datetime(2026, 3, 1, tzinfo=UTC),
        source=MemorySource("telegram", "telegram:dm:1"),
    )


def test_backend_follows_the_qdrant_url(data_dir: Path) -> None:
    assert backend_for(_options(data_dir)) is IndexBackend.EDGE
    assert backend_for(_options(data_dir, qdrant_url="http://127.0.0.1:6333")) is IndexBackend.SERVER


async def test_embedded_index_keeps_memories_across_restarts(data_dir: Path) -> None:
    options = _options(data_dir)
    kept = _record("My cat is called Miso.")
    async with open_memory_index(options, HashEmbedder()) as index:
        await index.add([kept])

    assert (data_dir / "qdrant").is_dir()
    async with open_memory_index(options, HashEmbedder()) as index:
        assert await index.fetch("telegram:1", [kept.memory_id]) == [kept]
        found = await index.search(IndexQuery(user_key="telegram:1", text="Miso", at=datetime(2026, 4, 1, tzinfo=UTC)))
        assert [r.record.memory_id for r in found] == [kept.memory_id]


async def test_changing_the_embedding_size_is_a_config_error(data_dir: Path) -> None:
    options = _options(data_dir)
    async with open_memory_index(options, HashEmbedder(8)) as index:
        await index.add([_record("hello")])
    with pytest.raises(ConfigError):
        async with open_memory_index(options, HashEmbedder(16)):
            pass


async def test_a_second_process_cannot_open_the_same_embedded_index(data_dir: Path) -> None:
    options = _options(data_dir)
    async with open_memory_index(options, HashEmbedder()) as index:
        await index.add([_record("hello")])
        with pytest.raises(StoreUnavailable, match="in use"):
            async with open_memory_index(options, HashEmbedder()):
                pass
        assert await index.count("telegram:1") == 1


async def test_unreachable_server_is_store_unavailable(data_dir: Path) -> None:
    options = _options(data_dir, qdrant_url="http://127.0.0.1:1")
    with pytest.raises(StoreUnavailable):
        async with open_memory_index(options, HashEmbedder()):
            pass


async def test_default_embedder_is_use_and_ready(data_dir: Path) -> None:
    async with open_embedder(EmbedderOptions()) as embedder:
        assert isinstance(embedder, UseEmbedder)
        assert [len(v) for v in await embedder.embed(["ready"])] == [512]
