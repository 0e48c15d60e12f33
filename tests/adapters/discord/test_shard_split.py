"""Shards split across processes (SOUVENIR_DISCORD_SHARD_IDS): each process connects only its own shards, and
together they answer every guild once."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from adapters.discord import run_discord
from bot.config import load_settings
from bot.engine.commands.user_commands import UserCommands
from bot.errors import ConfigError
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.discord.conftest import FAST, EchoEngine, discord_settings
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord import FakeDiscord


async def test_a_process_given_shard_1_of_2_identifies_only_shard_1(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands
) -> None:
    guilds = [fake.add_guild(f"Guild {n}") for n in range(6)]
    settings = discord_settings(fake, discord_shards=2, discord_shard_ids="1")

    async with run_discord(settings, engine=engine, commands=commands, timings=FAST):
        assert [i["shard"] for i in fake.gateway.identifies] == [[1, 2]]
        guild_id, channel_id = next((g, c) for g, c in guilds if fake.shard_of(g) == 1)
        await fake.send_in_guild(guild_id, channel_id, p.user("Bob"), f"<@{fake.bot_id}> hi", mention_bot=True)
        assert [r.content for r in await fake.replies_in(channel_id)] == ["Echo: hi"]


async def test_two_processes_with_one_shard_each_answer_every_guild_once(
    fake: FakeDiscord, redis: aioredis.Redis, commands: UserCommands
) -> None:
    guilds = [fake.add_guild(f"Guild {n}") for n in range(6)]
    first, second = EchoEngine(RedisMessageClaims(redis)), EchoEngine(RedisMessageClaims(redis))
    settings = [discord_settings(fake, discord_shards=2, discord_shard_ids=ids) for ids in ("0", "1")]

    async with (
        run_discord(settings[0], engine=first, commands=commands, timings=FAST),
        run_discord(settings[1], engine=second, commands=commands, timings=FAST),
    ):
        assert sorted(i["shard"] for i in fake.gateway.identifies) == [[0, 2], [1, 2]]
        for guild_id, channel_id in guilds:
            await fake.send_in_guild(guild_id, channel_id, p.user("Bob"), f"<@{fake.bot_id}> hi", mention_bot=True)
        for _, channel_id in guilds:
            assert [r.content for r in await fake.replies_in(channel_id)] == ["Echo: hi"]
    on_shard = {fake.shard_of(g) for g, _ in guilds}
    assert on_shard == {0, 1}
    assert len(first.seen) + len(second.seen) == len(guilds) and first.seen and second.seen  # each got its own


@pytest.mark.parametrize(
    "env",
    [
        {"discord_shard_ids": "1"},  # no total
        {"discord_shards": 2, "discord_shard_ids": "2"},  # out of range
        {"discord_shards": 2, "discord_shard_ids": "0,0"},
        {"discord_shards": 2, "discord_shard_ids": "one"},
    ],
)
def test_shard_ids_that_cannot_work_are_refused_with_the_setting_named(env: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(**env)
    assert "SOUVENIR_DISCORD_SHARD_IDS" in str(caught.value)
