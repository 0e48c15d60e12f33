"""How many reads a recall costs: the records of both its searches come in one read of the index, by id, and
only the person's own ever come back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from qdrant_client import AsyncQdrantClient

from memory.embedding import UseEmbedder
from memory.qdrant.driver import Hit, IndexDriver, IndexPoint, Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.qdrant.payload import record_to_payload
from memory.qdrant.server import ServerDriver
from memory.words.sparse import encode_document, encode_query
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder
from tests.memory.index_memories import ALICE, BOB, add_life, ask, memory

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


@pytest.fixture(scope="session")
async def use_embedder() -> UseEmbedder:
    return await shared_use_embedder()


@pytest.fixture(params=["edge", "server"])
async def driver(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[IndexDriver]:
    if request.param == "edge":
        opened: IndexDriver = await EdgeDriver.open(tmp_path / "qdrant", 4)
    else:
        opened = await ServerDriver.open(AsyncQdrantClient(location=":memory:"), 4)
    try:
        yield opened
    finally:
        await opened.close()


async def test_points_by_id_are_the_persons_own_only(driver: IndexDriver) -> None:
    alice, bob = memory("My cat is called Miso."), memory("My dog is called Rex.", user=BOB)
    for record in (alice, bob):
        vector = [1.0, 0.0, 0.0, 0.0]
        point = IndexPoint(record.memory_id, vector, encode_document(record.text), record_to_payload(record))
        await driver.upsert(record.user_key, [point])
    unknown = "00000000-0000-4000-8000-000000000000"

    found = await driver.points(ALICE, [bob.memory_id, alice.memory_id, unknown])

    assert [(h.point_id, h.payload["text"]) for h in found] == [(alice.memory_id, alice.text)]
    assert await driver.points(ALICE, []) == []


async def test_the_keyword_ranking_is_as_long_as_asked_and_the_dense_one_as_deep(driver: IndexDriver) -> None:
    records = [memory(f"Miso the cat, note {n}") for n in range(12)]
    points = [IndexPoint(r.memory_id, [1.0, 0.0, 0.0, float(n)], encode_document(r.text), record_to_payload(r))
              for n, r in enumerate(records)]  # fmt: skip
    await driver.upsert(ALICE, points)
    where = Where(user_key=ALICE)

    dense, keywords = await driver.rankings([1.0, 0.0, 0.0, 0.0], encode_query("Miso"), where, 10, keyword_limit=4)

    assert (len(dense), len(keywords)) == (10, 4)
    dense, keywords = await driver.rankings([1.0, 0.0, 0.0, 0.0], encode_query("Miso"), where, 10)
    assert (len(dense), len(keywords)) == (10, 10)  # without one, as long as the dense one


class _CountingDriver:
    """The edge driver, counting the calls that read payloads or rankings."""

    def __init__(self, inner: IndexDriver) -> None:
        self._inner = inner
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def points(self, user_key: str, ids: Any) -> list[Hit]:
        self.calls.append("points")
        return await self._inner.points(user_key, ids)

    async def nearest(self, *args: Any, **kwargs: Any) -> list[Hit]:
        self.calls.append("nearest")
        return await self._inner.nearest(*args, **kwargs)

    async def newest(self, *args: Any, **kwargs: Any) -> list[Hit]:
        self.calls.append("newest")
        return await self._inner.newest(*args, **kwargs)


@pytest.mark.parametrize("cached", [0, 1000])
async def test_a_dense_search_after_a_hybrid_one_reads_nothing_more(
    tmp_path: Path, use_embedder: UseEmbedder, clock: FakeClock, cached: int
) -> None:
    counting = _CountingDriver(await EdgeDriver.open(tmp_path / "qdrant", use_embedder.dimension))
    index = QdrantMemoryIndex(counting, use_embedder, clock, cached_records=cached)  # type: ignore[arg-type]
    try:
        await add_life(index)
        plain = await index.search(ask("Where do I work?", mode="dense", limit=5))

        counting.calls.clear()
        await index.search(ask("What is my cat called?", limit=2, read_dense=5))
        after_hybrid = list(counting.calls)
        similar = await index.search(ask("What is my cat called?", mode="dense", limit=5))

        assert after_hybrid in (["points"], [])  # one read at most (none when all were kept from before)
        assert counting.calls == after_hybrid  # the dense search read nothing
        assert len(similar) == len(plain) == 5
        assert [s.score for s in similar] == sorted((s.score for s in similar), reverse=True)
    finally:
        await index.close()


def test_fusion_keeps_the_best_and_breaks_ties_in_the_order_first_seen() -> None:
    from memory.qdrant.rankings import rrf

    def ranking(*ids: str) -> list[Hit]:
        return [Hit(i, 0.0, {}) for i in ids]

    fused = rrf([ranking("a", "b", "c"), ranking("d", "b", "e")], 4)

    # b is in both; a and d share the first place of one ranking each, c and e the third.
    assert [h.point_id for h in fused] == ["b", "a", "d", "c"]
    assert fused[1].score == fused[2].score
