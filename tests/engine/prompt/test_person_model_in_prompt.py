"""The person model in the engine's prompt: private replies only, small talk answered from it rather than from
recall, the last conversation's thread after a pause, the block's memories in the reply trail, and nothing the
window already holds recalled twice."""

from __future__ import annotations

from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.conversation.small_talk import is_small_talk
from bot.engine.model import RecalledMemory
from bot.engine.prompt.person_model import HOME, NAME, PERSON, PersonLine, PersonModel, Source, ThreadLine
from bot.persona_file import load_persona
from memory.redis.reply_trail import RedisReplyTrail
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents

USER = "telegram:42"


class KeptModels:
    def __init__(self, model: PersonModel | None) -> None:
        self.model = model
        self.broken = False

    async def person_model(self, user_key: str) -> PersonModel | None:
        if self.broken:
            raise ConnectionError("redis is down")
        return self.model if self.model is not None and self.model.user_key == user_key else None


def _model(clock: FakeClock) -> PersonModel:
    sam = Source("f1", "semantic", "My name is Sam")
    rex = Source("f2", "semantic", "My dog is called Rex")
    lyon = Source("f3", "semantic", "I moved to Lyon")
    said = Source("e1", "episodic", "I have my interview on Thursday")
    return PersonModel(
        USER, clock.now(),
        (PersonLine(NAME, "Sam", (sam,)), PersonLine(HOME, "Lyon", (lyon,)),
         PersonLine(PERSON, "Rex", (rex,), relation="dog")),
        (ThreadLine("I have my interview on Thursday", said),), clock.now() - timedelta(days=1),
    )  # fmt: skip


def _engine(client: aioredis.Redis, clock: FakeClock, llm: ScriptedLLM, memory: RecordingMemory,
            models: KeptModels, trail: RedisReplyTrail | None = None) -> Engine:  # fmt: skip
    return Engine(
        llm=llm, window=RedisConversationWindow(client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(client), profiles=RedisProfiles(client), memory=memory,
        planner=RecordingPlanner(), dated_events=StoredDatedEvents(), persona=load_persona(None), clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"), person_models=models, trail=trail,
    )  # fmt: skip


def test_greetings_and_passing_feelings_are_small_talk_and_a_question_is_not() -> None:
    for text in ("Good morning!", "hi! how are you today?", "I'm so tired.", "lol", "coucou, ça va ?",
                 "je suis crevée", "😂"):  # fmt: skip
        assert is_small_talk(text), text
    for text in ("I'm tired of my job", "Rex is sick", "how did the interview go?", "tu te souviens de Claire ?"):
        assert not is_small_talk(text), text


async def test_a_greeting_gets_the_person_model_and_the_thread_not_recall(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    llm, memory = ScriptedLLM(), RecordingMemory([RecalledMemory("e9", "episodic", "Have a good one!")])
    engine = _engine(redis_client, clock, llm, memory, KeptModels(_model(clock)))
    await engine.handle(message("hi!"))
    system = llm.requests[-1].system
    assert "- Name: Sam" in system and "Lives in Lyon" in system and "Rex (dog)" in system
    assert "<thread>" in system and "interview on Thursday" in system  # the first message, ever: a pause
    assert memory.queries == [] and "Have a good one" not in system  # nothing searched for "hi!"

    await engine.handle(message("what should I cook tonight?"))  # a minute later: a query, and no thread
    system = llm.requests[-1].system
    assert len(memory.queries) == 1 and "Have a good one" in system
    assert "- Name: Sam" in system and "<thread>" not in system
    await engine.drain()


async def test_a_group_reply_never_carries_the_person_model(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    llm = ScriptedLLM()
    engine = _engine(redis_client, clock, llm, RecordingMemory(), KeptModels(_model(clock)))
    await engine.handle(message("hello everyone", group="-100"))
    assert "<person>" not in llm.requests[-1].system and "Rex" not in llm.requests[-1].system
    await engine.drain()


async def test_a_person_model_that_cannot_be_read_costs_the_block_not_the_reply(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    models = KeptModels(_model(clock))
    models.broken = True
    llm = ScriptedLLM()
    reply = await _engine(redis_client, clock, llm, RecordingMemory(), models).handle(message("hi!"))
    assert reply is not None and not reply.fallback and "<person>" not in llm.requests[-1].system


async def test_why_shows_the_memories_behind_the_block(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    trail = RedisReplyTrail(redis_client, ttl=timedelta(hours=1))
    engine = _engine(redis_client, clock, ScriptedLLM(), RecordingMemory(), KeptModels(_model(clock)), trail)
    await engine.handle(message("hi!"))
    [latest, *_] = await trail.recent_replies(USER)
    assert {m.memory_id for m in latest.memories} == {"f1", "f2", "f3", "e1"}
