"""A memory survives the trip to a Qdrant payload and back, every field intact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memory.qdrant.payload import NOT_SUPERSEDED_TS, payload_to_record, record_to_payload
from memory.records import MemoryKind, MemoryRecord, MemorySource

FULL = MemoryRecord(
    memory_id="7b7f4a51-3a1e-4c55-9a43-2f5f3c0f1e11",
    user_key="discord:42",
    kind=MemoryKind.TEMPORAL,
    text="Ma sœur Léa se marie le 2 juin.",
    language="fr",
    created_at=datetime(2026, 3, 14, 12, 30, 15, 123456, tzinfo=UTC),
    source=MemorySource("discord", "discord:dm:42", ("m1", "m2")),
    scope="group:discord:chat:9",
    event_at=datetime(2026, 6, 2, 10, 0, tzinfo=UTC),
    valid_from=datetime(2026, 3, 14, tzinfo=UTC),
    valid_to=datetime(2026, 4, 1, 8, 0, tzinfo=UTC),
    importance=0.85,
    access_count=3,
    last_accessed_at=datetime(2026, 3, 20, 7, 5, tzinfo=UTC),
    recurrence="yearly",
    local_date="2026-06-02",
    timezone="Europe/Paris",
    subject="sister",
    label="wedding",
    supersedes=("0d1c0b6e-3b8a-4c59-8f2e-6a1f5b2c9d00",),
    attributes={"venue": "Annecy"},
)

MINIMAL = MemoryRecord(
    memory_id="1e0a9f44-5b0c-4a5e-9d8b-3c2b1a0f9e88",
    user_key="telegram:7",
    kind=MemoryKind.SEMANTIC,
    text="I like tea.",
    language="en",
    created_at=datetime(2026, 1, 1, tzinfo=UTC),
    source=MemorySource("telegram", "telegram:dm:7"),
)


@pytest.mark.parametrize("record", [FULL, MINIMAL], ids=["full", "minimal"])
def test_round_trip_is_lossless(record: MemoryRecord) -> None:
    back = payload_to_record(record.memory_id, record_to_payload(record))
    assert back == record
    assert back.attributes == record.attributes  # not part of equality
    assert back.created_at.tzinfo is not None


def test_index_helpers_follow_the_record() -> None:
    full, minimal = record_to_payload(FULL), record_to_payload(MINIMAL)
    assert full["created_at_ts"] == FULL.created_at.timestamp()
    assert full["valid_to_ts"] == FULL.valid_to.timestamp()  # type: ignore[union-attr]
    assert minimal["valid_to_ts"] == NOT_SUPERSEDED_TS
    assert (full["user_key"], full["kind"], full["scope"]) == (
        "discord:42",
        "temporal",
        "group:discord:chat:9",
    )


def test_other_zones_are_stored_as_the_same_instant() -> None:
    paris = timezone(timedelta(hours=2))
    record = MemoryRecord(
        memory_id=MINIMAL.memory_id,
        user_key="telegram:7",
        kind=MemoryKind.EPISODIC,
        text="Dinner at 20:00.",
        language="en",
        created_at=datetime(2026, 6, 1, 20, 0, tzinfo=paris),
        source=MINIMAL.source,
    )
    back = payload_to_record(record.memory_id, record_to_payload(record))
    assert back.created_at == record.created_at
    assert back.created_at.utcoffset() == timedelta(0)


def test_naive_datetimes_are_refused() -> None:
    naive = MemoryRecord(
        memory_id=MINIMAL.memory_id,
        user_key="telegram:7",
        kind=MemoryKind.SEMANTIC,
        text="x",
        language="en",
        created_at=datetime(2026, 1, 1),
        source=MINIMAL.source,
    )
    with pytest.raises(ValueError):
        record_to_payload(naive)
