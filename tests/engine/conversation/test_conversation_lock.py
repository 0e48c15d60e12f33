"""A replica that stalled past its conversation lock's expiry does not answer over the one that took over."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.persona_file import load_persona
from memory.redis.conversation_locks import RedisConversationLocks
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents


def _engine(client: aioredis.Redis, clock: FakeClock, llm: ScriptedLLM, locks: RedisConversationLocks) -> Engine:
    return Engine(
        llm=llm,
        window=RedisConversationWindow(client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(client),
        profiles=RedisProfiles(client),
        memory=RecordingMemory(),
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(),
        locks=locks,
    )


async def test_a_stalled_replica_drops_its_reply_once_another_took_the_conversation(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    slow_llm, quick_llm = ScriptedLLM(), ScriptedLLM()
    slow_llm.gate = asyncio.Event()
    frozen = RedisConversationLocks(redis_client, ttl=timedelta(milliseconds=300), renew_every=timedelta(hours=1))
    stalled = _engine(redis_client, clock, slow_llm, frozen)
    other = _engine(redis_client, clock, quick_llm, RedisConversationLocks(redis_client))

    first = asyncio.create_task(stalled.handle(message("are you there?")))
    await slow_llm.arrived.wait()
    second = await other.handle(message("hello?"))  # taken over once the stalled lock expired
    slow_llm.gate.set()

    assert second is not None and second.text.endswith("echo: hello?")
    assert await first is None  # nothing sent over the other replica's answer
    window = RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72))
    conversation = message("x").conversation_id
    assert [t.text for t in await window.recent_turns(conversation)] == ["hello?", "echo: hello?"]
    await stalled.drain()
    await other.drain()
