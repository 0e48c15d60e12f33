"""The memory browser's single-use login tokens (Discord's `/memories web` link), in Redis so that any replica
can redeem a token another one issued.

A token is kept only as its SHA-256 (a copy of Redis opens no one's page), bound to the account that asked for
it, valid for ten minutes by the injected clock (Redis lets it expire too), and burnt on first use: GETDEL reads
and deletes in one step, so two replicas never both redeem it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.ports import Clock

_PREFIX = "souvenir:web:login"
LOGIN_VALIDITY = timedelta(minutes=10)


def _key(token: str) -> str:
    return f"{_PREFIX}:{hashlib.sha256(token.encode()).hexdigest()}"


class RedisLoginTokens:
    def __init__(self, client: aioredis.Redis, clock: Clock, validity: timedelta = LOGIN_VALIDITY) -> None:
        self._redis = client
        self._clock = clock
        self._validity = validity

    async def issue(self, account_key: str) -> str:
        token = secrets.token_urlsafe(32)
        value = f"{self._clock.now().isoformat()} {account_key}"
        await self._redis.set(_key(token), value, ex=int(self._validity.total_seconds()) + 60)
        return token

    async def redeem(self, token: str) -> str | None:
        """The account the token was issued to, once; None for an unknown, used or expired token."""
        if not token or len(token) > 100:
            return None
        value = await self._redis.getdel(_key(token))
        if value is None:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        issued, _, account_key = text.partition(" ")
        if self._clock.now() - datetime.fromisoformat(issued) > self._validity:
            return None
        return account_key
