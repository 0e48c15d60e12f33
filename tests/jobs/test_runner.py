"""The app's entry point: the scheduler sweeps on its own and stops cleanly."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.model import MonthDay, UserProfile
from jobs import Planner, ScheduleOptions, SweepOptions, open_proactive_jobs
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.jobs.fakes import FakeMemory, InMemoryDatedEvents, RecordingMessenger, ScriptedLLM


def _sweeping_jobs(
    redis_client: aioredis.Redis,
    profiles: RedisProfiles,
    messenger: RecordingMessenger,
    clock: FakeClock,
    llm: ScriptedLLM | None = None,
) -> AbstractAsyncContextManager[Planner]:
    """The real scheduler, sweeping every 0.1 s instead of every minute."""
    return open_proactive_jobs(
        SweepOptions(),
        planner=Planner(
            ScheduleOptions(), redis=redis_client, profiles=profiles, dated_events=InMemoryDatedEvents(), clock=clock
        ),
        profiles=profiles,
        window=RedisConversationWindow(redis_client, max_turns=20, ttl=timedelta(hours=1)),
        dated_events=InMemoryDatedEvents(),
        memory=FakeMemory(),
        llm=llm,
        messengers={"telegram": messenger},
        clock=clock,
        interval=timedelta(seconds=0.1),
    )


async def test_scheduler_sends_a_due_wish_by_itself_and_stops_on_exit(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    profiles = RedisProfiles(redis_client)
    messenger = RecordingMessenger(clock)
    clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await profiles.save_profile(UserProfile("telegram:42", birthday=MonthDay(3, 14), timezone="Europe/Paris"))

    async with _sweeping_jobs(redis_client, profiles, messenger, clock) as planner:
        await planner.plan_user("telegram:42")
        clock.current = datetime(2026, 3, 14, 8, 0, 30, tzinfo=UTC)
        for _ in range(100):
            if messenger.deliveries:
                break
            await asyncio.sleep(0.05)
    sent_while_running = list(messenger.deliveries)
    clock.current = datetime(2027, 3, 14, 8, 0, 30, tzinfo=UTC)  # due again, but nothing sweeps any more
    # A live scheduler sending next year's wish is the signal that the stopped one had its chance too.
    successor = RecordingMessenger(clock)
    async with _sweeping_jobs(redis_client, profiles, successor, clock):
        for _ in range(100):
            if successor.deliveries:
                break
            await asyncio.sleep(0.05)

    assert [d.user_key for d in sent_while_running] == ["telegram:42"]
    assert [d.user_key for d in successor.deliveries] == ["telegram:42"]
    assert messenger.deliveries == sent_while_running


async def test_shutdown_lets_the_running_sweep_finish_its_messages(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    profiles = RedisProfiles(redis_client)
    messenger = RecordingMessenger(clock)
    slow = ScriptedLLM(answer="Happy birthday!", gate=asyncio.Event())
    assert slow.gate is not None
    clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await profiles.save_profile(UserProfile("telegram:42", birthday=MonthDay(3, 14), timezone="Europe/Paris"))

    jobs = _sweeping_jobs(redis_client, profiles, messenger, clock, llm=slow)
    planner = await jobs.__aenter__()
    await planner.plan_user("telegram:42")
    clock.current = datetime(2026, 3, 14, 8, 0, 30, tzinfo=UTC)
    await asyncio.wait_for(slow.called.wait(), 5)  # a sweep is composing the wish
    asyncio.get_running_loop().call_later(0.2, slow.gate.set)
    await jobs.__aexit__(None, None, None)

    assert [d.text.endswith("Happy birthday!") for d in messenger.deliveries] == [True]
