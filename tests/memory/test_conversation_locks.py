"""Conversation locks shared through Redis: a stalled holder loses the conversation after the expiry, and
what it writes afterwards is refused by its fencing token."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as aioredis

from bot.engine.model import ChatTurn
from bot.errors import ConversationLockLost
from memory.redis.conversation_locks import RedisConversationLocks, lock_key
from memory.redis.stores.conversation_window import RedisConversationWindow

AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
CONVERSATION = "telegram:chat:7"
STALLED = {"ttl": timedelta(milliseconds=300), "renew_every": timedelta(hours=1)}  # never renews: a frozen holder


def _window(client: aioredis.Redis) -> RedisConversationWindow:
    return RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=1))


async def test_a_second_process_waits_for_the_holder_to_finish(redis_client: aioredis.Redis) -> None:
    first, second = RedisConversationLocks(redis_client), RedisConversationLocks(redis_client)
    events: list[str] = []

    async def later() -> None:
        async with second.hold(CONVERSATION):
            events.append("second in")

    async with first.hold(CONVERSATION) as token:
        waiter = asyncio.create_task(later())
        await _wait_until_polled(redis_client)  # the second one is refused at least once, then keeps waiting
        events.append("first out")
    await waiter
    assert events == ["first out", "second in"]
    assert token >= 1


async def test_a_stalled_holder_is_taken_over_and_its_window_write_refused(redis_client: aioredis.Redis) -> None:
    stalled, fresh = RedisConversationLocks(redis_client, **STALLED), RedisConversationLocks(redis_client)
    window = _window(redis_client)
    async with stalled.hold(CONVERSATION) as old_token:
        async with fresh.hold(CONVERSATION) as new_token:  # granted once the stalled lock expired
            assert new_token > old_token
            with pytest.raises(ConversationLockLost):
                await window.append_turns(CONVERSATION, [ChatTurn("assistant", "stale reply", AT)], old_token)
            await window.append_turns(CONVERSATION, [ChatTurn("assistant", "fresh reply", AT)], new_token)
    assert [t.text for t in await window.recent_turns(CONVERSATION)] == ["fresh reply"]


async def test_a_stalled_holder_leaving_does_not_free_the_new_holders_lock(redis_client: aioredis.Redis) -> None:
    stalled, fresh = RedisConversationLocks(redis_client, **STALLED), RedisConversationLocks(redis_client)
    entered, done = asyncio.Event(), asyncio.Event()

    async def new_holder() -> None:
        async with fresh.hold(CONVERSATION):
            entered.set()
            await done.wait()

    async with stalled.hold(CONVERSATION):
        task = asyncio.create_task(new_holder())
        await entered.wait()
    assert await redis_client.exists(lock_key(CONVERSATION))  # the stalled one's release left it alone
    done.set()
    await task
    assert not await redis_client.exists(lock_key(CONVERSATION))


async def test_writes_without_a_later_holder_go_through(redis_client: aioredis.Redis) -> None:
    locks, window = RedisConversationLocks(redis_client), _window(redis_client)
    async with locks.hold(CONVERSATION) as token:
        await window.append_turns(CONVERSATION, [ChatTurn("user", "hello", AT)], token)
    async with locks.hold(CONVERSATION) as token:
        await window.append_turns(CONVERSATION, [ChatTurn("assistant", "hi", AT)], token)
    assert [t.text for t in await window.recent_turns(CONVERSATION)] == ["hello", "hi"]


async def _wait_until_polled(client: aioredis.Redis) -> None:
    """Until a refused grant shows in the server's script stats (a positive sign the waiter tried)."""
    start = await _script_calls(client)
    while await _script_calls(client) <= start:  # noqa: ASYNC110 - the sign is in the server
        await asyncio.sleep(0.01)


async def _script_calls(client: aioredis.Redis) -> int:
    stats = await client.info("commandstats")
    return int(stats.get("cmdstat_evalsha", {}).get("calls", 0)) + int(stats.get("cmdstat_eval", {}).get("calls", 0))
