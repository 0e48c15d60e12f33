"""Changing memories: adding and replacing, superseding, hiding an episode, removing, forgetting a person."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind
from tests.conftest import FakeClock
from tests.memory.index_memories import ALICE, BOB, CAT, T0, add_life, ask, memory, texts

# Local mode says payload indexes are a no-op there; the server backend still creates them.
pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


async def test_added_memory_comes_back_exactly_and_same_id_replaces(index: QdrantMemoryIndex) -> None:
    first = memory(CAT)
    await index.add([first])
    assert await index.fetch(ALICE, [first.memory_id]) == [first]

    corrected = memory("My cat Miso sleeps all day on the bed.", memory_id=first.memory_id, minutes=5)
    await index.add([corrected])

    assert await index.fetch(ALICE, [first.memory_id]) == [corrected]
    assert await index.count(ALICE) == 1


async def test_superseded_memory_is_not_current_but_stays_listed(index: QdrantMemoryIndex, clock: FakeClock) -> None:
    old_job = memory("I work as a baker in Lille.")
    new_job = memory("I work as a nurse in Lyon.", minutes=1)
    await index.add([old_job, new_job])
    moved_at = T0 + timedelta(hours=2)

    assert await index.supersede(ALICE, [old_job.memory_id], moved_at) == 1
    assert await index.supersede(ALICE, [old_job.memory_id], moved_at + timedelta(hours=1)) == 0

    after = await index.search(ask("Where do I work?"))
    assert [r.record.memory_id for r in after] == [new_job.memory_id]
    before = await index.search(IndexQuery(user_key=ALICE, text="Where do I work?", at=moved_at - timedelta(minutes=1)))
    assert {r.record.memory_id for r in before} == {old_job.memory_id, new_job.memory_id}
    history = await index.search(ask("Where do I work?", current_only=False))
    assert {r.record.memory_id for r in history} == {old_job.memory_id, new_job.memory_id}

    [fetched] = await index.fetch(ALICE, [old_job.memory_id])
    assert fetched.valid_to == moved_at
    assert not fetched.is_current(moved_at)
    listed = await index.scroll(ALICE, 0, 10)
    assert [r.memory_id for r in listed] == [new_job.memory_id, old_job.memory_id]

    clock.current = moved_at + timedelta(days=1)
    assert await index.count(ALICE) == 2
    assert await index.count(ALICE, current_only=True) == 1
    assert [r.memory_id for r in await index.scroll(ALICE, 0, 10, current_only=True)] == [new_job.memory_id]


async def test_a_hidden_episode_is_left_out_of_the_listing_but_still_found(index: QdrantMemoryIndex) -> None:
    episode = memory("I love Blue Note jazz.", kind=MemoryKind.EPISODIC)
    fact = memory("I love Blue Note jazz.", minutes=0)
    other = memory(CAT, kind=MemoryKind.EPISODIC, minutes=1)
    await index.add([episode, fact, other])

    assert await index.hide(ALICE, episode.memory_id, fact.memory_id) == 1
    assert await index.hide(ALICE, fact.memory_id, episode.memory_id) == 0  # only episodes hide
    assert await index.hide(BOB, other.memory_id, fact.memory_id) == 0  # only one's own

    listed = await index.scroll(ALICE, 0, 10, listed_only=True)
    assert {r.memory_id for r in listed} == {fact.memory_id, other.memory_id}
    assert await index.count(ALICE, listed_only=True) == 2
    assert await index.count(ALICE) == 3
    [stored] = await index.fetch(ALICE, [episode.memory_id])
    assert stored.hidden_by == fact.memory_id
    assert episode.memory_id in [r.record.memory_id for r in await index.search(ask("jazz", limit=5))]


async def test_remove_one(index: QdrantMemoryIndex) -> None:
    records = await add_life(index)
    cat = records[CAT]

    assert await index.remove(ALICE, [cat.memory_id]) == 1
    assert await index.remove(ALICE, [cat.memory_id]) == 0

    assert await index.fetch(ALICE, [cat.memory_id]) == []
    assert await index.count(ALICE) == len(records) - 1
    assert CAT not in texts(await index.search(ask("Miso", limit=10)))


async def test_forget_user_erases_one_person_only(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    bobs = memory("My dog Rex loves the beach.", user=BOB)
    await index.add([bobs])

    assert await index.forget_user(ALICE) == 6

    assert await index.count(ALICE) == 0
    assert await index.search(ask("Miso")) == []
    assert await index.count(BOB) == 1
    assert await index.fetch(BOB, [bobs.memory_id]) == [bobs]
