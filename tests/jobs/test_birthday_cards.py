"""A birthday card with the birthday message when pictures are on: drawn from the persona with touches of what
the companion remembers (never a painful memory); the message alone when pictures are off or the card fails."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.engine.media.picture_maker import PictureMaker
from bot.engine.media.pictures import Picture
from bot.engine.model import MonthDay, RecalledMemory
from bot.llm.images import ImagesEndpoint, OpenAIImages
from jobs.birthday_card import BirthdayCards
from jobs.compose import Composer
from jobs.sweep import Sweeper
from memory.redis.picture_quota import RedisPictureQuota
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.picture_engine import APPEARANCE, AVATAR, PERSONA
from tests.jobs.conftest import World, WorldFactory
from tests.jobs.fakes import RecordingMessenger


@dataclass
class PictureRecordingMessenger(RecordingMessenger):
    cards: list[tuple[str, str, Picture]] = field(default_factory=list)

    async def send_direct_picture(self, user_key: str, text: str, picture: Picture) -> None:
        self.cards.append((user_key, text, picture))
        await self.send_direct(user_key, text)


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
async def images(server: FakeOpenAI) -> AsyncIterator[OpenAIImages]:
    client = OpenAIImages.from_endpoint(ImagesEndpoint(server.base_url, None, max_retries=0))
    yield client
    await client.aclose()


def _maker(redis: aioredis.Redis, images: OpenAIImages | None) -> PictureMaker:
    return PictureMaker(persona=PERSONA, generator=images, quota=RedisPictureQuota(redis), daily_limit=5,
                        reference=AVATAR)  # fmt: skip


def _sweeper(world: World, messenger: RecordingMessenger, cards: BirthdayCards | None) -> Sweeper:
    return Sweeper(
        world.options, due=world.planner.due, profiles=world.profiles, window=world.window,
        dated_events=world.events, composer=Composer(llm=world.llm, memory=world.memory),
        messengers={"telegram": messenger}, clock=world.clock, cards=cards,
    )  # fmt: skip


async def _birthday(world: World, sweeper: Sweeper, **fields: Any) -> None:
    world.clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await world.add_user(birthday=MonthDay(3, 14), timezone="Europe/Paris", display_name="Ana Lima", **fields)
    world.clock.current = datetime(2026, 3, 14, 8, tzinfo=UTC)  # 09:00 in Paris
    await sweeper.tick()


async def test_the_birthday_message_comes_with_a_card_that_fits_what_is_remembered(
    make_world: WorldFactory, redis_client: aioredis.Redis, server: FakeOpenAI, images: OpenAIImages
) -> None:
    world = await make_world()
    world.memory.memories = [
        RecalledMemory("m1", "semantic", "Ana collects Blue Note jazz records"),
        RecalledMemory("m2", "emotional", "Ana's father died last spring", sensitive=True),
    ]
    messenger = PictureRecordingMessenger(world.clock)
    await _birthday(world, _sweeper(world, messenger, BirthdayCards(_maker(redis_client, images), world.memory)))

    [(user_key, text, card)] = messenger.cards
    assert user_key == "telegram:42" and "Happy birthday Ana" in text  # the message is the card's caption
    assert card.image == server.images.image
    [request] = server.images.requests
    assert "birthday card" in request.prompt and "Blue Note" in request.prompt and APPEARANCE in request.prompt
    assert "father" not in request.prompt  # a painful memory is never on a card
    assert request.reference == AVATAR
    assert await RedisPictureQuota(redis_client).made_on("telegram:42", datetime(2026, 3, 14).date()) == 0


async def test_with_pictures_off_or_a_failed_card_the_message_goes_alone(
    make_world: WorldFactory, redis_client: aioredis.Redis, server: FakeOpenAI, images: OpenAIImages
) -> None:
    off_world = await make_world()
    off = PictureRecordingMessenger(off_world.clock)
    await _birthday(off_world, _sweeper(off_world, off, BirthdayCards(_maker(redis_client, None), off_world.memory)))
    assert off.cards == [] and len(off.deliveries) == 1

    await redis_client.flushdb()
    server.images.fail_with = 500
    failing_world = await make_world()
    failing = PictureRecordingMessenger(failing_world.clock)
    cards = BirthdayCards(_maker(redis_client, images), failing_world.memory)
    await _birthday(failing_world, _sweeper(failing_world, failing, cards))
    assert failing.cards == [] and ["Happy birthday Ana" in d.text for d in failing.deliveries] == [True]


async def test_no_festive_card_in_the_week_after_a_crisis(
    make_world: WorldFactory, redis_client: aioredis.Redis, server: FakeOpenAI, images: OpenAIImages
) -> None:
    world = await make_world()
    messenger = PictureRecordingMessenger(world.clock)
    cards = BirthdayCards(_maker(redis_client, images), world.memory)
    await _birthday(world, _sweeper(world, messenger, cards), last_crisis_at=datetime(2026, 3, 11, 22, tzinfo=UTC))

    assert messenger.cards == [] and server.images.requests == []
    [quiet] = messenger.deliveries
    assert "Happy birthday Ana. Thinking of you today" in quiet.text and "🎂" not in quiet.text
