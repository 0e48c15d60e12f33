"""Stopping the Telegram bot: updates in flight get the shutdown grace, never more."""

from __future__ import annotations

import asyncio
import logging

import pytest
import redis.asyncio as aioredis

from adapters.telegram import run_telegram
from bot.engine.model import IncomingMessage, Reply
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.telegram.conftest import EchoEngine, build_commands, telegram_settings
from tests.conftest import FakeClock
from tests.fakes.fake_telegram import FakeTelegram


class HungEngine(EchoEngine):
    """Never answers (a model call that hangs); notes when it is cancelled."""

    def __init__(self, claims: RedisMessageClaims) -> None:
        super().__init__(claims)
        self.cancelled = asyncio.Event()

    async def handle(self, message: IncomingMessage) -> Reply | None:
        self.seen.append(message)
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return None


async def test_an_update_that_never_finishes_does_not_hold_the_stop_past_the_grace(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    engine = HungEngine(RedisMessageClaims(redis_client))
    commands, _, _ = build_commands(redis_client, clock)
    settings = telegram_settings(telegram, shutdown_grace_s=0.1)

    async def run_until_stopped(stop: asyncio.Event) -> None:
        async with run_telegram(settings, engine=engine, commands=commands, poll_timeout=0.5, typing_interval=0.05):
            await stop.wait()

    stop = asyncio.Event()
    running = asyncio.create_task(run_until_stopped(stop))
    await telegram.push_text(90, "are you there?")
    await telegram.wait_for(lambda: bool(engine.seen))

    stop.set()
    await asyncio.wait_for(running, 10)

    assert engine.cancelled.is_set()
    assert telegram.sent(90) == []
    assert any(r.levelno == logging.WARNING and "unanswered" in r.getMessage() for r in caplog.records)
