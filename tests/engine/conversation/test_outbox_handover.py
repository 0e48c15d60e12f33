"""The exchange is in the outbox before the reply is returned; an outbox that cannot take it costs nothing."""

from __future__ import annotations

from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import Exchange
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents


class ListOutbox:
    def __init__(self, *, broken: bool = False) -> None:
        self.entries: list[Exchange] = []
        self.broken = broken

    async def enqueue(self, exchange: Exchange) -> None:
        if self.broken:
            raise ConnectionError("Redis went away")
        self.entries.append(exchange)


def _engine(redis_client: aioredis.Redis, clock: FakeClock, memory: RecordingMemory, outbox: ListOutbox) -> Engine:
    return Engine(
        llm=ScriptedLLM(),
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory,
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(),
        outbox=outbox,
    )


async def test_the_exchange_is_queued_before_the_reply_is_returned_and_written_by_the_worker_only(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    memory, outbox = RecordingMemory(), ListOutbox()
    engine = _engine(redis_client, clock, memory, outbox)
    reply = await engine.handle(message("I have a cat named Miso", user="1"))
    assert reply is not None
    [queued] = outbox.entries  # already there when handle returned: a crash from now on loses nothing
    assert queued.message.text == "I have a cat named Miso" and queued.reply == reply
    assert queued.erasure_epoch is not None
    await engine.drain()
    assert memory.exchanges == []  # not also written from this process (the worker does it)

    await engine.remember(queued)  # what the worker calls
    assert [e.message.text for e in memory.exchanges] == ["I have a cat named Miso"]


async def test_an_outbox_that_cannot_take_the_exchange_costs_neither_the_reply_nor_the_memory(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    memory = RecordingMemory()
    engine = _engine(redis_client, clock, memory, ListOutbox(broken=True))
    reply = await engine.handle(message("I have a cat named Miso", user="1"))
    assert reply is not None and reply.text.endswith("echo: I have a cat named Miso")
    await engine.drain()
    assert [e.message.text for e in memory.exchanges] == ["I have a cat named Miso"]


async def test_queued_exchanges_written_together_reach_memory_in_order(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    memory, outbox = RecordingMemory(), ListOutbox()
    engine = _engine(redis_client, clock, memory, outbox)
    for text, user in [("I have a cat named Miso", "1"), ("I love jazz", "2"), ("Miso is sick", "1")]:
        assert await engine.handle(message(text, user=user)) is not None
    await engine.drain()

    await engine.remember_all(outbox.entries)  # what the worker calls for entries already waiting
    assert [e.message.text for e in memory.exchanges] == ["I have a cat named Miso", "I love jazz", "Miso is sick"]
