"""The index's boundaries: another person's ids, a required user key, UUID ids, empty calls."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.errors import InvalidInput
from memory.qdrant.index import QdrantMemoryIndex
from tests.memory.index_memories import ALICE, BOB, CAT, JOB, T0, add_life, ask, memory, texts

# Local mode says payload indexes are a no-op there; the server backend still creates them.
pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


async def test_another_persons_ids_do_nothing(index: QdrantMemoryIndex) -> None:
    bobs = memory(CAT, user=BOB)
    await index.add([bobs, memory(JOB)])

    assert await index.fetch(ALICE, [bobs.memory_id]) == []
    assert await index.remove(ALICE, [bobs.memory_id]) == 0
    assert await index.supersede(ALICE, [bobs.memory_id], T0 + timedelta(hours=1)) == 0

    assert texts(await index.search(ask(CAT))) == [JOB]
    assert await index.fetch(BOB, [bobs.memory_id]) == [bobs]
    assert texts(await index.search(ask(CAT, user=BOB))) == [CAT]


async def test_reusing_another_persons_id_cannot_overwrite_their_memory(index: QdrantMemoryIndex) -> None:
    bobs = memory(CAT, user=BOB)
    await index.add([bobs])

    await index.add([memory("My password is hunter2.", memory_id=bobs.memory_id), memory(JOB)])

    assert await index.fetch(BOB, [bobs.memory_id]) == [bobs]
    assert await index.fetch(ALICE, [bobs.memory_id]) == []
    assert texts(await index.search(ask("password"))) == [JOB]


async def test_a_user_key_is_required(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    with pytest.raises(InvalidInput):
        await index.search(ask("Miso", user=""))
    with pytest.raises(InvalidInput):
        await index.forget_user("")
    with pytest.raises(InvalidInput):
        await index.add([memory(CAT, user="")])
    assert await index.count(ALICE) == 6


async def test_memory_ids_must_be_uuids(index: QdrantMemoryIndex) -> None:
    with pytest.raises(InvalidInput):
        await index.add([memory(CAT, memory_id="cat-1")])
    assert await index.count(ALICE) == 0


async def test_nothing_to_do_is_fine(index: QdrantMemoryIndex) -> None:
    await index.add([])
    assert await index.search(ask("anything")) == []
    assert await index.search(ask("the and of")) == []  # stopwords only: dense alone answers
    assert await index.fetch(ALICE, []) == []
    assert await index.remove(ALICE, []) == 0
    assert await index.forget_user(ALICE) == 0
    assert await index.scroll(ALICE, 0, 10) == []
