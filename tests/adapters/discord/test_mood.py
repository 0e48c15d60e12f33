"""/mood on Discord: an ephemeral PNG attachment only the person sees; too few readings get a kind line."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from bot.engine.commands.user_commands import UserCommands
from memory.mood.series import RedisMoodSeries
from tests.adapters.discord.conftest import Bot, BreakableMemories
from tests.adapters.discord.test_slash_commands import run
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as p
from tests.fakes.commands import redis_backed_commands
from tests.fakes.mood_history import PNG_SIGNATURE, mood_history, seed_readings


@pytest.fixture
def series(redis: aioredis.Redis) -> RedisMoodSeries:
    return RedisMoodSeries(redis)


@pytest.fixture
def commands(redis: aioredis.Redis, memories: BreakableMemories, clock: FakeClock) -> UserCommands:
    history, _ = mood_history(redis, clock)
    return redis_backed_commands(redis, clock, memories, moods=history)[0]


async def test_mood_answers_with_an_ephemeral_chart(bot: Bot, series: RedisMoodSeries, clock: FakeClock) -> None:
    alice = p.user("Alice")
    await seed_readings(series, clock, f"discord:{alice['id']}", [0.4, -0.5, 0.2, 0.7], hours_apart=1)

    answer = await run(bot, alice, "mood", locale="fr", days="90")

    assert answer.ephemeral
    assert answer.content.startswith("Ce que tes messages laissaient sentir ces 90 derniers jours")
    assert answer.files["souvenir-mood.png"].startswith(PNG_SIGNATURE)


async def test_mood_with_too_few_readings_sends_no_file(bot: Bot, series: RedisMoodSeries, clock: FakeClock) -> None:
    bob = p.user("Bob")
    await seed_readings(series, clock, f"discord:{bob['id']}", [0.4, -0.5])

    answer = await run(bot, bob, "mood")

    assert answer.ephemeral and answer.content.startswith("I don't have enough of your messages yet")
    assert answer.files == {}
