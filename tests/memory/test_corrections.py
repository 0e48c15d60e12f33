"""Corrections take, on the real embedded index: after "I live in Paris" then "I moved to Lyon", Lyon is where
they live and Paris — the fact and the message that said it — is history, with offline extraction and with
a model that extracts and merges."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine.ports import CompletionRequest
from memory.embedding import UseEmbedder
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.service import LongTermMemoryService
from memory.writing.consolidation import SYSTEM as CONSOLIDATION
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder
from tests.memory.test_service import ALICE, Chat

pytestmark = pytest.mark.filterwarnings("ignore:Payload indexes have no effect:UserWarning")


@pytest.fixture
async def index(tmp_path: Path, clock: FakeClock) -> AsyncIterator[QdrantMemoryIndex]:
    embedder: UseEmbedder = await shared_use_embedder()
    memory_index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension), embedder, clock)
    try:
        yield memory_index
    finally:
        await memory_index.close()


async def current_texts(index: QdrantMemoryIndex) -> list[str]:
    return [r.attributes.get("said", r.text) for r in await index.scroll(ALICE.key, 0, 100) if r.valid_to is None]


@pytest.mark.parametrize(
    ("language", "before", "after", "question"),
    [
        ("en", "I live in Paris.", "Actually I moved to Lyon last week.", "where do I live?"),
        ("fr", "J'habite à Paris.", "En fait j'ai déménagé à Lyon.", "où est-ce que j'habite ?"),
        ("fr", "J'habite à Paris.", "En fait j'habite à Lyon maintenant.", "où est-ce que j'habite ?"),
    ],
)
async def test_a_move_replaces_the_old_home_fact_and_message_offline(
    index: QdrantMemoryIndex, language: str, before: str, after: str, question: str
) -> None:
    chat = Chat(LongTermMemoryService(index), ALICE, language)
    await chat.say(before)
    await chat.say("I love my job")
    await chat.say(after)
    recalled = await chat.recall(question)
    assert after in recalled
    assert not any("Paris" in text for text in recalled)
    assert not any("Paris" in text for text in await current_texts(index))


class ExtractingModel:
    """Extracts "Alice lives in …" from each message and, asked to consolidate, replaces every listed memory
    that names another city (a model that merges as the issue describes)."""

    async def complete(self, request: CompletionRequest) -> str:
        said = request.turns[-1].text
        if request.system == CONSOLIDATION:
            listing = said.split("Existing memories:\n", 1)[1].split("\n\nNew memory:", 1)[0].splitlines()
            stale = [int(line.split(":", 1)[0]) for line in listing if "Paris" in line]
            action = "supersede" if stale and "Lyon" in said.rsplit("New memory:", 1)[1] else "add"
            return json.dumps({"action": action, "replaces": stale})
        for city in ("Paris", "Lyon"):
            if city in said:
                return json.dumps({"facts": [{"text": f"Alice lives in {city}"}]})
        return '{"facts": []}'


async def test_a_move_replaces_the_old_home_with_a_model_that_extracts_and_merges(index: QdrantMemoryIndex) -> None:
    chat = Chat(LongTermMemoryService(index, llm=ExtractingModel()), ALICE)
    await chat.say("I live in Paris.")
    await chat.say("I love my job")
    await chat.say("Actually I moved to Lyon.")
    recalled = await chat.recall("where do I live?")
    assert any("Lyon" in text for text in recalled)
    assert not any("Paris" in text for text in recalled)
    assert not any("Paris" in text for text in await current_texts(index))
