"""The offline mood reader: a message's USE embedding and lexical cues through a small trained head.

Nothing is downloaded at run time: the embedder is the one memory already uses (USE multilingual, French
and English in one space) and the head's weights ship in the package (`memory/mood/mood_head.npz`,
written by `python -m memory.mood.train`). Embedding runs off the event loop (the embedder's own thread).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bot.engine.mood import MOOD_LABELS, POSITIVE, MoodReading
from memory.mood.cues import cue_counts, cue_vector
from memory.mood.head import SHIPPED_HEAD, MoodHead
from memory.ports import Embedder

# How far from 0 each mood sits on the valence axis at full intensity: joy is brighter than calm.
_VALENCE_REACH = {"joy": 0.9, "calm": 0.5, "sadness": 0.85, "anxiety": 0.65, "anger": 0.75, "tiredness": 0.45}


def features(texts: Sequence[str], vectors: Sequence[Sequence[float]]) -> np.ndarray:
    """The head's input: each embedding followed by its text's cue vector."""
    embedded = np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)
    cues = np.stack([cue_vector(t) for t in texts]) if texts else np.zeros((0, 0), dtype=np.float32)
    return np.hstack([embedded, cues]) if texts else embedded


def reading_from(text: str, probabilities: np.ndarray) -> MoodReading:
    """One reading from the head's probabilities: the likeliest label; a valence whose sign is the label's
    and whose size grows with confidence and emphasis; an intensity from the same."""
    if not text.strip():
        return MoodReading("neutral", 0.0, 0.0)
    best = int(np.argmax(probabilities))
    label = MOOD_LABELS[best]
    confidence = float(probabilities[best])
    if label == "neutral":
        return MoodReading("neutral", 0.0, round(0.1 * confidence, 3))
    counts = cue_counts(text)
    emphasis = min(1.0, 0.2 * counts["intensifiers"] + 0.15 * counts["exclamations"] + 0.2 * counts["shouting"])
    same_side = sum(float(p) for lab, p in zip(MOOD_LABELS, probabilities, strict=True)
                    if (lab in POSITIVE) == (label in POSITIVE) and lab != "neutral")  # fmt: skip
    intensity = min(1.0, 0.2 + 0.5 * confidence + 0.3 * emphasis)
    sign = 1.0 if label in POSITIVE else -1.0
    size = _VALENCE_REACH[label] * (0.4 + 0.4 * same_side + 0.2 * emphasis)
    return MoodReading(label, round(sign * max(0.05, min(1.0, size)), 3), round(intensity, 3))


class OfflineMoodReader:
    """`MoodReader` without a language model. The language is only a hint: cues cover both languages."""

    def __init__(self, embedder: Embedder, head: MoodHead) -> None:
        if embedder.dimension != head.embedding_dimension:
            raise ValueError(
                f"the mood head was trained on {head.embedding_dimension}-d embeddings (USE), "
                f"the embedder gives {embedder.dimension}-d"
            )
        self._embedder = embedder
        self._head = head

    async def read(self, text: str, language: str) -> MoodReading:
        (reading,) = await self.read_many([text])
        return reading

    async def read_many(self, texts: Sequence[str]) -> list[MoodReading]:
        """One reading per text, in order (batched: one embedding call)."""
        if not texts:
            return []
        vectors = await self._embedder.embed(list(texts))
        return await asyncio.to_thread(self._readings, list(texts), vectors)

    def _readings(self, texts: list[str], vectors: list[list[float]]) -> list[MoodReading]:
        probabilities = self._head.probabilities(features(texts, vectors))
        return [reading_from(text, p) for text, p in zip(texts, probabilities, strict=True)]


async def open_offline_reader(embedder: Embedder, head_path: Path = SHIPPED_HEAD) -> OfflineMoodReader:
    """The reader with the shipped head (read from disk off the event loop)."""
    head = await asyncio.to_thread(MoodHead.load, head_path)
    return OfflineMoodReader(embedder, head)
