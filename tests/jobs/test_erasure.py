"""Planning that was under way when the person erased everything does not bring their schedule back."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import redis.asyncio as aioredis

from bot.engine.model import DatedEvent, MonthDay, UserProfile
from jobs.due_store import DUE_KEY
from jobs.planner import Planner
from jobs.schedule import ScheduleOptions
from memory.privacy.erasure import RedisErasureLog
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock

LEA = "telegram:42"


class HeldDatedEvents:
    """Dated events that answer only once released: planning is caught half-way, deterministically."""

    def __init__(self) -> None:
        self.arrived = asyncio.Event()
        self.release = asyncio.Event()

    async def dated_events(self, user_key: str) -> list[DatedEvent]:
        self.arrived.set()
        await self.release.wait()
        return []


async def test_a_plan_under_way_during_forget_all_leaves_no_schedule(
    redis_client: aioredis.Redis, clock: FakeClock
) -> None:
    profiles, events, erasures = RedisProfiles(redis_client), HeldDatedEvents(), RedisErasureLog(redis_client)
    planner = Planner(
        ScheduleOptions(default_timezone="Europe/Paris"),
        redis=redis_client, profiles=profiles, dated_events=events, clock=clock, erasures=erasures,
    )  # fmt: skip
    await profiles.save_profile(
        UserProfile(LEA, birthday=MonthDay(3, 20), checkins=True, last_seen_at=clock.now() - timedelta(days=1))
    )
    planning = asyncio.create_task(planner.plan_user(LEA))
    await events.arrived.wait()  # the profile is read, the schedule not yet written

    for eraser in (erasures, profiles, planner):  # in the order the app erases
        await eraser.forget_user(LEA)
    events.release.set()
    await planning

    assert await redis_client.zrange(DUE_KEY, 0, -1) == []
    assert [key async for key in redis_client.scan_iter(match=f"*{LEA}*")] == []
