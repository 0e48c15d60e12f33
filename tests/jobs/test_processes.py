"""Two scheduler processes on one Redis: 1,000 birthdays due at once across 20 zones, each sent exactly once —
also when one process is SIGKILLed in the middle of its sweep."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import redis.asyncio as aioredis

from bot.engine.model import MonthDay, UserProfile
from jobs import Planner, ScheduleOptions
from memory.redis.stores.profiles import RedisProfiles
from tests.conftest import FakeClock
from tests.jobs.fakes import InMemoryDatedEvents

ROOT = Path(__file__).resolve().parents[2]
USERS = 1000
START = datetime(2026, 6, 15, 19, 30, tzinfo=UTC)  # between 09:30 (Honolulu) and 23:30 (Dubai) local
ZONES = [
    "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver", "America/Phoenix",
    "America/Chicago", "America/New_York", "America/Halifax", "America/Sao_Paulo", "America/St_Johns",
    "America/Noronha", "Atlantic/Azores", "UTC", "Europe/London", "Africa/Lagos",
    "Europe/Paris", "Europe/Athens", "Europe/Moscow", "Asia/Tehran", "Asia/Dubai",
]


async def _seed(client: aioredis.Redis) -> None:
    """1,000 people whose birthday is today where they live, planned the day before: all due at START."""
    profiles = RedisProfiles(client)
    planner = Planner(
        ScheduleOptions(), redis=client, profiles=profiles, dated_events=InMemoryDatedEvents(),
        clock=FakeClock(START - timedelta(days=1)),
    )

    async def person(n: int) -> None:
        zone = ZONES[n % len(ZONES)]
        today = START.astimezone(ZoneInfo(zone)).date()
        user_key = f"telegram:{n}"
        await profiles.save_profile(UserProfile(user_key, timezone=zone, birthday=MonthDay(today.month, today.day)))
        await planner.plan_user(user_key)

    for chunk in range(0, USERS, 100):
        await asyncio.gather(*(person(n) for n in range(chunk, chunk + 100)))
    assert await client.zcount("souvenir:jobs:due", "-inf", START.timestamp()) == USERS


async def _start(redis_url: str, name: str, *extra: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.jobs.sweep_process", redis_url, name, START.isoformat(), *extra,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


async def _wait_for(condition, seconds: float) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not await condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def _deliveries(client: aioredis.Redis) -> list[tuple[str, str]]:
    """(process name, user key) per delivery."""
    raw = [str(item) for item in await client.lrange("test:deliveries", 0, -1)]  # type: ignore[misc]
    return [(name, user) for name, user in (item.split("|", 1) for item in raw)]


async def _stop(client: aioredis.Redis, *processes: asyncio.subprocess.Process) -> None:
    await client.set("test:stop", "1")
    for process in processes:
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()


async def test_two_processes_send_each_of_1000_birthdays_once(redis_url: str, redis_client: aioredis.Redis) -> None:
    await _seed(redis_client)
    first, second = await _start(redis_url, "A"), await _start(redis_url, "B")
    try:
        await _wait_for(lambda: _count(redis_client, USERS), 25)
    finally:  # both processes have exited (their sweeps finished) before duplicates are counted
        await _stop(redis_client, first, second)
    assert (first.returncode, second.returncode) == (0, 0)

    delivered = Counter(user for _, user in await _deliveries(redis_client))
    assert len(delivered) == USERS and set(delivered.values()) == {1}


async def test_one_process_killed_mid_sweep_loses_and_duplicates_nothing(
    redis_url: str, redis_client: aioredis.Redis
) -> None:
    await _seed(redis_client)
    doomed = await _start(redis_url, "A", "--stall-after", "40", "--lease", "2")
    survivor = None
    try:
        await _wait_for(lambda: redis_client.exists("test:stalled:A"), 15)  # A holds claims it will never send
        survivor = await _start(redis_url, "B", "--lease", "2")
        await _wait_for(lambda: _count(redis_client, 100), 15)
        os.kill(doomed.pid, signal.SIGKILL)
        await doomed.wait()
        await _wait_for(lambda: _count(redis_client, USERS), 20)
    finally:  # the survivor has exited (its sweep finished) before duplicates are counted
        if doomed.returncode is None:
            doomed.kill()
        await _stop(redis_client, *([survivor] if survivor else []))

    deliveries = await _deliveries(redis_client)
    delivered = Counter(user for _, user in deliveries)
    by_process = Counter(name for name, _ in deliveries)
    assert len(delivered) == USERS and set(delivered.values()) == {1}
    assert 0 < by_process["A"] < USERS  # A really was killed mid-sweep, after sending some


async def _count(client: aioredis.Redis, at_least: int) -> bool:
    return await client.llen("test:deliveries") >= at_least
