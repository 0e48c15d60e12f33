"""The crisis follow-up on Discord, through the whole companion (`open_core` + `open_platforms_and_jobs`) against
the fake Discord, with LLM extraction on against a fake model that reads a crisis the offline detector does not.
Pseudonymous keys are on: the follow-up finds its way back to the real account, as unprompted messages do."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from bot.app import open_core, open_platforms_and_jobs, open_status_server
from bot.config import load_settings
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as payloads
from tests.fakes.crisis_model import (
    FLAGGED,
    FOLLOW_UP_OPENING,
    UNFLAGGED,
    CrisisReadingModel,
    deliver_again,
    follow_ups_counted,
    outbox_written,
)
from tests.fakes.fake_discord import FakeDiscord


async def test_a_crisis_only_the_model_reads_is_followed_up_once_in_the_persons_dms(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with CrisisReadingModel() as llm, FakeDiscord.running() as discord:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, llm_extraction=True, pseudonymous_keys=True, http_port=0, http_host="127.0.0.1",
            discord_token="fake-token", discord_api_url=discord.api_root, discord_gateway_url=discord.gateway_url,
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_status_server(core) as port:
            async with open_platforms_and_jobs(core):
                ana, bob = payloads.user("Ana"), payloads.user("Bob")
                sent = await discord.send_dm(ana, UNFLAGGED)
                dm = int(sent["channel_id"])
                await asyncio.wait_for(llm.arrived.wait(), 30)  # the model reads the message after the reply
                [reply] = await discord.wait_for(lambda: discord.sent_in(dm) or None, 30)
                assert "findahelpline" not in reply.content  # the offline reading decided the reply: it saw nothing

                assert await deliver_again(redis_url) == 1  # the same outbox entry, delivered twice
                llm.release.set()
                shown = await discord.wait_for(lambda: discord.sent_in(dm)[1:] or None, 5)
                assert shown[0].content.startswith(FOLLOW_UP_OPENING)
                assert "findahelpline.com" in shown[0].content

                await outbox_written(redis_url)
                assert llm.extractions_of(UNFLAGGED) == 2  # read twice, sent once
                assert len(discord.sent_in(dm)) == 2

                # The reply to a message the detector reads carries the lines itself: nothing follows it.
                bobs = int((await discord.send_dm(bob, FLAGGED))["channel_id"])
                [answer] = await discord.wait_for(lambda: discord.sent_in(bobs) or None, 30)
                assert "findahelpline.com" in answer.content
                await asyncio.wait_for(llm.read_flagged.wait(), 30)
                await outbox_written(redis_url)  # a follow-up is sent before its entry leaves the outbox
                assert len(discord.sent_in(bobs)) == 1

                async with aiohttp.ClientSession() as session:
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                        assert follow_ups_counted(await response.text()) == 1
