"""A token bucket per person in Redis, shared by every replica: one Lua script, one round trip.

The bucket holds `per_minute` messages and refills at that rate. A message with no token left gets the
kind notice once; further ones get nothing until a token is back (then the notice may come again)."""

from __future__ import annotations

import hashlib

import redis.asyncio as aioredis

from bot.engine.conversation.rate_limit import Admission
from bot.engine.ports import Clock

# KEYS[1] the bucket; ARGV: capacity, tokens per millisecond, now (ms), expiry (ms).
_TAKE = """
local cap = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts', 'noticed')
local tokens = tonumber(b[1]) or cap
local ts = tonumber(b[2]) or now
local noticed = tonumber(b[3]) or 0
if now > ts then
  tokens = math.min(cap, tokens + (now - ts) * rate)
  ts = now
end
local result
if tokens >= 1 then
  tokens = tokens - 1
  noticed = 0
  result = 1
elseif noticed == 0 then
  noticed = 1
  result = 0
else
  result = -1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(ts), 'noticed', noticed)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return result
"""
_ADMISSIONS = {1: Admission.ALLOWED, 0: Admission.NOTICE, -1: Admission.SILENT}


def _bucket_key(person_key: str) -> str:
    return f"souvenir:rate:{hashlib.sha256(person_key.encode()).hexdigest()}"


class RedisRateLimiter:
    def __init__(self, client: aioredis.Redis, clock: Clock, *, per_minute: int) -> None:
        if per_minute < 1:
            raise ValueError("per_minute: at least 1 (no limiter at all when it is off)")
        self._per_minute = per_minute
        self._clock = clock
        self._take = client.register_script(_TAKE)

    async def admit(self, person_key: str) -> Admission:
        now_ms = int(self._clock.now().timestamp() * 1000)
        refill_ms = 60_000 / self._per_minute  # one token back every this many milliseconds
        expiry_ms = int(refill_ms * self._per_minute) + 60_000  # a full bucket needs no key
        result = await self._take(
            keys=[_bucket_key(person_key)], args=[self._per_minute, 1 / refill_ms, now_ms, expiry_ms]
        )
        return _ADMISSIONS[int(result)]
