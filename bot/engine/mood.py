"""How a person feels, as plain values: one reading per message, and the patterns believed from many.

Readers (offline classifier, or the LLM's extraction) and the pattern finder live in `memory.mood`; the
engine only sees these values and the `MoodReader` port.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, Protocol

MoodLabel = Literal["joy", "calm", "sadness", "anxiety", "anger", "tiredness", "neutral"]
MOOD_LABELS: tuple[MoodLabel, ...] = ("joy", "calm", "sadness", "anxiety", "anger", "tiredness", "neutral")
POSITIVE: frozenset[str] = frozenset(("joy", "calm"))
NEGATIVE: frozenset[str] = frozenset(("sadness", "anxiety", "anger", "tiredness"))
MIN_CHART_READINGS = 3  # fewer in the days asked for, and /mood draws no chart


@dataclass(frozen=True, slots=True)
class MoodReading:
    label: MoodLabel
    valence: float  # -1 (very negative) .. 1 (very positive); 0 for neutral
    intensity: float  # 0 .. 1


@dataclass(frozen=True, slots=True)
class TimedReading:
    """A reading of one message, when it was written (UTC) and what it was about."""

    at: datetime
    reading: MoodReading
    topics: tuple[str, ...] = ()  # people or topics the message names (for topic/person co-occurrence)


PatternKind = Literal["weekday", "time_of_day", "trend", "topic"]


@dataclass(frozen=True, slots=True)
class MoodPattern:
    """Something believed about a person's moods, only with enough evidence (see `memory.mood.patterns`)."""

    kind: PatternKind
    mood: MoodLabel | None = None  # weekday, time_of_day, topic
    weekday: str | None = None  # "sunday" (English, lower case)
    hours: str | None = None  # time_of_day: e.g. "late night"
    direction: Literal["up", "down"] | None = None  # trend against the person's own baseline
    since: date | None = None  # trend
    topic: str | None = None  # topic
    evidence: int = 0  # readings supporting it
    p_value: float | None = None  # after correction for the number of tests made


class MoodReader(Protocol):
    async def read(self, text: str, language: str) -> MoodReading:
        """The mood of one message (offline; never raises for odd text)."""
        ...
