"""The daily picture count in Redis: per person and local day, atomic, given back, erased with the person."""

from __future__ import annotations

from datetime import date

import redis.asyncio as aioredis

from memory.redis.picture_quota import RedisPictureQuota

DAY = date(2026, 7, 1)


async def test_the_limit_holds_per_day_and_a_given_back_picture_counts_no_more(redis_client: aioredis.Redis) -> None:
    quota = RedisPictureQuota(redis_client)
    assert [await quota.take("telegram:1", DAY, 2) for _ in range(3)] == [True, True, False]
    await quota.give_back("telegram:1", DAY)
    assert await quota.take("telegram:1", DAY, 2)
    assert await quota.take("telegram:1", date(2026, 7, 2), 2)  # a new day
    assert await quota.take("telegram:2", DAY, 2)  # someone else
    assert await quota.made_on("telegram:1", DAY) == 2
    assert 0 < await redis_client.ttl("souvenir:pictures:telegram:1:2026-07-01") <= 2 * 24 * 3600


async def test_forgetting_a_person_drops_their_counts_only(redis_client: aioredis.Redis) -> None:
    quota = RedisPictureQuota(redis_client)
    await quota.take("telegram:1", DAY, 5)
    await quota.take("telegram:1", date(2026, 7, 2), 5)
    await quota.take("telegram:10", DAY, 5)
    await quota.forget_user("telegram:1")
    assert await quota.made_on("telegram:1", DAY) == 0 and await quota.made_on("telegram:1", date(2026, 7, 2)) == 0
    assert await quota.made_on("telegram:10", DAY) == 1
