"""/memories offers the memory browser as a Mini App button when SOUVENIR_PUBLIC_URL is set; "/memories web"
opens it, or says in one line that it is off."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from adapters.telegram import run_telegram
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.telegram.conftest import EchoEngine, Souvenir, build_commands, telegram_settings
from tests.conftest import FakeClock
from tests.fakes.fake_telegram import FakeTelegram

URL = "https://souvenir.example.org/memories/telegram"


@pytest.fixture
async def with_browser(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock
) -> AsyncIterator[Souvenir]:
    commands, profiles, memories = build_commands(redis_client, clock)
    engine = EchoEngine(RedisMessageClaims(redis_client))
    async with run_telegram(
        telegram_settings(telegram), engine=engine, commands=commands, poll_timeout=0.5, per_chat_interval=0.0,
        max_send_retries=1, browser_url=URL,
    ) as messenger:  # fmt: skip
        yield Souvenir(telegram, messenger, engine, memories, profiles, clock)


def web_apps(message: dict[str, Any]) -> dict[str, str]:
    """Button label -> the Mini App it opens."""
    markup = message.get("reply_markup") or {"inline_keyboard": []}
    return {b["text"]: b["web_app"]["url"] for row in markup["inline_keyboard"] for b in row if "web_app" in b}


async def test_memories_offers_the_memory_browser_under_the_page(with_browser: Souvenir) -> None:
    with_browser.add_memories(21, "my cat is called Miso")
    await with_browser.telegram.push_command(21, "memories")
    [listing] = await with_browser.reply_in(21)

    assert "my cat is called Miso" in listing["text"]
    assert web_apps(listing) == {"Open my memories": URL}
    rows = listing["reply_markup"]["inline_keyboard"]
    assert "web_app" in rows[-1][0] and any("callback_data" in b for b in rows[0])  # forget buttons kept above


async def test_memories_web_opens_it_in_the_persons_language(with_browser: Souvenir) -> None:
    await with_browser.telegram.push_command(22, "language", "fr")
    await with_browser.reply_in(22)
    await with_browser.telegram.push_command(22, "memories", "web")
    [_, answer] = await with_browser.reply_in(22, 2)

    assert web_apps(answer) == {"Ouvrir mes souvenirs": URL}


async def test_without_a_public_url_memories_web_says_it_is_off(souvenir: Souvenir) -> None:
    await souvenir.telegram.push_command(23, "memories", "web")
    [answer] = await souvenir.reply_in(23)

    assert answer["text"] == "The memory page is not set up on this bot; /memories lists them here."
    assert web_apps(answer) == {}
    await souvenir.telegram.push_command(23, "memories")
    [_, listing] = await souvenir.reply_in(23, 2)
    assert web_apps(listing) == {}


async def test_start_offers_it_too(with_browser: Souvenir) -> None:
    await with_browser.telegram.push_command(24, "start")
    [welcome] = await with_browser.reply_in(24)

    assert web_apps(welcome) == {"Open my memories": URL}


async def test_the_chats_menu_button_opens_it(with_browser: Souvenir) -> None:
    [call] = [c for c in with_browser.telegram.calls if c.method == "setChatMenuButton"]
    button = call.params["menu_button"]
    button = json.loads(button) if isinstance(button, str) else button

    assert button == {"type": "web_app", "text": "Memories", "web_app": {"url": URL}}
