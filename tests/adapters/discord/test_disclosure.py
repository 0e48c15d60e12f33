"""The AI disclosure on Discord, through the companion as `souvenir run` wires it (real Redis and embedded
Qdrant, discord.py against the fake gateway and REST, the openai SDK against the fake OpenAI server): at the
start of every interaction, every three hours of a continuing one, and in writing however the reply goes out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import Core, open_core, open_platforms_and_jobs
from bot.config import load_settings
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as payloads
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_discord_rest import Sent
from tests.fakes.fake_openai import FakeOpenAI
from tests.test_app_disclosure import DISCLOSED, DISCLOSURE, TIMELINE, _long_when_asked

VOICE_FLAG = 8192


@dataclass
class Running:
    core: Core
    discord: FakeDiscord
    llm: FakeOpenAI
    clock: FakeClock

    async def dm(self, author: dict[str, object], text: str, *, messages: int = 1) -> list[Sent]:
        """What the bot posted in the DM in answer to `text` (once `messages` arrived)."""
        channel = self.discord.rest.dm_channels.get(int(str(author["id"])))
        before = len(self._posted(channel)) if channel is not None else 0
        sent = await self.discord.send_dm(author, text)
        channel = int(sent["channel_id"])
        posted = await self.discord.wait_for(
            lambda: self._posted(channel) if len(self._posted(channel)) >= before + messages else None, 30
        )
        await self.core.engine.drain()
        return posted[before:]

    def _posted(self, channel_id: int) -> list[Sent]:
        return [s for s in self.discord.sent_in(channel_id) if s.how == "message"]


@pytest.fixture
async def running(redis_url: str, data_dir: Path, clock: FakeClock) -> AsyncIterator[Running]:
    async with FakeOpenAI(responder=_long_when_asked) as llm, FakeDiscord.running() as discord:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, default_timezone="Europe/Paris",
            discord_token="fake-token", discord_api_url=discord.api_root, discord_gateway_url=discord.gateway_url,
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_platforms_and_jobs(core):
            yield Running(core, discord, llm, clock)


async def test_said_at_the_start_after_a_pause_and_every_three_hours_of_a_conversation(running: Running) -> None:
    ana, disclosed = payloads.user("Ana"), []
    for minutes, text in TIMELINE:
        running.clock.advance(minutes=minutes)
        [reply] = await running.dm(ana, text)
        disclosed.append(reply.content.startswith(f"{DISCLOSURE}\n\n"))
        assert reply.content.endswith(f"echo: {text}")

    assert disclosed == DISCLOSED


async def test_a_reply_in_several_messages_opens_the_first_with_it(running: Running) -> None:
    pieces = await running.dm(payloads.user("Ana"), "Tell me the whole story", messages=5)

    assert len(pieces) == 5 and all(len(p.content) <= 2000 for p in pieces)
    assert pieces[0].content.startswith(f"{DISCLOSURE}\n\nSentence number 0 ")
    assert all(DISCLOSURE not in p.content for p in pieces[1:])


async def test_a_voice_message_reply_is_followed_by_its_words_with_it(running: Running) -> None:
    ana = payloads.user("Ana")
    turned_on = await running.discord.slash(ana, "voice", {"state": "on"})
    await running.discord.wait_for(lambda: any(s.content for s in running.discord.for_interaction(turned_on)), 30)

    voice, words = await running.dm(ana, "Good evening, how are you?", messages=2)

    assert voice.flags & VOICE_FLAG and voice.content == ""  # a voice message holds no text
    assert words.content == f"{DISCLOSURE}\n\necho: Good evening, how are you?"
    assert running.llm.audio.speeches[-1]["input"].startswith(DISCLOSURE)
