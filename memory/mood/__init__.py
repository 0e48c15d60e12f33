"""Mood: the offline reader (USE embeddings + lexical cues + a small trained head), the pattern finder and
the simple topic finder. Values and the `MoodReader` port live in `bot.engine.mood`."""

from memory.mood.patterns import PatternRules, find_patterns, find_patterns_local
from memory.mood.reader import OfflineMoodReader, open_offline_reader
from memory.mood.topics import topics_of

__all__ = [
    "OfflineMoodReader",
    "PatternRules",
    "find_patterns",
    "find_patterns_local",
    "open_offline_reader",
    "topics_of",
]
