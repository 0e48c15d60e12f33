"""With encryption on, the Redis stores keep no words in clear, read back what they wrote, and still erase a
person whose data key was destroyed first (crypto-shredding runs right after the epoch moves, before the
other erasers)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis
from cryptography.fernet import Fernet

from bot.engine.model import ChatTurn, MonthDay, UserProfile
from bot.engine.mood import MoodReading, TimedReading
from bot.engine.ports import DrawnMemory, TrailReply
from memory.mood.series import RedisMoodSeries
from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key
from memory.redis.reply_trail import RedisReplyTrail
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles
from tests.fakes.redis_scan import redis_mentions

LEA, MARC = "telegram:4242", "telegram:5151"
GROUP = "telegram:group:-100777"
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[aioredis.Redis]:
    connection = aioredis.from_url(redis_url)
    try:
        yield connection
    finally:
        await connection.aclose()


@pytest.fixture
def cipher(client: aioredis.Redis) -> PersonCipher:
    return PersonCipher(RedisDataKeys(client, new_master_key()))


async def test_profiles_seal_what_they_say_about_the_person(client: aioredis.Redis, cipher: PersonCipher) -> None:
    profiles = RedisProfiles(client, cipher=cipher)
    profile = UserProfile(LEA, display_name="Léa Dupont", preferred_name="Zoé", pronouns="elle",
                          timezone="Europe/Paris", language="fr", birthday=MonthDay(6, 2), checkins=True)  # fmt: skip
    await profiles.save_profile(profile)
    await profiles.save_profile_fields(profile, ["preferred_name"])

    assert await redis_mentions(client, "Dupont", "Zoé", "elle", "Paris", "06-02") == []
    assert await profiles.load_profile(LEA) == profile
    assert await profiles.load_profiles([LEA]) == [profile]


async def test_a_group_window_loses_an_erased_person_whose_key_went_first_and_keeps_the_others(
    client: aioredis.Redis, cipher: PersonCipher
) -> None:
    window = RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=1), cipher=cipher)
    await window.append_turns(GROUP, [ChatTurn("user", "Léa's cat Miso purrs", T0, LEA, "Léa"),
                                      ChatTurn("assistant", "Miso sounds sweet", T0)])  # fmt: skip
    await window.append_turns(GROUP, [ChatTurn("user", "Marc's dog Rex barks", T0, MARC, "Marc"),
                                      ChatTurn("assistant", "Rex is loud", T0)])  # fmt: skip
    assert await redis_mentions(client, "Miso", "Rex", "purrs") == []
    assert len(await window.recent_turns(GROUP)) == 4

    await cipher.forget_user(LEA)  # the data key first, as the app orders its erasers
    await window.forget_user(LEA)

    assert [t.text for t in await window.recent_turns(GROUP)] == ["Marc's dog Rex barks", "Rex is loud"]


async def test_forgetting_one_said_text_works_on_sealed_turns(client: aioredis.Redis, cipher: PersonCipher) -> None:
    window = RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=1), cipher=cipher)
    dm = "telegram:dm:4242"
    await window.append_turns(dm, [ChatTurn("user", "I hate my job", T0, LEA), ChatTurn("assistant", "Oh no", T0),
                                   ChatTurn("user", "I like tea", T0, LEA)])  # fmt: skip
    await window.forget_said(LEA, ["I hate my job"])
    assert [t.text for t in await window.recent_turns(dm)] == ["I like tea"]


async def test_the_reply_trail_seals_its_entries(client: aioredis.Redis, cipher: PersonCipher) -> None:
    trail = RedisReplyTrail(client, ttl=timedelta(hours=1), cipher=cipher)
    drawn = (DrawnMemory("m1", "semantic", "Léa has a cat named Miso"), DrawnMemory("m2", "episodic", "Tea"))
    await trail.note_reply(TrailReply("telegram:dm:4242", LEA, T0, drawn))
    assert await redis_mentions(client, "Miso") == []

    await trail.forget_memories(LEA, ["m1"])
    [reply] = await trail.recent_replies(LEA)
    assert reply.memories == drawn[1:]
    assert await redis_mentions(client, "Tea") == []


async def test_mood_notes_seal_readings_and_the_snapshot(client: aioredis.Redis, cipher: PersonCipher) -> None:
    series = RedisMoodSeries(client, cipher=cipher)
    reading = TimedReading(T0, MoodReading("sadness", -0.6, 0.7), ("divorce",))
    await series.add(LEA, reading, sensitive=True, now=T0)

    assert await redis_mentions(client, "divorce", "sadness") == []
    assert await series.readings(LEA) == [reading]
    snapshot = await series.mood_snapshot(LEA)
    assert snapshot is not None and snapshot.recent == (reading,) and snapshot.sensitive_at == T0


async def test_a_long_sealed_mood_series_reads_back_whole(client: aioredis.Redis, cipher: PersonCipher) -> None:
    series = RedisMoodSeries(client, cipher=cipher)
    readings = [TimedReading(T0 + timedelta(hours=n), MoodReading("calm", 0.2, 0.3), ("garden",)) for n in range(90)]
    for reading in readings:
        await series.add(LEA, reading, sensitive=False, now=readings[-1].at)
    assert await series.readings(LEA) == readings
    assert await redis_mentions(client, "garden") == []


async def test_the_scan_finds_words_in_clear_and_not_by_chance_inside_a_sealed_token(client: aioredis.Redis) -> None:
    # A random token that happens to spell "rex" somewhere: the scan must not call that a leak, or every
    # sealed-store test above would fail once in a few hundred runs.
    fernet = Fernet(Fernet.generate_key())
    token = next(t for t in (fernet.encrypt(b"x") for _ in range(100_000)) if b"rex" in t.lower())
    await client.set("souvenir:test:sealed", b"sv1:" + token)
    assert await redis_mentions(client, "Rex") == []

    await client.set("souvenir:test:clear", "Marc's dog Rex barks")
    assert await redis_mentions(client, "Rex") == ["souvenir:test:clear: Marc's dog Rex barks"]
