"""/forget all reports each store's part (for the memory browser's receipt): named stores by their name, counts
where a store gives them, a failing store marked and the others still erased."""

from __future__ import annotations

from datetime import UTC, datetime

import redis.asyncio as aioredis

from bot.engine.model import UserRef
from bot.engine.ports import ErasedStore, StoreEraser, Tally
from tests.conftest import FakeClock
from tests.fakes.commands import redis_backed_commands
from tests.fakes.memory_browser import InMemoryMemoryBrowser

LEA = UserRef("telegram", "4242", "Léa")


class Counted:
    async def forget_user(self, user_key: str) -> int:
        return 7


class Locks:
    async def forget_user(self, user_key: str) -> Tally:
        return Tally("locks", 2)


class Down:
    async def forget_user(self, user_key: str) -> None:
        raise ConnectionError("the store is down")


async def test_each_store_reports_its_part(redis_client: aioredis.Redis, clock: FakeClock) -> None:
    memories = InMemoryMemoryBrowser()
    memories.add(LEA.key, "I live in Paris", datetime(2026, 3, 1, tzinfo=UTC))
    moods = StoreEraser("moods", Counted())
    commands, _, _ = redis_backed_commands(redis_client, clock, memories, schedule_eraser=moods)

    done = await commands.forget_everything(LEA)

    assert done.ok
    assert ErasedStore("moods", ok=True, count=7) in done.erased
    assert ErasedStore("InMemoryMemoryBrowser", ok=True) in done.erased  # an unnamed store: by its class
    assert memories.items.get(LEA.key) is None


async def test_a_store_that_fails_is_marked_and_the_rest_still_go(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    memories = InMemoryMemoryBrowser()
    memories.add(LEA.key, "I live in Paris", datetime(2026, 3, 1, tzinfo=UTC))
    schedule = StoreEraser("schedule", Down())
    commands, _, _ = redis_backed_commands(redis_client, clock, memories, schedule_eraser=schedule)

    done = await commands.forget_everything(LEA)

    assert not done.ok and ErasedStore("schedule", ok=False) in done.erased
    assert memories.items.get(LEA.key) is None


async def test_a_store_of_several_sorts_reports_each_sorts_count(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    memories = InMemoryMemoryBrowser()
    commands, _, _ = redis_backed_commands(redis_client, clock, memories,
                                           schedule_eraser=StoreEraser("short_term", Locks()))  # fmt: skip

    done = await commands.forget_everything(LEA)

    assert ErasedStore("short_term", ok=True, count=2, tallies=(Tally("locks", 2),)) in done.erased
    assert ErasedStore("RedisConversationWindow", ok=True, count=0, tallies=(Tally("recent_messages", 0),)) in (
        done.erased
    )
