"""IDENTIFY pacing across processes: shards of one bot split over several processes never IDENTIFY more than
Discord's max_concurrency at once — a shard waits for its bucket's turn, taken in Redis by whoever came first."""

from __future__ import annotations

import asyncio
import logging
from contextlib import AsyncExitStack
from datetime import timedelta

import pytest
import redis.asyncio as aioredis

from adapters.discord import DiscordOptions, GatewayTimings, run_discord
from adapters.discord.identify_gate import KEY_PREFIX, RedisIdentifyGate
from bot.engine.commands.user_commands import UserCommands
from tests.adapters.discord.conftest import EchoEngine, discord_settings
from tests.fakes.fake_discord import FakeDiscord

PATIENT = GatewayTimings(ready_timeout_s=120, guild_ready_s=0.05, identify_interval_s=0)
HOUR = timedelta(hours=1)  # a turn lasts until the test hands it on (deleting the key): no clock involved


async def _start(stack: AsyncExitStack, settings: DiscordOptions, engine: EchoEngine, commands: UserCommands,
                 redis: aioredis.Redis) -> None:  # fmt: skip
    gate = RedisIdentifyGate(redis, interval=HOUR)
    await stack.enter_async_context(
        run_discord(settings, engine=engine, commands=commands, timings=PATIENT, identify_gate=gate)
    )


async def _until(condition, within_s: float = 60) -> None:  # type: ignore[no-untyped-def]
    async with asyncio.timeout(within_s):
        while not condition():  # noqa: ASYNC110 - log records come with no event to await
            await asyncio.sleep(0.02)


async def test_a_second_process_waits_for_the_first_ones_identify_turn(
    fake: FakeDiscord, redis: aioredis.Redis, engine: EchoEngine, commands: UserCommands,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    caplog.set_level(logging.INFO, logger="adapters.discord.identify_gate")
    settings = [discord_settings(fake, discord_shards=2, discord_shard_ids=ids) for ids in ("0", "1")]
    async with AsyncExitStack() as first, AsyncExitStack() as second:
        await _start(first, settings[0], engine, commands, redis)
        assert [i["shard"] for i in fake.gateway.identifies] == [[0, 2]]

        starting = asyncio.create_task(_start(second, settings[1], engine, commands, redis))
        await _until(lambda: any("bucket 0 is busy" in r.getMessage() for r in caplog.records))
        assert [i["shard"] for i in fake.gateway.identifies] == [[0, 2]]  # at the gate: not identified yet

        await redis.delete(f"{KEY_PREFIX}0")  # the 5 s are over
        await asyncio.wait_for(starting, 60)
        assert [i["shard"] for i in fake.gateway.identifies] == [[0, 2], [1, 2]]
        assert await redis.exists(f"{KEY_PREFIX}0")  # the second one now holds the turn


async def test_shards_in_different_buckets_identify_together(
    fake: FakeDiscord, redis: aioredis.Redis, engine: EchoEngine, commands: UserCommands,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    caplog.set_level(logging.INFO, logger="adapters.discord.identify_gate")
    fake.rest.max_concurrency = 2  # a large bot: shard 0 in bucket 0, shard 1 in bucket 1
    settings = [discord_settings(fake, discord_shards=2, discord_shard_ids=ids) for ids in ("0", "1")]
    async with AsyncExitStack() as first, AsyncExitStack() as second:
        await _start(first, settings[0], engine, commands, redis)
        await _start(second, settings[1], engine, commands, redis)
        assert sorted(i["shard"] for i in fake.gateway.identifies) == [[0, 2], [1, 2]]
    assert not any("busy" in r.getMessage() for r in caplog.records)
    assert await redis.exists(f"{KEY_PREFIX}0") and await redis.exists(f"{KEY_PREFIX}1")
