"""User profiles in Redis: one hash a person, sealed fields with encryption, and the index of everyone known."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

import redis.asyncio as aioredis

from bot.engine.model import UserProfile
from bot.errors import UnreadableText
from memory.privacy.crypto import PlainCipher, TextCipher
from memory.redis.stores.keys import USERS_KEY, profile_key, text_of
from memory.redis.stores.profile_fields import SEALED_FIELDS, profile_from_fields, profile_to_fields

_ABSENT = "\x00"
# One atomic step: the named fields, except the language once one was chosen (read at write time).
_SAVE_FIELDS = """
local chosen = redis.call('HGET', KEYS[1], 'language_chosen') == '1'
for i = 2, #ARGV, 2 do
  local name, value = ARGV[i], ARGV[i + 1]
  if not (name == 'language' and chosen) then
    if value == '\0' then redis.call('HDEL', KEYS[1], name) else redis.call('HSET', KEYS[1], name, value) end
  end
end
redis.call('SADD', KEYS[2], ARGV[1])
"""


class RedisProfiles:
    """User profiles as Redis hashes; absent fields take the dataclass defaults. With a cipher, the fields
    that say something about the person (names, pronouns, birthday, zone, language) are sealed; flags and
    times stay clear."""

    def __init__(self, client: aioredis.Redis, *, cipher: TextCipher | None = None) -> None:
        self._redis = client
        self._cipher: TextCipher = cipher or PlainCipher()

    async def load_profile(self, user_key: str) -> UserProfile:
        raw = await self._redis.hgetall(profile_key(user_key))
        return profile_from_fields(user_key, await self._opened(user_key, raw))

    async def _opened(self, user_key: str, raw: Mapping[Any, Any]) -> dict[str, str]:
        data = {text_of(k): text_of(v) for k, v in raw.items()}
        if not self._cipher.enabled or not data.keys() & SEALED_FIELDS:
            return data
        opener = await self._cipher.opener(user_key)
        opened: dict[str, str] = {}
        for name, value in data.items():
            try:
                opened[name] = opener.open(value) if name in SEALED_FIELDS else value
            except UnreadableText:
                continue  # its key is gone: the field is as good as unset
        return opened

    async def _fields(self, profile: UserProfile) -> tuple[dict[str, str], list[str]]:
        present, absent = profile_to_fields(profile)
        if self._cipher.enabled and present.keys() & SEALED_FIELDS:
            sealer = await self._cipher.sealer(profile.user_key)
            present = {k: sealer.seal(v) if k in SEALED_FIELDS else v for k, v in present.items()}
        return present, absent

    async def save_profile(self, profile: UserProfile) -> None:
        present, absent = await self._fields(profile)
        key = profile_key(profile.user_key)
        async with self._redis.pipeline(transaction=True) as pipe:
            if absent:
                pipe.hdel(key, *absent)
            if present:
                pipe.hset(key, mapping=cast("Mapping[Any, Any]", present))
            pipe.sadd(USERS_KEY, profile.user_key)
            await pipe.execute()

    async def save_profile_fields(self, profile: UserProfile, names: Sequence[str]) -> None:
        present, absent = await self._fields(profile)
        args: list[str] = [profile.user_key]
        for name in names:
            args += [name, present[name]] if name in present else [name, _ABSENT] if name in absent else []
        await self._redis.eval(_SAVE_FIELDS, 2, profile_key(profile.user_key), USERS_KEY, *args)  # type: ignore[misc]

    async def load_profiles(self, user_keys: Sequence[str]) -> list[UserProfile]:
        """`load_profile` for several people in one round trip, in order."""
        if not user_keys:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for user_key in user_keys:
                pipe.hgetall(profile_key(user_key))
            found = await pipe.execute()
        return [
            profile_from_fields(user_key, await self._opened(user_key, raw))
            for user_key, raw in zip(user_keys, found, strict=True)
        ]

    async def mark_disclosed(self, disclosed_at: Mapping[str, datetime]) -> None:
        """Set `last_disclosed_at` of each person (one field each, one round trip): a setting changed meanwhile
        is never overwritten with a stale copy."""
        if not disclosed_at:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for user_key, at in disclosed_at.items():
                pipe.hset(profile_key(user_key), "last_disclosed_at", at.isoformat())
            pipe.sadd(USERS_KEY, *disclosed_at)
            await pipe.execute()

    async def note_crisis(self, user_key: str, at: datetime) -> None:
        """One field: the model read a crisis in a message written `at` (`memory.ports.CrisisNotes`)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hset(profile_key(user_key), "crisis_noted_at", at.isoformat())
            pipe.sadd(USERS_KEY, user_key)
            await pipe.execute()

    async def known_user_keys(self) -> list[str]:
        """Everyone with a profile, sorted. Profiles saved before the index existed are indexed on first use."""
        keys = {text_of(k) for k in await self._redis.smembers(USERS_KEY)}
        if not keys:
            prefix = profile_key("")
            keys = {text_of(k).removeprefix(prefix) async for k in self._redis.scan_iter(match=f"{prefix}*")}
            if keys:
                await self._redis.sadd(USERS_KEY, *keys)
        return sorted(keys)

    async def forget_user(self, user_key: str) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(profile_key(user_key))
            pipe.srem(USERS_KEY, user_key)
            await pipe.execute()
