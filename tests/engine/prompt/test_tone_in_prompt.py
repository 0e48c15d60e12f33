"""Tone, not labels: the system prompt takes how the person has been feeling into account, in private only,
without naming moods or scores; painful topics are handled with care and never brought into a group."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import RecalledMemory
from bot.engine.mood import MoodPattern, MoodReading, TimedReading
from bot.engine.prompt.tone import MoodSnapshot
from bot.persona_file import load_persona
from memory.mood.sensitive import LexiconSensitiveTopics
from memory.mood.series import RedisMoodSeries
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents

USER = "telegram:42"
HEADER = "How they seem lately"
SUNDAY = "It is Sunday, often a hard day for them: be gentle, don't push."


class BrokenMoods:
    async def mood_snapshot(self, user_key: str) -> MoodSnapshot | None:
        raise ConnectionError("redis is down")


@dataclass
class ToneRig:
    engine: Engine
    llm: ScriptedLLM
    memory: RecordingMemory
    series: RedisMoodSeries
    profiles: RedisProfiles
    clock: FakeClock

    def system(self) -> str:
        return self.llm.requests[-1].system


def _engine(
    redis: aioredis.Redis, clock: FakeClock, llm: ScriptedLLM, memory: RecordingMemory, moods: object
) -> Engine:
    return Engine(
        llm=llm, window=RedisConversationWindow(redis, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis), profiles=RedisProfiles(redis), memory=memory, planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(), persona=load_persona(None), clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"), moods=moods,  # type: ignore[arg-type]
        sensitive=LexiconSensitiveTopics(),
    )  # fmt: skip


@pytest.fixture
async def tone(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[ToneRig]:
    llm, memory, series = ScriptedLLM(), RecordingMemory(), RedisMoodSeries(redis_client)
    engine = _engine(redis_client, clock, llm, memory, series)
    yield ToneRig(engine, llm, memory, series, RedisProfiles(redis_client), clock)
    await engine.drain()


async def _read(rig: ToneRig, label: str, valence: float, *, hours_ago: float, sensitive: bool = False) -> None:
    at = rig.clock.now() - timedelta(hours=hours_ago)
    timed = TimedReading(at, MoodReading(label, valence, 0.7))  # type: ignore[arg-type]
    await rig.series.add(USER, timed, sensitive=sensitive, now=rig.clock.now())


async def test_a_believed_sunday_pattern_makes_the_prompt_gentle_on_sundays_only(
    tone: ToneRig, message: MessageFactory
) -> None:
    await _read(tone, "neutral", 0.0, hours_ago=30)
    sunday_blues = MoodPattern("weekday", mood="anxiety", weekday="sunday", evidence=9, p_value=0.01)
    await tone.series.set_patterns(USER, [sunday_blues], tone.clock.now())

    await tone.engine.handle(message("salut"))  # Saturday 14 March 2026
    assert SUNDAY not in tone.system()

    tone.clock.advance(days=1)
    await tone.engine.handle(message("salut"))
    system = tone.system()
    assert SUNDAY in system
    tone_part = system[system.index(HEADER):]
    for clinical in ("anxiety", "p_value", "0.01", "valence", "records"):
        assert clinical not in tone_part


async def test_a_tired_week_is_noticed_without_a_label_or_a_score(tone: ToneRig, message: MessageFactory) -> None:
    for day in range(5):
        await _read(tone, "tiredness", -0.5, hours_ago=24 * day + 2)

    await tone.engine.handle(message("hello"))

    system = tone.system()
    assert "They've sounded tired all week" in system
    assert "-0.5" not in system and "tiredness" not in system


async def test_no_readings_no_guidance(tone: ToneRig, message: MessageFactory) -> None:
    await tone.engine.handle(message("hello"))
    assert HEADER not in tone.system()


async def test_a_painful_topic_in_the_message_asks_for_care(tone: ToneRig, message: MessageFactory) -> None:
    await tone.engine.handle(message("my dad passed away last night"))
    assert "touches something painful" in tone.system()
    assert "no jokes" in tone.system()


async def test_a_recent_painful_topic_is_not_raised_by_the_companion(tone: ToneRig, message: MessageFactory) -> None:
    await _read(tone, "sadness", -0.8, hours_ago=48, sensitive=True)
    await tone.engine.handle(message("hi, what's up?"))
    assert "don't bring it up yourself" in tone.system()


async def test_in_a_group_there_is_no_mood_guidance_and_no_painful_memory(
    tone: ToneRig, message: MessageFactory
) -> None:
    for day in range(5):
        await _read(tone, "tiredness", -0.5, hours_ago=24 * day + 2)
    profile = await tone.profiles.load_profile(USER)
    await tone.profiles.save_profile(replace(profile, share_dm_memories_in_groups=True))
    tone.memory.memories = [
        RecalledMemory("m1", "emotional", "Their father died in March", sensitive=True),
        RecalledMemory("m2", "semantic", "They have a cat named Miso"),
    ]

    await tone.engine.handle(message("hello everyone", group="-100"))

    system = tone.system()
    assert HEADER not in system
    assert "Miso" in system and "father" not in system


async def test_a_broken_mood_store_leaves_the_reply_and_no_guidance(
    redis_client: aioredis.Redis, clock: FakeClock, message: MessageFactory
) -> None:
    llm = ScriptedLLM()
    engine = _engine(redis_client, clock, llm, RecordingMemory(), BrokenMoods())

    reply = await engine.handle(message("hello"))

    assert reply is not None and "echo: hello" in reply.text and not reply.fallback
    assert HEADER not in llm.requests[-1].system
    await engine.drain()
