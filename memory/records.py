"""The long-term memory record: one type with a `kind`, stored in Qdrant (payload) with its vectors."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class MemoryKind(StrEnum):
    EPISODIC = "episodic"  # an event or exchange, with when it happened
    SEMANTIC = "semantic"  # a fact, preference or relationship
    EMOTIONAL = "emotional"  # a mood observation or a sensitive topic
    TEMPORAL = "temporal"  # a dated thing: birthday, anniversary, wedding, exam, deadline


@dataclass(frozen=True, slots=True)
class MemorySource:
    platform: str
    conversation_id: str
    message_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryRecord:
    memory_id: str  # a UUID string (Qdrant point id)
    user_key: str
    kind: MemoryKind
    text: str
    language: str
    created_at: datetime  # aware UTC
    source: MemorySource
    scope: str = "dm"  # "dm" or "group:<conversation id>"
    event_at: datetime | None = None  # when it happened / is due (aware UTC)
    valid_from: datetime | None = None
    valid_to: datetime | None = None  # set when superseded: never recalled as current after that
    importance: float = 0.5  # 0..1
    access_count: int = 0
    last_accessed_at: datetime | None = None
    # Temporal memories: "yearly" for birthdays/anniversaries; the local date and zone it was said in.
    recurrence: str | None = None
    local_date: str | None = None  # ISO date in the user's zone, e.g. "2026-06-02"
    timezone: str | None = None
    subject: str | None = None  # whose: None for the user, else "sister", "Marc"…
    label: str | None = None  # short words: "birthday", "wedding", "job interview"
    supersedes: tuple[str, ...] = ()
    # An episode that says exactly what a fact drawn from the same message says: the id of that fact. The
    # person sees the fact alone in /memories; set by the writer, so listings can filter instead of compare.
    hidden_by: str | None = None
    attributes: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def is_current(self, at: datetime) -> bool:
        return self.valid_to is None or self.valid_to > at


@dataclass(frozen=True, slots=True)
class IndexQuery:
    user_key: str  # required: isolation is enforced by the store API, never by the prompt
    text: str
    at: datetime
    scopes: tuple[str, ...] = ("dm",)
    kinds: tuple[MemoryKind, ...] | None = None
    current_only: bool = True  # drop records whose valid_to <= at
    limit: int = 20
    mode: str = "hybrid"  # "hybrid" (dense + sparse fused) or "dense" (score = cosine similarity)
    # Hybrid only: also read the records of the first `read_dense` of its dense ranking, for a dense search
    # of the same text that follows (recall runs both): all the records in one read instead of two.
    read_dense: int = 0


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    record: MemoryRecord
    score: float
