"""Old messages fade into digests on the real embedded index: facts stay, the day stays findable by its words."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.engine.model import ChatKind, Exchange, IncomingMessage, RecallQuery, Reply, UserRef
from memory.embedding import UseEmbedder
from memory.privacy.erasure import RedisErasureLog
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import MemoryKind, MemoryRecord
from memory.service import LongTermMemoryService
from memory.writing.fading import is_digest
from tests.conftest import FakeClock
from tests.memory.index_fixtures import shared_use_embedder

ALICE = UserRef("telegram", "1", "Alice")


@pytest.fixture
async def index(tmp_path: Path, clock: FakeClock) -> AsyncIterator[QdrantMemoryIndex]:
    embedder: UseEmbedder = await shared_use_embedder()
    memory_index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / "qdrant", embedder.dimension), embedder, clock)
    try:
        yield memory_index
    finally:
        await memory_index.close()


async def say(service: LongTermMemoryService, clock: FakeClock, number: int, text: str) -> None:
    message = IncomingMessage(ALICE, "telegram:dm:1", str(number), text, clock.now(), ChatKind.PRIVATE)
    await service.remember_exchange(Exchange(message, Reply("I see.", "en"), "Europe/Paris", "en"))


async def everything(index: QdrantMemoryIndex) -> list:
    return await index.scroll(ALICE.key, 0, 1000)


async def test_old_messages_fade_into_a_digest_that_recall_still_finds(
    index: QdrantMemoryIndex, clock: FakeClock
) -> None:
    service = LongTermMemoryService(index, clock=clock, episode_fade=timedelta(days=30))
    assert service.fader is not None
    clock.current -= timedelta(days=60)
    await say(service, clock, 1, "I love Blue Note jazz")
    await service.fader.wait(ALICE.key)  # the first write's pass: nothing is old yet
    clock.advance(minutes=5)
    await say(service, clock, 2, "we walked along the canal with Zorglub, my goldfish came too")
    clock.advance(minutes=5)
    await say(service, clock, 3, "the bakery on Rue Mouffetard closed today")
    clock.current += timedelta(days=60)
    await say(service, clock, 4, "hello again, it is sunny")
    long_ago = clock.now() - timedelta(days=1)
    old = [r for r in await everything(index) if r.kind is MemoryKind.EPISODIC and r.created_at < long_ago]
    assert len(old) == 3

    assert await service.fader.fade(ALICE.key) == 3

    after = await everything(index)
    assert await index.fetch(ALICE.key, [r.memory_id for r in old]) == []  # the raw turns are gone
    assert any(r.kind is MemoryKind.SEMANTIC and "jazz" in r.text for r in after)  # the fact stays
    [digest] = [r for r in after if is_digest(r)]
    assert "Zorglub" in digest.text and "Mouffetard" in digest.text
    assert "jazz" not in digest.text  # its fact holds those words: forgetting the fact takes them
    assert "3 messages" in digest.attributes["said"]
    assert any(r.attributes.get("said") == "hello again, it is sunny" for r in after)  # recent ones stay
    recalled = await service.recall(RecallQuery(ALICE.key, "Zorglub", clock.now(), timezone="Europe/Paris"))
    assert any("Zorglub" in m.text for m in recalled)
    listed = await service.list_memories(ALICE.key, 0, 10)
    assert digest.memory_id in [i.memory_id for i in listed.items]

    # Idempotent: another pass (another process, or a retry) changes nothing.
    assert await service.fader.fade(ALICE.key) == 0
    assert await everything(index) == after


async def test_a_pass_interrupted_after_its_digest_merges_when_run_again(
    index: QdrantMemoryIndex, clock: FakeClock
) -> None:
    service = LongTermMemoryService(index, clock=clock, episode_fade=timedelta(days=30))
    assert service.fader is not None
    clock.current -= timedelta(days=60)
    await say(service, clock, 1, "Zorglub swam all morning")
    await service.fader.wait(ALICE.key)
    clock.advance(minutes=5)
    await say(service, clock, 2, "the bakery on Rue Mouffetard closed")
    raw = [r for r in await everything(index) if r.kind is MemoryKind.EPISODIC]
    clock.current += timedelta(days=60)
    await service.fader.fade(ALICE.key)
    await index.add([replace(raw[0], hidden_by=None)])  # as if the first pass stopped before removing it

    await service.fader.fade(ALICE.key)

    [digest] = [r for r in await everything(index) if is_digest(r)]
    assert "2 messages" in digest.attributes["said"] and "Zorglub" in digest.text and "Mouffetard" in digest.text
    assert [r for r in await everything(index) if r.kind is MemoryKind.EPISODIC] == [digest]


async def test_twins_stored_before_the_writer_marked_them_are_marked_by_the_first_pass(
    index: QdrantMemoryIndex, clock: FakeClock
) -> None:
    service = LongTermMemoryService(index, clock=clock, episode_fade=None)
    assert service.fader is not None
    await say(service, clock, 1, "I love Blue Note jazz")
    await service.fader.wait(ALICE.key)
    [episode] = [r for r in await everything(index) if r.kind is MemoryKind.EPISODIC]
    await index.add([replace(episode, hidden_by=None)])  # as stored by an older version
    assert (await service.list_memories(ALICE.key, 0, 10)).total == 2

    assert await service.fader.mark_twins(ALICE.key) == 1

    page = await service.list_memories(ALICE.key, 0, 10)
    assert [i.text for i in page.items] == ["I love Blue Note jazz"] and page.total == 1


class ErasedByAnotherProcess:
    """The index, as seen by a process whose fading pass writes its digest just as another process runs
    /forget all for the same person (epoch bumped, memories deleted)."""

    def __init__(self, index: QdrantMemoryIndex, erasures: RedisErasureLog) -> None:
        self._index, self._erasures = index, erasures
        self.armed = False

    def __getattr__(self, name: str) -> object:
        return getattr(self._index, name)

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        if self.armed and any(is_digest(r) for r in records):
            self.armed = False
            await self._erasures.forget_user(ALICE.key)
            await self._index.forget_user(ALICE.key)
        await self._index.add(records)


async def test_a_pass_overlapping_forget_all_in_another_process_keeps_nothing(
    index: QdrantMemoryIndex, clock: FakeClock, redis_client: aioredis.Redis
) -> None:
    erasures = RedisErasureLog(redis_client)
    store = ErasedByAnotherProcess(index, erasures)
    service = LongTermMemoryService(store, clock=clock, episode_fade=timedelta(days=30), erasures=erasures)  # type: ignore[arg-type]
    assert service.fader is not None
    clock.current -= timedelta(days=60)
    await say(service, clock, 1, "Zorglub swam all morning")
    await service.fader.wait(ALICE.key)
    clock.advance(minutes=5)
    await say(service, clock, 2, "the bakery on Rue Mouffetard closed")
    clock.current += timedelta(days=60)
    await service.fader.fade(ALICE.key)  # that day's digest exists: the next pass merges into it
    clock.current -= timedelta(days=60)
    clock.advance(minutes=10)
    await say(service, clock, 3, "Zorglub came back to the bakery")
    clock.current += timedelta(days=60)
    store.armed = True

    await service.fader.fade(ALICE.key)

    assert not store.armed  # the other process did erase in the middle of the pass
    assert await everything(index) == []  # and no digest of Zorglub outlived it
