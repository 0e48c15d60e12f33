"""Every replica sweeps; a killed one's claims are taken over within a minute (the default lease, then one
sweep), while a live but slow one keeps its claims however long its model takes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.model import MonthDay, UserProfile
from jobs.compose import Composer
from jobs.planner import Planner
from jobs.runner import SWEEP_EVERY
from jobs.schedule import ScheduleOptions
from jobs.sweep import Sweeper, SweepOptions
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.jobs.fakes import FakeMemory, InMemoryDatedEvents, RecordingMessenger, ScriptedLLM

BIRTHDAY_MORNING = datetime(2026, 3, 14, 8, tzinfo=UTC)  # 09:00 in Paris
FIELD_PREFIX = "o|b|"


class Replica:
    """One process's scheduler side: its own planner and sweeper on the shared Redis, with default options."""

    def __init__(self, redis: aioredis.Redis, clock: FakeClock, llm: ScriptedLLM, renew_every: timedelta) -> None:
        schedule = ScheduleOptions(default_timezone="Europe/Paris")
        self.profiles = RedisProfiles(redis)
        self.planner = Planner(schedule, redis=redis, profiles=self.profiles, dated_events=InMemoryDatedEvents(),
                               clock=clock)  # fmt: skip
        self.messenger = RecordingMessenger(clock)
        self.sweeper = Sweeper(
            SweepOptions(schedule),
            due=self.planner.due,
            profiles=self.profiles,
            window=RedisConversationWindow(redis, max_turns=20, ttl=timedelta(hours=72)),
            dated_events=InMemoryDatedEvents(),
            composer=Composer(llm=llm, memory=FakeMemory()),
            messengers={"telegram": self.messenger},
            clock=clock,
            renew_every=renew_every,
        )


async def _birthday_tomorrow(replica: Replica, clock: FakeClock) -> None:
    clock.current = datetime(2026, 3, 13, 12, tzinfo=UTC)
    await replica.profiles.save_profile(UserProfile("telegram:42", birthday=MonthDay(3, 14), timezone="Europe/Paris"))
    await replica.planner.plan_user("telegram:42")
    clock.current = BIRTHDAY_MORNING


async def _claim_time(redis: aioredis.Redis) -> int:
    """When the current claim on the birthday was taken or last renewed (epoch seconds)."""
    state = await redis.hgetall("souvenir:jobs:state:telegram:42")
    [claim] = [str(v) for k, v in state.items() if str(k).startswith(FIELD_PREFIX)]
    return int(claim.split()[1])


async def test_a_killed_replicas_claim_is_taken_over_within_a_minute(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    stuck = ScriptedLLM(gate=asyncio.Event())
    doomed = Replica(redis_client, clock, stuck, renew_every=timedelta(hours=1))
    survivor = Replica(redis_client, clock, ScriptedLLM(answer="Joyeux anniversaire !"), timedelta(hours=1))
    await _birthday_tomorrow(doomed, clock)
    assert doomed.planner.due.lease + SWEEP_EVERY <= timedelta(minutes=1)  # a lease, then the next sweep

    killed = asyncio.create_task(doomed.sweeper.tick())
    await asyncio.wait_for(stuck.called.wait(), 30)
    killed.cancel()  # SIGKILL: it holds the claim and will never send nor renew
    await asyncio.gather(killed, return_exceptions=True)

    clock.current += doomed.planner.due.lease / 2
    await survivor.sweeper.tick()
    assert survivor.messenger.deliveries == []  # still held: the lease has not run out

    clock.current = BIRTHDAY_MORNING + doomed.planner.due.lease + timedelta(seconds=1)  # a sweep after the lease
    await survivor.sweeper.tick()
    await survivor.sweeper.tick()
    assert [d.user_key for d in survivor.messenger.deliveries] == ["telegram:42"]
    assert doomed.messenger.deliveries == []


async def test_a_live_replica_slower_than_the_lease_keeps_its_claim(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    slow = ScriptedLLM(answer="from the slow one", gate=asyncio.Event())
    assert slow.gate is not None
    other_model = ScriptedLLM(answer="from the other one")
    live = Replica(redis_client, clock, slow, renew_every=timedelta(milliseconds=20))
    other = Replica(redis_client, clock, other_model, renew_every=timedelta(milliseconds=20))
    await _birthday_tomorrow(live, clock)

    composing = asyncio.create_task(live.sweeper.tick())
    await asyncio.wait_for(slow.called.wait(), 30)
    clock.current += timedelta(minutes=5)  # the model takes five times the lease
    renewed_at = int(clock.current.timestamp())
    for _ in range(1500):  # a positive signal: the live sweep has renewed its claim at the new time
        if await _claim_time(redis_client) >= renewed_at:
            break
        await asyncio.sleep(0.02)
    assert await _claim_time(redis_client) >= renewed_at

    await other.sweeper.tick()  # it sees the item again, but the claim is fresh: it leaves it
    slow.gate.set()
    await asyncio.wait_for(composing, 30)

    assert ["from the slow one" in d.text for d in live.messenger.deliveries] == [True]
    assert other.messenger.deliveries == []
    assert other_model.requests == []  # not composed twice either
