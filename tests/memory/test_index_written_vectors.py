"""An episode rewritten with the next message appended keeps its vector: one embedding per message, not two."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryKind
from tests.conftest import FakeClock
from tests.memory.fake_index import DIMENSION
from tests.memory.index_memories import ALICE, ask, memory
from tests.memory.test_erasure import CountingEmbedder

SAID = "Caroline: I went to the support group yesterday"
NEXT = " | Melanie: that sounds brave, how was the pottery class?"


@pytest.fixture
def embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
async def index(tmp_path: Path, embedder: CountingEmbedder, clock: FakeClock) -> AsyncIterator[QdrantMemoryIndex]:
    memory_index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", DIMENSION), embedder, clock)
    try:
        yield memory_index
    finally:
        await memory_index.close()


async def test_appended_words_reach_keyword_search_without_a_second_embedding(
    index: QdrantMemoryIndex, embedder: CountingEmbedder
) -> None:
    episode = memory(SAID)
    await index.add([episode])
    await index.add([replace(episode, text=SAID + NEXT)])
    assert embedder.embedded == [SAID]
    [found] = await index.search(ask("pottery class"))
    assert found.record.text == SAID + NEXT


async def test_a_text_that_lost_words_is_embedded_again(index: QdrantMemoryIndex, embedder: CountingEmbedder) -> None:
    episode = memory(SAID + NEXT)
    await index.add([episode])
    await index.add([replace(episode, text=SAID)])  # the next message was forgotten: its words leave the vector
    assert embedder.embedded == [SAID + NEXT, SAID]


@pytest.mark.parametrize("forget", ["one", "all"])
async def test_forgetting_drops_the_vectors_kept_of_written_texts(
    index: QdrantMemoryIndex, embedder: CountingEmbedder, forget: str
) -> None:
    episode = memory(SAID)
    await index.add([episode])
    if forget == "one":
        await index.remove(ALICE, [episode.memory_id])
    else:
        await index.forget_user(ALICE)
    await index.add([replace(episode, text=SAID + NEXT)])
    assert embedder.embedded == [SAID, SAID + NEXT]


async def test_a_fact_just_searched_for_is_not_embedded_again(
    index: QdrantMemoryIndex, embedder: CountingEmbedder
) -> None:
    fact = memory("My cat Miso is nine years old.")
    await index.search(ask(fact.text))  # consolidation looks for what the fact may replace
    await index.add([fact])
    assert embedder.embedded == [fact.text]
    [found] = await index.search(ask("how old is my cat?"))
    assert found.record.memory_id == fact.memory_id


async def test_the_second_search_of_a_recall_finds_what_a_search_alone_finds(index: QdrantMemoryIndex) -> None:
    walks = ["I walked my dog by the river", "The river was high after the rain", "My dog loves the water",
             "We crossed the old bridge", "A heron was fishing near the bank", "I forgot the dog's leash at home",
             "The path along the river was muddy", "I had lunch at a café by the water"]  # fmt: skip
    records = [memory(text, minutes=i, kind=MemoryKind.EPISODIC) for i, text in enumerate(walks)]
    await index.add(records)
    question = ask("a walk with my dog by the river", limit=3)
    alone = await index.search(replace(question, mode="dense", limit=6))
    await index.search(question)  # the hybrid search of the recall: 3 of them with their payloads
    second = await index.search(replace(question, mode="dense", limit=6))
    assert [(s.record, s.score) for s in second] == [(s.record, s.score) for s in alone]

    # A change in between is seen: the second search reads it afresh.
    await index.search(question)
    await index.hide(ALICE, alone[0].record.memory_id, records[-1].memory_id)
    after = await index.search(replace(question, mode="dense", limit=6))
    assert after[0].record.memory_id == alone[0].record.memory_id
    assert after[0].record.hidden_by == records[-1].memory_id
