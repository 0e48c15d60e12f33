"""Erasure that cannot be undone by a write in flight.

A memory write (LLM extraction takes seconds), a reply being written or a schedule being planned can
still be running when the person says `/forget all` or forgets one memory. Each such write reads the
person's erasure epoch before it starts and again after it has written; when the epoch moved, it removes
what it wrote. Redis holds the epoch, so this works across processes; Qdrant writes are not atomic with
Redis, hence the re-check after writing rather than a check before.

Keys (a one-way hash of the user key names them, so no key or value names the person after erasure; they
expire a day after the last erasure, long after any write in flight has finished):
- `souvenir:erasure:<hash>` — the erasure epoch: set by every `/forget all` to the next value of
  `souvenir:erasure:counter`, one counter for everyone that never expires, so an epoch never comes back after
  its key expired (a write that read it a day ago still sees it moved);
- `souvenir:forgotten:<hash>` — ids of memories forgotten one by one lately.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.ports import UserDataEraser

EPOCH_TTL = timedelta(days=1)
_COUNTER = "souvenir:erasure:counter"  # names no one: how many erasures there have been, in all


def _hashed(user_key: str) -> str:
    return hashlib.sha256(user_key.encode()).hexdigest()


def _epoch_key(user_key: str) -> str:
    return f"souvenir:erasure:{_hashed(user_key)}"


def _forgotten_key(user_key: str) -> str:
    return f"souvenir:forgotten:{_hashed(user_key)}"


class RedisErasureLog:
    """The erasure epochs and recently forgotten memory ids; as an eraser it must run before every other
    one, so that a write in flight sees the new epoch before anything it could bring back is deleted."""

    def __init__(self, client: aioredis.Redis, *, ttl: timedelta = EPOCH_TTL) -> None:
        self._redis = client
        self._ttl_s = int(ttl.total_seconds())

    async def epoch(self, user_key: str) -> int:
        raw = await self._redis.get(_epoch_key(user_key))
        return int(raw) if raw is not None else 0

    async def forget_user(self, user_key: str) -> None:
        epoch = await self._redis.incr(_COUNTER)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.set(_epoch_key(user_key), epoch, ex=self._ttl_s)
            pipe.delete(_forgotten_key(user_key))  # the epoch covers them now
            await pipe.execute()

    async def forgot(self, user_key: str, memory_ids: Sequence[str]) -> None:
        if not memory_ids:
            return
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.sadd(_forgotten_key(user_key), *memory_ids)
            pipe.expire(_forgotten_key(user_key), self._ttl_s)
            await pipe.execute()

    async def forgotten_among(self, user_key: str, memory_ids: Sequence[str]) -> set[str]:
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return set()
        found = await self._redis.smismember(_forgotten_key(user_key), ids)
        return {memory_id for memory_id, hit in zip(ids, found, strict=True) if hit}


class ShortTermFence:
    """The engine's fence: when /forget all ran while a reply was written, the person's profile and
    conversation windows are erased again (the stores `erasers` name)."""

    def __init__(self, log: RedisErasureLog, erasers: Sequence[UserDataEraser]) -> None:
        self._log = log
        self._erasers = tuple(erasers)

    async def epoch(self, user_key: str) -> int:
        return await self._log.epoch(user_key)

    async def settle(self, user_key: str, since: int) -> bool:
        if await self._log.epoch(user_key) == since:
            return True
        for eraser in self._erasers:
            await eraser.forget_user(user_key)
        return False
