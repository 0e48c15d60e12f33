"""`Engine.settle_writes`: what /memories waits for right after a message. A write that takes too long is
reported as still running, and is not cancelled: it still lands."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import Exchange
from bot.engine.noop import NoDatedEvents
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM


class HeldMemory(RecordingMemory):
    """A store whose writes finish when the test says so."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.written: list[str] = []

    async def remember_exchange(self, exchange: Exchange) -> None:
        await self.release.wait()
        self.written.append(exchange.message.text)


async def test_a_slow_write_is_still_running_then_lands_uncancelled(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    memory = HeldMemory()
    engine = Engine(
        llm=ScriptedLLM(),
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=1)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory,
        planner=RecordingPlanner(),
        dated_events=NoDatedEvents(),
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(),
    )
    await engine.handle(message("I adopted a cat called Miso"))

    assert await engine.settle_writes(0.05) is False

    memory.release.set()
    assert await engine.settle_writes(5) is True
    assert memory.written == ["I adopted a cat called Miso"]
