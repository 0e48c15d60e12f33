"""Engine overhead per message: N messages from M users, a fake LLM that answers instantly, real Redis.

    python -m bench.engine_overhead [--messages 5000] [--users 50] [--concurrency 8] [--redis-url URL] [--memory]
        [--json OUT]

Without --redis-url an embedded valkey server is started. By default long-term memory is the no-op one, so
this measures the engine itself: claims, window, profile, prompt, locks. Target (2 cores): p50 ≤ 10 ms,
p95 ≤ 25 ms. With --memory the real long-term memory runs too (embedded Qdrant, the USE embedder, offline
extraction): each reply then includes recall, and the figures add the time to write every exchange.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from contextlib import AsyncExitStack
from datetime import timedelta
from pathlib import Path

from bot.app.memory import memory_options
from bot.config import Settings
from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import IncomingMessage, UserRef, dm_conversation_id
from bot.engine.noop import NoDatedEvents, NoLongTermMemory, NoPlanner
from bot.engine.ports import CompletionRequest, DatedEvents, LongTermMemory
from bot.engine.when.clock import SystemClock
from bot.persona_file import load_persona
from memory.factory import open_long_term_memory
from memory.redis.connect import RedisOptions, redis_client
from memory.redis.embedded import embedded_redis
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles


class InstantLLM:
    async def complete(self, request: CompletionRequest) -> str:
        return "That sounds lovely — tell me more?"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--redis-url")
    parser.add_argument("--memory", action="store_true", help="real long-term memory (recall + writes)")
    parser.add_argument("--json", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args()

    async with AsyncExitStack() as stack:
        url = args.redis_url or await stack.enter_async_context(
            embedded_redis(Path(stack.enter_context(tempfile.TemporaryDirectory())), persist=False)
        )
        client = redis_client(RedisOptions(), url)  # the app's client (its connection pool)
        stack.push_async_callback(client.aclose)
        await client.flushdb()
        clock = SystemClock()
        memory: LongTermMemory = NoLongTermMemory()
        dated_events: DatedEvents = NoDatedEvents()
        if args.memory:
            data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            options = memory_options(Settings(data_dir=data))
            service = await stack.enter_async_context(open_long_term_memory(options, clock=clock))
            memory, dated_events = service, service
        engine = Engine(
            llm=InstantLLM(),
            window=RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=72)),
            claims=RedisMessageClaims(client),
            profiles=RedisProfiles(client),
            memory=memory,
            planner=NoPlanner(),
            dated_events=dated_events,
            persona=load_persona(None),
            clock=clock,
            options=EngineOptions(default_timezone="Europe/Paris"),
        )
        users = [UserRef("bench", str(n), f"User {n}") for n in range(args.users)]
        latencies: list[float] = []
        queue: asyncio.Queue[int] = asyncio.Queue()
        for n in range(args.messages):
            queue.put_nowait(n)

        async def worker() -> None:
            while not queue.empty():
                n = queue.get_nowait()
                user = users[n % len(users)]
                message = IncomingMessage(
                    user=user,
                    conversation_id=dm_conversation_id(user),
                    message_id=f"m{n}",
                    text=f"Today I went to the park with my dog, message {n}",
                    sent_at=clock.now(),
                )
                started = time.perf_counter()
                await engine.handle(message)
                latencies.append((time.perf_counter() - started) * 1000)

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(args.concurrency)))
        elapsed = time.perf_counter() - started
        await engine.drain()
        with_writes = time.perf_counter() - started

    what = "with long-term memory (recall + writes)" if args.memory else "long-term memory off"
    print(f"engine overhead, {what}: {args.messages} messages, {args.users} users, concurrency {args.concurrency}")
    print(f"  p50 {statistics.median(latencies):.2f} ms   p95 {_percentile(latencies, 0.95):.2f} ms   "
          f"max {max(latencies):.2f} ms")
    print(f"  throughput {args.messages / elapsed:.0f} messages/s replied, "
          f"{args.messages / with_writes:.0f} messages/s with every memory write finished")
    if args.json:
        figures = {
            "messages": args.messages, "users": args.users, "concurrency": args.concurrency, "memory": args.memory,
            "p50_ms": round(statistics.median(latencies), 2), "p95_ms": round(_percentile(latencies, 0.95), 2),
            "max_ms": round(max(latencies), 2), "replied_per_s": round(args.messages / elapsed, 1),
            "written_per_s": round(args.messages / with_writes, 1), "load_average": round(os.getloadavg()[0], 2),
        }  # fmt: skip
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
