"""Explicit content and the person's age through the whole companion as `souvenir run` wires it, with
SOUVENIR_ADULT_CONTENT=private: real Redis and embedded Qdrant, python-telegram-bot against the fake Bot API, the
OpenAI SDK against the fake OpenAI server, whose recorded requests show the system prompt the model got."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import Core, open_core, open_platforms_and_jobs
from bot.config import load_settings
from bot.engine.safety.crisis import LearnedCrisis
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram

ANA = 7171
EXPLICIT_OK = "explicit sexual content is allowed"
MINOR_RULE = "said they are under 18"


@dataclass
class Running:
    core: Core
    telegram: FakeTelegram
    llm: FakeOpenAI

    def system(self) -> str:
        """The system prompt of the last reply request (not memory extraction)."""
        chats = [r.body for r in self.llm.requests if "response_format" not in r.body]
        content: str = chats[-1]["messages"][0]["content"]
        return content

    async def say(self, text: str) -> str:
        before = len(self.telegram.texts(ANA))
        await self.telegram.push_update({"message": self.telegram.user_message(ANA, text, first_name="Ana")})
        return await self._answer(before)

    async def command(self, command: str, argument: str) -> str:
        before = len(self.telegram.texts(ANA))
        await self.telegram.push_command(ANA, command, argument, first_name="Ana")
        return await self._answer(before)

    async def _answer(self, before: int) -> str:
        await self.telegram.wait_for(lambda: len(self.telegram.texts(ANA)) > before, within=30)
        await self.core.engine.drain()  # memories are written in the background after the reply
        return self.telegram.texts(ANA)[-1]


class _ReadsNoCrisis:
    """The learned crisis reader, reading none: this file is about ages, and a crisis reading (rightly) turns
    explicit content off whatever the age, so a classifier's hesitation on a short message is kept out."""

    def __init__(self, *_: object) -> None:
        return None

    async def read(self, text: str) -> LearnedCrisis:
        return LearnedCrisis(none=1.0, concern=0.0, imminent=0.0)


@pytest.fixture
async def running(
    redis_url: str, data_dir: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Running]:
    monkeypatch.setattr("bot.app.conversation.LearnedCrisisReader", _ReadsNoCrisis)
    async with FakeOpenAI() as llm, FakeTelegram() as telegram:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, telegram_token=telegram.token, telegram_api_url=telegram.api_root,
            default_timezone="Europe/Paris", adult_content="private",
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_platforms_and_jobs(core):
            yield Running(core, telegram, llm)


async def test_only_a_repeated_age_command_opens_explicit_content_after_a_wish_to_be_18(
    running: Running, clock: FakeClock
) -> None:
    await running.say("I can't wait until I'm 18!")
    assert EXPLICIT_OK not in running.system() and MINOR_RULE not in running.system()  # still unknown
    await running.say("I'm 25 now, promise")  # an adult age said in conversation confirms nothing
    assert EXPLICIT_OK not in running.system()

    await running.say("I'm 15")
    assert MINOR_RULE in running.system()

    asked = await running.command("/age", "25")
    assert "under 18" in asked and "/age 25" in asked
    await running.say("hello again")
    assert EXPLICIT_OK not in running.system() and MINOR_RULE in running.system()

    clock.advance(minutes=3)
    assert "25" in await running.command("/age", "25")
    await running.say("and now?")
    assert EXPLICIT_OK in running.system() and MINOR_RULE not in running.system()
