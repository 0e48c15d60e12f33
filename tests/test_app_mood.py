"""Mood readings as `souvenir run` wires them (real engine, Redis, embedded Qdrant, the OpenAI SDK against the
fake server): one reading per message, from the extraction call when there is one, in /export, and gone with
/forget all — even when the write was in flight."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Held, Reply
from tests.fakes.redis_scan import redis_mentions
from tests.test_app_erasure import LEA, _settings, companion, message, say

ANGRY_FACTS = '{"facts": [], "mood": {"label": "anger", "valence": -0.7, "intensity": 0.8}}'


def _readings(exported: bytes) -> list[dict[str, object]]:
    readings = json.loads(exported)["mood_readings"]
    assert isinstance(readings, list)
    return readings


async def test_the_reading_comes_from_the_extraction_call_and_is_exported_then_erased(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        llm.script(Reply("Oh no, what happened?"), Reply(ANGRY_FACTS))  # the reply, then the extraction
        async with companion(_settings(redis_url, data_dir, llm, extraction=True), clock) as core:
            await say(core, clock, "The train was cancelled again today.")
            assert len(llm.requests) == 2  # no second call for the mood

            [reading] = _readings(await core.commands.export(LEA))
            assert (reading["label"], reading["valence"]) == ("anger", -0.7)
            assert await redis_mentions(core.redis, "anger")  # kept in Redis, under the person

            assert (await core.commands.forget_everything(LEA)).ok
            assert _readings(await core.commands.export(LEA)) == []
            assert await redis_mentions(core.redis, "4242", "anger") == []


async def test_without_the_model_the_offline_reading_is_kept_for_every_message(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            await say(core, clock, "I'm so tired tonight.")
            await say(core, clock, "Anyway, how are you?")

            readings = _readings(await core.commands.export(LEA))
            assert len(readings) == 2
            assert readings[0]["label"] == "tiredness"
            snapshot = await core.moods.mood_snapshot(LEA.key) if core.moods else None
            assert snapshot is not None and len(snapshot.recent) == 2


async def test_forget_all_while_the_reading_is_being_written_leaves_no_reading(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        extraction = Held(ANGRY_FACTS)
        llm.script(Reply("Oh no."), extraction)
        async with companion(_settings(redis_url, data_dir, llm, extraction=True), clock) as core:
            assert await core.engine.handle(message(clock, "The train was cancelled again today.")) is not None
            await extraction.arrived.wait()  # the extraction (and so the reading) is in flight

            assert (await core.commands.forget_everything(LEA)).ok
            extraction.release.set()
            await core.engine.drain()

            assert _readings(await core.commands.export(LEA)) == []
            assert await redis_mentions(core.redis, "4242", "anger") == []
