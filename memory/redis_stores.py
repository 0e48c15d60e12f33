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
from bot.errors import ConversationLockLost, UnreadableText
from memory.conversation_locks import fence_key
from memory.crypto import PlainCipher, Sealer, TextCipher

_PREFIX = "souvenir"
_USERS_KEY = f"{_PREFIX}:users"  # every user key with a profile, for the operator's `memories users`


def _profile_key(user_key: str) -> str:
    return f"{_PREFIX}:profile:{user_key}"


def _window_key(conversation_id: str) -> str:
    return f"{_PREFIX}:window:{conversation_id}"


def _conversations_key(user_key: str) -> str:
    return f"{_PREFIX}:user-conversations:{user_key}"


# KEYS: the window, its conversation's lock fence, each author's set of conversations. ARGV: the writer's fence
# ("" for none), the turns kept, the time to live (s), the conversation id, then the turns as stored.
_APPEND_TURNS = """
if ARGV[1] ~= "" then
  local newest = redis.call("GET", KEYS[2])
  if newest and tonumber(newest) > tonumber(ARGV[1]) then return 0 end
end
redis.call("RPUSH", KEYS[1], unpack(ARGV, 5))
redis.call("LTRIM", KEYS[1], -tonumber(ARGV[2]), -1)
redis.call("EXPIRE", KEYS[1], tonumber(ARGV[3]))
for i = 3, #KEYS do
  redis.call("SADD", KEYS[i], ARGV[4])
  redis.call("EXPIRE", KEYS[i], tonumber(ARGV[3]))
end
return 1
"""


class RedisConversationWindow:
    """The last `max_turns` turns of each conversation, expiring `ttl` after the last message."""

    def __init__(
        self, client: aioredis.Redis, *, max_turns: int, ttl: timedelta, cipher: TextCipher | None = None
    ) -> None:
        self._redis = client
        self._max_turns = max_turns
        self._ttl_s = max(1, int(ttl.total_seconds()))
        # Seals each turn with its person's data key; role and author stay clear so erasure needs no key.
        self._cipher: TextCipher = cipher or PlainCipher()
        self._append = client.register_script(_APPEND_TURNS)

    async def recent_turns(self, conversation_id: str) -> list[ChatTurn]:
        raw = await self._redis.lrange(_window_key(conversation_id), 0, -1)
        opened = [await self._opened(item) for item in raw]
        return [_turn_from_dict(data) for data in opened if "text" in data]  # a turn whose key is gone is left out

    async def _stored(self, conversation_id: str, turns: Sequence[ChatTurn]) -> list[str]:
        """The turns as stored: JSON, or with encryption an envelope whose `sealed` holds that JSON, sealed
        with the key of its author (a reply: of the person it answers; else of the private chat's person)."""
        if not self._cipher.enabled:
            return [_turn_to_json(t) for t in turns]
        stored: list[str] = []
        previous: str | None = None
        sealers: dict[str, Sealer] = {}  # one key read per person and call
        for turn in turns:
            owner = turn.author_key or previous or _chat_owner(conversation_id)
            previous = turn.author_key or previous
            envelope: dict[str, Any] = {"role": turn.role, "owner": owner}
            if turn.author_key:
                envelope["author"] = turn.author_key
            if owner not in sealers:
                sealers[owner] = await self._cipher.sealer(owner)
            envelope["sealed"] = sealers[owner].seal(_turn_to_json(turn))
            stored.append(json.dumps(envelope, ensure_ascii=False))
        return stored

    async def _opened(self, raw: str | bytes) -> dict[str, Any]:
        """The turn's fields; only the clear role and author when its key is gone."""
        data: dict[str, Any] = json.loads(raw)
        if "sealed" not in data:
            return data
        try:
            opened: dict[str, Any] = json.loads(await self._cipher.open(str(data["owner"]), str(data["sealed"])))
        except UnreadableText:
            return {k: v for k, v in data.items() if k in ("role", "author")}
        return opened

    async def append_turns(self, conversation_id: str, turns: Sequence[ChatTurn], fence: int | None = None) -> None:
        """With `fence`, nothing is written (ConversationLockLost) once a later lock holder's token was granted."""
        if not turns:
            return
        # One script: the fence check and the write are one step, in one round trip (a watched transaction
        # took three, on every reply).
        written = await self._append(**await self._appended(conversation_id, turns, fence))
        if not written:
            raise ConversationLockLost(f"{conversation_id} was taken by a later holder")

    async def append_turns_to_many(self, turns_by_conversation: Mapping[str, Sequence[ChatTurn]]) -> None:
        """`append_turns` for several conversations in one round trip (the scheduler's unprompted messages)."""
        calls = [await self._appended(c, turns, None) for c, turns in turns_by_conversation.items() if turns]
        if not calls:
            return
        async with self._redis.pipeline(transaction=True) as pipe:
            for call in calls:
                await self._append(**call, client=pipe)
            await pipe.execute()

    async def _appended(self, conversation_id: str, turns: Sequence[ChatTurn], fence: int | None) -> dict[str, Any]:
        """The keys and arguments of `_APPEND_TURNS` that add `turns` to the conversation's window."""
        authors = [_conversations_key(a) for a in dict.fromkeys(t.author_key for t in turns if t.author_key)]
        return {
            "keys": [_window_key(conversation_id), fence_key(conversation_id), *authors],
            "args": [
                "" if fence is None else fence, self._max_turns, self._ttl_s, conversation_id,
                *await self._stored(conversation_id, turns),
            ],
        }  # fmt: skip

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
                        opened = [await self._opened(raw) for raw in stored]
                        kept = _without_turns(stored, opened, user_key, matches)
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


def _chat_owner(conversation_id: str) -> str:
    """Whose key seals a turn that names no author: the private chat's person, else the conversation's own."""
    platform, kind, rest = ([*conversation_id.split(":", 2), "", ""])[:3]
    return f"{platform}:{rest}" if kind == "dm" and rest else conversation_id


def _without_turns(
    stored: Sequence[bytes | str],
    opened: Sequence[dict[str, Any]],
    user_key: str,
    matches: Callable[[dict[str, Any]], bool],
) -> list[bytes | str]:
    """The stored turns but the person's matching ones and the companion's replies right after them."""
    kept: list[bytes | str] = []
    dropping = False
    for raw, turn in zip(stored, opened, strict=True):
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
        prefix = f"{_PREFIX}:claim:{platform}:dm:{user_id}:"
        async for key in self._redis.scan_iter(match=f"{_glob_escaped(prefix)}*", count=1000):
            # Past the prefix comes a message id, never a colon: "…:dm:1:dm:10:5" is someone else's chat
            # (a user id "1:dm:10"), whose claims the person with id "1" must not erase.
            if ":" not in _text(key)[len(prefix) :]:
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
    """User profiles as Redis hashes; absent fields take the dataclass defaults. With a cipher, the fields
    that say something about the person (names, pronouns, birthday, zone, language) are sealed; flags and
    times stay clear."""

    def __init__(self, client: aioredis.Redis, *, cipher: TextCipher | None = None) -> None:
        self._redis = client
        self._cipher: TextCipher = cipher or PlainCipher()

    async def load_profile(self, user_key: str) -> UserProfile:
        raw = await self._redis.hgetall(_profile_key(user_key))
        return _profile_from_fields(user_key, await self._opened(user_key, raw))

    async def _opened(self, user_key: str, raw: Mapping[Any, Any]) -> dict[str, str]:
        data = {_text(k): _text(v) for k, v in raw.items()}
        if not self._cipher.enabled or not data.keys() & _SEALED_FIELDS:
            return data
        opener = await self._cipher.opener(user_key)
        opened: dict[str, str] = {}
        for name, value in data.items():
            try:
                opened[name] = opener.open(value) if name in _SEALED_FIELDS else value
            except UnreadableText:
                continue  # its key is gone: the field is as good as unset
        return opened

    async def _fields(self, profile: UserProfile) -> tuple[dict[str, str], list[str]]:
        present, absent = _profile_to_fields(profile)
        if self._cipher.enabled and present.keys() & _SEALED_FIELDS:
            sealer = await self._cipher.sealer(profile.user_key)
            present = {k: sealer.seal(v) if k in _SEALED_FIELDS else v for k, v in present.items()}
        return present, absent

    async def save_profile(self, profile: UserProfile) -> None:
        present, absent = await self._fields(profile)
        key = _profile_key(profile.user_key)
        async with self._redis.pipeline(transaction=True) as pipe:
            if absent:
                pipe.hdel(key, *absent)
            if present:
                pipe.hset(key, mapping=cast("Mapping[Any, Any]", present))
            pipe.sadd(_USERS_KEY, profile.user_key)
            await pipe.execute()

    async def save_profile_fields(self, profile: UserProfile, names: Sequence[str]) -> None:
        present, absent = await self._fields(profile)
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
            _profile_from_fields(user_key, await self._opened(user_key, raw))
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

    async def note_crisis(self, user_key: str, at: datetime) -> None:
        """One field: the model read a crisis in a message written `at` (`memory.ports.CrisisNotes`)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hset(_profile_key(user_key), "crisis_noted_at", at.isoformat())
            pipe.sadd(_USERS_KEY, user_key)
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


def _turn_from_dict(data: dict[str, Any]) -> ChatTurn:
    return ChatTurn(
        role=data["role"],
        text=data["text"],
        at=datetime.fromisoformat(data["at"]),
        author_key=data.get("author"),
        author_name=data.get("name", ""),
    )


# What a profile says about the person: sealed when encryption is on.
_SEALED_FIELDS = {"display_name", "timezone", "language", "preferred_name", "pronouns", "address_form", "birthday"}
_BOOL_FIELDS = {
    "checkins", "birthday_wishes", "reachable", "share_dm_memories_in_groups", "language_chosen", "voice_replies",
    "age_confirmed", "crisis_followed_up", "timezone_offered",
}  # fmt: skip
_TIME_FIELDS = {"first_seen_at", "last_seen_at", "last_disclosed_at"}
# Safety: the age a person gave; when their continued conversation began, their last break reminder.
_TIME_FIELDS |= {"talk_started_at", "break_reminded_at", "crisis_noted_at", "last_crisis_at"}
_TIME_FIELDS |= {"age_pending_at"}  # an adult /age waiting for its confirmation
_INT_FIELDS = {"age", "age_pending"}


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
        elif name in _INT_FIELDS:
            values[name] = int(raw)
        elif name in ("display_name", "timezone", "language", "preferred_name", "pronouns", "address_form"):
            values[name] = raw
    return UserProfile(user_key=user_key, **values)
