"""A running Souvenir Telegram bot (real python-telegram-bot) against the loopback fake Bot API."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis.asyncio as aioredis
from pydantic import SecretStr

from adapters.telegram import TelegramMessenger, TelegramOptions, run_telegram
from bot.app.platforms import telegram_options
from bot.config import Settings
from bot.engine.commands.user_commands import UserCommands
from bot.engine.model import IncomingMessage, Reply
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.memory_browser import InMemoryMemoryBrowser


class EchoEngine:
    """Stands in for the engine: the same Redis claim it uses for re-deliveries, then an echo.
    Set `gate` to hold the answer until the test opens it, `crash_on` to make it raise."""

    def __init__(self, claims: RedisMessageClaims) -> None:
        self.claims = claims
        self.seen: list[IncomingMessage] = []
        self.gate: asyncio.Event | None = None
        self.crash_on: set[str] = set()  # texts that make the engine raise

    async def handle(self, message: IncomingMessage) -> Reply | None:
        self.seen.append(message)
        if message.text in self.crash_on:
            raise RuntimeError("the engine fell over")
        if not await self.claims.claim(message.dedup_key):
            return None
        if self.gate is not None:
            await self.gate.wait()
        return Reply(f"echo: {message.text}", message.language_hint or "en")


@dataclass
class Souvenir:
    telegram: FakeTelegram
    messenger: TelegramMessenger
    engine: EchoEngine
    memories: InMemoryMemoryBrowser
    profiles: RedisProfiles
    clock: FakeClock
    extra: dict[str, Any] = field(default_factory=dict)

    def add_memories(self, user_id: int, *texts: str) -> list[str]:
        """Memories created a minute apart, the last one newest (the browser lists newest first)."""
        ids = []
        for text in texts:
            self.clock.advance(minutes=1)
            ids.append(self.memories.add(f"telegram:{user_id}", text, self.clock.now()))
        return ids

    def memory_texts(self, user_id: int) -> list[str]:
        return [item.text for item in self.memories.items.get(f"telegram:{user_id}", [])]

    async def reply_in(self, chat_id: int, count: int = 1) -> list[dict[str, Any]]:
        """Wait until the bot has sent `count` messages to the chat; they are returned."""
        await self.telegram.wait_for(lambda: len(self.telegram.sent(chat_id)) >= count)
        return self.telegram.sent(chat_id)


def telegram_settings(telegram: FakeTelegram, **overrides: Any) -> TelegramOptions:
    """The bot's options as the wiring builds them from these settings (`overrides`: more SOUVENIR_* values)."""
    return telegram_options(Settings(  # type: ignore[call-arg]
        _env_file=None,
        telegram_token=SecretStr(telegram.token),
        telegram_api_url=telegram.api_root,
        **overrides,
    ))  # fmt: skip


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


def build_commands(
    redis_client: aioredis.Redis, clock: FakeClock
) -> tuple[UserCommands, RedisProfiles, InMemoryMemoryBrowser]:
    """A real UserCommands over real Redis profiles and windows and the in-memory memory browser."""
    memories = InMemoryMemoryBrowser()
    commands, profiles, _ = redis_backed_commands(redis_client, clock, memories)
    return commands, profiles, memories


@pytest.fixture
async def souvenir(telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Souvenir]:
    commands, profiles, memories = build_commands(redis_client, clock)
    engine = EchoEngine(RedisMessageClaims(redis_client))
    async with run_telegram(
        telegram_settings(telegram),
        engine=engine,
        commands=commands,
        poll_timeout=0.5,
        typing_interval=0.05,
        per_chat_interval=0.0,
        max_send_retries=1,
    ) as messenger:
        yield Souvenir(telegram, messenger, engine, memories, profiles, clock)
