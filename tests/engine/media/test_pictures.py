"""Pictures through the engine: the one reply call marks a picture request, the image endpoint is asked once
with the persona's base description (and the avatar as reference), and the reply carries the photo and its
caption; or a kind text in the person's language. Real openai SDK, loopback fake server, real Redis."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine
from bot.engine.texts.pictures import say_picture
from memory.redis.picture_quota import RedisPictureQuota
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import Reply as Say
from tests.fakes.picture_engine import APPEARANCE, AVATAR, CAPTION, SCENE, picture_engine, picture_responder


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAI]:
    async with FakeOpenAI(responder=picture_responder) as fake:
        yield fake


@pytest.fixture
async def engine(redis_client: aioredis.Redis, clock: FakeClock, server: FakeOpenAI) -> AsyncIterator[Engine]:
    async with picture_engine(redis_client, clock, server) as built:
        yield built


def chat_calls(server: FakeOpenAI) -> int:
    return sum(r.path.endswith("/chat/completions") for r in server.requests)


async def test_a_plain_words_request_gets_one_photo_drawn_from_the_persona_with_a_caption(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    reply = await engine.handle(message("send me a picture of you at the beach"))

    assert reply is not None and reply.picture is not None
    assert reply.picture.image == server.images.image
    assert reply.text.endswith(CAPTION) and "[[" not in reply.text
    [request] = server.images.requests  # one image request
    assert APPEARANCE in request.prompt and "Mia" in request.prompt  # the persona's base description
    assert SCENE in request.prompt
    assert "No nudity" in request.prompt  # safe for work, always
    assert (request.route, request.reference) == ("edits", AVATAR)  # the same face: the avatar as reference
    assert chat_calls(server) == 1  # the decision rode on the reply call
    system = server.bodies[0]["messages"][0]["content"]
    assert "[[picture:" in system


async def test_a_french_request_is_answered_in_french_with_a_photo(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    server.script(Say(f"[[picture: {SCENE}]] Rien que pour toi !"))
    reply = await engine.handle(message("tu m'envoies une photo de toi ?"))

    assert reply is not None and reply.picture is not None and reply.language == "fr"
    assert reply.text.endswith("Rien que pour toi !")
    assert len(server.images.requests) == 1


async def test_an_ordinary_message_makes_no_picture(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    reply = await engine.handle(message("how was your day?"))

    assert reply is not None and reply.picture is None
    assert server.images.requests == []


async def test_the_picture_command_makes_one_with_the_scene_asked_for(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    server.script(Say("Just for you!"))  # a model that forgot the marker: the scene asked for is used
    reply = await engine.handle_picture(message("/picture at a jazz club"), "at a jazz club")

    assert reply is not None and reply.picture is not None and reply.text.endswith("Just for you!")
    [request] = server.images.requests
    assert "at a jazz club" in request.prompt and APPEARANCE in request.prompt
    assert "/picture" in server.bodies[0]["messages"][0]["content"]


async def test_the_picture_command_without_a_scene_says_how_to_use_it(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    reply = await engine.handle_picture(message("/picture", hint="fr"), "  ")

    assert reply is not None and reply.picture is None
    assert reply.text == say_picture("picture_usage", "fr")
    assert server.requests == [] and server.images.requests == []


async def test_not_configured_is_answered_kindly_in_their_language(
    redis_client: aioredis.Redis, clock: FakeClock, server: FakeOpenAI, message: MessageFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    async with picture_engine(redis_client, clock, server, enabled=False) as off:
        with caplog.at_level(logging.INFO, logger="bot.engine.media.picture_maker"):
            reply = await off.handle(message("tu m'envoies une photo de toi ?"))

    assert reply is not None and reply.picture is None
    assert reply.text.endswith(say_picture("picture_off", "fr"))
    assert server.images.requests == []
    assert [r.message for r in caplog.records if "pictures are off" in r.message]


async def test_over_the_daily_limit_is_answered_kindly_and_the_next_local_day_allows_again(
    redis_client: aioredis.Redis, clock: FakeClock, server: FakeOpenAI, message: MessageFactory
) -> None:
    clock.current = datetime(2026, 7, 1, 21, 0, tzinfo=UTC)  # 23:00 in Paris
    async with picture_engine(redis_client, clock, server, daily_limit=2) as limited:
        first = await limited.handle(message("a photo of you please"))
        second = await limited.handle(message("another photo!"))
        third = await limited.handle(message("one more photo?"))
        clock.current += timedelta(hours=1, minutes=30)  # 00:30 in Paris: their new day
        fourth = await limited.handle(message("good morning photo?"))

    assert first is not None and first.picture is not None
    assert second is not None and second.picture is not None
    assert third is not None and third.picture is None and third.text.endswith(say_picture("picture_limit", "en"))
    assert fourth is not None and fourth.picture is not None
    assert len(server.images.requests) == 3
    quota = RedisPictureQuota(redis_client)
    assert await quota.made_on("telegram:42", datetime(2026, 7, 1).date()) == 2


async def test_a_failed_picture_is_a_kind_reply_one_log_line_and_not_counted(
    engine: Engine, server: FakeOpenAI, message: MessageFactory, redis_client: aioredis.Redis,
    clock: FakeClock, caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    server.images.fail_with = 500
    with caplog.at_level(logging.WARNING):
        reply = await engine.handle(message("send me a selfie"))

    assert reply is not None and reply.picture is None and not reply.fallback
    assert reply.text.endswith(say_picture("picture_failed", "en"))
    assert len([r for r in caplog.records if "picture failed" in r.message]) == 1
    assert await RedisPictureQuota(redis_client).made_on("telegram:42", clock.now().date()) == 0


async def test_a_refused_picture_is_a_kind_reply(engine: Engine, server: FakeOpenAI, message: MessageFactory) -> None:
    server.images.refuse = True
    reply = await engine.handle(message("send me a picture"))

    assert reply is not None and reply.picture is None
    assert reply.text.endswith(say_picture("picture_refused", "en"))


async def test_in_a_group_only_a_message_that_asks_for_a_picture_gets_one(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    server.script(Say(f"[[picture: {SCENE}]] Here!"))  # the model wants to send one unasked
    unasked = await engine.handle(message("how are you all doing?", group="-100"))
    asked = await engine.handle(message("send us a photo of you", group="-100"))

    assert unasked is not None and unasked.picture is None and "[[" not in unasked.text
    assert asked is not None and asked.picture is not None
    assert len(server.images.requests) == 1


async def test_without_edits_on_the_endpoint_the_picture_is_still_made(
    engine: Engine, server: FakeOpenAI, message: MessageFactory
) -> None:
    server.images.edits_supported = False
    reply = await engine.handle(message("a picture of you?"))

    assert reply is not None and reply.picture is not None
    assert [r.route for r in server.images.requests] == ["edits", "generations"]


async def test_the_window_remembers_a_picture_was_sent(
    engine: Engine, server: FakeOpenAI, message: MessageFactory, redis_client: aioredis.Redis
) -> None:
    await engine.handle(message("a picture of you?"))
    await engine.handle(message("you look great"))

    history = server.bodies[-1]["messages"]
    assert any(m["role"] == "assistant" and SCENE in m["content"] for m in history)


async def test_with_pictures_off_the_model_is_not_told_and_the_command_is_one_line_with_nothing_stored(
    redis_client: aioredis.Redis, clock: FakeClock, server: FakeOpenAI, message: MessageFactory
) -> None:
    memory = RecordingMemory()
    async with picture_engine(redis_client, clock, server, enabled=False, wired=False, memory=memory) as off:
        command = await off.handle_picture(message("/picture at the beach", hint="en"), "at the beach")
        ordinary = await off.handle(message("how was your day?"))

    assert command is not None and command.text == say_picture("picture_off", "en") and command.picture is None
    assert chat_calls(server) == 1 and server.images.requests == []  # the command made no model call
    assert "[[picture:" not in server.bodies[0]["messages"][0]["content"]  # no picture instructions
    assert [exchange.message.text for exchange in memory.exchanges] == ["how was your day?"]  # nothing of /picture
    assert ordinary is not None
