"""Discord's IDENTIFY pacing shared by every process of one bot, in Redis.

Discord lets a bot start `max_concurrency` sessions per 5 s: shard `n` belongs to rate-limit bucket
`n % max_concurrency`, and each bucket may IDENTIFY once per 5 s. With the shards split across processes
(SOUVENIR_DISCORD_SHARD_IDS) no process knows when another one identified, so each bucket's turn is a Redis key
taken with `SET NX PX 5000`: whoever sets it may IDENTIFY now, everyone else waits for it to expire.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import redis.asyncio as aioredis

log = logging.getLogger(__name__)

KEY_PREFIX = "souvenir:discord:identify:"
_POLL_MS = 250  # a waiting shard looks again this often (a turn handed back early is seen soon)


class RedisIdentifyGate:
    def __init__(self, client: aioredis.Redis, *, interval: timedelta = timedelta(seconds=5)) -> None:
        self._redis = client
        self._interval_ms = max(1, int(interval.total_seconds() * 1000))

    async def wait_turn(self, bucket: int) -> None:
        """Return once this process may IDENTIFY a shard of `bucket` (its slot is then held for the interval)."""
        key = f"{KEY_PREFIX}{bucket}"
        waited = False
        while not await self._redis.set(key, "1", nx=True, px=self._interval_ms):
            if not waited:
                log.info("Discord IDENTIFY bucket %d is busy (another shard just connected); waiting", bucket)
                waited = True
            remaining_ms = await self._redis.pttl(key)
            await asyncio.sleep(min(max(remaining_ms, 10), _POLL_MS) / 1000)
