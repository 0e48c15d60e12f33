"""Stopping: `Engine.drain` waits for background memory writes, but never longer than it is given."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
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


class HungMemory(RecordingMemory):
    """A store that accepts a write and never finishes it (until cancelled)."""

    def __init__(self) -> None:
        super().__init__()
        self.writing = asyncio.Event()
        self.cancelled = asyncio.Event()

    async def remember_exchange(self, exchange: Exchange) -> None:
        self.writing.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise


async def test_drain_gives_up_on_a_hung_write_after_its_timeout_and_says_so(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory, caplog: pytest.LogCaptureFixture
) -> None:
    memory = HungMemory()
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
    reply = await engine.handle(message("I adopted a cat called Miso"))
    assert reply is not None and not reply.fallback
    await asyncio.wait_for(memory.writing.wait(), 5)

    with caplog.at_level(logging.WARNING, logger="bot.engine.conversation.writes"):
        await asyncio.wait_for(engine.drain(within_s=0.05), 5)

    assert memory.cancelled.is_set()  # the hung write does not outlive the stores it writes to
    [record] = [r for r in caplog.records if r.name == "bot.engine.conversation.writes"]
    assert "1 memory write" in record.getMessage() and record.levelno == logging.WARNING
    await asyncio.wait_for(engine.drain(), 5)  # nothing left behind
