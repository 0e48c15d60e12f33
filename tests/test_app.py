"""The whole companion as `souvenir run` wires it: real python-telegram-bot against the fake Bot API, the
real engine, Redis, embedded Qdrant and the USE embedder, the OpenAI SDK against the fake OpenAI server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import Core, open_core, open_platforms_and_jobs
from bot.config import load_settings
from bot.engine.model import UserRef
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.redis_scan import redis_mentions

LEA = 4242
LEA_REF = UserRef("telegram", str(LEA), "Ana")


@dataclass
class Running:
    core: Core
    telegram: FakeTelegram
    llm: FakeOpenAI
    clock: FakeClock

    def chat_requests(self) -> list[dict[str, object]]:
        return [r.body for r in self.llm.requests if "response_format" not in r.body]

    async def say(self, text: str) -> str:
        before = len(self.telegram.texts(LEA))
        await self.telegram.push_text(LEA, text)
        await self.telegram.wait_for(lambda: len(self.telegram.texts(LEA)) > before, within=30)
        await self.core.engine.drain()  # memory is written in the background after the reply
        return self.telegram.texts(LEA)[-1]


@pytest.fixture
async def running(redis_url: str, data_dir: Path, clock: FakeClock) -> AsyncIterator[Running]:
    async with FakeOpenAI() as llm, FakeTelegram() as telegram:
        settings = load_settings(
            data_dir=data_dir,
            redis_url=redis_url,
            llm_provider="openai-compatible",
            llm_base_url=llm.base_url,
            llm_max_retries=0,
            telegram_token=telegram.token,
            telegram_api_url=telegram.api_root,
            default_timezone="Europe/Paris",
        )
        async with open_core(settings, clock=clock) as core, open_platforms_and_jobs(core) as platforms:
            assert platforms == ["telegram"]
            yield Running(core, telegram, llm, clock)


async def test_a_telegram_dm_is_answered_and_remembered_after_the_window_is_gone(running: Running) -> None:
    first = await running.say("Hi! I have a cat named Miso and I love Blue Note jazz.")
    assert first.endswith("echo: Hi! I have a cat named Miso and I love Blue Note jazz.")
    assert "AI" in first.split("\n")[0]  # disclosure on the first message

    # Days later the short-term window has expired: only long-term memory knows about Miso.
    await running.core.redis.delete("souvenir:window:telegram:dm:4242")
    running.clock.advance(days=4)
    await running.say("How is my cat doing, do you think?")

    system = running.chat_requests()[-1]["messages"]
    assert isinstance(system, list) and "Miso" in system[0]["content"]


async def test_forget_all_leaves_nothing_anywhere(running: Running) -> None:
    await running.say("My sister's birthday is June 2 and my cat is called Miso.")
    await running.telegram.push_command(LEA, "/birthday", "14 mars")
    await running.telegram.wait_for(lambda: any("14" in t for t in running.telegram.texts(LEA)[-1:]), within=30)
    user = "telegram:4242"
    assert (await running.core.commands.memories_page(LEA_REF, 0, 50)).total > 0

    await running.telegram.push_command(LEA, "/forget", "all")
    await running.telegram.wait_for(lambda: bool(running.telegram.sent(LEA)[-1].get("reply_markup")), within=30)
    keyboard = running.telegram.sent(LEA)[-1]["reply_markup"]["inline_keyboard"]
    confirm = keyboard[0][0]["callback_data"]
    await running.telegram.push_callback(LEA, confirm, running.telegram.sent(LEA)[-1])
    await running.telegram.wait_for(
        lambda: any("forgotten everything" in t for t in running.telegram.texts(LEA)), within=30
    )

    assert (await running.core.commands.memories_page(LEA_REF, 0, 50)).total == 0
    assert await running.core.memory.export_memories(user) == []
    assert await redis_mentions(running.core.redis, "4242", "Miso", "June") == []  # every key and value

