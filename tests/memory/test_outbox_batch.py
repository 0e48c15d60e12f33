"""The outbox worker writes the entries already waiting together, and still isolates a poison one."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence

import pytest
import redis.asyncio as aioredis

from bot.engine.model import Exchange
from memory.records import MemoryKind
from memory.service import LongTermMemoryService
from memory.writing.outbox import RedisOutbox
from memory.writing.outbox_worker import OutboxWorker
from tests.memory.fake_index import FakeMemoryIndex
from tests.memory.test_outbox import QUICK, Recorder, exchange


@pytest.fixture
async def outbox(redis_url: str) -> AsyncIterator[RedisOutbox]:
    connection = aioredis.from_url(redis_url)  # bytes, as the app's client
    box = RedisOutbox(connection)
    await box.ensure_group()
    try:
        yield box
    finally:
        await connection.aclose()


class BatchRecorder(Recorder):
    def __init__(self, fail_batches: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.batches: list[list[str]] = []
        self.fail_batches = fail_batches

    async def batch(self, exchanges: Sequence[Exchange]) -> None:
        self.batches.append([e.message.text for e in exchanges])
        if self.fail_batches:
            raise ValueError("one of them cannot be written")
        self.written += [e.message.text for e in exchanges]


async def test_entries_waiting_are_written_together_in_order(outbox: RedisOutbox) -> None:
    for n, text in enumerate(["one", "two", "three"]):
        await outbox.enqueue(exchange(text, n))
    recorder = BatchRecorder()
    worker = OutboxWorker(outbox, recorder, options=QUICK, handle_batch=recorder.batch)
    assert await worker.drain() == 1  # one round
    assert recorder.batches == [["one", "two", "three"]] and recorder.calls == 0
    assert await outbox.depth() == 0


async def test_a_failed_batch_is_written_one_by_one_and_only_the_poison_entry_is_buried(
    outbox: RedisOutbox, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = BatchRecorder(fail_batches=True, fail=lambda e: ValueError("no") if e.message.text == "poison" else None)
    for n, text in enumerate(["fine", "poison", "also fine"]):
        await outbox.enqueue(exchange(text, n))
    worker = OutboxWorker(outbox, recorder, options=QUICK, handle_batch=recorder.batch)
    with caplog.at_level(logging.WARNING, logger="memory.writing.outbox_worker"):
        for _ in range(10):
            await worker.drain()
    assert recorder.written == ["fine", "also fine"]
    assert await outbox.depth() == 0 and await outbox.dead_letters() == 1


async def test_the_worker_drains_a_queue_into_memory_as_one_by_one_would(outbox: RedisOutbox) -> None:
    said = ["I love steak", "My cat is called Miso.", "I'm vegetarian now"]
    for n, text in enumerate(said):
        await outbox.enqueue(exchange(text, n))
    index = FakeMemoryIndex()
    memory = LongTermMemoryService(index)
    await OutboxWorker(outbox, memory.remember_exchange, options=QUICK, handle_batch=memory.remember_exchanges).drain()

    alone = FakeMemoryIndex()
    for n, text in enumerate(said):
        await LongTermMemoryService(alone).remember_exchange(exchange(text, n))
    assert index.records == alone.records
    steak = [r for r in index.records.values() if r.kind is MemoryKind.SEMANTIC and "steak" in r.text]
    assert steak and all(r.valid_to is not None for r in steak)
