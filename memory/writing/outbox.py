"""The durable outbox: answered exchanges wait in a Redis stream until long-term memory has them.

The engine adds an entry before its reply goes out; workers (memory.writing.outbox_worker), one per replica, share
one consumer group, so each entry is handed to one of them and the memory writing spreads over replicas.
An entry stays in the stream until it is written (XACK + XDEL), so a killed process loses nothing: its
entries are still pending and another worker, or the same one after a restart, claims them.

Keys:
- `souvenir:outbox` — the stream; each entry holds `exchange` (bytes from the codec, which may seal them)
  and `person` (a one-way hash of the person's key, so /forget all can drop their entries unread).
- `souvenir:outbox:attempts` — failed attempts per entry id (an entry failing too often is a poison one).
- `souvenir:outbox:dead` — entries given up on after too many failures, kept for the operator.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

from bot.engine.model import Exchange
from bot.engine.ports import Tally
from bot.errors import InvalidInput, UnreadableText
from memory.privacy.crypto.cipher import PlainCipher, TextCipher
from memory.writing.outbox_codec import ExchangeCodec, JsonExchangeCodec

STREAM = "souvenir:outbox"
DEAD_LETTERS = "souvenir:outbox:dead"
ATTEMPTS = "souvenir:outbox:attempts"
GROUP = "memory-writers"
_SCAN_CHUNK = 500
_SETTLE_POLL_S = 0.05


def person_tag(user_key: str) -> str:
    return hashlib.sha256(user_key.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    entry_id: str
    data: bytes  # the exchange, as the codec wrote it
    person: str  # person_tag of whose it is
    key: str = ""  # whose key seals `data` (with encryption at rest); "" = stored clear


def _entries(raw: Sequence[Any] | None) -> list[OutboxEntry]:
    """Entries from a redis-py stream reply (its typing does not know the shape of stream replies)."""
    found = []
    for entry_id, fields in raw or []:
        if not fields:  # deleted meanwhile (an erasure): XAUTOCLAIM and history reads give it empty
            continue
        name = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
        found.append(OutboxEntry(name, fields.get(b"exchange", b""), fields.get(b"person", b"").decode(),
                                 fields.get(b"key", b"").decode()))  # fmt: skip
    return found


class RedisOutbox:
    """The stream and its consumer group. `codec` turns exchanges into entry bytes and back: give a sealing
    one to keep entries encrypted at rest."""

    def __init__(
        self, client: aioredis.Redis, codec: ExchangeCodec | None = None, cipher: TextCipher | None = None
    ) -> None:
        self._redis = client
        self.codec = codec or JsonExchangeCodec()
        # With encryption at rest, an entry is sealed with its person's data key: /forget all (which destroys
        # the key) leaves any copy of it, in the stream or the append-only file, unreadable.
        self._cipher: TextCipher = cipher or PlainCipher()
        self._queued: set[str] = set()  # entries this process added that may still wait (for `settle`)

    async def ensure_group(self) -> None:
        try:
            await self._redis.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    # ---- the engine's port ----

    async def enqueue(self, exchange: Exchange) -> None:
        key = exchange.message.user.key
        data = self.codec.encode(exchange)
        fields: dict[str, bytes | str] = {"exchange": data, "person": person_tag(key)}
        if self._cipher.enabled:
            fields["exchange"] = (await self._cipher.seal(key, data.decode())).encode()
            fields["key"] = key
        entry_id = await self._redis.xadd(STREAM, fields)  # type: ignore[arg-type]
        self._queued.add(_name(entry_id))

    async def settle(self, within_s: float | None = None) -> bool:
        loop = asyncio.get_running_loop()
        deadline = None if within_s is None else loop.time() + within_s
        while self._queued:
            asked = list(self._queued)  # a worker may finish, and the engine add, entries while Redis answers
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for entry_id in asked:
                        pipe.xrange(STREAM, min=entry_id, max=entry_id, count=1)
                    found = await pipe.execute()
                self._queued.difference_update(i for i, hit in zip(asked, found, strict=True) if not hit)
            except (RedisError, OSError):
                pass  # Redis restarting: asked again in a moment
            if not self._queued or (deadline is not None and loop.time() >= deadline):
                return not self._queued
            await asyncio.sleep(_SETTLE_POLL_S)
        return True

    # ---- what workers do ----

    async def read_exchange(self, entry: OutboxEntry) -> Exchange:
        """The exchange an entry holds; InvalidInput when it cannot be read (damaged, or its key destroyed)."""
        data = entry.data
        if entry.key:
            try:
                data = (await self._cipher.open(entry.key, data.decode())).encode()
            except (UnreadableText, UnicodeDecodeError) as exc:
                raise InvalidInput(f"an outbox entry cannot be opened: {type(exc).__name__}") from None
        return self.codec.decode(data)

    async def read_new(self, consumer: str, count: int, block_ms: int | None) -> list[OutboxEntry]:
        """Entries no worker has had yet, now handed to `consumer` (pending under it until acknowledged)."""
        reply: Any = await self._redis.xreadgroup(GROUP, consumer, {STREAM: ">"}, count=count, block=block_ms)
        return _entries(reply[0][1]) if reply else []

    async def read_own_pending(self, consumer: str, count: int) -> list[OutboxEntry]:
        """Entries `consumer` took and has not finished (it failed on them, or was stopped mid-way)."""
        reply: Any = await self._redis.xreadgroup(GROUP, consumer, {STREAM: "0"}, count=count)
        return _entries(reply[0][1]) if reply else []

    async def claim_idle(self, consumer: str, idle_ms: int, count: int) -> list[OutboxEntry]:
        """Entries pending under another worker for at least `idle_ms` (it died, or stalled): now `consumer`'s."""
        reply: Any = await self._redis.xautoclaim(STREAM, GROUP, consumer, min_idle_time=idle_ms, start_id="0-0",
                                             count=count)  # fmt: skip
        return _entries(reply[1])

    async def done(self, entry_id: str) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.xack(STREAM, GROUP, entry_id)
            pipe.xdel(STREAM, entry_id)
            pipe.hdel(ATTEMPTS, entry_id)
            await pipe.execute()
        self._queued.discard(entry_id)  # written: nothing to wait for (the set holds only what may wait)

    async def failed(self, entry_id: str) -> int:
        """Count one failed attempt; returns how many there have been."""
        return int(await self._redis.hincrby(ATTEMPTS, entry_id, 1))

    async def bury(self, entry: OutboxEntry, reason: str) -> None:
        """Give up on a poison entry: moved, whole, to the dead-letter stream, out of everyone's way."""
        async with self._redis.pipeline(transaction=True) as pipe:
            # Whole: `key` says whose data key seals it, so the dead letter can still be opened (and erased).
            pipe.xadd(DEAD_LETTERS, {"exchange": entry.data, "person": entry.person, "key": entry.key,
                                     "entry": entry.entry_id, "reason": reason[:500]})  # fmt: skip
            pipe.xack(STREAM, GROUP, entry.entry_id)
            pipe.xdel(STREAM, entry.entry_id)
            pipe.hdel(ATTEMPTS, entry.entry_id)
            await pipe.execute()
        self._queued.discard(entry.entry_id)

    async def depth(self) -> int:
        """Entries waiting to be written (new or in hand): written ones are deleted from the stream."""
        return int(await self._redis.xlen(STREAM))

    async def dead_letters(self) -> int:
        return int(await self._redis.xlen(DEAD_LETTERS))

    # ---- UserDataEraser ----

    async def forget_user(self, user_key: str) -> Tally:
        """/forget all: the person's waiting and given-up entries go, unread (the erasure epoch would also
        stop a write already under way; this makes sure their words do not linger in the stream); how many."""
        tag = person_tag(user_key)
        dropped = 0
        for stream in (STREAM, DEAD_LETTERS):
            start = "-"
            while True:
                chunk: Any = await self._redis.xrange(stream, min=start, max="+", count=_SCAN_CHUNK)
                mine = [_name(i) for i, fields in chunk if fields.get(b"person", b"").decode() == tag]
                if mine:
                    async with self._redis.pipeline(transaction=True) as pipe:
                        if stream == STREAM:
                            pipe.xack(STREAM, GROUP, *mine)
                            pipe.hdel(ATTEMPTS, *mine)
                        pipe.xdel(stream, *mine)
                        await pipe.execute()
                    self._queued.difference_update(mine)
                    dropped += len(mine)
                if len(chunk) < _SCAN_CHUNK:
                    break
                start = "(" + _name(chunk[-1][0])
        return Tally("waiting_writes", dropped)


def _name(entry_id: bytes | str) -> str:
    return entry_id.decode() if isinstance(entry_id, bytes) else entry_id
