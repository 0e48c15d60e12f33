"""Listing and fetching: pages newest first, deep pages in place, narrowed by kind or by date, fetch order."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryKind
from tests.memory.index_memories import ALICE, CAT, JOB, T0, add_life, memory

# Local mode says payload indexes are a no-op there; the server backend still creates them.
pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


async def test_scroll_pages_newest_first(index: QdrantMemoryIndex) -> None:
    records = [memory(f"Memory number {i} about the garden.", minutes=i) for i in range(7)]
    await index.add(list(reversed(records)))
    newest_first = [r.memory_id for r in reversed(records)]

    pages = [await index.scroll(ALICE, offset, 3) for offset in (0, 3, 6)]

    assert [len(p) for p in pages] == [3, 3, 1]
    assert [r.memory_id for page in pages for r in page] == newest_first
    assert await index.scroll(ALICE, 7, 3) == []
    assert await index.count(ALICE) == 7


async def test_every_page_of_a_long_listing_is_in_place(short_walk_index: QdrantMemoryIndex) -> None:
    index = short_walk_index
    minutes = [0, 1, 2, 3, 3, 3, 4, 10, 11, 30, 31, 32, 33, 90, 91, 200, 201]  # uneven, with ties
    records = [memory(f"Garden note {i}.", minutes=m) for i, m in enumerate(minutes)]
    await index.add(records)
    whole = [r.memory_id for r in await index.scroll(ALICE, 0, 100)]
    assert len(whole) == len(records)
    assert [r.memory_id for r in records[-4:]] == list(reversed(whole[:4]))  # newest first

    for limit in (1, 3, 5):
        pages = [[r.memory_id for r in await index.scroll(ALICE, offset, limit)] for offset in range(0, 20, limit)]
        assert [i for page in pages for i in page] == whole, f"pages of {limit}"
    assert await index.scroll(ALICE, len(records), 3) == []


async def test_listing_can_be_narrowed_to_kinds(index: QdrantMemoryIndex) -> None:
    birthday = memory("My birthday is on 2 June.", kind=MemoryKind.TEMPORAL, minutes=1)
    wedding = memory("My sister's wedding is on 14 August.", kind=MemoryKind.TEMPORAL, minutes=2)
    await index.add([memory(CAT), birthday, wedding, memory(JOB, kind=MemoryKind.EPISODIC)])

    dated = await index.scroll(ALICE, 0, 10, kinds=(MemoryKind.TEMPORAL,))

    assert [r.memory_id for r in dated] == [wedding.memory_id, birthday.memory_id]
    assert await index.count(ALICE, kinds=(MemoryKind.TEMPORAL,)) == 2
    assert await index.count(ALICE) == 4


async def test_listing_what_was_created_before_a_moment(index: QdrantMemoryIndex) -> None:
    records = [memory(f"Memory {i} about the sea.", kind=MemoryKind.EPISODIC, minutes=i) for i in range(5)]
    await index.add([*records, memory(CAT, minutes=1)])

    older = await index.scroll(ALICE, 0, 10, kinds=(MemoryKind.EPISODIC,), created_before=T0 + timedelta(minutes=3))

    assert [r.memory_id for r in older] == [records[2].memory_id, records[1].memory_id, records[0].memory_id]


async def test_fetch_keeps_the_order_asked_and_skips_unknown_ids(index: QdrantMemoryIndex) -> None:
    records = await add_life(index)
    wanted = [records[JOB].memory_id, str(uuid.uuid4()), records[CAT].memory_id, "not-a-uuid"]
    fetched = await index.fetch(ALICE, wanted)
    assert [r.text for r in fetched] == [JOB, CAT]
