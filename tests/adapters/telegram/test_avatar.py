"""The persona's picture as the Telegram profile photo: a JPEG only (Telegram's rule), once per image."""

from __future__ import annotations

from pathlib import Path

import redis.asyncio as aioredis

from adapters.telegram.runner import run_telegram
from bot.avatar import BotAvatar
from memory.redis.stores.message_claims import RedisMessageClaims
from tests.adapters.telegram.conftest import EchoEngine, build_commands, telegram_settings
from tests.conftest import FakeClock
from tests.fakes.fake_telegram import FakeTelegram

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(64) + b"\xff\xd9"
CARD = Path(__file__).parents[2] / "data" / "maelle_card_v2.png"


async def _start(telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, avatar: BotAvatar) -> None:
    commands, _, _ = build_commands(redis_client, clock)
    engine = EchoEngine(RedisMessageClaims(redis_client))
    async with run_telegram(telegram_settings(telegram), engine=engine, commands=commands, poll_timeout=0.5,
                            avatar=avatar):  # fmt: skip
        pass


async def test_a_jpeg_avatar_becomes_the_profile_photo_once(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, tmp_path: Path
) -> None:
    avatar = BotAvatar(JPEG, tmp_path)
    await _start(telegram, redis_client, clock, avatar)
    await _start(telegram, redis_client, clock, avatar)

    assert telegram.profile_photos == [JPEG]


async def test_a_png_card_image_is_sent_to_telegram_as_a_jpeg(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, tmp_path: Path
) -> None:
    await _start(telegram, redis_client, clock, BotAvatar(CARD.read_bytes(), tmp_path))
    [photo] = telegram.profile_photos
    assert photo.startswith(b"\xff\xd8\xff")  # Telegram's rule: a JPEG


async def test_an_unreadable_image_is_skipped_and_the_bot_still_runs(
    telegram: FakeTelegram, redis_client: aioredis.Redis, clock: FakeClock, tmp_path: Path
) -> None:
    broken = b"\x89PNG\r\n\x1a\n" + b"not really a picture"
    await _start(telegram, redis_client, clock, BotAvatar(broken, tmp_path))
    assert telegram.profile_photos == [] and not telegram.calls_of("setMyProfilePhoto")
