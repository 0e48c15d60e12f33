"""A character card in the prompt: its fields, macros resolved, lore on its keys, the greeting, nothing private."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents

CARD = Path(__file__).parents[2] / "data" / "maelle_card_v2.png"


@pytest.fixture
async def card_engine(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[tuple[Engine, ScriptedLLM]]:
    llm = ScriptedLLM()
    engine = Engine(
        llm=llm,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=RecordingMemory(),
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=load_persona(CARD),
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"),
    )
    yield engine, llm
    await engine.drain()


async def test_the_card_reaches_the_prompt_with_macros_resolved(
    card_engine: tuple[Engine, ScriptedLLM], message: MessageFactory
) -> None:
    engine, llm = card_engine
    await engine.handle(message("Hello there", user="card-1", name="Léa"))
    system = llm.requests[-1].system

    assert 'You are "Maëlle"' in system
    assert "Maëlle keeps the old lighthouse at Pointe du Raz" in system  # description, {{char}}
    assert "She met Léa on a stormy night" in system  # {{User}} in another case
    assert "dry humour, patient" in system  # personality
    assert "Maëlle writes to Léa from the lamp room" in system  # scenario
    assert "Stay in character as Maëlle." in system and "{{original}}" not in system  # system_prompt
    assert "Léa: Do you ever get lonely up there?" in system  # example dialogue
    assert "Maëlle: Grey with a chance of more grey." in system
    # post_history_instructions: after the conversation's parts, but before the safety rules, always last.
    closing = system.index("Keep Maëlle's replies under four sentences.")
    assert closing > system.index("For \"Léa\" it is") and closing < system.index("Safety rules")
    assert "{{" not in system and "<START>" not in system
    for private in ("CREATOR-NOTE-SECRET", "TAG-SECRET", "CREATOR-SECRET"):
        assert private not in system


async def test_lore_appears_when_its_keys_are_asked_about(
    card_engine: tuple[Engine, ScriptedLLM], message: MessageFactory
) -> None:
    engine, llm = card_engine
    await engine.handle(message("Good evening", user="card-2", name="Tom"))
    quiet = llm.requests[-1].system
    await engine.handle(
        message("Tell me about KER YS and the Korrigans, and the storm, and the Ankou?", user="card-2", name="Tom")
    )
    asked = llm.requests[-1].system

    # Constant entries are always there; keyed ones only when asked about.
    assert "307 steps" in quiet and "307 steps" in asked
    assert "drowned city" not in quiet and "Korrigans are small" not in quiet
    assert "Ker Ys is the drowned city off the bay; Maëlle says" in asked  # key in another case, macro resolved
    assert "warns Tom never to join their dance" in asked
    assert "DISABLED-LORE" not in asked  # enabled: false never
    assert "servant of death" not in asked  # "Ank" is a whole word, case-sensitive: "Ankou" does not trigger it
    # Insertion order: constant (5), korrigan (10), Ker Ys (20).
    assert asked.index("307 steps") < asked.index("Korrigans are small") < asked.index("Ker Ys is the drowned")


async def test_lore_keys_match_whole_words_only(
    card_engine: tuple[Engine, ScriptedLLM], message: MessageFactory
) -> None:
    engine, llm = card_engine
    await engine.handle(message("The Ysolde rose is lovely, says Ankara", user="card-3"))
    assert "drowned city" not in llm.requests[-1].system
    await engine.handle(message("Ank said hi", user="card-3"))
    assert "servant of death" in llm.requests[-1].system


async def test_a_new_person_is_greeted_once(card_engine: tuple[Engine, ScriptedLLM], message: MessageFactory) -> None:
    engine, llm = card_engine
    await engine.handle(message("hi!", user="card-4", name="Inès"))
    first = llm.requests[-1].system
    await engine.handle(message("how are you?", user="card-4", name="Inès"))
    second = llm.requests[-1].system

    greetings = ("Ah, Inès! A new face on my coast.", "Welcome, Inès. The kettle is on")
    assert any(g in first for g in greetings) and "very first message" in first
    assert not any(g in second for g in greetings)
