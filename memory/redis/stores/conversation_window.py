"""The conversation window in Redis: each conversation's last turns, sealed per author, scrubbed on erasure."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import WatchError

from bot.engine.model import ChatTurn
from bot.engine.ports import Tally
from bot.errors import ConversationLockLost, UnreadableText
from memory.privacy.crypto import PlainCipher, Sealer, TextCipher
from memory.redis.conversation_locks import fence_key
from memory.redis.stores.keys import conversations_key, text_of, window_key

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
        raw = await self._redis.lrange(window_key(conversation_id), 0, -1)
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
        authors = [conversations_key(a) for a in dict.fromkeys(t.author_key for t in turns if t.author_key)]
        return {
            "keys": [window_key(conversation_id), fence_key(conversation_id), *authors],
            "args": [
                "" if fence is None else fence, self._max_turns, self._ttl_s, conversation_id,
                *await self._stored(conversation_id, turns),
            ],
        }  # fmt: skip

    async def forget_user(self, user_key: str) -> Tally:
        """Drop the person's turns, and the replies to them, from every window they wrote in; private
        windows go whole. How many messages went (theirs and the replies), for the erasure's receipt."""
        dropped = await self._drop_turns(user_key, lambda turn: True, whole_dm=True)
        await self._redis.delete(conversations_key(user_key))
        return Tally("recent_messages", dropped)

    async def forget_said(self, user_key: str, texts: Sequence[str]) -> None:
        """Drop the person's turns that say exactly one of `texts` (a forgotten memory), and the replies to
        them, from every window they wrote in."""
        said = set(texts)
        if said:
            await self._drop_turns(user_key, lambda turn: turn.get("text") in said, whole_dm=False)

    async def _drop_turns(self, user_key: str, matches: Callable[[dict[str, Any]], bool], *, whole_dm: bool) -> int:
        """How many turns went."""
        dropped = 0
        conversations = {text_of(c) for c in await self._redis.smembers(conversations_key(user_key))}
        platform, _, user_id = user_key.partition(":")
        # The private window may hold only unprompted messages from the bot, which name no author.
        conversations.add(f"{platform}:dm:{user_id}")
        for conversation_id in conversations:
            key = window_key(conversation_id)
            if whole_dm and ":dm:" in conversation_id:
                async with self._redis.pipeline(transaction=True) as whole:
                    whole.llen(key)
                    whole.delete(key)
                    held, _ = await whole.execute()
                dropped += int(held)
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
                        dropped += len(stored) - len(kept)
                        break
                    except WatchError:
                        continue
        return dropped


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
