"""A real `Engine` with pictures, over the real openai SDK (chat and images) against the loopback fake OpenAI
server and real Redis: what the picture tests of the engine and of each platform drive."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.media.picture_maker import PictureMaker
from bot.engine.prompt.persona import Persona
from bot.llm.endpoint import ChatEndpoint
from bot.llm.images import ImagesEndpoint, OpenAIImages
from bot.llm.openai_chat import OpenAIChatModel
from memory.redis.picture_quota import RedisPictureQuota
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.fakes import RecordingMemory, RecordingPlanner, StoredDatedEvents
from tests.fakes.fake_images import tiny_png
from tests.fakes.fake_openai import FakeOpenAI
from tests.fakes.llm_script import JsonObject, last_user_text

APPEARANCE = "short auburn hair, freckles, green eyes, a worn denim jacket"
PERSONA = Persona(name="Mia", personality="Warm and teasing.", appearance=APPEARANCE)
AVATAR = tiny_png((30, 60, 90), size=8)
CAPTION = "For your 30th — Blue Note only, nothing after 1968."
SCENE = "on a sunny beach at golden hour, holding a vinyl record"
_ASKS = ("picture", "photo", "selfie", "/picture")


def picture_responder(body: JsonObject) -> str:
    """The model as the system prompt asks: the marker and a caption when the person asks for a picture."""
    said = last_user_text(body).lower()
    if any(word in said for word in _ASKS):
        return f"[[picture: {SCENE}]] {CAPTION}"
    return f"echo: {last_user_text(body)}"


@asynccontextmanager
async def picture_engine(
    redis_client: aioredis.Redis,
    clock: FakeClock,
    server: FakeOpenAI,
    *,
    enabled: bool = True,
    wired: bool = True,  # False: no picture maker at all, as the app builds it with pictures off
    daily_limit: int = 5,
    reference: bytes | None = AVATAR,
    memory: RecordingMemory | None = None,
) -> AsyncIterator[Engine]:
    chat = OpenAIChatModel.from_endpoint(ChatEndpoint("openai-compatible", "llama3.2", server.base_url, max_retries=0))
    images = OpenAIImages.from_endpoint(ImagesEndpoint(server.base_url, None, max_retries=0)) if enabled else None
    pictures = PictureMaker(
        persona=PERSONA, generator=images, quota=RedisPictureQuota(redis_client), daily_limit=daily_limit,
        reference=reference,
    )  # fmt: skip
    engine = Engine(
        llm=chat,
        window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client),
        profiles=RedisProfiles(redis_client),
        memory=memory or RecordingMemory(),
        planner=RecordingPlanner(),
        dated_events=StoredDatedEvents(),
        persona=PERSONA,
        clock=clock,
        options=EngineOptions(default_timezone="Europe/Paris"),
        pictures=pictures if wired else None,
    )
    try:
        yield engine
    finally:
        await engine.drain()
        await chat.aclose()
        if images is not None:
            await images.aclose()
