"""Redis-backed short-term state: conversation windows, message claims and user profiles.

One module owns the Redis key layout for these; `forget_user` removes everything it holds about a person.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from datetime import datetime, timedelta
from typing import Any, cast

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from bot.engine.model import ChatTurn, MonthDay, UserProfile
from bot.errors import ConversationLockLost
from memory.conversation_locks import fence_key

_PREFIX = "souvenir"
_USERS_KEY = f"{_PREFIX}:users"  # every user key with a profile, for the operator's `memories users`


def _profile_key(user_key: str) -> str:
    return f"{_PREFIX}:profile:{user_key}"


def _window_key(conversation_id: str) -> str:
    return f"{_PREFIX}:window:{conversation_id}"


def _conversations_key(user_key: str) -> str:
    return f"{_PREFIX}:user-conversations:{user_key}"


class RedisConversationWindow:
    """The last `max_turns` turns of each conversation, expiring `ttl` after the last message."""

    def __init__(self, client: aioredis.Redis, *, max_turns: int, ttl: timedelta) -> None:
        self._redis = client
        self._max_turns = max_turns
        self._ttl_s = max(1, int(ttl.total_seconds()))

    async def recent_turns(self, conversation_id: str) -> list[ChatTurn]:
        raw = await self._redis.lrange(_window_key(conversation_id), 0, -1)
        return [_turn_from_json(item) for item in raw]

    async def append_turns(self, conversation_id: str, turns: Sequence[ChatTurn], fence: int | None = None) -> None:
        """With `fence`, nothing is written (ConversationLockLost) once a later lock holder's token was granted."""
        if not turns:
            return
        key = _window_key(conversation_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    if fence is not None:
                        # The watch makes the check and the write one step: a grant in between retries the check.
                        await pipe.watch(fence_key(conversation_id))
                        newest = await pipe.get(fence_key(conversation_id))
                        if newest is not None and int(newest) > fence:
                            raise ConversationLockLost(f"{conversation_id} was taken by a later holder")
                        pipe.multi()
                    pipe.rpush(key, *[_turn_to_json(t) for t in turns])
                    pipe.ltrim(key, -self._max_turns, -1)
                    pipe.expire(key, self._ttl_s)
                    for author in {t.author_key for t in turns if t.author_key}:
                        pipe.sadd(_conversations_key(author), conversation_id)
                        pipe.expire(_conversations_key(author), self._ttl_s)
                    await pipe.execute()
                    return
                except WatchError:
                    continue

    async def append_turns_to_many(self, turns_by_conversation: Mapping[str, Sequence[ChatTurn]]) -> None:
        """`append_turns` for several conversations in one round trip (the scheduler's unprompted messages)."""
        async with self._redis.pipeline(transaction=True) as pipe:
            for conversation_id, turns in turns_by_conversation.items():
                if not turns:
                    continue
                key = _window_key(conversation_id)
                pipe.rpush(key, *[_turn_to_json(t) for t in turns])
                pipe.ltrim(key, -self._max_turns, -1)
                pipe.expire(key, self._ttl_s)
                for author in {t.author_key for t in turns if t.author_key}:
                    pipe.sadd(_conversations_key(author), conversation_id)
                    pipe.expire(_conversations_key(author), self._ttl_s)
            if len(pipe):
                await pipe.execute()

    async def forget_user(self, user_key: str) -> None:
        """Drop the person's turns, and the replies to them, from every window they wrote in; private
        windows go whole."""
        await self._drop_turns(user_key, lambda turn: True, whole_dm=True)
        await self._redis.delete(_conversations_key(user_key))

    async def forget_said(self, user_key: str, texts: Sequence[str]) -> None:
        """Drop the person's turns that say exactly one of `texts` (a forgotten memory), and the replies to
        them, from every window they wrote in."""
        said = set(texts)
        if said:
            await self._drop_turns(user_key, lambda turn: turn.get("text") in said, whole_dm=False)

    async def _drop_turns(self, user_key: str, matches: Callable[[dict[str, Any]], bool], *, whole_dm: bool) -> None:
        conversations = {_text(c) for c in await self._redis.smembers(_conversations_key(user_key))}
        platform, _, user_id = user_key.partition(":")
        # The private window may hold only unprompted messages from the bot, which name no author.
        conversations.add(f"{platform}:dm:{user_id}")
        for conversation_id in conversations:
            key = _window_key(conversation_id)
            if whole_dm and ":dm:" in conversation_id:
                await self._redis.delete(key)
                continue
            # The watch makes a turn appended meanwhile retry the scrub rather than be lost.
            async with self._redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(key)
                        stored = await pipe.lrange(key, 0, -1)
                        kept = _without_turns(stored, user_key, matches)
                        if len(kept) == len(stored):
                            break
                        ttl = await pipe.ttl(key)
                        pipe.multi()
                        pipe.delete(key)
                        if kept:
                            pipe.rpush(key, *kept)
                            pipe.expire(key, ttl if ttl > 0 else self._ttl_s)
                        await pipe.execute()
                        break
                    except WatchError:
                        continue


def _without_turns(
    stored: Sequence[bytes | str], user_key: str, matches: Callable[[dict[str, Any]], bool]
) -> list[bytes | str]:
    """The stored turns but the person's matching ones and the companion's replies right after them."""
    kept: list[bytes | str] = []
    dropping = False
    for raw in stored:
        turn = json.loads(raw)
        if turn.get("role") == "user":
            dropping = turn.get("author") == user_key and matches(turn)
        if not dropping:
            kept.append(raw)
    return kept


class RedisMessageClaims:
    """SET NX per platform message: a re-delivered update is claimed once."""

    def __init__(self, client: aioredis.Redis, *, ttl: timedelta = timedelta(days=7)) -> None:
        self._redis = client
        self._ttl_s = int(ttl.total_seconds())

    async def claim(self, key: str) -> bool:
        return bool(await self._redis.set(f"{_PREFIX}:claim:{key}", "1", nx=True, ex=self._ttl_s))

    async def forget_user(self, user_key: str) -> None:
        """The claims of the person's private chat name them (group claims name the group only)."""
        platform, _, user_id = user_key.partition(":")
        pattern = f"{_PREFIX}:claim:{_glob_escaped(platform)}:dm:{_glob_escaped(user_id)}:*"
        async for key in self._redis.scan_iter(match=pattern, count=1000):
            await self._redis.delete(key)


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
    """User profiles as Redis hashes; absent fields take the dataclass defaults."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._redis = client

    async def load_profile(self, user_key: str) -> UserProfile:
        raw = await self._redis.hgetall(_profile_key(user_key))
        data = {_text(k): _text(v) for k, v in raw.items()}
        return _profile_from_fields(user_key, data)

    async def save_profile(self, profile: UserProfile) -> None:
        present, absent = _profile_to_fields(profile)
        key = _profile_key(profile.user_key)
        async with self._redis.pipeline(transaction=True) as pipe:
            if absent:
                pipe.hdel(key, *absent)
            if present:
                pipe.hset(key, mapping=cast("Mapping[Any, Any]", present))
            pipe.sadd(_USERS_KEY, profile.user_key)
            await pipe.execute()

    async def save_profile_fields(self, profile: UserProfile, names: Sequence[str]) -> None:
        present, absent = _profile_to_fields(profile)
        args: list[str] = [profile.user_key]
        for name in names:
            args += [name, present[name]] if name in present else [name, _ABSENT] if name in absent else []
        await self._redis.eval(_SAVE_FIELDS, 2, _profile_key(profile.user_key), _USERS_KEY, *args)  # type: ignore[misc]

    async def load_profiles(self, user_keys: Sequence[str]) -> list[UserProfile]:
        """`load_profile` for several people in one round trip, in order."""
        if not user_keys:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for user_key in user_keys:
                pipe.hgetall(_profile_key(user_key))
            found = await pipe.execute()
        return [
            _profile_from_fields(user_key, {_text(k): _text(v) for k, v in raw.items()})
            for user_key, raw in zip(user_keys, found, strict=True)
        ]

    async def mark_disclosed(self, disclosed_at: Mapping[str, datetime]) -> None:
        """Set `last_disclosed_at` of each person (one field each, one round trip): a setting changed meanwhile
        is never overwritten with a stale copy."""
        if not disclosed_at:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for user_key, at in disclosed_at.items():
                pipe.hset(_profile_key(user_key), "last_disclosed_at", at.isoformat())
            pipe.sadd(_USERS_KEY, *disclosed_at)
            await pipe.execute()

    async def known_user_keys(self) -> list[str]:
        """Everyone with a profile, sorted. Profiles saved before the index existed are indexed on first use."""
        keys = {_text(k) for k in await self._redis.smembers(_USERS_KEY)}
        if not keys:
            prefix = _profile_key("")
            keys = {_text(k).removeprefix(prefix) async for k in self._redis.scan_iter(match=f"{prefix}*")}
            if keys:
                await self._redis.sadd(_USERS_KEY, *keys)
        return sorted(keys)

    async def forget_user(self, user_key: str) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(_profile_key(user_key))
            pipe.srem(_USERS_KEY, user_key)
            await pipe.execute()


def _glob_escaped(text: str) -> str:
    return "".join(f"\\{ch}" if ch in "*?[]\\" else ch for ch in text)


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _turn_to_json(turn: ChatTurn) -> str:
    data: dict[str, Any] = {"role": turn.role, "text": turn.text, "at": turn.at.isoformat()}
    if turn.author_key:
        data["author"] = turn.author_key
    if turn.author_name:
        data["name"] = turn.author_name
    return json.dumps(data, ensure_ascii=False)


def _turn_from_json(raw: str | bytes) -> ChatTurn:
    data = json.loads(raw)
    return ChatTurn(
        role=data["role"],
        text=data["text"],
        at=datetime.fromisoformat(data["at"]),
        author_key=data.get("author"),
        author_name=data.get("name", ""),
    )


_BOOL_FIELDS = {
    "checkins", "birthday_wishes", "reachable", "share_dm_memories_in_groups", "language_chosen", "voice_replies",
}  # fmt: skip
_TIME_FIELDS = {"first_seen_at", "last_seen_at", "last_disclosed_at"}


def _profile_to_fields(profile: UserProfile) -> tuple[dict[str, str], list[str]]:
    present: dict[str, str] = {}
    absent: list[str] = []
    for f in fields(profile):
        if f.name == "user_key":
            continue
        value = getattr(profile, f.name)
        if value is None:
            absent.append(f.name)
        elif f.name in _BOOL_FIELDS:
            present[f.name] = "1" if value else "0"
        elif f.name in _TIME_FIELDS:
            present[f.name] = value.isoformat()
        elif f.name == "birthday":
            present[f.name] = value.isoformat()
        else:
            present[f.name] = str(value)
    return present, absent


def _profile_from_fields(user_key: str, data: dict[str, str]) -> UserProfile:
    values: dict[str, Any] = {}
    for name, raw in data.items():
        if name in _BOOL_FIELDS:
            values[name] = raw == "1"
        elif name in _TIME_FIELDS:
            values[name] = datetime.fromisoformat(raw)
        elif name == "birthday":
            values[name] = MonthDay.parse(raw)
        elif name in ("display_name", "timezone", "language", "preferred_name", "pronouns", "address_form"):
            values[name] = raw
    return UserProfile(user_key=user_key, **values)
