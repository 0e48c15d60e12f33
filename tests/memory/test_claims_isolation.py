"""Forgetting a person drops the claims of their private chat only, whatever another person's id looks like."""

from __future__ import annotations

import redis.asyncio as aioredis

from memory.redis.stores.message_claims import RedisMessageClaims


async def test_forgetting_one_person_keeps_the_claims_of_a_person_whose_id_extends_theirs(
    redis_client: aioredis.Redis,
) -> None:
    claims = RedisMessageClaims(redis_client)
    # Person "telegram:1" and person "telegram:1:dm:10" (a crafted id): the second chat's id starts with the first's.
    await claims.claim("telegram:dm:1:5")
    await claims.claim("telegram:dm:1:dm:10:6")
    await claims.claim("telegram:dm:1*:7")

    await claims.forget_user("telegram:1")

    assert await claims.claim("telegram:dm:1:5")  # theirs is gone: claimable again
    assert not await claims.claim("telegram:dm:1:dm:10:6")  # the other person's is still held
    assert not await claims.claim("telegram:dm:1*:7")
