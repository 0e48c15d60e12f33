"""Emotional memory: reading how each message feels (USE embeddings + lexical cues + a small trained head),
keeping the series, finding patterns, drawing /mood. Values and the `MoodReader` port live in `bot.engine.mood`.

It imports numpy and matplotlib (the chart), redis (the series), the embedder and memory's ports, the ciphers,
the words' text caches and extraction's list of sensitive topics; from the engine its mood values, ports, the
texts /mood is drawn with and the tone a reading gives the prompt (`bot.engine.prompt.tone`); never the wiring."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.engine.mood import MoodReader
from memory.embedding import UseEmbedder
from memory.mood.patterns import PatternRules, find_patterns, find_patterns_local
from memory.mood.reader import OfflineMoodReader, open_offline_reader
from memory.mood.topics import topics_of
from memory.ports import Embedder

__all__ = [
    "OfflineMoodReader",
    "PatternRules",
    "find_patterns",
    "find_patterns_local",
    "open_mood_reader",
    "open_offline_reader",
    "topics_of",
]


@asynccontextmanager
async def open_mood_reader(embedder: Embedder, *, embedder_is_use: bool) -> AsyncIterator[MoodReader]:
    """The offline reader. Its head was trained on USE vectors: it shares the memory's embedder when that is
    USE, and loads its own USE otherwise (an OpenAI-compatible embedder gives other vectors)."""
    if not embedder_is_use:
        embedder = UseEmbedder()
        await embedder.warm_up()
    yield await open_offline_reader(embedder)
