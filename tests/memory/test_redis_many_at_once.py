"""Many people writing at once: more Redis commands in flight than the client keeps connections must wait for a
free connection, not fail ("Too many connections" lost every message past the 100th at 1,000 concurrent people)."""

from __future__ import annotations

import asyncio

from memory.redis.connect import RedisOptions, redis_client


async def test_a_thousand_commands_at_once_all_succeed(redis_url: str) -> None:
    client = redis_client(RedisOptions(url=redis_url))
    try:
        # BLPOP with a short timeout holds its connection for a moment, as a slow command under load does.
        results = await asyncio.gather(
            *(client.blpop([f"souvenir:test:nothing:{n}"], timeout=0.2) for n in range(300)),
            *(client.set(f"souvenir:test:key:{n}", n) for n in range(700)),
        )
        assert results[300:] == [True] * 700
        assert await client.get("souvenir:test:key:699") == b"699"
    finally:
        await client.aclose()
