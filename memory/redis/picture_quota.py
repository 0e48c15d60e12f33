"""How many pictures each person had on each of their local days: one Redis counter per person and day.

A counter lives two days (a local day never spans more), so nothing about pictures outlives that; `forget_user`
drops a person's counters at once.
"""

from __future__ import annotations

from datetime import date

import redis.asyncio as aioredis

_PREFIX = "souvenir:pictures"
_LIFETIME_S = 2 * 24 * 3600

# Count one unless the limit is reached: the check and the count in one step, so two replicas never both
# take the last picture of the day.
_TAKE = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""
_GIVE_BACK = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 1
"""


def picture_count_key(user_key: str, day: date) -> str:
    return f"{_PREFIX}:{user_key}:{day.isoformat()}"


class RedisPictureQuota:
    def __init__(self, redis: aioredis.Redis) -> None:
        self._redis = redis

    async def take(self, user_key: str, day: date, limit: int) -> bool:
        taken = await self._redis.eval(_TAKE, 1, picture_count_key(user_key, day), limit, _LIFETIME_S)  # type: ignore[misc]
        return bool(int(taken))

    async def give_back(self, user_key: str, day: date) -> None:
        await self._redis.eval(_GIVE_BACK, 1, picture_count_key(user_key, day))  # type: ignore[misc]

    async def made_on(self, user_key: str, day: date) -> int:
        value = await self._redis.get(picture_count_key(user_key, day))
        return int(value or 0)

    async def forget_user(self, user_key: str) -> None:
        keys = [key async for key in self._redis.scan_iter(match=f"{_PREFIX}:{_escaped(user_key)}:*", count=100)]
        if keys:
            await self._redis.delete(*keys)


def _escaped(text: str) -> str:
    """`text` matched literally by SCAN's glob pattern."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)
