"""Searching: by meaning, by a rare word, across languages, dense scores, limits, scopes and kinds."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryKind
from tests.memory.index_memories import ALICE, BOB, CAT, JOB, PEANUTS, SISTER, T0, add_life, ask, memory, texts

# Local mode says payload indexes are a no-op there; the server backend still creates them.
pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


async def test_hybrid_search_finds_by_meaning(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask("What do I do for a living?"))
    assert texts(results)[0] == JOB


async def test_hybrid_search_finds_a_rare_name(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask("Miso", limit=3))
    assert texts(results)[0] == CAT


async def test_french_question_finds_english_memory(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    assert texts(await index.search(ask("Comment s'appelle mon chat ?")))[0] == CAT
    assert texts(await index.search(ask("Où est-ce que je travaille ?")))[0] == JOB
    assert texts(await index.search(ask("Quand se marie ma sœur ?", mode="dense")))[0] == SISTER


async def test_dense_mode_scores_are_cosine_similarities(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask(PEANUTS, mode="dense"))
    assert texts(results)[0] == PEANUTS
    assert results[0].score == pytest.approx(1.0, abs=1e-3)
    assert all(-1.0 <= r.score < 0.9 for r in results[1:])


async def test_search_respects_limit_and_returns_best_first(index: QdrantMemoryIndex) -> None:
    await add_life(index)
    results = await index.search(ask("my pet", limit=2))
    assert len(results) == 2
    assert results[0].score >= results[1].score


async def test_scopes_keep_private_memories_out_of_groups(index: QdrantMemoryIndex) -> None:
    private = memory(CAT, scope="dm")
    in_group = memory("My cat Miso got a new collar.", scope="group:telegram:chat:7")
    await index.add([private, in_group])

    group_results = await index.search(ask("Miso the cat", scopes=("group:telegram:chat:7",)))
    assert [r.record.memory_id for r in group_results] == [in_group.memory_id]

    dm_results = await index.search(ask("Miso the cat"))
    assert [r.record.memory_id for r in dm_results] == [private.memory_id]

    both = await index.search(ask("Miso the cat", scopes=("dm", "group:telegram:chat:7")))
    assert {r.record.memory_id for r in both} == {private.memory_id, in_group.memory_id}
    assert await index.search(ask("Miso the cat", scopes=())) == []


async def test_kinds_filter(index: QdrantMemoryIndex) -> None:
    fact = memory(CAT, kind=MemoryKind.SEMANTIC)
    feeling = memory("I felt sad when my cat Miso was sick.", kind=MemoryKind.EMOTIONAL)
    await index.add([fact, feeling])

    results = await index.search(ask("Miso", kinds=(MemoryKind.EMOTIONAL,)))
    assert [r.record.memory_id for r in results] == [feeling.memory_id]
    results = await index.search(ask("Miso", kinds=(MemoryKind.EMOTIONAL, MemoryKind.SEMANTIC)))
    assert len(results) == 2


async def test_matching_finds_by_words_whatever_the_scope_or_validity(index: QdrantMemoryIndex) -> None:
    """The memory browser's search: every scope, superseded ones too, one kind, hidden twins left out."""
    await add_life(index)
    group = memory("Miso hid under the sofa at the party.", scope="group:telegram:-100", minutes=30)
    episode = memory("Miso is my cat", kind=MemoryKind.EPISODIC, minutes=40)
    await index.add([group, episode])
    await index.hide(ALICE, episode.memory_id, group.memory_id)
    await index.supersede(ALICE, [group.memory_id], T0 + timedelta(hours=2))

    found = [r.text for r in await index.matching(ALICE, "Miso", 10, listed_only=True)]
    assert CAT in found and group.text in found and episode.text not in found
    assert [r.text for r in await index.matching(ALICE, "Miso", 10, kinds=[MemoryKind.EPISODIC])] == [episode.text]
    assert await index.matching(BOB, "Miso", 10) == []  # only the asker's
    assert await index.matching(ALICE, "  ", 10) == []


async def test_holding_words_counts_and_pages_in_the_index(index: QdrantMemoryIndex) -> None:
    """The memory browser's search: every memory holding all the words (in their forms), newest first, counted."""
    trips = [memory(f"Trip {n} to Valparaiso with my cats", minutes=n) for n in range(1, 8)]
    await index.add([*trips, memory("My cat Miso likes Valparaiso too", minutes=20), memory(CAT, minutes=30)])

    page, total = await index.holding_words(ALICE, "valparaiso cat", 2, 3, listed_only=True) or ([], -1)
    assert total == 8  # "cats" is a form of "cat"; the seven trips and Miso's line
    assert [r.text for r in page] == [t.text for t in trips[::-1][1:4]]  # newest first, from the third
    assert (await index.holding_words(ALICE, "valparaiso", 0, 10, kinds=[MemoryKind.EMOTIONAL])) == ([], 0)
    assert await index.holding_words(BOB, "valparaiso", 0, 10) == ([], 0)  # only the asker's
    assert await index.holding_words(ALICE, "the", 0, 10) is None  # no keyword: the caller reads the listing
