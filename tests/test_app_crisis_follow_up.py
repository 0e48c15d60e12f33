"""The crisis follow-up on Telegram, through the whole companion as `souvenir run` wires it: real Redis and
embedded Qdrant, python-telegram-bot against the fake Bot API, LLM extraction on against a fake model that
reads a crisis the offline detector does not."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from bot.app import open_core, open_platforms_and_jobs, open_status_server
from bot.config import load_settings
from tests.conftest import FakeClock
from tests.fakes.crisis_model import (
    FLAGGED,
    FOLLOW_UP_OPENING,
    UNFLAGGED,
    CrisisReadingModel,
    deliver_again,
    follow_ups_counted,
    outbox_written,
)
from tests.fakes.fake_telegram import FakeTelegram

ANA, BOB = 7171, 7272


async def test_a_crisis_only_the_model_reads_is_followed_up_once_with_the_lines(
    redis_url: str, data_dir: Path, clock: FakeClock
) -> None:
    async with CrisisReadingModel() as llm, FakeTelegram() as telegram:
        settings = load_settings(
            data_dir=data_dir, redis_url=redis_url, llm_provider="openai-compatible", llm_base_url=llm.base_url,
            llm_max_retries=0, llm_extraction=True, telegram_token=telegram.token, telegram_api_url=telegram.api_root,
            default_timezone="Europe/Paris", http_port=0, http_host="127.0.0.1",
        )  # fmt: skip
        async with open_core(settings, clock=clock) as core, open_status_server(core) as port:
            async with open_platforms_and_jobs(core):
                await telegram.push_text(ANA, UNFLAGGED)
                await asyncio.wait_for(llm.arrived.wait(), 30)  # the model reads the message after the reply
                await telegram.wait_for(lambda: len(telegram.texts(ANA)) == 1, within=30)
                [reply] = telegram.texts(ANA)
                assert "findahelpline" not in reply  # the offline reading decided the reply: it saw nothing

                assert await deliver_again(redis_url) == 1  # the same outbox entry, delivered twice
                llm.release.set()
                await telegram.wait_for(lambda: len(telegram.texts(ANA)) == 2, within=5)
                follow_up = telegram.texts(ANA)[1]
                assert follow_up.startswith(FOLLOW_UP_OPENING)
                assert "3114" in follow_up and "findahelpline.com" in follow_up  # Paris time: France's line too

                await outbox_written(redis_url)
                assert llm.extractions_of(UNFLAGGED) == 2  # read twice, sent once
                assert len(telegram.texts(ANA)) == 2

                # The reply to a message the detector reads carries the lines itself: nothing follows it.
                await telegram.push_text(BOB, FLAGGED)
                await telegram.wait_for(lambda: len(telegram.texts(BOB)) == 1, within=30)
                assert "findahelpline.com" in telegram.texts(BOB)[0]
                await asyncio.wait_for(llm.read_flagged.wait(), 30)
                await outbox_written(redis_url)  # a follow-up is sent before its entry leaves the outbox
                assert len(telegram.texts(BOB)) == 1

                async with aiohttp.ClientSession() as session:
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as response:
                        page = await response.text()
                assert follow_ups_counted(page) == 1
                assert 'level="concern"' in next(line for line in page.splitlines() if 'how="follow_up"' in line)
