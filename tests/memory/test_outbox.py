"""The durable outbox: every answered exchange reaches long-term memory once, whatever fails meanwhile —
a write that errors, a poison entry, a worker that dies or is slow, the memory store going away, an erasure."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline

from bot.engine.model import Exchange, IncomingMessage, Reply, UserRef
from bot.errors import StoreUnavailable
from memory.privacy.erasure import RedisErasureLog
from memory.records import MemoryKind, MemoryRecord
from memory.service import LongTermMemoryService
from memory.writing.outbox import STREAM, RedisOutbox
from memory.writing.outbox_worker import OutboxWorker, WorkerOptions
from tests.memory.fake_index import FakeMemoryIndex

ALICE = UserRef("telegram", "1", "Alice")
BOB = UserRef("telegram", "2", "Bob")
START = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
QUICK = WorkerOptions(retry_wait_s=0.001, backoff_max_s=0.02, block_s=0.05, claim_idle_s=60, max_attempts=3)


def exchange(text: str, n: int, user: UserRef = ALICE, epoch: int | None = None) -> Exchange:
    message = IncomingMessage(user, f"telegram:dm:{user.user_id}", str(n), text, START + timedelta(minutes=n))
    return Exchange(message, Reply("I see.", "en"), "Europe/Paris", "en", erasure_epoch=epoch)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    connection = aioredis.from_url(redis_url)  # bytes, as the app's client
    try:
        yield connection
    finally:
        await connection.aclose()


@pytest.fixture
async def outbox(client: aioredis.Redis) -> RedisOutbox:
    box = RedisOutbox(client)
    await box.ensure_group()
    return box


class Recorder:
    """A handler that notes what it wrote; `fail` decides, per exchange, to raise instead."""

    def __init__(self, fail: Callable[[Exchange], BaseException | None] = lambda e: None) -> None:
        self.written: list[str] = []
        self.calls = 0
        self.fail = fail
        self.changed = asyncio.Event()

    async def __call__(self, exchange: Exchange) -> None:
        self.calls += 1
        self.changed.set()
        error = self.fail(exchange)
        if error is not None:
            raise error
        self.written.append(exchange.message.text)


async def until(condition: Callable[[], bool | Awaitable[bool]], within: float = 60) -> None:
    async with asyncio.timeout(within):
        while True:
            result = condition()
            if result if isinstance(result, bool) else await result:
                return
            await asyncio.sleep(0.01)


async def drained(outbox: RedisOutbox) -> bool:
    return await outbox.depth() == 0


@asynccontextmanager
async def running(worker: OutboxWorker) -> AsyncIterator[None]:
    stop = asyncio.Event()
    task = asyncio.create_task(worker.run(stop))
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)


async def test_each_entry_is_written_once_in_order_and_leaves_the_stream(outbox: RedisOutbox) -> None:
    for n, text in enumerate(["one", "two", "three"]):
        await outbox.enqueue(exchange(text, n))
    recorder = Recorder()
    assert await OutboxWorker(outbox, recorder, options=QUICK).drain() == 3
    assert recorder.written == ["one", "two", "three"]
    assert await outbox.depth() == 0


async def test_a_failing_write_is_retried_until_it_is_written(outbox: RedisOutbox) -> None:
    recorder = Recorder(lambda e: RuntimeError("index hiccup") if recorder.calls <= 4 else None)
    await outbox.enqueue(exchange("I adopted a cat", 1))
    async with running(OutboxWorker(outbox, recorder, options=QUICK)):
        await until(lambda: recorder.written == ["I adopted a cat"])
    assert await outbox.depth() == 0 and await outbox.dead_letters() == 0


async def test_a_poison_entry_goes_to_the_dead_letters_with_one_log_line(
    outbox: RedisOutbox, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder(lambda e: ValueError("cannot be written") if e.message.text == "poison" else None)
    await outbox.enqueue(exchange("poison", 1))
    await outbox.enqueue(exchange("fine", 2))
    with caplog.at_level(logging.WARNING, logger="memory.writing.outbox_worker"):
        async with running(OutboxWorker(outbox, recorder, options=QUICK)):
            await until(lambda: recorder.written == ["fine"])
            await until(outbox.dead_letters)
    buried = [r for r in caplog.records if "dead letters" in r.getMessage()]
    assert len(buried) == 1 and "ValueError" in buried[0].getMessage()
    assert await outbox.depth() == 0 and await outbox.dead_letters() == 1
    assert recorder.calls == 1 + QUICK.max_attempts * 3  # each failed round retried at once, 3 tries


async def test_an_unreadable_entry_is_moved_aside_and_the_rest_written(
    outbox: RedisOutbox, client: aioredis.Redis
) -> None:
    await client.xadd(STREAM, {"exchange": b"\xff not json", "person": "x"})
    await outbox.enqueue(exchange("readable", 1))
    recorder = Recorder()
    await OutboxWorker(outbox, recorder, options=QUICK).drain()
    assert recorder.written == ["readable"]
    assert await outbox.dead_letters() == 1 and await outbox.depth() == 0


async def test_entries_a_dead_worker_took_are_claimed_by_another(outbox: RedisOutbox) -> None:
    await outbox.enqueue(exchange("taken by a worker that was killed", 1))
    [_] = await outbox.read_new("killed-replica", 1, None)  # pending under it, never acknowledged
    recorder = Recorder()
    survivor = OutboxWorker(outbox, recorder, consumer="survivor", options=QUICK)
    assert await survivor.drain() == 0  # not idle long enough: it may still be working on it

    patient = OutboxWorker(outbox, recorder, consumer="survivor", options=WorkerOptions(claim_idle_s=0.001))
    await until(patient.drain)
    assert recorder.written == ["taken by a worker that was killed"]
    assert await outbox.depth() == 0


async def test_after_a_restart_a_sole_process_takes_what_it_left_pending_at_once(outbox: RedisOutbox) -> None:
    await outbox.enqueue(exchange("said just before a SIGKILL", 1))
    await outbox.read_new("souvenir-before-the-kill", 1, None)
    recorder = Recorder()
    restarted = OutboxWorker(outbox, recorder, options=WorkerOptions(claim_idle_s=3600, sole_consumer=True))
    assert await restarted.drain() == 1
    assert recorder.written == ["said just before a SIGKILL"]


async def test_two_workers_share_the_work_and_a_slow_one_holds_only_its_own_entry(outbox: RedisOutbox) -> None:
    release = asyncio.Event()
    slow_started = asyncio.Event()
    written: list[tuple[str, str]] = []

    def handler(name: str) -> Callable[[Exchange], Awaitable[None]]:
        async def write(e: Exchange) -> None:
            if e.message.text == "slow":
                slow_started.set()
                await release.wait()  # a slow LLM extraction on this replica
            written.append((name, e.message.text))

        return write

    await outbox.enqueue(exchange("slow", 0))
    slow = OutboxWorker(outbox, handler("a"), consumer="a", options=QUICK)
    fast = OutboxWorker(outbox, handler("b"), consumer="b", options=QUICK)
    async with running(slow):
        await asyncio.wait_for(slow_started.wait(), 30)
        for n in range(1, 6):
            await outbox.enqueue(exchange(f"message {n}", n))
        async with running(fast):
            await until(lambda: len(written) == 5)
            assert sorted(written) == [("b", f"message {n}") for n in range(1, 6)]
            release.set()
            await until(lambda: len(written) == 6)
    assert Counter(text for _, text in written) == Counter(["slow", *(f"message {n}" for n in range(1, 6))])
    assert await outbox.depth() == 0


class FlakyIndex(FakeMemoryIndex):
    """An index that is away (every call raises StoreUnavailable) until healed."""

    def __init__(self) -> None:
        super().__init__()
        self.down = True
        self.refused = 0

    def _check(self) -> None:
        if self.down:
            self.refused += 1
            raise StoreUnavailable("Qdrant server: connection refused")

    async def add(self, records: Sequence[MemoryRecord]) -> None:
        self._check()
        await super().add(records)

    async def fetch(self, user_key: str, memory_ids: Sequence[str]) -> list[MemoryRecord]:
        self._check()
        return await super().fetch(user_key, memory_ids)


async def test_while_the_memory_store_is_away_writes_wait_and_none_is_lost_or_doubled(outbox: RedisOutbox) -> None:
    index = FlakyIndex()
    service = LongTermMemoryService(index)
    said = ["I have a cat named Miso", "My sister Léa lives in Lyon", "I work as a nurse"]
    for n, text in enumerate(said):
        await outbox.enqueue(exchange(text, n))
    worker = OutboxWorker(outbox, service.remember_exchange, options=QUICK)  # max 3 failed rounds: not outages
    async with running(worker):
        await until(lambda: index.refused > 3 * QUICK.max_attempts)  # tried again and again meanwhile
        assert await outbox.depth() == 3 and await outbox.dead_letters() == 0 and not index.records
        index.down = False
        await until(lambda: drained(outbox))
    episodes = Counter(r.attributes["said"] for r in index.records.values() if r.kind is MemoryKind.EPISODIC)
    assert episodes == Counter(said)
    assert await outbox.dead_letters() == 0


async def test_an_entry_delivered_twice_writes_each_memory_once(outbox: RedisOutbox) -> None:
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index)
    await outbox.enqueue(exchange("I have a cat named Miso and I love jazz", 1))
    [entry] = await outbox.read_new("crashed-before-ack", 1, None)
    await service.remember_exchange(outbox.codec.decode(entry.data))  # written, then the process died
    first = {r.memory_id: r.text for r in index.records.values()}

    await OutboxWorker(outbox, service.remember_exchange, options=WorkerOptions(sole_consumer=True)).drain()
    assert {r.memory_id: r.text for r in index.records.values()} == first
    assert all(r.valid_to is None for r in index.records.values())  # nothing superseded by its own copy


async def test_forget_all_drops_the_persons_waiting_entries_unread(outbox: RedisOutbox) -> None:
    await outbox.enqueue(exchange("Alice's secret", 1, ALICE))
    await outbox.enqueue(exchange("Bob's news", 2, BOB))
    await outbox.read_new("some-replica", 1, None)  # Alice's entry is in a worker's hands too
    await outbox.forget_user(ALICE.key)
    recorder = Recorder()
    await OutboxWorker(outbox, recorder, options=WorkerOptions(sole_consumer=True)).drain()
    assert recorder.written == ["Bob's news"]


async def test_an_entry_written_before_forget_all_does_not_bring_anything_back(
    outbox: RedisOutbox, client: aioredis.Redis
) -> None:
    erasures = RedisErasureLog(client)
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index, erasures=erasures)
    epoch = await erasures.epoch(ALICE.key)
    await outbox.enqueue(exchange("I have a cat named Miso", 1, ALICE, epoch))
    await outbox.enqueue(exchange("Bob's news", 2, BOB, await erasures.epoch(BOB.key)))
    await erasures.forget_user(ALICE.key)  # /forget all, the entry still waiting (an eraser that missed it)
    await OutboxWorker(outbox, service.remember_exchange, options=QUICK).drain()
    assert [r.user_key for r in index.records.values()] == [BOB.key]
    assert await outbox.depth() == 0


async def test_a_redis_that_lost_its_data_gets_the_group_back_and_nothing_new_is_lost(
    outbox: RedisOutbox, client: aioredis.Redis
) -> None:
    recorder = Recorder()
    async with running(OutboxWorker(outbox, recorder, options=QUICK)):
        await client.flushdb()  # restarted without an append-only file: stream and group gone
        await outbox.enqueue(exchange("said after the restart", 1))
        await until(lambda: recorder.written == ["said after the restart"])


async def test_written_entries_leave_the_processs_waiting_list(outbox: RedisOutbox) -> None:
    for n in range(5):
        await outbox.enqueue(exchange(f"fact {n}", n))
    assert await OutboxWorker(outbox, Recorder(), options=QUICK).drain() == 5
    assert outbox._queued == set()  # nothing written is still held in memory (it only grew before)


async def test_entries_written_or_added_while_settle_asks_redis_are_kept_apart(
    outbox: RedisOutbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        await outbox.enqueue(exchange(f"fact {n}", n))
    first, second, third = sorted(outbox._queued)
    real_execute = Pipeline.execute
    meanwhile: list[str] = []

    async def execute(self: Pipeline, raise_on_error: bool = True) -> list[object]:
        answer = await real_execute(self, raise_on_error)
        if not meanwhile:  # settle's question is in flight: a worker writes two entries, the engine adds one
            meanwhile.append("busy")
            await outbox.done(first)
            await outbox.done(second)
            await outbox.enqueue(exchange("said meanwhile", 9))
        return answer

    monkeypatch.setattr(Pipeline, "execute", execute)
    assert await outbox.settle(0.2) is False  # the third and the new one still wait: no worker runs
    assert len(outbox._queued) == 2 and third in outbox._queued
    assert await OutboxWorker(outbox, Recorder(), options=QUICK).drain() == 2
    assert await outbox.settle(5) is True
