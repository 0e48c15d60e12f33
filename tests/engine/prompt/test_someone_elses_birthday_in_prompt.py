"""On a relative's birthday the prompt names whose it is and never says it is the person's own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from memory.service import LongTermMemoryService
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingPlanner, ScriptedLLM
from tests.memory.fake_index import FakeMemoryIndex


@pytest.fixture
async def remembering(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[tuple[Engine, ScriptedLLM]]:
    llm = ScriptedLLM()
    memory = LongTermMemoryService(FakeMemoryIndex(), default_timezone="Europe/Paris")
    engine = Engine(
        llm=llm,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory,
        planner=RecordingPlanner(),
        dated_events=memory,
        persona=load_persona(None),
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"),
    )
    yield engine, llm
    await engine.drain()


@pytest.mark.parametrize(
    ("told", "later", "today_line"),
    [
        (
            "My grandmother Quetzalcoatlus lives in Montpellier and her birthday is on March 3.",
            "what a day",
            "- Today: Quetzalcoatlus's birthday.",
        ),
        (
            "Ma grand-mère Zoé habite à Montpellier et son anniversaire est le 3 mars.",
            "quelle journée",
            "- Today: anniversaire (Zoé).",
        ),
    ],
)
async def test_on_a_grandmothers_birthday_the_prompt_says_it_is_hers(
    remembering: tuple[Engine, ScriptedLLM],
    message: MessageFactory,
    clock: FakeClock,
    told: str,
    later: str,
    today_line: str,
) -> None:
    engine, llm = remembering
    clock.current = datetime(2026, 12, 3, 10, tzinfo=UTC)
    await engine.handle(message(told))
    await engine.drain()
    clock.current = datetime(2027, 3, 3, 10, tzinfo=UTC)

    await engine.handle(message(later))

    system = llm.requests[-1].system
    assert today_line in system
    assert 'Today is "Léa"\'s' not in system


@pytest.mark.parametrize("told", ["Her birthday is on March 3.", "son anniversaire est le 3 mars"])
async def test_a_birthday_of_someone_not_named_is_not_the_persons_in_the_prompt(
    remembering: tuple[Engine, ScriptedLLM], message: MessageFactory, clock: FakeClock, told: str
) -> None:
    engine, llm = remembering
    clock.current = datetime(2026, 12, 3, 10, tzinfo=UTC)
    await engine.handle(message(told))
    await engine.drain()
    clock.current = datetime(2027, 3, 3, 10, tzinfo=UTC)

    await engine.handle(message("hello"))

    assert 'Today is "Léa"\'s' not in llm.requests[-1].system
