"""An episode's vector is composed from its message's and its context messages' vectors: each message is
embedded once, alone, however many episodes it lends its words to."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from bot.engine.model import ChatTurn, Exchange, IncomingMessage, Reply, UserRef
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind
from memory.service import LongTermMemoryService
from memory.writing.dense_parts import CONTEXT_WEIGHT, compose, dense_parts
from memory.writing.episodes import episodic_record, with_next, without_words
from tests.conftest import FakeClock
from tests.memory.fake_index import DIMENSION, HashingEmbedder
from tests.memory.test_ingest_batch import ALICE, conversation

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
SAID = [
    "We adopted a kitten last week",
    "She sleeps on my keyboard all day",
    "Her name is Miso, after the soup",
    "I start my new job at the bakery on Monday",
    "The hours are early but I like the smell of bread",
]


def episode(text: str, earlier: Sequence[str], reply: str = "") -> Exchange:
    user = UserRef("telegram", "1", "Alice")
    turns = tuple(
        ChatTurn("user", t, AT - timedelta(minutes=len(earlier) - n), user.key) for n, t in enumerate(earlier)
    )
    message = IncomingMessage(user, "telegram:dm:1", "9", text, AT)
    return Exchange(message, Reply(reply, "en"), "Europe/Paris", "en", previous_turns=turns)


def test_an_episode_is_made_of_its_message_and_its_context_not_its_date_nor_the_next_message() -> None:
    exchange = episode("Her name is Miso (like the soup) | honestly", ["We adopted a kitten", "She is tiny"], "Cute!")
    record = episodic_record(exchange, exchange.previous_turns)
    assert "2026" in record.text  # the date it was said is indexed for keywords…
    extended = with_next(record, "She hates baths", "5d1c7a4e-3b0f-4f6e-9a51-2f7c1b8e6d31")
    assert "She hates baths" in extended.text

    assert dense_parts(extended) == (  # …but the vector is of what was said around it
        ("Her name is Miso (like the soup) | honestly", 1.0),
        ("We adopted a kitten", CONTEXT_WEIGHT),
        ("She is tiny", CONTEXT_WEIGHT),
        ("Cute!", CONTEXT_WEIGHT),
    )
    forgotten_id = record.attributes["previous"].split()[0]
    without = without_words(extended, forgotten_id, "We adopted a kitten")
    assert [text for text, _ in dense_parts(without)] == ["Her name is Miso (like the soup) | honestly", "She is tiny",
                                                           "Cute!"]  # fmt: skip


def test_a_fact_is_its_whole_text() -> None:
    exchange = episode("I live in Lyon", [])
    fact = replace(episodic_record(exchange), kind=MemoryKind.SEMANTIC)
    assert dense_parts(fact) == ((fact.text, 1.0),)


def test_composing_weighs_the_context_at_half_and_renormalises() -> None:
    own, other = [1.0, 0.0], [0.0, 1.0]
    vector = compose((("own", 1.0), ("other", CONTEXT_WEIGHT)), {"own": own, "other": other})
    assert np.isclose(np.linalg.norm(vector), 1.0)
    assert vector[0] > vector[1] > 0  # nearer its own message, lifted towards its context
    assert compose((("own", 1.0),), {"own": own}) == own


class RecordingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts.extend(texts)
        return await super().embed(texts)


async def test_each_message_is_embedded_once_and_lifts_the_next_episodes(tmp_path: Path, clock: FakeClock) -> None:
    embedder = RecordingEmbedder()
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "index", DIMENSION), embedder, clock)
    try:
        await LongTermMemoryService(index).remember_exchanges(conversation(ALICE, SAID))
        embedded = Counter(embedder.texts)
        assert all(embedded[text] == 1 for text in SAID)  # not once more for each episode it is context of
        assert max(embedded.values()) == 1
        assert not any(" | " in text for text in embedded)  # no long texts of several messages

        # The two messages after the kitten's, which never say "kitten", are nearer to it than the bakery's.
        query = IndexQuery(ALICE.key, "adopted kitten", clock.now(), limit=3, mode="dense", kinds=["episodic"])
        found = [s.record.attributes["said"] for s in await index.search(query)]
        assert found[0] == SAID[0]
        assert set(found) == set(SAID[:3])
    finally:
        await index.close()
