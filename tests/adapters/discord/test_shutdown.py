"""Stopping the Discord bot: a reply being written when the stop begins still goes out (within the grace),
and one that would never finish does not hold the stop up."""

from __future__ import annotations

import asyncio
import logging
from contextlib import AsyncExitStack

import pytest
import redis.asyncio as aioredis

from adapters.discord import run_discord
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import IncomingMessage, Reply
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.discord.conftest import FAST, EchoEngine, discord_settings
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord import FakeDiscord


class SlowEngine(EchoEngine):
    """Thinks until `release` is set, like a slow LLM call; notes when it was cancelled."""

    def __init__(self, claims: RedisMessageClaims) -> None:
        super().__init__(claims)
        self.release = asyncio.Event()
        self.cancelled = False

    async def handle(self, message: IncomingMessage) -> Reply | None:
        self.seen.append(message)
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return Reply(f"Echo: {message.text}", "en")


async def start_bot(stack: AsyncExitStack, fake: FakeDiscord, engine: SlowEngine, commands: UserCommands, grace: float):
    settings = discord_settings(fake, shutdown_grace_s=grace)
    await stack.enter_async_context(run_discord(settings, engine=engine, commands=commands, timings=FAST))


async def test_a_reply_in_flight_when_the_bot_stops_is_still_sent(
    fake: FakeDiscord, redis: aioredis.Redis, commands: UserCommands, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="adapters.discord")
    engine = SlowEngine(RedisMessageClaims(redis))
    stack = AsyncExitStack()
    await start_bot(stack, fake, engine, commands, grace=30)
    dm = await fake.send_dm(p.user("Ana"), "tell me a story")
    await fake.wait_for(lambda: engine.seen)  # the model is thinking

    stopping = asyncio.create_task(stack.aclose())
    await fake.wait_for(lambda: "in flight" in caplog.text)  # the stop has begun and waits for the reply
    engine.release.set()

    [reply] = await fake.replies_in(int(dm["channel_id"]))
    assert reply.content == "Echo: tell me a story"
    await asyncio.wait_for(stopping, 10)
    await fake.wait_for(lambda: fake.gateway.sessions[0].socket is None)


async def test_a_reply_that_never_comes_does_not_hold_the_stop_past_the_grace(
    fake: FakeDiscord, redis: aioredis.Redis, commands: UserCommands, caplog: pytest.LogCaptureFixture
) -> None:
    engine = SlowEngine(RedisMessageClaims(redis))
    stack = AsyncExitStack()
    await start_bot(stack, fake, engine, commands, grace=0.1)
    dm = await fake.send_dm(p.user("Ana"), "tell me a story")
    await fake.wait_for(lambda: engine.seen)

    await asyncio.wait_for(stack.aclose(), 10)

    assert engine.cancelled
    assert fake.sent_in(int(dm["channel_id"])) == []
    assert any(r.levelno == logging.WARNING and "unanswered" in r.getMessage() for r in caplog.records)
