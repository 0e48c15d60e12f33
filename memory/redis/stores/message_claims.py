"""Message claims in Redis: SET NX per platform message, so a re-delivered update is answered once."""

from __future__ import annotations

from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.ports import Tally
from memory.redis.stores.keys import PREFIX, glob_escaped, text_of


class RedisMessageClaims:
    """SET NX per platform message: a re-delivered update is claimed once."""

    def __init__(self, client: aioredis.Redis, *, ttl: timedelta = timedelta(days=7)) -> None:
        self._redis = client
        self._ttl_s = int(ttl.total_seconds())

    async def claim(self, key: str) -> bool:
        return bool(await self._redis.set(f"{PREFIX}:claim:{key}", "1", nx=True, ex=self._ttl_s))

    async def forget_user(self, user_key: str) -> Tally:
        """The claims of the person's private chat name them (group claims name the group only); how many."""
        dropped = 0
        platform, _, user_id = user_key.partition(":")
        prefix = f"{PREFIX}:claim:{platform}:dm:{user_id}:"
        async for key in self._redis.scan_iter(match=f"{glob_escaped(prefix)}*", count=1000):
            # Past the prefix comes a message id, never a colon: "…:dm:1:dm:10:5" is someone else's chat
            # (a user id "1:dm:10"), whose claims the person with id "1" must not erase.
            if ":" not in text_of(key)[len(prefix) :]:
                dropped += int(await self._redis.delete(key))
        return Tally("answered_marks", dropped)
