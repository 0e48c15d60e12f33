"""Unprompted DMs, and the client's life inside the application's event loop."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import discord
import pytest
from pydantic import SecretStr

from adapters.discord import GatewayTimings, run_discord
from bot.engine.commands.user_commands import UserCommands
from bot.errors import ConfigError, InvalidInput, UserUnreachable
from tests.adapters.discord.conftest import FAST, Bot, EchoEngine, discord_settings
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord import FakeDiscord


async def test_send_direct_opens_a_dm_channel_and_sends(bot: Bot) -> None:
    alice = p.user("Alice")

    await bot.messenger.send_direct(f"discord:{alice['id']}", "Happy birthday, Alice! 🎂")

    channel_id = bot.fake.rest.dm_channels[int(alice["id"])]
    assert [s.content for s in bot.fake.sent_in(channel_id)] == ["Happy birthday, Alice! 🎂"]
    assert bot.fake.sent_in(channel_id)[0].body["allowed_mentions"] == {"parse": []}


async def test_send_direct_to_someone_who_closed_their_dms_raises_user_unreachable(bot: Bot) -> None:
    alice = p.user("Alice")
    bot.fake.refuse_dms_from_bot(int(alice["id"]))

    with pytest.raises(UserUnreachable):
        await bot.messenger.send_direct(f"discord:{alice['id']}", "Thinking of you")

    assert bot.fake.rest.sent == []


async def test_send_direct_rejects_a_key_of_another_platform(bot: Bot) -> None:
    with pytest.raises(InvalidInput):
        await bot.messenger.send_direct("telegram:42", "hi")


async def test_leaving_run_discord_closes_the_gateway_connection(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands
) -> None:
    async with run_discord(discord_settings(fake), engine=engine, commands=commands, timings=FAST):
        assert fake.gateway.sessions[0].socket is not None

    await fake.wait_for(lambda: fake.gateway.sessions[0].socket is None)
    assert not [t for t in asyncio.all_tasks() if t.get_name() == "discord"]


async def test_cancelling_the_task_running_the_bot_stops_the_client(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands
) -> None:
    ready = asyncio.Event()

    async def app() -> None:
        async with run_discord(discord_settings(fake), engine=engine, commands=commands, timings=FAST):
            ready.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(app())
    await asyncio.wait_for(ready.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    await fake.wait_for(lambda: fake.gateway.sessions[0].socket is None)


async def test_an_unreachable_gateway_gives_a_clear_error(engine: EchoEngine, commands: UserCommands) -> None:
    async with FakeDiscord.running() as fake:
        settings = replace(discord_settings(fake), gateway_url=fake.api_root + "/nowhere")
        with pytest.raises(ConfigError, match=r"Discord: could not connect .*404"):
            async with run_discord(settings, engine=engine, commands=commands, timings=FAST):
                pytest.fail("must not yield")


async def test_a_gateway_that_never_says_ready_gives_a_clear_error(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands
) -> None:
    fake.gateway.silent = True

    with pytest.raises(ConfigError, match="Discord: not ready after"):
        async with run_discord(
            discord_settings(fake), engine=engine, commands=commands, timings=GatewayTimings(ready_timeout_s=0.3)
        ):
            pytest.fail("must not yield")


async def test_a_rejected_token_is_a_config_error(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands
) -> None:
    settings = replace(discord_settings(fake), token=SecretStr("wrong"))

    with pytest.raises(ConfigError, match="SOUVENIR_DISCORD_TOKEN: Discord rejected the token"):
        async with run_discord(settings, engine=engine, commands=commands, timings=FAST):
            pytest.fail("must not yield")


async def test_a_missing_token_is_a_config_error(fake: FakeDiscord, engine: EchoEngine, commands: UserCommands) -> None:
    settings = replace(discord_settings(fake), token=None)

    with pytest.raises(ConfigError, match="SOUVENIR_DISCORD_TOKEN"):
        async with run_discord(settings, engine=engine, commands=commands):
            pytest.fail("must not yield")


async def test_sharded_bot_identifies_every_shard_and_answers_on_each(
    fake: FakeDiscord, engine: EchoEngine, commands: UserCommands
) -> None:
    guilds = [fake.add_guild(f"Guild {n}") for n in range(6)]
    settings = discord_settings(fake, discord_shards=2)

    async with run_discord(settings, engine=engine, commands=commands, timings=FAST):
        assert sorted(i["shard"] for i in fake.gateway.identifies) == [[0, 2], [1, 2]]
        on_shard = {fake.shard_of(g): (g, c) for g, c in guilds}
        assert set(on_shard) == {0, 1}  # snowflakes of the 6 guilds spread over both shards
        for guild_id, channel_id in on_shard.values():
            await fake.send_in_guild(guild_id, channel_id, p.user("Bob"), f"<@{fake.bot_id}> hi", mention_bot=True)
        for _, channel_id in on_shard.values():
            replies = await fake.replies_in(channel_id)
            assert [r.content for r in replies] == ["Echo: hi"]


async def test_the_bot_identifies_without_privileged_intents(bot: Bot) -> None:
    intents = discord.Intents._from_value(bot.fake.gateway.identifies[0]["intents"])

    assert intents.guilds and intents.guild_messages and intents.dm_messages
    assert not (intents.members or intents.presences or intents.message_content)
