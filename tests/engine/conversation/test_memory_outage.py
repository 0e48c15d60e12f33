"""Qdrant away mid-conversation: replies still come (without recall), what was said waits in the outbox, and
once the index is back every message is written once — 0 lost, 0 written twice."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.persona_file import load_persona
from memory.records import MemoryKind
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from memory.service import LongTermMemoryService
from memory.writing.outbox import RedisOutbox
from memory.writing.outbox_worker import OutboxWorker
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingPlanner, ScriptedLLM, StoredDatedEvents
from tests.memory.test_outbox import QUICK, FlakyIndex, drained, running, until


class FlakySearchIndex(FlakyIndex):
    async def search(self, query):  # type: ignore[no-untyped-def]
        self._check()
        return await super().search(query)


async def test_replies_come_without_recall_and_writes_wait_until_the_index_is_back(
    redis_url: str, redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    index = FlakySearchIndex()
    memory = LongTermMemoryService(index)
    llm = ScriptedLLM()
    client = aioredis.from_url(redis_url)
    outbox = RedisOutbox(client)
    engine = Engine(
        llm=llm, window=RedisConversationWindow(redis_client, max_turns=2, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client), profiles=RedisProfiles(redis_client), memory=memory,
        planner=RecordingPlanner(), dated_events=StoredDatedEvents(), persona=load_persona(None), clock=clock,
        options=EngineOptions(disclosure=DisclosurePolicy(enabled=False)), outbox=outbox,
    )  # fmt: skip
    worker = OutboxWorker(outbox, engine.remember, options=QUICK)
    await worker.prepare()
    said = ["I have a cat named Miso", "My sister lives in Lyon", "I work as a nurse"]
    try:
        async with running(worker):
            for text in said:
                clock.advance(minutes=1)
                reply = await engine.handle(message(text))
                assert reply is not None and reply.text == f"echo: {text}"
            await until(lambda: index.refused > 3 * QUICK.max_attempts)  # the worker kept trying meanwhile
            assert await outbox.depth() == 3 and await outbox.dead_letters() == 0 and not index.records

            index.down = False
            await until(lambda: drained(outbox))
            clock.advance(minutes=1)
            await engine.handle(message("What is my cat called?"))  # the window holds only the last two turns
        episodes = Counter(r.attributes["said"] for r in index.records.values() if r.kind is MemoryKind.EPISODIC)
        assert all(episodes[text] == 1 for text in said) and set(episodes.values()) == {1}  # none lost, none twice
        assert "Miso" in llm.requests[-1].system  # recalled from long-term memory
    finally:
        await client.aclose()
