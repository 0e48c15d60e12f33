"""A memory's words are read for recall as it is written: the reply's recall does not wait for them."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest

import memory.recall.ahead as ahead
import memory.recall.lexical as lexical
import memory.words.sparse as sparse
from bot.engine.model import RecallQuery
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ahead import read_ahead
from memory.recall.shown_facts import ShownFacts
from memory.records import MemoryKind, MemoryRecord
from memory.service import LongTermMemoryService
from memory.words.text_caches import cached_texts, forget_cached_texts
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder
from tests.memory.index_memories import ALICE, T0, ask, memory

LIFE = (
    "I adopted a grey cat called Miso from the shelter on Rue Oberkampf",
    "My sister Léa gets married in Lyon next month, I am giving a speech",
    "Sundays are hard since I moved here, the flat feels empty",
    "I have been learning the double bass, mostly Blue Note records",
)


async def _index(tmp_path: Path, clock: FakeClock, reader: Callable[[Sequence[MemoryRecord]], None] | None) -> (
    QdrantMemoryIndex
):  # fmt: skip
    embedder = await shared_use_embedder()
    driver = await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension)
    return QdrantMemoryIndex(driver, embedder, clock, cached_records=100, read_ahead=reader)


@pytest.fixture
def analysed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text whose words are split from now on (recall's analyses all start there)."""
    seen: list[str] = []
    for module in (lexical, sparse):
        split = module.words

        def counting(text: str, split: Callable[[str], list[str]] = split) -> list[str]:
            seen.append(text)
            return split(text)

        monkeypatch.setattr(module, "words", counting)
    return seen


@pytest.fixture
async def written(tmp_path: Path, clock: FakeClock) -> AsyncIterator[QdrantMemoryIndex]:
    forget_cached_texts()  # nothing read by another test
    index = await _index(tmp_path, clock, read_ahead)
    await index.add([memory(text, kind=MemoryKind.EPISODIC, minutes=n) for n, text in enumerate(LIFE)])
    try:
        yield index
    finally:
        await index.close()


async def test_a_recall_right_after_the_write_reads_no_memory_again(
    written: QdrantMemoryIndex, analysed: list[str]
) -> None:
    query = RecallQuery(ALICE, "How is Miso the cat doing?", T0.replace(day=3), limit=4, max_words=200)
    recalled = await LongTermMemoryService(written).recall(query)
    assert any("Miso" in m.text for m in recalled)
    # (the question's own words are read, a name alone among them)
    assert not [text for text in analysed if len(text.split()) > 3 and any(text.strip() in said for said in LIFE)]


async def test_the_index_hands_over_the_very_records_its_searches_give_back(tmp_path: Path, clock: FakeClock) -> None:
    handed: list[MemoryRecord] = []
    index = await _index(tmp_path, clock, handed.extend)
    try:
        await index.add([memory(text) for text in LIFE])
        found = await index.search(ask("the cat from the shelter"))
        assert found
        assert all(any(hit.record is record for record in handed) for hit in found)
    finally:
        await index.close()


def test_an_erasure_while_reading_leaves_no_words_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    forget_cached_texts()
    shown_facts = ahead.shown_facts

    def erased_meanwhile(record: MemoryRecord) -> ShownFacts:
        forget_cached_texts()  # as forget_user does, from the event loop, while the worker thread reads
        return shown_facts(record)

    monkeypatch.setattr(ahead, "shown_facts", erased_meanwhile)
    read_ahead([memory(text) for text in LIFE])
    assert cached_texts() == 0


async def test_a_reading_that_fails_does_not_fail_the_write(tmp_path: Path, clock: FakeClock) -> None:
    def broken(records: Sequence[MemoryRecord]) -> None:
        raise ValueError("a text the analysis chokes on")

    index = await _index(tmp_path, clock, broken)
    try:
        await index.add([memory(text) for text in LIFE])
        assert LIFE[0] in [hit.record.text for hit in await index.search(ask("the cat from the shelter"))]
    finally:
        await index.close()
