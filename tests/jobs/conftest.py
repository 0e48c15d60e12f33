"""A world for the proactive jobs: real Redis (profiles, window, schedule), fake clock, LLM and platform."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.engine.model import UserProfile
from bot.engine.ports import Messenger, MoodState
from jobs.compose import Composer
from jobs.planner import Planner
from jobs.schedule import ScheduleOptions
from jobs.sweep import Sweeper, SweepOptions
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.jobs.fakes import (
    Delivery,
    FakeMemory,
    InMemoryDatedEvents,
    RecordingMessenger,
    RecordingMetrics,
    ScriptedLLM,
)


@dataclass
class World:
    options: SweepOptions
    clock: FakeClock
    redis: aioredis.Redis
    profiles: RedisProfiles
    window: RedisConversationWindow
    events: InMemoryDatedEvents
    messenger: RecordingMessenger
    memory: FakeMemory
    llm: ScriptedLLM | None
    planner: Planner
    lease: timedelta
    sweepers: list[Sweeper] = field(default_factory=list)
    moods: MoodState | None = None  # how the person has been feeling, when a test gives it
    metrics: RecordingMetrics = field(default_factory=RecordingMetrics)

    def sweeper(self, *, llm: ScriptedLLM | None = None, messenger: Messenger | None = None) -> Sweeper:
        return Sweeper(
            self.options,
            due=self.planner.due,
            profiles=self.profiles,
            window=self.window,
            dated_events=self.events,
            composer=Composer(llm=llm or self.llm, memory=self.memory, moods=self.moods),
            messengers={"telegram": messenger or self.messenger},
            clock=self.clock,
            metrics=self.metrics,
        )

    async def add_user(self, user_key: str = "telegram:42", **fields: Any) -> UserProfile:
        profile = UserProfile(user_key=user_key, **fields)
        await self.profiles.save_profile(profile)
        await self.planner.plan_user(user_key)
        return profile

    async def run_until(self, end: datetime, step: timedelta = timedelta(minutes=1)) -> list[Delivery]:
        """Sweep every `step` from now to `end` (inclusive), like the scheduler would; the new deliveries."""
        sweeper = self.sweeper()
        before = len(self.messenger.deliveries)
        while self.clock.now() <= end:
            await sweeper.tick()
            self.clock.current += step
        self.clock.current = end
        return self.messenger.deliveries[before:]

    async def score(self, member: str) -> float | None:
        return await self.redis.zscore("souvenir:jobs:due", member)


WorldFactory = Callable[..., Awaitable[World]]


@pytest.fixture
def make_world(redis_client: aioredis.Redis, clock: FakeClock) -> WorldFactory:
    async def build(*, llm: ScriptedLLM | None = None, **overrides: object) -> World:
        schedule = ScheduleOptions(**{"default_timezone": "Europe/Paris", **overrides})  # type: ignore[arg-type]
        profiles = RedisProfiles(redis_client)
        window = RedisConversationWindow(redis_client, max_turns=20, ttl=timedelta(hours=72))
        events = InMemoryDatedEvents()
        lease = timedelta(minutes=10)
        planner = Planner(
            schedule, redis=redis_client, profiles=profiles, dated_events=events, clock=clock, lease=lease
        )
        return World(
            SweepOptions(schedule), clock, redis_client, profiles, window, events, RecordingMessenger(clock),
            FakeMemory(), llm, planner, lease,
        )

    return build
