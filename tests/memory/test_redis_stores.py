"""Redis-backed profiles, windows and claims on a real server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.model import ChatTurn, MonthDay, UserProfile
from memory.redis_stores import RedisConversationWindow, RedisMessageClaims, RedisProfiles

AT = datetime(2026, 2, 28, 23, 59, tzinfo=UTC)


async def test_a_profile_round_trips_every_field(redis_client: aioredis.Redis) -> None:
    profiles = RedisProfiles(redis_client)
    full = UserProfile(
        user_key="discord:1",
        display_name="Zoë",
        timezone="America/New_York",
        language="fr",
        birthday=MonthDay(2, 29),
        checkins=True,
        birthday_wishes=False,
        reachable=False,
        share_dm_memories_in_groups=True,
        first_seen_at=AT,
        last_seen_at=AT + timedelta(days=1),
        last_disclosed_at=AT,
    )
    await profiles.save_profile(full)
    assert await profiles.load_profile("discord:1") == full


async def test_an_unknown_person_has_the_default_profile(redis_client: aioredis.Redis) -> None:
    assert await RedisProfiles(redis_client).load_profile("telegram:9") == UserProfile("telegram:9")


async def test_clearing_a_field_removes_it(redis_client: aioredis.Redis) -> None:
    profiles = RedisProfiles(redis_client)
    await profiles.save_profile(UserProfile("t:1", timezone="Asia/Tokyo", birthday=MonthDay(1, 2, 1990)))
    await profiles.save_profile(UserProfile("t:1"))
    assert await profiles.load_profile("t:1") == UserProfile("t:1")


async def test_claims_are_granted_once(redis_client: aioredis.Redis) -> None:
    claims = RedisMessageClaims(redis_client)
    assert await claims.claim("telegram:dm:1:55")
    assert not await claims.claim("telegram:dm:1:55")
    assert await claims.claim("telegram:dm:1:56")


async def test_a_window_keeps_order_and_authors(redis_client: aioredis.Redis) -> None:
    window = RedisConversationWindow(redis_client, max_turns=3, ttl=timedelta(minutes=5))
    turns = [ChatTurn("user", f"t{n}", AT + timedelta(seconds=n), "telegram:1", "Ana") for n in range(4)]
    await window.append_turns("telegram:chat:7", turns[:2])
    await window.append_turns("telegram:chat:7", turns[2:])

    assert await window.recent_turns("telegram:chat:7") == turns[1:]
    assert 0 < await redis_client.ttl("souvenir:window:telegram:chat:7") <= 300


async def test_forgetting_a_person_erases_a_private_window_of_unprompted_messages(redis_client: aioredis.Redis) -> None:
    window = RedisConversationWindow(redis_client, max_turns=10, ttl=timedelta(days=1))
    await window.append_turns("telegram:dm:5", [ChatTurn("assistant", "Happy birthday!", AT)])

    await window.forget_user("telegram:5")

    assert await window.recent_turns("telegram:dm:5") == []
