"""The per-person token bucket in Redis: an allowance a minute, one notice when it runs out, then quiet."""

from __future__ import annotations

import redis.asyncio as aioredis

from bot.engine.conversation.rate_limit import Admission
from memory.redis.rate_limit import RedisRateLimiter
from tests.conftest import FakeClock


async def test_the_allowance_then_one_notice_then_silence_until_it_refills(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    limiter = RedisRateLimiter(redis_client, clock, per_minute=3)
    said = [await limiter.admit("telegram:1") for _ in range(6)]
    assert said == [Admission.ALLOWED] * 3 + [Admission.NOTICE, Admission.SILENT, Admission.SILENT]

    clock.advance(seconds=20)  # one message's worth back
    assert await limiter.admit("telegram:1") is Admission.ALLOWED
    assert await limiter.admit("telegram:1") is Admission.NOTICE  # a new window: told again, once
    assert await limiter.admit("telegram:1") is Admission.SILENT

    clock.advance(minutes=5)  # never more than a full bucket
    assert [await limiter.admit("telegram:1") for _ in range(4)] == [Admission.ALLOWED] * 3 + [Admission.NOTICE]


async def test_each_person_has_their_own_bucket_shared_by_every_replica(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    one, other = (RedisRateLimiter(redis_client, clock, per_minute=2) for _ in range(2))
    assert await one.admit("telegram:1") is Admission.ALLOWED
    assert await other.admit("telegram:1") is Admission.ALLOWED
    assert await one.admit("telegram:1") is Admission.NOTICE  # the second replica's message counted
    assert await other.admit("discord:2") is Admission.ALLOWED
