"""End to end: webhook mode (PTB's own webhook server) receives updates only with the secret token."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
import redis.asyncio as aioredis

from adapters.telegram import run_telegram
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.telegram.conftest import EchoEngine, FakeClock, build_commands, telegram_settings
from tests.fakes.fake_telegram import FakeTelegram

pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks]")

SECRET = "webhook-secret_42"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
async def webhook(telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[str]:
    """The local address the bot's webhook listens on, with the bot running."""
    port = free_port()
    settings = telegram_settings(
        telegram,
        telegram_webhook_url="https://souvenir.example/telegram/hook",
        telegram_webhook_secret=SECRET,
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_port=port,
    )
    commands, _, _ = build_commands(redis_client, clock)
    engine = EchoEngine(RedisMessageClaims(redis_client))
    async with run_telegram(settings, engine=engine, commands=commands, typing_interval=0.05, per_chat_interval=0):
        yield f"http://127.0.0.1:{port}/telegram/hook"


async def test_webhook_mode_registers_the_public_url_with_the_secret(telegram: FakeTelegram, webhook: str) -> None:
    assert telegram.webhook is not None
    assert telegram.webhook["url"] == "https://souvenir.example/telegram/hook"
    assert telegram.webhook["secret_token"] == SECRET
    assert telegram.calls_of("getUpdates") == []  # no polling in webhook mode


async def test_an_update_with_the_secret_is_answered_and_one_without_is_refused(
    telegram: FakeTelegram, webhook: str
) -> None:
    forged = {"update_id": 1, "message": telegram.user_message(90, "forged")}
    genuine = {"update_id": 2, "message": telegram.user_message(90, "genuine")}
    async with aiohttp.ClientSession() as http:
        async with http.post(webhook, json=forged, headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}) as response:
            assert response.status == 403
        async with http.post(webhook, json=forged) as response:
            assert response.status == 403
        async with http.post(webhook, json=genuine, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}) as response:
            assert response.status == 200
    await telegram.wait_for(lambda: len(telegram.sent(90)) >= 1)
    assert telegram.texts(90) == ["echo: genuine"]
