"""The floor: what one message cannot go below on this box, and our costs as multiples of it, in one run.

    python -m bench.floor [--memories 3000] [--samples 300] [--json OUT]

The floor of one message is the three things every remembered reply needs at least once, timed one after the
other as a message needs them, just before each message the engine is sent below (same load, same caches):
- one embedding of the message (USE, a text never embedded before: a sentence and a question, "I adopted a
  kitten last week — what do I like to cook?");
- one filtered vector search in the embedded Qdrant index with that vector (the person's memories among
  others', top 10, ids only);
- one Redis round trip (PING to the embedded valkey server).
Then, on the same stores: the whole recall path (`LongTermMemoryService.recall`: embedding, hybrid and
dense searches, reading payloads, re-ranking, word budget) and the engine's per-message overhead (an
instant fake LLM; claims, profile, window, locks, prompt, recall, everything but the model) — with
long-term memory on and off — each as a multiple of the floor. Target: engine overhead <= 3x the floor.

Each part is also timed alone, 300 times in a row (the "hot" floor), then alone again with a 5 ms pause before
each call (the "paused" floor), and the engine is printed as a multiple of both. The hot floor is a bound no
message reaches: repeated back to back, a part finds its code and data in the CPU's caches, the worker thread and
the valkey server awake. Give each call a pause as long as a message and the same parts take what they take in
a message. The headline is the floor of one message: the hot floor moves from run to run more than the engine
does, and the engine's ratio to it more still (CHANGELOG.md has the runs that showed it).

The person's memories are written through the real path (`remember_exchange`: extraction, consolidation,
episodes) from synthetic FR/EN sentences; 200 other people hold as many memories between them.

What is measured is what the app does:
- the index is opened as the app opens the embedded one, keeping the records recall reads between recalls
  (memory/index_factory.py); opened without, every recall would read and decode ~150 payloads the app reads
  once, and overstate the recall path and the engine overhead;
- each message's memory write runs after its reply, as the app's outbox worker does, and is waited for
  (`drain`) before the next message is timed: the reply timed never shares the CPU with an earlier write
  (a person who waits for the answer before writing again). Timed from the hand-over to the end of
  `handle`, the write started by the timed message itself took 0.05 ms of the reply (p50);
- the shard is not optimized after the fill (the app optimizes only when it opens the index): the person's
  memories are searched as a long-running process searches what it wrote since it started.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from bench.memory_index import QUERIES, percentile, synthetic_sentences
from bot.engine.conversation.engine import Engine, EngineOptions
from bot.engine.model import ChatKind, Exchange, IncomingMessage, RecallQuery, Reply, UserRef, dm_conversation_id
from bot.engine.noop import NoDatedEvents, NoLongTermMemory, NoPlanner
from bot.engine.ports import CompletionRequest, LongTermMemory
from bot.persona_file import load_persona
from memory.embedding import UseEmbedder
from memory.index_factory import EMBEDDED_CACHED_RECORDS
from memory.qdrant.driver import Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ahead import read_ahead
from memory.redis.embedded import embedded_redis
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.redis.stores.message_claims import RedisMessageClaims
from memory.redis.stores.profiles import RedisProfiles
from memory.service import LongTermMemoryService

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
PERSON = UserRef("bench", "person", "Alex")
PAUSE = 0.005  # seconds before each call of the "paused" floor


class _Clock:
    def __init__(self) -> None:
        self.at = T0

    def now(self) -> datetime:
        return self.at


class _InstantLLM:
    async def complete(self, request: CompletionRequest) -> str:
        return "That sounds lovely — tell me more?"


async def _timed(samples: int, work: Callable[[int], Awaitable[Any]], *, pause: float = 0.0) -> list[float]:
    out = []
    for n in range(samples):
        if pause:
            await asyncio.sleep(pause)
        began = time.perf_counter()
        await work(n)
        out.append((time.perf_counter() - began) * 1000)
    return out


def _exchange(user: UserRef, n: int, text: str, at: datetime) -> Exchange:
    message = IncomingMessage(user, dm_conversation_id(user), f"m{n}", text, at, ChatKind.PRIVATE)
    return Exchange(message, Reply("", "en"), "UTC", "en")


async def run(memories: int, samples: int) -> dict[str, Any]:
    rng = random.Random(11)
    sentences = synthetic_sentences(max(memories, 2000), rng)
    clock = _Clock()
    async with AsyncExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="souvenir-floor-")))
        url = await stack.enter_async_context(embedded_redis(scratch / "redis", persist=False))
        client = aioredis.from_url(url)
        stack.push_async_callback(client.aclose)
        embedder = UseEmbedder()
        await embedder.warm_up()
        driver = await EdgeDriver.open(scratch / "qdrant", embedder.dimension)
        # As the app opens the embedded index (memory/index_factory.py): records read by recall are kept, and a
        # memory's words are read for recall as it is written.
        store = QdrantMemoryIndex(driver, embedder, clock, cached_records=EMBEDDED_CACHED_RECORDS,
                                   read_ahead=read_ahead)  # fmt: skip
        stack.push_async_callback(store.close)
        service = LongTermMemoryService(store, default_timezone="UTC", clock=clock)
        print(f"writing {memories} messages for the person and {memories} for 200 others ...", flush=True)
        for n in range(memories):
            clock.at = T0 + timedelta(minutes=30 * n)
            await service.remember_exchange(_exchange(PERSON, n, sentences[n % len(sentences)], clock.at))
            other = UserRef("bench", f"other{n % 200}")
            await service.remember_exchange(_exchange(other, n, sentences[(n * 7) % len(sentences)], clock.at))
        queries = [f"{QUERIES[n % len(QUERIES)]} ({n})" for n in range(samples)]
        # What the engine is sent below: a sentence and a question. The floor is that of such a message (its
        # embedding, a search with its vector), each text new to the embedder.
        said = [f"{rng.choice(sentences)} — {QUERIES[n % len(QUERIES)]}" for n in range(samples * 6)]
        vectors = await embedder.embed(said[:samples])
        where = Where(user_key=PERSON.key, scopes=("dm",))

        async def each_part_alone(texts: list[str], pause: float) -> tuple[list[float], list[float], list[float]]:
            embedded = await _timed(samples, lambda n: embedder.embed([texts[n]]), pause=pause)
            searched = await _timed(
                samples, lambda n: driver.nearest(vectors[n], where, 10, with_payload=False), pause=pause
            )
            return embedded, searched, await _timed(samples, lambda n: client.ping(), pause=pause)

        # Each part alone, `samples` times in a row: the "hot" floor (see the module's text); then the same, each
        # call after a pause as long as a message's (~5 ms), the box otherwise idle.
        embed, search, redis_trip = await each_part_alone(said[samples : 2 * samples], 0.0)
        paused_embed, paused_search, paused_redis = await each_part_alone(said[5 * samples :], PAUSE)
        recall = await _timed(
            samples,
            lambda n: service.recall(RecallQuery(PERSON.key, queries[n], clock.at, limit=10, max_words=300)),
        )

        # The floor of one message, in sequence: its embedding, a search with that vector, a round trip, one after
        # the other as a message needs them, just before each message the engine is sent (same load, same caches).
        in_sequence: dict[str, list[float]] = {"embed": [], "search": [], "redis": [], "floor": []}
        fresh = said[4 * samples : 5 * samples]

        async def message_floor(n: int) -> None:
            began = time.perf_counter()
            [vector] = await embedder.embed([fresh[n]])
            embedded = time.perf_counter()
            await driver.nearest(vector, where, 10, with_payload=False)
            searched = time.perf_counter()
            await client.ping()
            done = time.perf_counter()
            parts = (embedded - began, searched - embedded, done - searched, done - began)
            for part, seconds in zip(in_sequence, parts, strict=True):
                in_sequence[part].append(seconds * 1000)

        async def engine_overhead(
            memory: LongTermMemory, tag: str, texts: list[str], before: Callable[[int], Awaitable[None]] | None = None
        ) -> list[float]:
            engine = Engine(
                llm=_InstantLLM(), window=RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=72)),
                claims=RedisMessageClaims(client), profiles=RedisProfiles(client), memory=memory,
                planner=NoPlanner(), dated_events=NoDatedEvents(), persona=load_persona(None), clock=clock,
                options=EngineOptions(default_timezone="Europe/Paris"),
            )  # fmt: skip

            out = []
            for n in range(samples):
                if before is not None:
                    await before(n)
                message = IncomingMessage(PERSON, dm_conversation_id(PERSON), f"{tag}{n}", texts[n], clock.at)
                began = time.perf_counter()
                await engine.handle(message)
                out.append((time.perf_counter() - began) * 1000)
                await engine.drain()
            return out

        with_memory = await engine_overhead(service, "a", said[2 * samples : 3 * samples], before=message_floor)
        without_memory = await engine_overhead(NoLongTermMemory(), "b", said[3 * samples : 4 * samples])
        count = await store.count(PERSON.key)

    def p50(values: list[float]) -> float:
        return statistics.median(values)

    floor = p50(in_sequence["floor"])  # the p50 of the sums, message by message
    hot_floor = p50(embed) + p50(search) + p50(redis_trip)
    paused_floor = p50(paused_embed) + p50(paused_search) + p50(paused_redis)
    return {
        "person_memories": count,
        "floor_ms": floor,
        "floor_embed_p50_ms": p50(in_sequence["embed"]),
        "floor_search_p50_ms": p50(in_sequence["search"]),
        "floor_redis_p50_ms": p50(in_sequence["redis"]),
        "recall_p50_ms": p50(recall),
        "recall_p95_ms": percentile(recall, 0.95),
        "engine_with_memory_p50_ms": p50(with_memory),
        "engine_with_memory_p95_ms": percentile(with_memory, 0.95),
        "engine_without_memory_p50_ms": p50(without_memory),
        "recall_x_floor": p50(recall) / floor,
        "engine_with_memory_x_floor": p50(with_memory) / floor,
        "engine_without_memory_x_floor": p50(without_memory) / floor,
        "hot_floor_ms": hot_floor,
        "hot_embed_p50_ms": p50(embed),
        "hot_search_p50_ms": p50(search),
        "hot_redis_p50_ms": p50(redis_trip),
        "recall_x_hot_floor": p50(recall) / hot_floor,
        "engine_with_memory_x_hot_floor": p50(with_memory) / hot_floor,
        "paused_floor_ms": paused_floor,
        "engine_with_memory_x_paused_floor": p50(with_memory) / paused_floor,
        "paused_embed_p50_ms": p50(paused_embed),
        "paused_search_p50_ms": p50(paused_search),
        "paused_redis_p50_ms": p50(paused_redis),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=3000, help="messages the person has written")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--json", type=Path, help="also write the figures here (JSON)")
    args = parser.parse_args(argv)
    f = asyncio.run(run(args.memories, args.samples))
    if args.json:
        args.json.write_text(json.dumps(f, indent=2) + "\n")
    print(f"person's memories: {f['person_memories']}")
    print(f"the floor of one message {f['floor_ms']:.2f} ms = its embedding {f['floor_embed_p50_ms']:.2f} + a filtered "
          f"vector search with its vector {f['floor_search_p50_ms']:.2f} + a Redis round trip "
          f"{f['floor_redis_p50_ms']:.2f} (p50s; one after the other, just before each message below)")  # fmt: skip
    print(f"recall path p50 {f['recall_p50_ms']:.2f} ms (p95 {f['recall_p95_ms']:.2f}) "
          f"= {f['recall_x_floor']:.1f}x floor")  # fmt: skip
    print(f"engine overhead with long-term memory p50 {f['engine_with_memory_p50_ms']:.2f} ms "
          f"(p95 {f['engine_with_memory_p95_ms']:.2f}) = {f['engine_with_memory_x_floor']:.1f}x floor "
          "(target <= 3x)")  # fmt: skip
    print(f"engine overhead without long-term memory p50 {f['engine_without_memory_p50_ms']:.2f} ms "
          f"= {f['engine_without_memory_x_floor']:.1f}x floor")  # fmt: skip
    print(f"each part alone, {args.samples} times in a row (hot in the caches; no message meets them so): "
          f"{f['hot_floor_ms']:.2f} ms = {f['hot_embed_p50_ms']:.2f} + {f['hot_search_p50_ms']:.2f} + "
          f"{f['hot_redis_p50_ms']:.2f}: engine {f['engine_with_memory_x_hot_floor']:.1f}x, "
          f"recall path {f['recall_x_hot_floor']:.1f}x")  # fmt: skip
    print(f"  the same, each call {PAUSE * 1000:.0f} ms after the one before: {f['paused_floor_ms']:.2f} ms = "
          f"{f['paused_embed_p50_ms']:.2f} + {f['paused_search_p50_ms']:.2f} + "
          f"{f['paused_redis_p50_ms']:.2f}: engine {f['engine_with_memory_x_paused_floor']:.1f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
