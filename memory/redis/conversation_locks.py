"""Conversation locks in Redis, so that two replicas never answer the same conversation at once.

A lock is `SET NX PX` of a random owner id, renewed while held and released by compare-and-delete, so a
process that died frees its conversations after `ttl` and never deletes a lock it no longer owns.

Each grant also increments the conversation's fencing counter (in the same script) and yields its value.
What the token protects: the conversation window. `RedisConversationWindow.append_turns(..., fence=token)`
refuses the write once the counter has moved past the token, i.e. once a process that stalled beyond `ttl`
(a long GC pause, a network cut that stopped its renewals) lost the lock and someone else took it: the stale
holder's reply is dropped rather than interleaved with the new holder's. Profiles and memories written after
the window are per-field or idempotent and are not fenced.

Waiters of one process queue in an asyncio lock (FIFO, so a conversation's messages keep their order) and
only the first polls Redis, with a backoff capped at `max_poll`: no hot spin, and a waiter of another process
gets its turn within that cap of a release.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import timedelta
from uuid import uuid4

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from bot.engine.conversation.locks import KeyedLocks
from bot.engine.ports import Tally

log = logging.getLogger(__name__)

_FENCE_LIFETIME_MS = 7 * 24 * 3600 * 1000  # far beyond any stall a holder could wake up from

_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local token = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  return token
end
return 0
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lock_key(conversation_id: str) -> str:
    return f"souvenir:conversation-lock:{conversation_id}"


def fence_key(conversation_id: str) -> str:
    """The newest fencing token granted for the conversation (the window refuses writes with an older one)."""
    return f"souvenir:conversation-fence:{conversation_id}"


class RedisConversationLocks:
    def __init__(
        self,
        client: aioredis.Redis,
        *,
        ttl: timedelta = timedelta(seconds=15),
        renew_every: timedelta | None = None,
        first_poll: timedelta = timedelta(milliseconds=10),
        max_poll: timedelta = timedelta(milliseconds=250),
    ) -> None:
        self._redis = client
        self._ttl_ms = max(1, int(ttl.total_seconds() * 1000))
        self._renew_s = (renew_every or ttl / 3).total_seconds()
        self._first_poll_s = first_poll.total_seconds()
        self._max_poll_s = max_poll.total_seconds()
        self._local = KeyedLocks()
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    @asynccontextmanager
    async def hold(self, conversation_id: str) -> AsyncIterator[int]:
        async with self._local.hold(conversation_id):
            owner = uuid4().hex
            token = await self._take(conversation_id, owner)
            renewing = asyncio.create_task(self._keep(conversation_id, owner))
            try:
                yield token
            finally:
                renewing.cancel()
                with suppress(asyncio.CancelledError):
                    await renewing
                try:
                    await self._release(keys=[lock_key(conversation_id)], args=[owner])
                except (RedisError, OSError):
                    log.warning("could not release the lock of %s; it expires by itself", conversation_id)

    async def forget_user(self, user_key: str) -> Tally:
        """Drop the fencing counter of the person's private chat: its key names them. (Their group chats' keys
        name the group only.) A reply in flight meanwhile is dropped by the erasure fence, not this one."""
        platform, _, user_id = user_key.partition(":")
        return Tally("locks", int(await self._redis.delete(fence_key(f"{platform}:dm:{user_id}"))))

    async def _take(self, conversation_id: str, owner: str) -> int:
        keys = [lock_key(conversation_id), fence_key(conversation_id)]
        delay = self._first_poll_s
        while True:
            token = int(await self._acquire(keys=keys, args=[owner, self._ttl_ms, _FENCE_LIFETIME_MS]))
            if token:
                return token
            if delay == self._first_poll_s:
                log.debug("conversation %s is being answered by another process; waiting for its lock", conversation_id)
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))  # jitter: waiters of two processes interleave
            delay = min(delay * 2, self._max_poll_s)

    async def _keep(self, conversation_id: str, owner: str) -> None:
        while True:
            await asyncio.sleep(self._renew_s)
            try:
                renewed = await self._renew(keys=[lock_key(conversation_id)], args=[owner, self._ttl_ms])
            except (RedisError, OSError):
                log.warning("could not renew the lock of %s; retrying", conversation_id)
                continue
            if not renewed:
                # Expired and maybe taken: the fencing token now keeps this holder's window writes out.
                log.warning("the lock of %s expired while held", conversation_id)
                return
