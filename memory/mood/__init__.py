"""Emotional memory: reading how each message feels, keeping the series, finding patterns, drawing /mood."""

from __future__ import annotations

from collections.abc import Sequence

from bot.config import Settings
from bot.engine.mood import MoodPattern, MoodReader, TimedReading
from memory.ports import Embedder


def open_mood_reader(settings: Settings, embedder: Embedder | None = None) -> MoodReader:
    """The offline mood reader. PLACEHOLDER: the keyword stand-in until `memory.mood.reader` (the trained head
    over the embeddings) is merged; the lead swaps it in here."""
    from memory.mood.stub_reader import KeywordMoodReader

    return KeywordMoodReader()


def find_mood_patterns(readings: Sequence[TimedReading], timezone: str) -> list[MoodPattern]:
    """PLACEHOLDER: believes nothing until `memory.mood.patterns.find_patterns` is merged (the lead swaps it
    in here); the journal calls it in the background every few readings."""
    return []
