"""A scheduler process for the multi-process test: the real `open_proactive_jobs` against a shared Redis.

Usage: python -m tests.jobs.sweep_process REDIS_URL NAME START_ISO [--lease S] [--stall-after N]
Its clock starts at START_ISO and runs at real speed. Deliveries are recorded in Redis as "NAME|user_key"
(list `test:deliveries`). With --stall-after N, the fake model answers N times then hangs forever (a process
stuck mid-sweep, about to be killed) and sets `test:stalled:NAME`. Exits when `test:stop` is set.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import time
from datetime import datetime, timedelta

import redis.asyncio as aioredis

from bot.engine.model import DatedEvent
from bot.engine.ports import CompletionRequest
from jobs import Planner, ScheduleOptions, SweepOptions, open_proactive_jobs
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles


class RunningClock:
    def __init__(self, start: datetime) -> None:
        self._start = start
        self._t0 = time.monotonic()

    def now(self) -> datetime:
        return self._start + timedelta(seconds=time.monotonic() - self._t0)


class NoDatedEvents:
    async def dated_events(self, user_key: str) -> list[DatedEvent]:
        return []


class RecordingMessenger:
    def __init__(self, client: aioredis.Redis, name: str) -> None:
        self._redis = client
        self._name = name

    async def send_direct(self, user_key: str, text: str) -> None:
        await self._redis.rpush("test:deliveries", f"{self._name}|{user_key}")


class StallingModel:
    def __init__(self, client: aioredis.Redis, name: str, answers: int) -> None:
        self._redis = client
        self._name = name
        self._answers = answers

    async def complete(self, request: CompletionRequest) -> str:
        if self._answers > 0:
            self._answers -= 1
            return "Happy birthday!"
        await self._redis.set(f"test:stalled:{self._name}", "1")
        await asyncio.Event().wait()
        return ""


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("redis_url")
    parser.add_argument("name")
    parser.add_argument("start")
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--stall-after", type=int, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=os.environ.get("SWEEP_LOG_LEVEL", "WARNING"), format=f"{args.name} %(message)s")

    client = aioredis.from_url(args.redis_url)
    messenger = RecordingMessenger(client, args.name)
    model = StallingModel(client, args.name, args.stall_after) if args.stall_after is not None else None
    clock = RunningClock(datetime.fromisoformat(args.start))
    async with open_proactive_jobs(
        SweepOptions(),
        planner=Planner(
            ScheduleOptions(),
            redis=client,
            profiles=RedisProfiles(client),
            dated_events=NoDatedEvents(),
            clock=clock,
            lease=timedelta(seconds=args.lease),
        ),
        profiles=RedisProfiles(client),
        window=RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=1)),
        dated_events=NoDatedEvents(),
        memory=None,
        llm=model,
        messengers={"telegram": messenger},
        clock=clock,
        interval=timedelta(seconds=0.2),
        compose_timeout=timedelta(minutes=5),  # a stalled model stays stalled (no template rescue)
        shutdown_timeout=timedelta(seconds=1),
    ):
        await client.set(f"test:ready:{args.name}", "1")
        while not await client.exists("test:stop"):  # noqa: ASYNC110 - the signal lives in another process
            await asyncio.sleep(0.1)
    await client.aclose()


if __name__ == "__main__":
    asyncio.run(main())
