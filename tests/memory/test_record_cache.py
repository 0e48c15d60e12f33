"""Records kept between recalls on the embedded index: never stale, never someone else's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from memory.embedding import UseEmbedder
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.qdrant.record_cache import RecordCache
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder
from tests.memory.index_memories import ALICE, BOB, CAT, JOB, T0, add_life, ask, memory, texts


@pytest.fixture
async def cached_index(tmp_path: Path, clock: FakeClock) -> AsyncIterator[QdrantMemoryIndex]:
    embedder: UseEmbedder = await shared_use_embedder()
    driver = await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension)
    index = QdrantMemoryIndex(driver, embedder, clock, cached_records=100)
    try:
        yield index
    finally:
        await index.close()


async def test_a_superseded_fact_read_a_moment_ago_is_not_recalled_as_current(cached_index: QdrantMemoryIndex) -> None:
    records = await add_life(cached_index)
    assert CAT in texts(await cached_index.search(ask("my cat")))  # now in the cache
    await cached_index.supersede(ALICE, [records[CAT].memory_id], T0 + timedelta(hours=1))
    assert CAT not in texts(await cached_index.search(ask("my cat", current_only=True)))
    for found in await cached_index.search(ask("my cat", current_only=False)):
        if found.record.text == CAT:
            assert found.record.valid_to == T0 + timedelta(hours=1)  # the record served is the new one


async def test_a_forgotten_memory_read_a_moment_ago_is_gone(cached_index: QdrantMemoryIndex) -> None:
    records = await add_life(cached_index)
    assert CAT in texts(await cached_index.search(ask("my cat")))
    await cached_index.remove(ALICE, [records[CAT].memory_id])
    assert CAT not in texts(await cached_index.search(ask("my cat")))
    await cached_index.forget_user(ALICE)
    assert await cached_index.search(ask("where do I work")) == []


async def test_a_rewritten_memory_is_read_as_rewritten(cached_index: QdrantMemoryIndex) -> None:
    job = memory(JOB)
    await cached_index.add([job])
    assert JOB in texts(await cached_index.search(ask("where do I work")))
    moved = JOB.replace("Lyon", "Grenoble")
    await cached_index.add([memory(moved, memory_id=job.memory_id)])
    assert texts(await cached_index.search(ask("where do I work"))) == [moved]


def test_a_read_that_overlapped_a_write_is_not_kept() -> None:
    cache = RecordCache(10)
    old = memory(CAT)
    started = cache.generation
    cache.changing([old.memory_id])  # a write began while the read was in flight
    cache.keep([old], started)
    assert cache.known(ALICE, [old.memory_id]) == {}
    cache.keep([old], cache.generation)
    assert cache.known(ALICE, [old.memory_id]) == {old.memory_id: old}


def test_someone_elses_record_is_never_served_and_the_oldest_leave_first() -> None:
    cache = RecordCache(2)
    alice, bob, third = memory(CAT), memory(JOB, user=BOB), memory(JOB)
    cache.keep([alice, bob], cache.generation)
    assert cache.known(BOB, [alice.memory_id]) == {}
    cache.keep([third], cache.generation)
    assert len(cache) == 2 and cache.known(ALICE, [alice.memory_id]) == {}  # alice's was the oldest


def test_erasing_a_person_drops_only_their_records() -> None:
    cache = RecordCache(10)
    alice, bob = memory(CAT), memory(JOB, user=BOB)
    cache.keep([alice, bob], cache.generation)
    cache.changing(user_key=ALICE)
    assert cache.known(ALICE, [alice.memory_id]) == {}
    assert cache.known(BOB, [bob.memory_id]) == {bob.memory_id: bob}


async def test_searches_running_while_memories_change_never_see_a_stale_record(
    cached_index: QdrantMemoryIndex,
) -> None:
    records = await add_life(cached_index)
    cat = records[CAT]

    async def keep_searching() -> None:
        for _ in range(20):
            await cached_index.search(ask("my cat", current_only=False))

    async def supersede() -> None:
        await asyncio.sleep(0)
        await cached_index.supersede(ALICE, [cat.memory_id], T0 + timedelta(hours=1))

    await asyncio.gather(keep_searching(), supersede(), keep_searching())
    [found] = [f for f in await cached_index.search(ask("my cat", current_only=False)) if f.record.text == CAT]
    assert found.record.valid_to == T0 + timedelta(hours=1)
