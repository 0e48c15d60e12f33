"""A real discord.py bot (run_discord) connected to the loopback fake Discord, with real UserCommands.

The engine is a stub that answers "Echo: <text>" and dedups exactly like the real one: Redis SET NX on
`message.dedup_key` through `RedisMessageClaims`, against the test Redis server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aioredis

from adapters.discord import DiscordMessenger, DiscordOptions, GatewayTimings, run_discord
from bot.app.platforms import discord_options
from bot.config import load_settings
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import IncomingMessage, MemoryItem, Reply
from bot.errors import StoreUnavailable
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.memory_browser import InMemoryMemoryBrowser


class EchoEngine:
    """Answers "Echo: <text>" once per message; None for a re-delivered one (like `Engine.handle`)."""

    def __init__(self, claims: RedisMessageClaims, reply_text: str | None = None) -> None:
        self.claims = claims
        self.seen: list[IncomingMessage] = []
        self.reply_text = reply_text
        self.fail_next = False

    async def handle(self, message: IncomingMessage) -> Reply | None:
        self.seen.append(message)
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("the engine broke")
        if not await self.claims.claim(message.dedup_key):
            return None
        return Reply(self.reply_text or f"Echo: {message.text}", "en")


class BreakableMemories(InMemoryMemoryBrowser):
    """The in-memory browser, with an export that can be made to fail like an unreachable store."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = False

    async def export_memories(self, user_key: str) -> list[MemoryItem]:
        if self.broken:
            raise StoreUnavailable("qdrant is down")
        return await super().export_memories(user_key)


@dataclass
class Bot:
    fake: FakeDiscord
    engine: EchoEngine
    memories: BreakableMemories
    commands: UserCommands
    messenger: DiscordMessenger
    guild_id: int
    channel_id: int


FAST = GatewayTimings(ready_timeout_s=10, guild_ready_s=0.05, identify_interval_s=0)


def discord_settings(fake: FakeDiscord, **extra: object) -> DiscordOptions:
    """The bot's options as the wiring builds them from these settings (`extra`: more SOUVENIR_* values)."""
    return discord_options(load_settings(
        discord_token="fake-token", discord_api_url=fake.api_root, discord_gateway_url=fake.gateway_url, **extra
    ))  # fmt: skip


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord.running() as running:
        yield running


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def memories() -> BreakableMemories:
    return BreakableMemories()


@pytest.fixture
def commands(redis: aioredis.Redis, memories: BreakableMemories, clock: FakeClock) -> UserCommands:
    return redis_backed_commands(redis, clock, memories)[0]


@pytest.fixture
def engine(redis: aioredis.Redis) -> EchoEngine:
    return EchoEngine(RedisMessageClaims(redis))


@pytest.fixture
async def bot(
    fake: FakeDiscord,
    engine: EchoEngine,
    memories: BreakableMemories,
    commands: UserCommands,
) -> AsyncIterator[Bot]:
    guild_id, channel_id = fake.add_guild("Friends")
    async with run_discord(discord_settings(fake), engine=engine, commands=commands, timings=FAST) as messenger:
        yield Bot(fake, engine, memories, commands, messenger, guild_id, channel_id)
