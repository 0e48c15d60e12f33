from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta
from itertools import count

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import ChatKind, IncomingMessage, UserRef, dm_conversation_id, group_conversation_id
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents


@dataclass
class Rig:
    engine: Engine
    llm: ScriptedLLM
    memory: RecordingMemory
    planner: RecordingPlanner
    profiles: RedisProfiles
    window: RedisConversationWindow
    clock: FakeClock
    redis: aioredis.Redis
    dated: StoredDatedEvents


@pytest.fixture
async def rig(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Rig]:
    llm, memory, planner, dated = ScriptedLLM(), RecordingMemory(), RecordingPlanner(), StoredDatedEvents()
    profiles = RedisProfiles(redis_client)
    window = RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72))
    engine = Engine(
        llm=llm,
        window=window,
        claims=RedisMessageClaims(redis_client),
        profiles=profiles,
        memory=memory,
        planner=planner,
        dated_events=dated,
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"),
    )
    yield Rig(engine, llm, memory, planner, profiles, window, clock, redis_client, dated)
    await engine.drain()


_ids = count(1)

MessageFactory = Callable[..., IncomingMessage]


@pytest.fixture
def message(clock: FakeClock) -> MessageFactory:
    def make(text: str, *, user: str = "42", name: str = "Léa", group: str | None = None,
             message_id: str | None = None, hint: str | None = None) -> IncomingMessage:
        ref = UserRef("telegram", user, name)
        return IncomingMessage(
            user=ref,
            conversation_id=group_conversation_id("telegram", group) if group else dm_conversation_id(ref),
            message_id=message_id or str(next(_ids)),
            text=text,
            sent_at=clock.now(),
            chat_kind=ChatKind.GROUP if group else ChatKind.PRIVATE,
            language_hint=hint,
        )

    return make
