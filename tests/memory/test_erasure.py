"""Forgetting wins over memory writes in flight, and leaves nothing of the forgotten words in this process."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import redis.asyncio as aioredis

from bot.engine.model import ChatTurn, Exchange, IncomingMessage, RecallQuery, Reply, UserRef
from memory.privacy.erasure import RedisErasureLog
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryRecord
from memory.service import LongTermMemoryService
from memory.words.text_caches import cached_texts
from tests.conftest import FakeClock
from tests.memory.fake_index import DIMENSION, FakeMemoryIndex, HashingEmbedder

ALICE = UserRef("telegram", "1", "Alice")
START = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)


class HeldFetchIndex(FakeMemoryIndex):
    """Once armed, the next fetch answers only when released: a write is caught between read and write."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.arrived = asyncio.Event()
        self.release = asyncio.Event()

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]:
        found = await super().fetch(user_key, memory_ids)
        if self.armed:
            self.armed = False
            self.arrived.set()
            await self.release.wait()
        return found


def exchange(text: str, minute: int, earlier: tuple[ChatTurn, ...] = ()) -> Exchange:
    message = IncomingMessage(ALICE, "telegram:dm:1", str(minute), text, START + timedelta(minutes=minute))
    return Exchange(message, Reply("I see.", "en"), "Europe/Paris", "en", previous_turns=earlier)


async def test_a_message_forgotten_while_the_next_one_is_written_is_not_brought_back(
    redis_client: aioredis.Redis,
) -> None:
    index = HeldFetchIndex()
    memory = LongTermMemoryService(index, erasures=RedisErasureLog(redis_client))
    await memory.remember_exchange(exchange("My cat Miso is sick.", 1))
    (cat,) = (await memory.list_memories(ALICE.key, 0, 10)).items

    index.armed = True  # the next message reads the cat's episode to index it as its context...
    said = ChatTurn("user", "My cat Miso is sick.", START + timedelta(minutes=1), ALICE.key)
    writing = asyncio.create_task(memory.remember_exchange(exchange("Off to the vet now.", 2, (said,))))
    await index.arrived.wait()
    assert await memory.forget_memory(ALICE.key, cat.memory_id)  # ...when the person forgets it
    index.release.set()
    await writing

    shown = [item.text for item in (await memory.list_memories(ALICE.key, 0, 10)).items]
    assert shown == ["Off to the vet now."]  # the new message is kept, the forgotten one stays gone
    assert all("Miso" not in r.text for r in index.records.values())


async def test_forgetting_drops_the_texts_this_process_cached_for_recall(redis_client: aioredis.Redis) -> None:
    memory = LongTermMemoryService(FakeMemoryIndex(), erasures=RedisErasureLog(redis_client))
    await memory.remember_exchange(exchange("My secret word is Zanzibar.", 1))
    assert await memory.recall(RecallQuery(ALICE.key, "secret word", START + timedelta(minutes=2)))
    assert cached_texts() > 0

    await memory.forget_user(ALICE.key)

    assert cached_texts() == 0


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        self.embedded: list[str] = []

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.embedded += texts
        return await super().embed(texts)


async def test_forgetting_a_person_drops_the_query_vectors_the_index_kept_of_their_messages(
    tmp_path: Path, clock: FakeClock
) -> None:
    embedder = CountingEmbedder()
    index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", DIMENSION), embedder, clock)
    try:
        query = IndexQuery(ALICE.key, "Is Zanzibar my secret word?", clock.now())
        await index.search(query)
        await index.search(query)
        assert embedder.embedded.count(query.text) == 1  # kept for the second search of the same message

        await index.forget_user(ALICE.key)
        await index.search(query)
        assert embedder.embedded.count(query.text) == 2  # the kept one went with the person
    finally:
        await index.close()


async def test_an_epoch_read_before_its_key_expired_is_never_seen_again(redis_client: aioredis.Redis) -> None:
    log = RedisErasureLog(redis_client)
    await log.forget_user("telegram:1")
    read_by_a_slow_write = await log.epoch("telegram:1")
    await redis_client.delete("souvenir:erasure:" + hashlib.sha256(b"telegram:1").hexdigest())  # it expired
    await log.forget_user("telegram:1")  # the next /forget all, a day later
    assert await log.epoch("telegram:1") != read_by_a_slow_write  # the slow write sees the epoch moved
    assert read_by_a_slow_write != 0
