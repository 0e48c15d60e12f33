"""With encryption on, what the memory index writes to Qdrant: words sealed, filter fields clear."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from pathlib import Path

from memory.privacy.crypto import PersonCipher
from memory.qdrant.driver import Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder

LEA = "telegram:4242"
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


async def test_payload_words_are_sealed_and_filter_fields_stay_clear(
    tmp_path: Path, clock: FakeClock, cipher: PersonCipher
) -> None:
    embedder = await shared_use_embedder()
    driver = await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension)
    index = QdrantMemoryIndex(driver, embedder, clock, cipher=cipher)
    record = MemoryRecord(
        memory_id=str(uuid.uuid4()), user_key=LEA, kind=MemoryKind.TEMPORAL, text="My sister Julie marries in Annecy",
        language="en", created_at=T0, source=MemorySource("telegram", "telegram:dm:4242", ("msg-seventy-seven",)),
        scope="dm", event_at=T0, subject="sister", label="wedding", attributes={"venue": "Annecy"},
    )  # fmt: skip
    try:
        await index.add([record])
        [hit] = await driver.newest(Where(user_key=LEA), 5)
        clear = {"v", "user_key", "kind", "scope", "created_at", "created_at_ts", "valid_to_ts", "hidden_by"}
        assert set(hit.payload) == {*clear, "sealed"}
        assert not any(w in str(hit.payload) for w in ("Julie", "Annecy", "sister", "wedding", "dm:4242", "seventy"))

        assert await index.fetch(LEA, [record.memory_id]) == [record]
        [found] = await index.search(IndexQuery(LEA, "Julie's wedding", T0, scopes=("dm",), limit=3))
        assert found.record == record  # keyword and meaning search still find it
        assert await index.supersede(LEA, [record.memory_id], T0) == 1
        assert (await index.fetch(LEA, [record.memory_id]))[0].valid_to == T0
        assert await index.count(LEA, current_only=True) == 0

        await cipher.forget_user(LEA)  # its key destroyed: the point left behind reads as gone
        assert await index.fetch(LEA, [record.memory_id]) == []
    finally:
        await index.close()
