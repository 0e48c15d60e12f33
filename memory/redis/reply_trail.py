"""The reply trail in Redis: which memories the last few replies drew on ("why did you say that?").

Keys (per person and conversation, so that in a group one person never sees what another's replies drew on):
- `souvenir:why:<user key>:<conversation id>` — a list of the last replies' entries, newest first, capped;
- `souvenir:why-conversations:<user key>` — the conversations that have one, for export and erasure.
Both expire like the conversation window: the trail explains recent replies, it is no second memory.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from bot.engine.model import UserRef, dm_conversation_id
from bot.engine.ports import DrawnMemory, TrailReply
from bot.errors import UnreadableText
from memory.ports import ErasureLog
from memory.privacy.crypto import PlainCipher, TextCipher

REPLIES_KEPT = 5
_PREFIX = "souvenir"


def _trail_key(user_key: str, conversation_id: str) -> str:
    return f"{_PREFIX}:why:{user_key}:{conversation_id}"


def _conversations_key(user_key: str) -> str:
    return f"{_PREFIX}:why-conversations:{user_key}"


class RedisReplyTrail:
    """The `ReplyTrail` port; also a `UserDataEraser`, and forgets memories forgotten one by one.

    `forgotten` (the erasure log) keeps out of a new entry a memory forgotten while its reply was written."""

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        ttl: timedelta,
        kept: int = REPLIES_KEPT,
        forgotten: ErasureLog | None = None,
        cipher: TextCipher | None = None,
    ) -> None:
        self._redis = client
        self._cipher: TextCipher = cipher or PlainCipher()  # seals each entry with the person's data key
        self._ttl_s = max(1, int(ttl.total_seconds()))
        self._kept = kept
        self._forgotten = forgotten

    async def note_reply(self, reply: TrailReply) -> None:
        memories = reply.memories
        if self._forgotten is not None and memories:
            gone = await self._forgotten.forgotten_among(reply.user_key, [m.memory_id for m in memories])
            memories = tuple(m for m in memories if m.memory_id not in gone)
        key = _trail_key(reply.user_key, reply.conversation_id)
        entry = await self._cipher.seal(reply.user_key, _to_json(reply.at, memories))
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.lpush(key, entry)
            pipe.ltrim(key, 0, self._kept - 1)
            pipe.expire(key, self._ttl_s)
            pipe.sadd(_conversations_key(reply.user_key), reply.conversation_id)
            pipe.expire(_conversations_key(reply.user_key), self._ttl_s)
            await pipe.execute()

    async def recent_replies(self, user_key: str, conversation_id: str | None = None) -> list[TrailReply]:
        conversations = [conversation_id] if conversation_id is not None else await self._conversations(user_key)
        replies: list[TrailReply] = []
        for conversation in conversations:
            raw = await self._redis.lrange(_trail_key(user_key, conversation), 0, -1)
            for item in raw:
                try:
                    replies.append(_from_json(await self._cipher.open(user_key, _str(item)), user_key, conversation))
                except UnreadableText:
                    continue
        return sorted(replies, key=lambda r: r.at, reverse=True)

    async def forget_memories(self, user_key: str, memory_ids: Sequence[str]) -> None:
        """Take memories the person forgot out of every reply that drew on them."""
        ids = set(memory_ids)
        if not ids:
            return
        for conversation in await self._conversations(user_key):
            key = _trail_key(user_key, conversation)
            # The watch makes a reply noted meanwhile retry the scrub rather than be lost.
            async with self._redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(key)
                        stored = [_str(raw) for raw in await pipe.lrange(key, 0, -1)]
                        kept = [await self._without(user_key, raw, ids) for raw in stored]
                        if kept == stored:
                            break
                        ttl = await pipe.ttl(key)
                        pipe.multi()
                        pipe.delete(key)
                        pipe.rpush(key, *kept)
                        pipe.expire(key, ttl if ttl > 0 else self._ttl_s)
                        await pipe.execute()
                        break
                    except WatchError:
                        continue

    async def forget_user(self, user_key: str) -> int:
        """The person's trail in every conversation; how many replies it told of."""
        conversations = set(await self._conversations(user_key))
        platform, _, user_id = user_key.partition(":")
        conversations.add(dm_conversation_id(UserRef(platform, user_id)))
        trails = [_trail_key(user_key, c) for c in sorted(conversations)]
        async with self._redis.pipeline(transaction=True) as pipe:
            for trail in trails:
                pipe.llen(trail)
            pipe.delete(_conversations_key(user_key), *trails)
            *held, _ = await pipe.execute()
        return sum(int(n) for n in held)

    async def _without(self, user_key: str, stored: str, memory_ids: set[str]) -> str:
        """The stored entry without `memory_ids` (sealed again when it was sealed)."""
        try:
            opened = await self._cipher.open(user_key, stored)
        except UnreadableText:
            return stored
        kept = _without(opened, memory_ids)
        return stored if kept == opened else await self._cipher.seal(user_key, kept)

    async def _conversations(self, user_key: str) -> list[str]:
        return sorted(_str(c) for c in await self._redis.smembers(_conversations_key(user_key)))


class TrailForgettingErasureLog:
    """The erasure log as long-term memory uses it: a memory forgotten one by one also leaves the reply trail
    (its twins too: long-term memory names every id it forgets here, before removing them)."""

    def __init__(self, log: ErasureLog, trail: RedisReplyTrail) -> None:
        self._log = log
        self._trail = trail

    async def epoch(self, user_key: str) -> int:
        return await self._log.epoch(user_key)

    async def forgot(self, user_key: str, memory_ids: Sequence[str]) -> None:
        await self._log.forgot(user_key, memory_ids)
        await self._trail.forget_memories(user_key, memory_ids)

    async def forgotten_among(self, user_key: str, memory_ids: Sequence[str]) -> set[str]:
        return await self._log.forgotten_among(user_key, memory_ids)


def _str(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _to_json(at: datetime, memories: Sequence[DrawnMemory]) -> str:
    drawn = [{"id": m.memory_id, "kind": m.kind, "text": m.text} for m in memories]
    return json.dumps({"at": at.isoformat(), "memories": drawn}, ensure_ascii=False)


def _from_json(raw: str | bytes, user_key: str, conversation_id: str) -> TrailReply:
    data: dict[str, Any] = json.loads(raw)
    drawn = tuple(DrawnMemory(m["id"], m["kind"], m["text"]) for m in data.get("memories", []))
    return TrailReply(conversation_id, user_key, datetime.fromisoformat(data["at"]), drawn)


def _without(raw: str | bytes, memory_ids: set[str]) -> str:
    data: dict[str, Any] = json.loads(raw)
    if not any(m["id"] in memory_ids for m in data.get("memories", [])):
        return _str(raw)
    data["memories"] = [m for m in data["memories"] if m["id"] not in memory_ids]
    return json.dumps(data, ensure_ascii=False)
