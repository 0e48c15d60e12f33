"""A person flooding the companion gets one kind note and no LLM calls; everyone else is answered as usual."""

from __future__ import annotations

from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.safety.disclosure import DisclosurePolicy
from bot.engine.texts.say import say
from bot.persona_file import load_persona
from memory.redis.rate_limit import RedisRateLimiter
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents


def _engine(redis_client: aioredis.Redis, clock: FakeClock, llm: ScriptedLLM, memory: RecordingMemory) -> Engine:
    return Engine(
        llm=llm,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory,
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(disclosure=DisclosurePolicy(enabled=False)),
        rate_limiter=RedisRateLimiter(redis_client, clock, per_minute=3),
    )


async def test_a_flood_from_one_person_does_not_cost_the_others_anything(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    llm, memory = ScriptedLLM(), RecordingMemory()
    engine = _engine(redis_client, clock, llm, memory)
    flood, calm = [], []
    for n in range(10):
        flood.append(await engine.handle(message(f"spam {n}", user="1", name="Max")))
        if n % 4 == 0:
            calm.append(await engine.handle(message(f"hello {n}", user="2", name="Léa")))
    await engine.drain()

    answered = [r.text for r in flood if r is not None]
    assert answered == ["echo: spam 0", "echo: spam 1", "echo: spam 2", say("rate_limited", "en")]
    assert [r.text for r in calm if r is not None] == ["echo: hello 0", "echo: hello 4", "echo: hello 8"]
    assert len(llm.requests) == 6  # three each: the flood past its allowance never reached the model
    assert len(memory.exchanges) == 6  # nor long-term memory
    # Recall is prepared (the question embedded ahead) for the messages answered only: a flood costs no embeddings.
    assert sorted(memory.prepared) == sorted(q.text for q in memory.queries) and len(memory.prepared) == 6


async def test_the_notice_is_in_the_persons_language(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    engine = _engine(redis_client, clock, ScriptedLLM(), RecordingMemory())
    replies = [await engine.handle(message(f"Salut, tu vas bien ? Moi ça va {n}", hint="fr")) for n in range(4)]
    await engine.drain()
    last = replies[-1]
    assert last is not None and last.text == say("rate_limited", "fr") and last.language == "fr"
