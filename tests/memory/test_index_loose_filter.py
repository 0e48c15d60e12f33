"""The embedded index searches a person's memories by who they are alone and sorts out scope and validity on
the records it reads (cheaper than filtering in the index): what comes back must be exactly what filtering in
the index gives — never a memory of another chat's scope, never one no longer current, none missing."""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery
from tests.conftest import FakeClock
from tests.memory.fake_index import DIMENSION
from tests.memory.index_memories import ALICE, BOB, T0, ask, memory

WORDS = "cat Miso jazz Lyon sister wedding nurse hiking ramen peanuts piano garden Paris sofa".split()


class RandomEmbedder:
    """A random unit vector per text (seeded by the text): no two memories tie in a dense ranking."""

    @property
    def dimension(self) -> int:
        return DIMENSION

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out = []
        for text in texts:
            rng = random.Random(zlib.crc32(text.encode()))
            vector = [rng.gauss(0.0, 1.0) for _ in range(DIMENSION)]
            norm = math.sqrt(sum(v * v for v in vector))
            out.append([v / norm for v in vector])
        return out


@pytest.fixture
async def indexes(tmp_path: Path, clock: FakeClock) -> AsyncIterator[tuple[QdrantMemoryIndex, QdrantMemoryIndex]]:
    """The same memories in an index that keeps records (searches loosely) and one that does not."""
    loose = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "a", DIMENSION), RandomEmbedder(), clock,
                              cached_records=4096)  # fmt: skip
    strict = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "b", DIMENSION), RandomEmbedder(), clock)
    try:
        yield loose, strict
    finally:
        await loose.close()
        await strict.close()


def _life(rng: random.Random, dm_share: float) -> list:  # type: ignore[type-arg]
    records = []
    for n in range(240):
        # A length of its own (n words of padding): no two memories tie in a keyword ranking either.
        text = " ".join(rng.sample(WORDS, 3)) + "".join(f" pad{n}" for _ in range(n))
        scope = "dm" if rng.random() < dm_share else rng.choice(["group:1", "group:2"])
        record = memory(text, scope=scope, minutes=n, user=ALICE if n % 5 else BOB)
        if rng.random() < 0.1:
            record = replace(record, valid_to=T0 + timedelta(hours=2))  # superseded before the questions
        records.append(record)
    return records


@pytest.mark.parametrize("dm_share", [0.97, 0.6, 0.1])
async def test_loose_searches_give_what_filtering_in_the_index_gives(
    indexes: tuple[QdrantMemoryIndex, QdrantMemoryIndex], dm_share: float
) -> None:
    loose, strict = indexes
    rng = random.Random(int(dm_share * 100))
    records = _life(rng, dm_share)
    for index in (loose, strict):
        await index.add(records)
    for question in ("Miso the cat", "my sister's wedding in Lyon", "jazz piano", "nothing shared"):
        for scopes in (("dm",), ("group:1",), ("group:1", "dm")):
            hybrid = ask(question, scopes=scopes, limit=20, read_dense=30)
            dense = replace(hybrid, mode="dense", limit=30, read_dense=0)
            for query in (hybrid, dense):
                got = await loose.search(query)
                expected = await strict.search(query)
                assert [(m.record.memory_id, round(m.score, 6)) for m in got] == [
                    (m.record.memory_id, round(m.score, 6)) for m in expected
                ], (question, scopes, query.mode)
                assert all(m.record.scope in scopes and m.record.user_key == ALICE for m in got)
                assert all(m.record.valid_to is None for m in got)


async def test_a_search_for_old_memories_too_brings_the_superseded(
    indexes: tuple[QdrantMemoryIndex, QdrantMemoryIndex],
) -> None:
    loose, _ = indexes
    old = replace(memory("I live in Paris"), valid_to=T0 + timedelta(hours=2))
    await loose.add([old, memory("I moved to Lyon")])
    current: IndexQuery = ask("where do I live", limit=5)
    assert {m.record.text for m in await loose.search(current)} == {"I moved to Lyon"}
    everything = replace(current, current_only=False)
    assert {m.record.text for m in await loose.search(everything)} == {"I live in Paris", "I moved to Lyon"}
