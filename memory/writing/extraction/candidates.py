"""What an extractor proposes to remember, before consolidation decides whether and how to store it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memory.records import MemoryKind

# Keys of MemoryRecord.attributes written from candidates.
TOPIC = "topic"  # what a like/dislike is about, a name, a mood
EPISODE = "episode"  # the memory of the message a fact was read from
PRECISION = "precision"  # of a temporal memory's date: "day", "week", "month" or "year"


@dataclass(frozen=True, slots=True)
class Candidate:
    kind: MemoryKind  # SEMANTIC, EMOTIONAL or TEMPORAL (episodic memories are made from every message)
    text: str  # a short statement about the person, in their language
    label: str | None = None  # "likes", "name", "birthday", "wedding", "mood"…
    subject: str | None = None  # whose: None for the person themself, else "sister", "Marc"…
    importance: float = 0.5
    topic: str | None = None  # what a like/dislike is about, a pet's or relative's name, a mood
    # Temporal candidates only:
    local_date: str | None = None  # ISO date in the person's zone
    recurrence: str | None = None  # "yearly" for birthdays and anniversaries
    event_at: datetime | None = None
    precision: str | None = None  # "day", "week", "month" or "year"
    # Said as a change ("now", "anymore", "désormais", "plus"): it may replace an older fact.
    change: bool = False
    sensitive: bool = False

    def key(self) -> tuple[str, str, str | None, str | None]:
        """Two candidates with the same key in one message are the same memory."""
        return (self.kind.value, " ".join(self.text.lower().split()), self.label, self.local_date)


def unique(candidates: list[Candidate]) -> list[Candidate]:
    seen: set[tuple[str, str, str | None, str | None]] = set()
    out: list[Candidate] = []
    for candidate in candidates:
        if candidate.key() not in seen:
            seen.add(candidate.key())
            out.append(candidate)
    return out
