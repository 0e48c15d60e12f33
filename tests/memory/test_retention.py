"""Episode retention: messages older than SOUVENIR_EPISODE_RETENTION_DAYS expire, facts drawn from them stay
(the real embedded index, an injected clock)."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from memory.privacy.voice_archive import VoiceFiles
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.service import LongTermMemoryService
from memory.writing.fading import DIGEST, MESSAGES
from memory.writing.retention import EpisodeRetention
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder


class People:
    def __init__(self, *keys: str) -> None:
        self.keys = list(keys)

    async def known_user_keys(self) -> list[str]:
        return self.keys


def _memory(user: str, kind: MemoryKind, text: str, clock: FakeClock) -> MemoryRecord:
    source = MemorySource("telegram", "telegram:dm:1", ())
    return MemoryRecord(str(uuid.uuid4()), user, kind, text, "en", clock.now(), source)


async def test_episodes_older_than_the_retention_expire_and_facts_stay(tmp_path: Path, clock: FakeClock) -> None:
    embedder = await shared_use_embedder()
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension), embedder, clock)
    try:
        await index.add([
            _memory("telegram:1", MemoryKind.EPISODIC, "I adopted a cat named Miso today", clock),
            _memory("telegram:1", MemoryKind.SEMANTIC, "Léa has a cat named Miso", clock),
            _memory("telegram:2", MemoryKind.EPISODIC, "Chess club was fun", clock),
        ])  # fmt: skip
        clock.advance(days=20)
        await index.add([_memory("telegram:1", MemoryKind.EPISODIC, "Jazz night at the club", clock)])
        retention = EpisodeRetention(index, People("telegram:1", "telegram:2"), clock, keep=timedelta(days=30))

        assert await retention.sweep() == 0  # nothing is 30 days old yet
        clock.advance(days=11)  # the first messages are now 31 days old, the jazz one 11
        assert await retention.sweep() == 2

        left = [r.text for r in await index.scroll("telegram:1", 0, 50)]
        assert sorted(left) == ["Jazz night at the club", "Léa has a cat named Miso"]
        assert await index.count("telegram:2") == 0
    finally:
        await index.close()


async def test_an_expired_voice_message_takes_its_kept_audio(tmp_path: Path, clock: FakeClock) -> None:
    """The audio says the words the retention expires: it goes with them, and another message's stays."""
    embedder = await shared_use_embedder()
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension), embedder, clock)
    voice = VoiceFiles(tmp_path / "voice-notes")
    try:
        old = replace(_memory("telegram:1", MemoryKind.EPISODIC, "I adopted a cat named Miso", clock),
                      source=MemorySource("telegram", "telegram:dm:1", ("41",)))  # fmt: skip
        await voice.keep("telegram:1", "41", "note.ogg", b"old audio")
        await index.add([old])
        clock.advance(days=20)
        await voice.keep("telegram:1", "42", "note.ogg", b"new audio")
        new = replace(_memory("telegram:1", MemoryKind.EPISODIC, "Jazz night at the club", clock),
                      source=MemorySource("telegram", "telegram:dm:1", ("42",)))  # fmt: skip
        await index.add([new])
        retention = EpisodeRetention(index, People("telegram:1"), clock, keep=timedelta(days=30), message_files=voice)
        clock.advance(days=11)

        assert await retention.sweep() == 1
        kept = sorted(p.read_bytes() for p in voice.folder_of("telegram:1").iterdir())
        assert kept == [b"new audio"]
    finally:
        await index.close()


async def test_a_forgotten_digest_takes_the_audio_of_the_messages_it_replaced(tmp_path: Path, clock: FakeClock) -> None:
    embedder = await shared_use_embedder()
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension), embedder, clock)
    voice = VoiceFiles(tmp_path / "voice-notes")
    service = LongTermMemoryService(index, clock=clock, message_files=voice)
    try:
        await voice.keep("telegram:1", "41", "note.ogg", b"audio")
        digest = replace(_memory("telegram:1", MemoryKind.EPISODIC, "3 May: cat Miso adopted", clock),
                         label=DIGEST, attributes={DIGEST: "true", MESSAGES: "41 40"})  # fmt: skip
        await index.add([digest])

        assert await service.forget_memory("telegram:1", digest.memory_id)
        assert list(voice.folder_of("telegram:1").iterdir()) == []
    finally:
        await index.close()
