"""The memory browser's sessions, in Redis: which account a browser's cookie opens, and its CSRF token.

Only the SHA-256 of a session id is stored (a copy of Redis opens no one's page). Each session is listed under
the account and the person it was opened for, so `/forget all` and `/unlink` end every one of them at once
(`forget_user`). A session lasts `lifetime` from its opening by the injected clock; Redis drops it after that.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.ports import Clock

_PREFIX = "souvenir:web:session"
_OF = "souvenir:web:sessions-of"
SESSION_LIFETIME = timedelta(hours=1)


def _hashed(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class RedisWebSessions:
    def __init__(self, client: aioredis.Redis, clock: Clock, lifetime: timedelta = SESSION_LIFETIME) -> None:
        self._redis = client
        self._clock = clock
        self._lifetime = lifetime

    @property
    def lifetime(self) -> timedelta:
        return self._lifetime

    async def open(self, account_key: str, person_key: str) -> tuple[str, str]:
        """A new session for the account: its id (the cookie) and its CSRF token."""
        session_id, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        hashed = _hashed(session_id)
        body = json.dumps({"account": account_key, "csrf": csrf, "opened": self._clock.now().isoformat()})
        seconds = int(self._lifetime.total_seconds()) + 60
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(f"{_PREFIX}:{hashed}", body, ex=seconds)
            for key in {account_key, person_key}:
                pipe.sadd(f"{_OF}:{key}", hashed)
                pipe.expire(f"{_OF}:{key}", seconds)
            await pipe.execute()
        return session_id, csrf

    async def find(self, session_id: str) -> tuple[str, str] | None:
        """The account and the CSRF token of a live session; None for an unknown, ended or expired one."""
        if not session_id or len(session_id) > 100:
            return None
        raw = await self._redis.get(f"{_PREFIX}:{_hashed(session_id)}")
        if raw is None:
            return None
        body = json.loads(raw)
        if self._clock.now() - datetime.fromisoformat(body["opened"]) > self._lifetime:
            return None
        return str(body["account"]), str(body["csrf"])

    async def end(self, session_id: str) -> None:
        await self._redis.delete(f"{_PREFIX}:{_hashed(session_id)}")

    async def forget_user(self, user_key: str) -> int:
        """End every session opened for this account or person; how many were still open."""
        hashed = await self._redis.smembers(f"{_OF}:{user_key}")
        keys = [f"{_PREFIX}:{h.decode() if isinstance(h, bytes) else h}" for h in hashed]
        async with self._redis.pipeline(transaction=True) as pipe:
            if keys:
                pipe.delete(*keys)
            pipe.delete(f"{_OF}:{user_key}")
            ended = await pipe.execute()
        return int(ended[0]) if keys else 0
