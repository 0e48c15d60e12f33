"""Redis-backed profiles, windows and claims on a real server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.model import ChatTurn, MonthDay, UserProfile
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles

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


async def test_several_profiles_load_in_order_with_defaults_for_unknown_people(redis_client: aioredis.Redis) -> None:
    profiles = RedisProfiles(redis_client)
    ana = UserProfile("telegram:1", display_name="Ana", birthday=MonthDay(3, 14), last_seen_at=AT)
    zoe = UserProfile("discord:2", timezone="Europe/Paris", checkins=True)
    await profiles.save_profile(ana)
    await profiles.save_profile(zoe)

    loaded = await profiles.load_profiles(["discord:2", "telegram:9", "telegram:1"])

    assert loaded == [zoe, UserProfile("telegram:9"), ana]
    assert await profiles.load_profiles([]) == []


async def test_marking_a_disclosure_keeps_every_other_setting(redis_client: aioredis.Redis) -> None:
    profiles = RedisProfiles(redis_client)
    await profiles.save_profile(UserProfile("telegram:1", language="fr", birthday_wishes=False))
    await profiles.save_profile(UserProfile("telegram:2", timezone="Asia/Tokyo", last_disclosed_at=AT))

    await profiles.mark_disclosed({"telegram:1": AT, "telegram:2": AT + timedelta(days=2)})

    assert await profiles.load_profiles(["telegram:1", "telegram:2"]) == [
        UserProfile("telegram:1", language="fr", birthday_wishes=False, last_disclosed_at=AT),
        UserProfile("telegram:2", timezone="Asia/Tokyo", last_disclosed_at=AT + timedelta(days=2)),
    ]


async def test_turns_appended_to_several_windows_at_once_are_trimmed_and_expire(redis_client: aioredis.Redis) -> None:
    window = RedisConversationWindow(redis_client, max_turns=2, ttl=timedelta(minutes=5))
    old = [ChatTurn("user", f"old{n}", AT, "telegram:1", "Ana") for n in range(2)]
    await window.append_turns("telegram:dm:1", old)
    wish = ChatTurn("assistant", "Happy birthday!", AT + timedelta(hours=1))
    note = ChatTurn("assistant", "Good luck tomorrow!", AT + timedelta(hours=1))

    await window.append_turns_to_many({"telegram:dm:1": [wish], "telegram:dm:2": [note], "telegram:dm:3": []})

    assert await window.recent_turns("telegram:dm:1") == [old[1], wish]
    assert await window.recent_turns("telegram:dm:2") == [note]
    assert await redis_client.exists("souvenir:window:telegram:dm:3") == 0
    assert 0 < await redis_client.ttl("souvenir:window:telegram:dm:2") <= 300


async def test_everyone_with_a_profile_is_listed_until_erased(redis_client: aioredis.Redis) -> None:
    profiles = RedisProfiles(redis_client)
    await profiles.save_profile(UserProfile("terminal:lea", display_name="Léa"))
    await profiles.mark_disclosed({"telegram:7": AT})
    assert await profiles.known_user_keys() == ["telegram:7", "terminal:lea"]

    await profiles.forget_user("terminal:lea")

    assert await profiles.known_user_keys() == ["telegram:7"]


async def test_profiles_saved_before_the_list_existed_are_listed(redis_client: aioredis.Redis) -> None:
    await redis_client.hset("souvenir:profile:discord:5", mapping={"display_name": "Ana"})
    assert await RedisProfiles(redis_client).known_user_keys() == ["discord:5"]
