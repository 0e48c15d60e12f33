"""The AI disclosure on Telegram, through the companion as `souvenir run` wires it (real Redis and embedded
Qdrant, python-telegram-bot against the fake Bot API, the openai SDK against the fake OpenAI server): at the
start of every interaction, every three hours of a continuing one, and in writing whatever shape the reply
takes (several messages, a voice note, a photo)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from adapters.telegram import run_telegram
from bot.app import Core, open_core, open_platforms_and_jobs
from bot.config import load_settings
from bot.engine.texts.say import say
from tests.adapters.telegram.conftest import build_commands, telegram_settings
from tests.conftest import FakeClock
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.llm_script import JSON_DEFAULT_REPLY, JsonObject, echo_responder, last_user_text
from tests.fakes.picture_engine import CAPTION, picture_engine, picture_responder

ANA = 4242
DISCLOSURE = say("disclosure", "en")

# One person's day, shared by every front end's test: (minutes since their previous message, what they write).
TIMELINE: list[tuple[float, str]] = [
    (0, "Hi! How was your day?"),
    (10, "Ten minutes later"),
    (40, "Back after a pause"),  # a new interaction, though it was said under an hour ago
    *((20, f"Still chatting, message {n}") for n in range(1, 10)),  # the 9th: 3 h since it was last said
]
DISCLOSED = [True, False, True, *[False] * 8, True]
LONG_REPLY = " ".join(f"Sentence number {n} of a long story about the sea." for n in range(200))  # ~9,800 chars


def _long_when_asked(body: JsonObject) -> str:
    if "response_format" in body:
        return JSON_DEFAULT_REPLY  # memory extraction: nothing to remember
    return LONG_REPLY if "whole story" in last_user_text(body) else echo_responder(body)


@dataclass
class Running:
    core: Core
    telegram: FakeTelegram
    llm: FakeOpenAI
    clock: FakeClock

    async def send(self, push: Any, *, messages: int = 1) -> list[JsonObject]:
        """What the bot sent Ana in answer to `push` (once `messages` arrived)."""
        before = len(self.telegram.sent(ANA))
        await push
        await self.telegram.wait_for(lambda: len(self.telegram.sent(ANA)) >= before + messages, within=30)
        await self.core.engine.drain()  # memories are written in the background after the reply
        return self.telegram.sent(ANA)[before:]


@pytest.fixture
async def running(redis_url: str, data_dir: Path, clock: FakeClock) -> AsyncIterator[Running]:
    async with FakeOpenAI(responder=_long_when_asked) as llm, FakeTelegram() as telegram:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, telegram_token=telegram.token, telegram_api_url=telegram.api_root,
            default_timezone="Europe/Paris",
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_platforms_and_jobs(core):
            yield Running(core, telegram, llm, clock)


async def test_said_at_the_start_after_a_pause_and_every_three_hours_of_a_conversation(running: Running) -> None:
    disclosed = []
    for minutes, text in TIMELINE:
        running.clock.advance(minutes=minutes)
        [reply] = await running.send(running.telegram.push_text(ANA, text))
        disclosed.append(reply["text"].startswith(f"{DISCLOSURE}\n\n"))
        assert reply["text"].endswith(f"echo: {text}")

    assert disclosed == DISCLOSED


async def test_a_reply_in_several_messages_opens_the_first_with_it(running: Running) -> None:
    pieces = await running.send(running.telegram.push_text(ANA, "Tell me the whole story"), messages=3)

    assert len(pieces) == 3 and all(len(p["text"]) <= 4096 for p in pieces)
    assert pieces[0]["text"].startswith(f"{DISCLOSURE}\n\nSentence number 0 ")
    assert all(DISCLOSURE not in p["text"] for p in pieces[1:])


async def test_a_spoken_reply_carries_it_in_writing_and_aloud(running: Running) -> None:
    await running.send(running.telegram.push_command(ANA, "/voice", "on"))

    [note] = await running.send(running.telegram.push_text(ANA, "Good evening, how are you?"))

    assert "voice" in note and note["caption"] == f"{DISCLOSURE}\n\necho: Good evening, how are you?"
    assert running.llm.audio.speeches[-1]["input"].startswith(DISCLOSURE)


async def test_a_photo_reply_carries_it_in_its_caption(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    commands, _, _ = build_commands(redis_client, clock)
    async with FakeTelegram() as telegram, FakeOpenAI(responder=picture_responder) as server:
        async with picture_engine(redis_client, clock, server) as engine, run_telegram(
            telegram_settings(telegram), engine=engine, commands=commands,
            poll_timeout=0.5, typing_interval=0.05, per_chat_interval=0.0, max_send_retries=1,
        ):  # fmt: skip
            await telegram.push_text(ANA, "send me a picture of you at the beach")
            await telegram.wait_for(lambda: len(telegram.sent(ANA)) >= 1, within=30)

    [photo] = telegram.sent(ANA)
    assert "photo" in photo and photo["caption"] == f"{DISCLOSURE}\n\n{CAPTION}"
