""""I live in Paris" said in conversation by someone with no time zone: the reply ends with the zone offered,
once ever, and the zone itself is never changed without their /timezone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import UserProfile
from bot.geonames_cities import GeonamesCities
from bot.persona_file import load_persona
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.engine.conftest import MessageFactory
from tests.engine.fakes import RecordingMemory, RecordingPlanner, ScriptedLLM, StoredDatedEvents

LEA = "telegram:42"


@pytest.fixture
async def engine(redis_client: aioredis.Redis, clock: FakeClock) -> AsyncIterator[Engine]:
    cities = GeonamesCities()
    await cities.named("Paris")  # read the database before the first reply waits on it
    engine = Engine(
        llm=ScriptedLLM(), window=RedisConversationWindow(redis_client, max_turns=6, ttl=timedelta(hours=72)),
        claims=RedisMessageClaims(redis_client), profiles=RedisProfiles(redis_client), memory=RecordingMemory(),
        planner=RecordingPlanner(), dated_events=StoredDatedEvents(), persona=load_persona(None), clock=clock,
        options=EngineOptions(default_timezone="UTC"), cities=cities,
    )  # fmt: skip
    yield engine
    await engine.drain()


async def _profile(redis_client: aioredis.Redis) -> UserProfile:
    return await RedisProfiles(redis_client).load_profile(LEA)


async def _say(engine: Engine, message: MessageFactory, text: str) -> str:
    reply = await engine.handle(message(text))
    assert reply is not None
    return reply.text


async def test_living_in_paris_offers_paris_time_once_and_changes_nothing(
    engine: Engine, message: MessageFactory, redis_client: aioredis.Redis
) -> None:
    first = await _say(engine, message, "Hi! I live in Paris with my cat.")
    again = await _say(engine, message, "I live in Paris, did I say?")
    moved = await _say(engine, message, "Actually I just moved to London")

    offer = "\n\nShall I use Paris time for you? /timezone Europe/Paris"
    assert first.endswith(f"echo: Hi! I live in Paris with my cat.{offer}")
    assert "/timezone" not in again and "/timezone" not in moved  # offered once, ever
    profile = await _profile(redis_client)
    assert profile.timezone is None and profile.timezone_offered


async def test_in_french_the_offer_is_in_french_with_the_city_as_written(
    engine: Engine, message: MessageFactory, redis_client: aioredis.Redis
) -> None:
    reply = await _say(engine, message, "Coucou, j'habite à Montréal depuis deux ans")

    assert reply.endswith("\n\nVeux-tu que j'utilise l'heure de Montréal pour toi ? /timezone America/Montreal")
    assert (await _profile(redis_client)).timezone is None


async def test_a_french_city_name_and_vous_are_respected(
    engine: Engine, message: MessageFactory, redis_client: aioredis.Redis
) -> None:
    profiles = RedisProfiles(redis_client)
    await profiles.save_profile(replace(await profiles.load_profile(LEA), address_form="vous", language="fr"))

    reply = await _say(engine, message, "Je vis à Londres maintenant, c'est loin de tout.")

    assert reply.endswith("\n\nVoulez-vous que j'utilise l'heure de Londres pour vous ? /timezone Europe/London")


@pytest.mark.parametrize(
    "text",
    [
        "I live in Portland",  # Oregon or Maine: not asked unprompted
        "I live in a small flat near the station",
        "Do you know Paris? I love Paris.",
        "J'habitais à Lyon quand j'étais petite",
    ],
)
async def test_no_offer_without_one_clear_place_where_they_live(
    engine: Engine, message: MessageFactory, redis_client: aioredis.Redis, text: str
) -> None:
    reply = await _say(engine, message, text)

    assert "/timezone" not in reply
    assert not (await _profile(redis_client)).timezone_offered  # the one offer is still to be made


async def test_someone_with_a_zone_or_in_a_group_is_offered_nothing(
    engine: Engine, message: MessageFactory, redis_client: aioredis.Redis
) -> None:
    in_group = await engine.handle(message("I live in Lyon", group="-100"))
    profiles = RedisProfiles(redis_client)
    await profiles.save_profile(replace(await profiles.load_profile(LEA), timezone="Asia/Tokyo"))
    with_zone = await _say(engine, message, "I live in Lyon")

    assert in_group is not None and "/timezone" not in in_group.text
    assert "/timezone" not in with_zone
    assert (await _profile(redis_client)).timezone == "Asia/Tokyo"
