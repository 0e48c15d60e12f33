"""Memories and questions for the memory-index tests: two people, six sentences of a life, a query builder."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
ALICE = "telegram:1001"
BOB = "discord:2002"


def memory(
    text: str,
    *,
    user: str = ALICE,
    kind: MemoryKind = MemoryKind.SEMANTIC,
    scope: str = "dm",
    minutes: int = 0,
    memory_id: str | None = None,
) -> MemoryRecord:
    return MemoryRecord(
        memory_id=memory_id or str(uuid.uuid4()),
        user_key=user,
        kind=kind,
        text=text,
        language="en",
        created_at=T0 + timedelta(minutes=minutes),
        source=MemorySource("telegram", f"telegram:dm:{user}", ("42",)),
        scope=scope,
    )


def ask(text: str, *, user: str = ALICE, **kwargs: object) -> IndexQuery:
    return IndexQuery(user_key=user, text=text, at=T0 + timedelta(days=1), **kwargs)  # type: ignore[arg-type]


CAT = "My cat Miso sleeps all day on the sofa."
JOB = "I work as a nurse at the hospital in Lyon."
SISTER = "My sister Julie is getting married in June."
HIKING = "I love hiking in the mountains on weekends."
PEANUTS = "I am allergic to peanuts."
RAMEN = "I had a bowl of ramen soup for lunch."


async def add_life(index: QdrantMemoryIndex) -> dict[str, MemoryRecord]:
    records = {text: memory(text, minutes=i) for i, text in enumerate((CAT, JOB, SISTER, HIKING, PEANUTS, RAMEN))}
    await index.add(list(records.values()))
    return records


def texts(results: list) -> list[str]:
    return [r.record.text for r in results]
