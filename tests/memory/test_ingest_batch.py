"""Writing a batch of exchanges (the outbox drained, the evaluation's ingestion) leaves what writing them one by
one leaves: the same memories with the same ids, corrections taking their episodes with them, erasures winning."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import redis.asyncio as aioredis

from bot.engine.model import ChatTurn, Exchange, IncomingMessage, RecallQuery, Reply, UserRef
from memory.privacy.erasure import RedisErasureLog
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind, ScoredMemory
from memory.service import LongTermMemoryService
from tests.conftest import FakeClock
from tests.memory.fake_index import DIMENSION, FakeMemoryIndex, HashingEmbedder
from tests.memory.test_service import RecordingPlanner

ALICE = UserRef("telegram", "1", "Alice")
BOB = UserRef("telegram", "2", "Bob")
START = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
SAID = [
    "Hi! I live in Paris.",
    "I love steak",
    "My cat is called Miso.",
    "my birthday is March 20",
    "Actually I moved to Lyon.",
    "I'm vegetarian now",
    "I love steak",
    "My cat is called Miso.",
    "what's my cat's name again?",
    "sorry, my birthday is actually March 21",
]


def conversation(user: UserRef, said: Sequence[str], epoch: int | None = None) -> list[Exchange]:
    """One person's messages a minute apart, each with the ones before it as its short-term window."""
    out: list[Exchange] = []
    window: list[ChatTurn] = []
    for n, text in enumerate(said):
        at = START + timedelta(minutes=n)
        message = IncomingMessage(user, f"telegram:dm:{user.user_id}", str(n), text, at)
        out.append(Exchange(message, Reply("I see.", "en"), "Europe/Paris", "en", previous_turns=tuple(window),
                            erasure_epoch=epoch))  # fmt: skip
        window += [ChatTurn("user", text, at, user.key), ChatTurn("assistant", "I see.", at)]
    return out


def both(alice: list[Exchange], bob: list[Exchange]) -> list[Exchange]:
    return [e for pair in zip(alice, bob, strict=True) for e in pair]


async def test_a_batch_leaves_the_same_memories_as_one_by_one() -> None:
    exchanges = both(conversation(ALICE, SAID), conversation(BOB, list(reversed(SAID))))
    one_by_one, batched = FakeMemoryIndex(), FakeMemoryIndex()
    planned_one, planned_batch = RecordingPlanner(), RecordingPlanner()
    single = LongTermMemoryService(one_by_one, planner=planned_one)
    for exchange in exchanges:
        await single.remember_exchange(exchange)
    await LongTermMemoryService(batched, planner=planned_batch).remember_exchanges(exchanges)

    assert batched.records == one_by_one.records
    lyon = [r for r in batched.records.values() if r.user_key == ALICE.key and r.valid_to is None]
    assert not any("Paris" in r.attributes.get("said", r.text) for r in lyon)  # the correction took its episode
    assert set(planned_batch.planned) == set(planned_one.planned) == {ALICE.key, BOB.key}


async def test_a_batch_delivered_twice_leaves_what_one_by_one_twice_leaves() -> None:
    exchanges = conversation(ALICE, SAID)
    one_by_one, batched = FakeMemoryIndex(), FakeMemoryIndex()
    single, batch = LongTermMemoryService(one_by_one), LongTermMemoryService(batched)
    for _ in range(2):  # an outbox redelivery: the same ids, no twin memories
        for exchange in exchanges:
            await single.remember_exchange(exchange)
        await batch.remember_exchanges(exchanges)
    assert batched.records == one_by_one.records
    assert len([r for r in batched.records.values() if r.kind is MemoryKind.EPISODIC]) == len(SAID)


async def test_the_batch_embeds_in_one_call_and_the_vectors_match_one_by_one(tmp_path: Path, clock: FakeClock) -> None:
    exchanges = conversation(ALICE, SAID)
    found: dict[str, list[tuple[str, float]]] = {}
    for name in ("one", "batch"):
        embedder = CountingEmbedder()
        index = QdrantMemoryIndex(await EdgeDriver.open(tmp_path / name, DIMENSION), embedder, clock)
        try:
            service = LongTermMemoryService(index)
            if name == "one":
                for exchange in exchanges:
                    await service.remember_exchange(exchange)
            else:
                await service.remember_exchanges(exchanges)
                assert embedder.calls == 1  # everything the batch wrote and searched for (16 exchanges a call)
            # Dense alone: its cosines depend on the stored vectors only (a hybrid score also weighs keyword
            # statistics, which vary with how the shard's segments were written).
            query = IndexQuery(ALICE.key, "where does she live and what is her cat called?", clock.now(), limit=30,
                               mode="dense")  # fmt: skip
            found[name] = [(s.record.memory_id, round(s.score, 6)) for s in await index.search(query)]
        finally:
            await index.close()
    assert found["batch"] == found["one"]


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        self.calls = 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return await super().embed(texts)


class EraseOnSearch(FakeMemoryIndex):
    """`/forget all` of the person lands while the batch is weighing its n-th fact."""

    def __init__(self, log: RedisErasureLog, at_search: int) -> None:
        super().__init__()
        self.log, self.at_search, self.service = log, at_search, None
        self.seen = 0

    async def search(self, query: IndexQuery) -> list[ScoredMemory]:
        self.seen += 1
        if self.seen == self.at_search:
            await self.log.forget_user(query.user_key)
            await self.forget_user(query.user_key)
        return await super().search(query)


async def test_an_erasure_in_the_middle_of_a_batch_wins(redis_client: aioredis.Redis) -> None:
    log = RedisErasureLog(redis_client)
    index = EraseOnSearch(log, at_search=3)
    service = LongTermMemoryService(index, erasures=log)
    epoch = await log.epoch(ALICE.key)
    await service.remember_exchanges(conversation(ALICE, SAID, epoch) + conversation(BOB, ["I love jazz"], 0))

    assert index.seen >= 3
    assert [r for r in index.records.values() if r.user_key == ALICE.key] == []
    assert [r.text for r in index.records.values() if r.kind is MemoryKind.SEMANTIC] == ["I love jazz"]


async def test_exchanges_told_before_an_erasure_are_dropped_and_those_after_kept(redis_client: aioredis.Redis) -> None:
    log = RedisErasureLog(redis_client)
    index = FakeMemoryIndex()
    service = LongTermMemoryService(index, erasures=log)
    before = await log.epoch(ALICE.key)
    await log.forget_user(ALICE.key)  # between the two messages, while they waited in the outbox
    first, second = conversation(ALICE, ["My cat is called Miso.", "I love jazz"], before)
    await service.remember_exchanges([first, replace(second, erasure_epoch=before + 1)])

    kept = [r.attributes.get("said", r.text) for r in index.records.values() if r.kind is MemoryKind.EPISODIC]
    assert kept == ["I love jazz"]
    recalled = await service.recall(RecallQuery(ALICE.key, "cat's name", START + timedelta(hours=1)))
    assert all("Miso" not in m.text for m in recalled)


class ForgetOnSearch(FakeMemoryIndex):
    """The person forgets an earlier message while the batch, holding its words as context, weighs a fact."""

    def __init__(self) -> None:
        super().__init__()
        self.forget: str | None = None
        self.service: LongTermMemoryService | None = None

    async def search(self, query: IndexQuery) -> list[ScoredMemory]:
        if self.forget is not None and self.service is not None:
            memory_id, self.forget = self.forget, None
            assert await self.service.forget_memory(query.user_key, memory_id)
        return await super().search(query)


async def test_a_message_forgotten_while_a_batch_holds_its_words_leaves_them(redis_client: aioredis.Redis) -> None:
    index = ForgetOnSearch()
    service = index.service = LongTermMemoryService(index, erasures=RedisErasureLog(redis_client))
    first, *rest = conversation(ALICE, ["My cat Miso is sick.", "Off to the vet now.", "I love steak"])
    await service.remember_exchange(first)
    (cat,) = (await service.list_memories(ALICE.key, 0, 10)).items
    index.forget = cat.memory_id  # while "I love steak" is weighed, the vet message is still held back
    await service.remember_exchanges(rest)

    shown = sorted(item.text for item in (await service.list_memories(ALICE.key, 0, 10)).items)
    assert shown == ["I love steak", "Off to the vet now."]
    assert all("Miso" not in r.text for r in index.records.values())
