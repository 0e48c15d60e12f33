"""A person's dense vectors kept in process for their ranking: the index's own ranking, never a forgotten memory's
vector, never another person's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from memory.qdrant.dense_rows import DenseRows, PersonRows, rows_of, stored
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryRecord
from tests.conftest import FakeClock
from tests.memory.fake_index import DIMENSION
from tests.memory.index_memories import ALICE, BOB, ask, memory
from tests.memory.test_index_loose_filter import RandomEmbedder

TEXTS = [f"memory {n} about cats jazz and Lyon {'pad ' * n}" for n in range(40)]


@pytest.fixture
async def index(tmp_path: Path, clock: FakeClock) -> AsyncIterator[QdrantMemoryIndex]:
    opened = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "q", DIMENSION), RandomEmbedder(), clock,
                               cached_records=4096)  # fmt: skip
    try:
        yield opened
    finally:
        await opened.close()


async def _kept_rows(index: QdrantMemoryIndex, user: str) -> DenseRows:
    """Recall until the person's rows are read (in the background, after the first recall)."""
    for _ in range(200):
        await index.search(ask("cats", user=user, limit=5))
        rows = index._rows.get(user)
        if rows is not None:
            return rows
        await asyncio.sleep(0.01)
    raise AssertionError("the person's rows were never read")


def _ids(rows: DenseRows) -> set[str]:
    return {i for i in rows.ids if i is not None}


async def _life(index: QdrantMemoryIndex) -> tuple[list[MemoryRecord], list[MemoryRecord]]:
    alice = [memory(text, minutes=n) for n, text in enumerate(TEXTS)]
    bob = [memory(f"Bob's {text}", user=BOB, minutes=n) for n, text in enumerate(TEXTS)]
    await index.add(alice + bob)
    return alice, bob


async def test_the_rows_rank_as_the_index_does(index: QdrantMemoryIndex, tmp_path: Path, clock: FakeClock) -> None:
    alice, _ = await _life(index)
    await _kept_rows(index, ALICE)
    strict = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "strict", DIMENSION), RandomEmbedder(), clock)
    try:
        await strict.add(alice)
        for text in ("cats", "jazz in Lyon", "memory 7"):
            query = replace(ask(text, limit=15), mode="dense")
            got = [(m.record.memory_id, round(m.score, 5)) for m in await index.search(query)]
            assert got == [(m.record.memory_id, round(m.score, 5)) for m in await strict.search(query)]
    finally:
        await strict.close()


async def test_a_persons_rows_hold_their_memories_alone(index: QdrantMemoryIndex) -> None:
    alice, bob = await _life(index)
    assert _ids(await _kept_rows(index, ALICE)) == {r.memory_id for r in alice}
    assert _ids(await _kept_rows(index, BOB)) == {r.memory_id for r in bob}
    later = memory("a new memory about cats", minutes=99)
    await index.add([later])
    assert _ids(await _kept_rows(index, ALICE)) == {r.memory_id for r in [*alice, later]}
    assert later.memory_id not in _ids(await _kept_rows(index, BOB))


async def test_a_forgotten_memory_never_comes_back_from_the_rows(index: QdrantMemoryIndex) -> None:
    alice, _ = await _life(index)
    await _kept_rows(index, BOB)
    rows = await _kept_rows(index, ALICE)
    forgotten = alice[3]
    vector = (await RandomEmbedder().embed([forgotten.text]))[0]
    assert rows.nearest(vector, 1)[0].point_id == forgotten.memory_id
    await index.remove(ALICE, [forgotten.memory_id])
    assert index._rows.get(ALICE) is None  # dropped, not patched
    rows = await _kept_rows(index, ALICE)  # read again from the index
    assert forgotten.memory_id not in _ids(rows)
    assert forgotten.memory_id not in {h.point_id for h in rows.nearest(vector, len(TEXTS))}
    await index.forget_user(ALICE)
    assert index._rows.get(ALICE) is None
    assert index._rows.get(BOB) is not None  # someone else's erasure leaves theirs
    assert await index.search(replace(ask("cats", limit=10), mode="dense")) == []


async def test_an_erasure_during_a_read_of_the_rows_leaves_none(index: QdrantMemoryIndex) -> None:
    await _life(index)
    await index.search(ask("cats", limit=5))  # starts the read in the background
    await index.forget_user(ALICE)  # waits for the write lock the read holds, then drops what it read
    await asyncio.sleep(0.05)
    assert index._rows.get(ALICE) is None or not _ids(index._rows.get(ALICE))  # type: ignore[arg-type]


async def test_a_rewritten_memory_has_one_row_its_new_one(index: QdrantMemoryIndex) -> None:
    alice, _ = await _life(index)
    await _kept_rows(index, ALICE)
    rewritten = replace(alice[5], text="something else entirely")
    await index.add([rewritten])
    rows = index._rows.get(ALICE)
    assert rows is not None and rows.ids.count(rewritten.memory_id) == 1
    vector = (await RandomEmbedder().embed([rewritten.text]))[0]
    best = rows.nearest(vector, 3)
    assert best[0].point_id == rewritten.memory_id and best[0].score > 0.99
    assert [h.point_id for h in best].count(rewritten.memory_id) == 1


async def test_no_read_while_a_write_is_under_way(index: QdrantMemoryIndex) -> None:
    await _life(index)
    async with index._writes:
        await index.search(ask("cats", limit=5))
        await asyncio.sleep(0.05)
    assert index._rows.get(ALICE) is None


def test_rows_beyond_their_room_are_dropped_and_read_again() -> None:
    people = PersonRows(capacity=10_000)
    vectors = stored(np.eye(4, DIMENSION, dtype=np.float32))
    people.keep(ALICE, rows_of(["a", "b", "c", "d"], vectors))
    room = len(people.get(ALICE).room)  # type: ignore[union-attr]
    people.written(ALICE, [f"n{n}" for n in range(room)], np.ones((room, DIMENSION)).tolist())
    assert people.get(ALICE) is None and people.wanted(ALICE)


def test_the_capacity_keeps_the_people_recalled_last() -> None:
    people = PersonRows(capacity=100)
    for user in (ALICE, BOB):
        people.keep(user, rows_of(["a"], stored([[1.0] * DIMENSION])))
    assert people.get(ALICE) is None and people.get(BOB) is not None
