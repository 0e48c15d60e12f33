"""Pictures on Telegram (real python-telegram-bot against the fake Bot API, real engine and openai SDK against
the fake OpenAI server): a photo with its caption through sendPhoto."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aioredis

from adapters.telegram import TelegramMessenger, run_telegram
from bot.engine.media.pictures import Picture
from bot.engine.texts.pictures import say_picture
from tests.adapters.telegram.conftest import build_commands, telegram_settings
from tests.conftest import FakeClock
from tests.fakes.fake_images import tiny_png
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.fake_telegram import FakeTelegram
from tests.fakes.picture_engine import APPEARANCE, AVATAR, CAPTION, picture_engine, picture_responder


@dataclass
class Bot:
    telegram: FakeTelegram
    openai: FakeOpenAI
    messenger: TelegramMessenger


@pytest.fixture
async def openai_server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI(responder=picture_responder) as fake:
        yield fake


async def _running(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, server: FakeOpenAI, **options: object
) -> AsyncIterator[Bot]:
    commands, _, _ = build_commands(redis_client, clock)
    async with picture_engine(redis_client, clock, server, **options) as engine:  # type: ignore[arg-type]
        async with run_telegram(
            telegram_settings(telegram), engine=engine, commands=commands,
            poll_timeout=0.5, typing_interval=0.05, per_chat_interval=0.0, max_send_retries=1,
        ) as messenger:  # fmt: skip
            yield Bot(telegram, server, messenger)


@pytest.fixture
async def bot(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, openai_server: FakeOpenAI
) -> AsyncIterator[Bot]:
    async for running in _running(telegram, redis_client, clock, openai_server):
        yield running


async def test_a_plain_words_request_gets_one_photo_with_its_caption(bot: Bot) -> None:
    await bot.telegram.push_text(31, "send me a picture of you at the beach")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(31)) >= 1)

    [photo] = bot.telegram.sent(31)
    assert photo["_content"] == bot.openai.images.image and photo["_file_name"] == "picture.png"
    assert photo["caption"].endswith(CAPTION)
    [request] = bot.openai.images.requests
    assert APPEARANCE in request.prompt and request.reference == AVATAR
    assert len(bot.telegram.calls_of("sendPhoto")) == 1


async def test_the_picture_command_sends_a_photo_too(bot: Bot) -> None:
    await bot.telegram.push_command(32, "picture", "at a jazz club")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(32)) >= 1)

    [photo] = bot.telegram.sent(32)
    assert photo["_content"] == bot.openai.images.image and photo["caption"].endswith(CAPTION)
    [request] = bot.openai.images.requests
    assert APPEARANCE in request.prompt


async def test_the_picture_command_works_in_a_group_where_it_is_the_ask(bot: Bot) -> None:
    await bot.telegram.push_command(33, "picture", "waving hello", chat_id=-500, chat_type="group")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(-500)) >= 1)

    [photo] = bot.telegram.sent(-500)
    assert "photo" in photo and photo["caption"].endswith(CAPTION)


async def test_a_photo_sent_with_a_request_for_a_picture_is_refused_kindly(bot: Bot) -> None:
    await bot.telegram.push_photo(34, "make a picture of me from this photo", language_code="fr")
    await bot.telegram.wait_for(lambda: len(bot.telegram.sent(34)) >= 1)

    [reply] = bot.telegram.sent(34)
    assert reply["text"] == say_picture("picture_real_person", "fr")
    assert bot.openai.images.requests == [] and bot.openai.requests == []


async def test_not_configured_and_over_the_limit_are_answered_kindly(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, openai_server: FakeOpenAI
) -> None:
    async for _ in _running(telegram, redis_client, clock, openai_server, enabled=False):
        await telegram.push_text(35, "a photo of you?")
        await telegram.wait_for(lambda: len(telegram.sent(35)) >= 1)
        [reply] = telegram.sent(35)
        assert reply["text"].endswith(say_picture("picture_off", "en"))
        assert telegram.calls_of("sendPhoto") == []
    async for _ in _running(telegram, redis_client, clock, openai_server, daily_limit=0):
        await telegram.push_text(36, "a photo of you?")
        await telegram.wait_for(lambda: len(telegram.sent(36)) >= 1)
        [reply] = telegram.sent(36)
        assert reply["text"].endswith(say_picture("picture_limit", "en"))
    assert openai_server.images.requests == []


async def test_the_messenger_sends_a_birthday_card_as_a_photo_with_the_message_as_caption(bot: Bot) -> None:
    card = Picture(tiny_png((250, 0, 0)))
    await bot.messenger.send_direct_picture("telegram:37", "Happy birthday Ana!", card)

    [photo] = bot.telegram.sent(37)
    assert photo["_content"] == card.image and photo["caption"] == "Happy birthday Ana!"
