"""Pictures on Discord (real discord.py against the fake gateway and REST, real engine and openai SDK against
the fake OpenAI server): the photo goes as an attachment with the caption as the message's text."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import redis.asyncio as aioredis

from adapters.discord import DiscordMessenger, run_discord
from bot.engine.commands.user_commands import UserCommands
from bot.engine.media.pictures import Picture
from bot.engine.texts.pictures import say_picture
from tests.adapters.discord.conftest import FAST, discord_settings
from tests.adapters.discord.test_slash_commands import LOADING
from tests.conftest import FakeClock
from tests.fakes import fake_discord_payloads as p
from tests.fakes.fake_discord import FakeDiscord
from tests.fakes.fake_discord_rest import Sent
from tests.fakes.fake_images import tiny_png
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.picture_engine import APPEARANCE, AVATAR, CAPTION, picture_engine, picture_responder


@dataclass
class PictureBot:
    fake: FakeDiscord
    openai: FakeOpenAI
    messenger: DiscordMessenger
    guild_id: int
    channel_id: int


@pytest.fixture
async def bot(
    fake: FakeDiscord, redis: aioredis.Redis, clock: FakeClock, commands: UserCommands
) -> AsyncIterator[PictureBot]:
    guild_id, channel_id = fake.add_guild("Friends")
    async with (
        FakeOpenAI(responder=picture_responder) as server,
        picture_engine(redis, clock, server) as engine,
        run_discord(discord_settings(fake), engine=engine, commands=commands, timings=FAST) as messenger,
    ):
        yield PictureBot(fake, server, messenger, guild_id, channel_id)


async def test_a_plain_words_request_gets_one_photo_attached_with_its_caption(bot: PictureBot) -> None:
    alice = p.user("Alice")
    message = await bot.fake.send_dm(alice, "send me a picture of you at the beach")

    [reply] = await bot.fake.replies_in(int(message["channel_id"]))

    assert reply.files == {"picture.png": bot.openai.images.image}
    assert reply.content.endswith(CAPTION)
    [request] = bot.openai.images.requests
    assert APPEARANCE in request.prompt and request.reference == AVATAR


async def test_the_picture_slash_command_answers_with_the_photo(bot: PictureBot) -> None:
    token = await bot.fake.slash(p.user("Bob"), "picture", {"what": "at a jazz club"})

    def answered() -> Sent | None:
        shown = bot.fake.for_interaction(token)
        return shown[-1] if shown and not shown[-1].flags & LOADING else None

    answer = await bot.fake.wait_for(answered, within_s=20)
    assert answer.files == {"picture.png": bot.openai.images.image}
    assert answer.content.endswith(CAPTION) and not answer.ephemeral
    [request] = bot.openai.images.requests
    assert APPEARANCE in request.prompt
    assert "at a jazz club" in bot.openai.bodies[0]["messages"][0]["content"]  # the model wrote the scene from it


async def test_an_uploaded_photo_is_never_turned_into_a_picture(bot: PictureBot) -> None:
    carol = p.user("Carol")
    message = await bot.fake.send_dm_with_image(carol, "make a picture of me from this photo")

    [reply] = await bot.fake.replies_in(int(message["channel_id"]))

    assert reply.content == say_picture("picture_real_person", None)
    assert reply.files == {}
    assert bot.openai.images.requests == [] and bot.openai.requests == []


async def test_the_messenger_sends_a_birthday_card_with_the_message(bot: PictureBot) -> None:
    dave = p.user("Dave")
    card = Picture(tiny_png((250, 0, 0)))

    await bot.messenger.send_direct_picture(f"discord:{dave['id']}", "Happy birthday Dave!", card)

    channel_id = bot.fake.rest.dm_channels[int(dave["id"])]
    [sent] = await bot.fake.replies_in(channel_id)
    assert sent.content == "Happy birthday Dave!" and sent.files == {"picture.png": card.image}
