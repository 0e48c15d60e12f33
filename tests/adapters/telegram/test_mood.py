"""/mood on Telegram: the chart arrives as a photo in the private chat; too few readings get a kind line."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aioredis

from adapters.telegram import run_telegram
from memory.mood.series import RedisMoodSeries
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.telegram.conftest import EchoEngine, telegram_settings
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.memory_browser import InMemoryMemoryBrowser
from tests.fakes.mood_history import PNG_SIGNATURE, mood_history, seed_readings


@dataclass
class Bot:
    telegram: FakeTelegram
    series: RedisMoodSeries
    clock: FakeClock


@pytest.fixture
async def bot(telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Bot]:
    history, series = mood_history(redis_client, clock)
    commands, _, _ = redis_backed_commands(redis_client, clock, InMemoryMemoryBrowser(), moods=history)
    async with run_telegram(
        telegram_settings(telegram), engine=EchoEngine(RedisMessageClaims(redis_client)), commands=commands,
        poll_timeout=0.5, typing_interval=0.05, per_chat_interval=0.0, max_send_retries=1,
    ):  # fmt: skip
        yield Bot(telegram, series, clock)


async def test_mood_sends_the_chart_as_a_photo_with_a_caption_in_the_persons_language(bot: Bot) -> None:
    await seed_readings(bot.series, bot.clock, "telegram:21", [0.5, -0.4, 0.1, 0.6, -0.7])
    await bot.telegram.push_command(21, "mood", language_code="fr")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(21)) >= 1)
    [photo] = bot.telegram.sent(21)
    assert photo["_content"].startswith(PNG_SIGNATURE)
    assert photo["caption"].startswith("Ce que tes messages laissaient sentir ces 30 derniers jours")
    [upload] = bot.telegram.calls_of("sendPhoto")
    assert upload.files["photo"][0] == "souvenir-mood.png"


async def test_mood_with_too_few_readings_says_so_kindly_and_sends_no_file(bot: Bot) -> None:
    await seed_readings(bot.series, bot.clock, "telegram:22", [0.5, -0.4])
    await bot.telegram.push_command(22, "mood")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(22)) >= 1)
    [reply] = bot.telegram.sent(22)
    assert reply["text"].startswith("I don't have enough of your messages yet")
    assert bot.telegram.calls_of("sendPhoto") == []


async def test_mood_is_not_answered_in_a_group(bot: Bot) -> None:
    await seed_readings(bot.series, bot.clock, "telegram:23", [0.5, -0.4, 0.3])
    await bot.telegram.push_command(23, "mood", chat_id=-500, chat_type="group")
    await bot.telegram.push_command(23, "help", chat_id=-500, chat_type="group")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(-500)) >= 1)  # the help: the /mood came before
    assert bot.telegram.calls_of("sendPhoto") == []
