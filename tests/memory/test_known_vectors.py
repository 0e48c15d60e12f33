"""A question embedded ahead (while the engine reads the rest of the message) is embedded once: the recall
that follows waits for that embedding instead of starting its own."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from memory.qdrant.vectors import KnownVectors
from tests.memory.fake_index import HashingEmbedder

QUESTION = "what was the name of my cat again?"


class GatedEmbedder(HashingEmbedder):
    """Counts what it embeds; each call waits for `release` when armed, and fails once when `fail` is set."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self.release = asyncio.Event()
        self.release.set()
        self.fail = False

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        await self.release.wait()
        if self.fail:
            self.fail = False
            raise ConnectionError("the embedding endpoint is down")
        return await super().embed(texts)


Started = tuple[KnownVectors, "asyncio.Task[None]", "asyncio.Task[list[float]]"]


async def _ahead_then_recall(embedder: GatedEmbedder) -> Started:
    """The question embedded ahead, held in the embedder, and a recall of it asked meanwhile."""
    vectors = KnownVectors(embedder)
    embedder.release.clear()
    ahead = asyncio.create_task(vectors.ahead([QUESTION]))
    await asyncio.sleep(0)
    recall = asyncio.create_task(vectors.of_query(QUESTION))
    await asyncio.sleep(0)
    return vectors, ahead, recall


async def test_a_recall_waits_for_the_embedding_begun_ahead() -> None:
    embedder = GatedEmbedder()
    _, ahead, recall = await _ahead_then_recall(embedder)
    embedder.release.set()
    await ahead
    assert await recall == (await HashingEmbedder().embed([QUESTION]))[0]
    assert embedder.calls == [[QUESTION]]


async def test_a_failed_embedding_ahead_is_tried_again_by_the_recall() -> None:
    embedder = GatedEmbedder()
    embedder.fail = True
    _, ahead, recall = await _ahead_then_recall(embedder)
    embedder.release.set()
    with pytest.raises(ConnectionError):
        await ahead
    assert await recall == (await HashingEmbedder().embed([QUESTION]))[0]
    assert embedder.calls == [[QUESTION], [QUESTION]]


async def test_a_recall_cancelled_while_waiting_leaves_the_embedding_to_finish() -> None:
    embedder = GatedEmbedder()
    vectors, ahead, recall = await _ahead_then_recall(embedder)
    recall.cancel()
    embedder.release.set()
    await ahead
    assert await vectors.of_query(QUESTION)
    assert embedder.calls == [[QUESTION]]


async def test_a_vector_embedded_while_everything_is_forgotten_is_not_kept() -> None:
    embedder = GatedEmbedder()
    vectors = KnownVectors(embedder)
    embedder.release.clear()
    ahead = asyncio.create_task(vectors.ahead([QUESTION]))
    await asyncio.sleep(0)
    vectors.clear()  # an erasure, while the question was being embedded
    embedder.release.set()
    await ahead
    await vectors.of_query(QUESTION)
    assert embedder.calls == [[QUESTION], [QUESTION]]
