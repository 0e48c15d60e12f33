"""The thread of the last conversation as `souvenir run` wires it (real engine, Redis, embedded Qdrant, the
OpenAI SDK against the fake server): with the model extraction on, its gist of where things stood, from the
call it already makes; and SOUVENIR_THREAD_PAUSE_HOURS, the pause after which the thread is offered."""

from __future__ import annotations

import json
from pathlib import Path

from bot.config import Settings, load_settings
from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.redis_scan import redis_mentions
from tests.test_app_erasure import companion, say

SAM = UserRef("telegram", "7171", "sam_77")
NERVOUS = "I keep going over my answers for Thursday, the panel has five people on it."
GIST = "they were nervous about Thursday's interview"


def _settings(redis_url: str, data_dir: Path, llm: FakeOpenAI, *, extraction: bool, **more: object) -> Settings:
    return load_settings(
        data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
        llm_max_retries=0, llm_extraction=extraction, default_timezone="Europe/Paris", **more,
    )  # fmt: skip


def _reading(body: dict[str, object]) -> str:
    """The fake model: a reply echoes; an extraction gives a gist of the message about Thursday only."""
    messages = body["messages"]
    assert isinstance(messages, list)
    if not isinstance(body.get("response_format"), dict):
        return "Tell me more!"
    said = str(messages[-1]["content"])
    if NERVOUS in said:
        return json.dumps({"facts": [{"text": "Has a job interview on Thursday"}], "gist": GIST})
    return json.dumps({"gist": None})


def _replies(llm: FakeOpenAI) -> list[str]:
    return [str(b["messages"][0]["content"]) for b in llm.bodies if not isinstance(b.get("response_format"), dict)]


def _thread(system: str) -> str:
    return system.split("<thread>", 1)[1].split("</thread>", 1)[0] if "<thread>" in system else ""


async def test_after_a_pause_the_thread_is_the_models_gist_of_the_last_conversation(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI(responder=_reading) as llm:
        settings = _settings(redis_url, data_dir, llm, extraction=True)
        async with companion(settings, clock) as core:
            await say(core, clock, "Spent the whole morning cleaning the apartment top to bottom.", SAM)
            await say(core, clock, NERVOUS, SAM)
            await say(core, clock, "ok talk later", SAM)
            assert len(llm.bodies) == 2 * 3  # each message: its reply and the extraction call, nothing more
            clock.advance(hours=5)
            await say(core, clock, "hi!", SAM)
            thread = _thread(_replies(llm)[-1])
            assert GIST in thread and "five people" not in thread and "cleaning" not in thread
            exported = json.loads(await core.commands.export(SAM))["memories"]
            assert [m["details"]["gist"] for m in exported if "gist" in m.get("details", {})] == [GIST]  # exported
            await say(core, clock, "so, what's new?", SAM)
            assert "<thread>" not in _replies(llm)[-1]  # the first message after a pause only

            assert (await core.commands.forget_everything(SAM)).ok
            assert await redis_mentions(core.redis, "7171") == []
            clock.advance(hours=5)
            await say(core, clock, "hello again", SAM)
            assert "<thread>" not in _replies(llm)[-1] and GIST not in _replies(llm)[-1]


async def test_without_the_model_extraction_the_thread_is_their_last_words(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        async with companion(_settings(redis_url, data_dir, llm, extraction=False), clock) as core:
            await say(core, clock, NERVOUS, SAM)
            clock.advance(hours=5)
            await say(core, clock, "hi!", SAM)
            thread = _thread(_replies(llm)[-1])
            assert "five people" in thread and GIST not in thread


async def test_the_thread_pause_setting_decides_when_the_thread_is_offered(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with FakeOpenAI() as llm:
        for hours, offered in ((None, False), (1.0, True)):
            more = {} if hours is None else {"thread_pause_hours": hours}
            settings = _settings(redis_url, data_dir, llm, extraction=False, **more)
            assert settings.thread_pause_hours == (3.0 if hours is None else hours)
            async with companion(settings, clock) as core:
                await say(core, clock, NERVOUS, SAM)
                clock.advance(minutes=90)
                await say(core, clock, "hi!", SAM)
                assert ("five people" in _thread(_replies(llm)[-1])) is offered, hours
                assert (await core.commands.forget_everything(SAM)).ok
