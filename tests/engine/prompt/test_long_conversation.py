"""The persona holds over a long conversation: 200 turns in, the prompt still carries the card's description
and example dialogue, and stays within SOUVENIR_LLM_CONTEXT_TOKENS (history goes first, then memories)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import RecalledMemory
from bot.engine.prompt.budget import prompt_tokens
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents

CARD = Path(__file__).parents[2] / "data" / "maelle_card_v2.json"
CONTEXT_TOKENS = 3000
REPLY_TOKENS = 600


def _memories(n: int) -> list[RecalledMemory]:
    return [RecalledMemory(f"m{i}", "semantic", f"MEMORY-{i}: " + "they like long walks by the sea " * 6)
            for i in range(n)]  # fmt: skip


@pytest.fixture
async def long_engine(
    redis_client: aioredis.Redis, clock: FakeClock
) -> AsyncIterator[tuple[Engine, ScriptedLLM, RecordingMemory]]:
    llm, memory = ScriptedLLM(), RecordingMemory(_memories(10))
    engine = Engine(
        llm=llm,
        # A window as long as the conversation: only the context budget keeps the prompt in bounds.
        window=RedisConversationWindow(redis_client, max_turns=400, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory,
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(CARD),
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris", context_tokens=CONTEXT_TOKENS),
    )
    yield engine, llm, memory
    await engine.drain()


async def test_200_turns_keep_the_persona_and_stay_within_the_context(
    long_engine: tuple[Engine, ScriptedLLM, RecordingMemory], message: MessageFactory, clock: FakeClock
) -> None:
    engine, llm, _ = long_engine
    for n in range(100):  # 100 messages and 100 replies
        clock.advance(minutes=1)
        await engine.handle(message(f"turn {n}: " + "tell me more about the sea and the light " * 5, user="long"))

    request = llm.requests[-1]
    system = request.system
    assert "Maëlle keeps the old lighthouse at Pointe du Raz" in system  # description
    assert "Lonely? I have the gulls, the wind and a very rude cat." in system  # example dialogue
    assert prompt_tokens(system, request.turns) <= CONTEXT_TOKENS - REPLY_TOKENS
    # The newest message is always there; the oldest ones went.
    assert request.turns[-1].text.startswith("turn 99:")
    assert not any(t.text.startswith("turn 0:") for t in request.turns)
    assert len(request.turns) > 10  # history is trimmed, not dropped


async def test_memories_go_after_history(
    long_engine: tuple[Engine, ScriptedLLM, RecordingMemory], message: MessageFactory, clock: FakeClock
) -> None:
    engine, llm, memory = long_engine
    memory.memories = _memories(40)  # more than fits even with no history at all
    await engine.handle(message("hello " * 20, user="memories"))

    request = llm.requests[-1]
    assert prompt_tokens(request.system, request.turns) <= CONTEXT_TOKENS - REPLY_TOKENS
    assert "MEMORY-0:" in request.system  # the best-ranked memories stay
    assert "MEMORY-39:" not in request.system  # the least relevant went
    assert "Maëlle keeps the old lighthouse" in request.system
