"""Fixtures of the memory tests: a person cipher over the test Redis (encryption at rest, each person's own key)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from memory.privacy.crypto import PersonCipher, RedisDataKeys, new_master_key


@pytest.fixture
async def cipher(redis_url: str) -> AsyncIterator[PersonCipher]:
    """A module may give its own `cipher` instead (over a client of its own)."""
    client = aioredis.from_url(redis_url)
    try:
        yield PersonCipher(RedisDataKeys(client, new_master_key()))
    finally:
        await client.aclose()
