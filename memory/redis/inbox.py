"""The durable inbox (`bot.engine.conversation.inbox.Inbox`) in Redis: each message received is claimed and
kept, sealed, in one step, until its reply and exchange are queued.

- `souvenir:claim:<conversation>:<message id>`: the claim a redelivery finds (kept 7 days, as the message claims
  of `RedisMessageClaims`, which share it: erasure takes a person's private chat claims with theirs).
- `souvenir:inbox:<conversation>:<message id>`: a hash with the person key (clear: erasure finds their entries),
  the message as sealed JSON (with encryption on), whose lease it is and how many holders took it.
- `souvenir:inbox:leases`: a sorted set of those entries by the time their lease runs out. A holder renews it
  every third of `lease_s` while it answers; a holder killed stops renewing, and once the lease ran out another
  process (or the same one restarted) takes the entry over, atomically, so one process answers it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from datetime import UTC, timedelta
from typing import Any

import redis.asyncio as aioredis
from pydantic import TypeAdapter, ValidationError

from bot.engine.conversation.inbox import Overdue
from bot.engine.model import IncomingMessage
from bot.engine.ports import Tally
from bot.errors import UnreadableText
from memory.privacy.crypto import PlainCipher, TextCipher

log = logging.getLogger(__name__)

_CLAIM = "souvenir:claim:"
_ENTRY = "souvenir:inbox:"
LEASES = "souvenir:inbox:leases"
_MESSAGE = TypeAdapter(IncomingMessage)

# KEYS: claim, entry, leases. ARGV: claim ttl, person, sealed message, owner, lease end, member.
_RECEIVE = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
redis.call('HSET', KEYS[2], 'person', ARGV[2], 'message', ARGV[3], 'owner', ARGV[4], 'attempts', 0)
redis.call('EXPIRE', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6])
return 1
"""
# KEYS: entry, leases. ARGV: owner, lease end, member.
_RENEW = """
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
redis.call('ZADD', KEYS[2], 'XX', ARGV[2], ARGV[3])
return 1
"""
# KEYS: entry, leases. ARGV: now, owner, lease end, member. The entry, taken over, or nothing.
_TAKE_OVER = """
local ends = redis.call('ZSCORE', KEYS[2], ARGV[4])
if not ends or tonumber(ends) > tonumber(ARGV[1]) then return false end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('ZREM', KEYS[2], ARGV[4]) return false end
redis.call('HSET', KEYS[1], 'owner', ARGV[2])
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return {redis.call('HGET', KEYS[1], 'person'), redis.call('HGET', KEYS[1], 'message'), attempts}
"""


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisInbox:
    def __init__(
        self,
        client: aioredis.Redis,
        *,
        lease_s: float = 30.0,
        cipher: TextCipher | None = None,
        claim_ttl: timedelta = timedelta(days=7),
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._redis = client
        self._lease_s = lease_s
        self._cipher: TextCipher = cipher or PlainCipher()
        self._claim_ttl_s = int(claim_ttl.total_seconds())
        self._wall = wall
        self._owner = uuid.uuid4().hex  # this process: a lease renewed by anyone else is not ours
        self._receive = client.register_script(_RECEIVE)
        self._renew = client.register_script(_RENEW)
        self._take_over = client.register_script(_TAKE_OVER)

    async def receive(self, message: IncomingMessage) -> bool:
        person = message.user.key
        sealed = await self._cipher.seal(person, _MESSAGE.dump_json(message).decode())
        member = message.dedup_key
        received = await self._receive(
            keys=[_CLAIM + member, _ENTRY + member, LEASES],
            args=[self._claim_ttl_s, person, sealed, self._owner, self._wall() + self._lease_s, member],
        )
        return bool(received)

    @contextlib.asynccontextmanager
    async def held(self, message: IncomingMessage) -> AsyncIterator[None]:
        renewing = asyncio.create_task(self._renewing(message.dedup_key))
        try:
            yield
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing

    async def _renewing(self, member: str) -> None:
        while True:
            await asyncio.sleep(self._lease_s / 3)
            try:
                await self._renew(keys=[_ENTRY + member, LEASES], args=[self._owner, self._wall() + self._lease_s,
                                                                        member])  # fmt: skip
            except Exception:  # a Redis hiccup: the next renewal may make it; at worst it is answered twice
                log.warning("could not renew the lease on a message being answered", exc_info=True)

    async def done(self, message: IncomingMessage) -> None:
        await self._drop(message.dedup_key)

    async def overdue(self, limit: int, platforms: tuple[str, ...]) -> list[Overdue]:
        now = self._wall()
        members: list[Any] = await self._redis.zrangebyscore(LEASES, "-inf", now)
        # A conversation id starts with its platform: what no front end here can answer is left to another.
        ours = [m for m in map(_text, members) if m.partition(":")[0] in platforms][:limit]
        found: list[Overdue] = []
        for member in ours:
            taken: Any = await self._take_over(
                keys=[_ENTRY + member, LEASES], args=[now, self._owner, now + self._lease_s, member]
            )
            if not taken:
                continue  # another process took it first, or it was done meanwhile
            person, sealed, attempts = _text(taken[0]), _text(taken[1]), int(taken[2])
            try:
                message = _MESSAGE.validate_json(await self._cipher.open(person, sealed))
            except (UnreadableText, ValidationError):
                log.warning("a message left unanswered could not be read back (its person erased?): dropped")
                await self._drop(member)
                continue
            # Datetimes as the engine makes them (ids derived from them must not change across a round trip).
            found.append(Overdue(replace(message, sent_at=message.sent_at.astimezone(UTC)), attempts))
        return found

    async def _drop(self, member: str) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(_ENTRY + member)
            pipe.zrem(LEASES, member)
            await pipe.execute()

    async def pending(self) -> int:
        """How many messages are received and not yet answered (held or overdue)."""
        return int(await self._redis.zcard(LEASES))

    async def forget_user(self, user_key: str) -> Tally:
        """The person's messages waiting for a reply: their words go with them (how many, for the receipt)."""
        members: list[Any] = await self._redis.zrange(LEASES, 0, -1)
        dropped = 0
        for raw in members:
            member = _text(raw)
            person = await self._redis.hget(_ENTRY + member, "person")  # type: ignore[misc]
            if person is not None and _text(person) == user_key:
                await self._drop(member)
                dropped += 1
        return Tally("waiting_messages", dropped)
