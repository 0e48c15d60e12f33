"""The floor: what one message cannot go below on this box, and our costs as multiples of it, in one run.

    python -m bench.floor [--memories 3000] [--samples 300] [--json OUT]

The floor is the sum of three things every remembered reply needs at least once, timed here in the same
process, one after the other, on the same data:
- one embedding of a message like those the engine is sent below (USE, a text never embedded before: a
  sentence and a question, "I adopted a kitten last week — what do I like to cook?");
- one filtered vector search in the embedded Qdrant index with such a message's vector (the person's memories
  among others', top 10, ids only);
- one Redis round trip (PING to the embedded valkey server).
Then, on the same stores: the whole recall path (`LongTermMemoryService.recall`: embedding, hybrid and
dense searches, reading payloads, re-ranking, word budget) and the engine's per-message overhead (an
instant fake LLM; claims, profile, window, locks, prompt, recall, everything but the model) — with
long-term memory on and off — each as a multiple of the floor. Target: engine overhead <= 3x the floor.

The person's memories are written through the real path (`remember_exchange`: extraction, consolidation,
episodes) from synthetic FR/EN sentences; 200 other people hold as many memories between them.

Until 2026-12-01's third session the floor's embedding was of a short question ("what do I like to cook?
(12)") while the engine was sent the longer messages (on 2026-12-01 the two embeddings differed by ~0.2 ms).
It is still printed, as `question_floor_ms`, with the engine overhead as a multiple of it.

What is measured is what the app does:
- the index is opened as the app opens the embedded one, keeping the records recall reads between recalls
  (memory/index_factory.py). Until 2026-12 this bench opened it without, so every recall read and decoded
  ~150 payloads the app reads once: the recall path and the engine overhead were overstated (at 1,650
  memories, recall p50 ~32 ms without against ~18 ms with, same run, load ~6);
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

from bench.memory import QUERIES, percentile, synthetic_sentences
from bot.engine.engine import Engine, EngineOptions
from bot.engine.model import ChatKind, Exchange, IncomingMessage, RecallQuery, Reply, UserRef, dm_conversation_id
from bot.engine.noop import NoDatedEvents, NoLongTermMemory, NoPlanner
from bot.engine.ports import CompletionRequest, LongTermMemory
from bot.persona_file import load_persona
from memory.embedded_redis import embedded_redis
from memory.embedding import UseEmbedder
from memory.index_factory import EMBEDDED_CACHED_RECORDS
from memory.qdrant.driver import Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.redis_stores import RedisConversationWindow, RedisMessageClaims, RedisProfiles
from memory.service import LongTermMemoryService

T0 = datetime(2025, 1, 1, 9, 0, tzinfo=UTC)
PERSON = UserRef("bench", "person", "Alex")


class _Clock:
    def __init__(self) -> None:
        self.at = T0

    def now(self) -> datetime:
        return self.at


class _InstantLLM:
    async def complete(self, request: CompletionRequest) -> str:
        return "That sounds lovely — tell me more?"


async def _timed(samples: int, work: Callable[[int], Awaitable[Any]]) -> list[float]:
    out = []
    for n in range(samples):
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
        # As the app opens the embedded index (memory/index_factory.py): records read by recall are kept.
        store = QdrantMemoryIndex(driver, embedder, clock, cached_records=EMBEDDED_CACHED_RECORDS)
        stack.push_async_callback(store.close)
        service = LongTermMemoryService(store, default_timezone="UTC", clock=clock)
        print(f"writing {memories} messages for the person and {memories} for 200 others ...", flush=True)
        for n in range(memories):
            clock.at = T0 + timedelta(minutes=30 * n)
            await service.remember_exchange(_exchange(PERSON, n, sentences[n % len(sentences)], clock.at))
            other = UserRef("bench", f"other{n % 200}")
            await service.remember_exchange(_exchange(other, n, sentences[(n * 7) % len(sentences)], clock.at))
        queries = [f"{QUERIES[n % len(QUERIES)]} ({n})" for n in range(samples * 3)]
        # What the engine is sent below: a sentence and a question. The floor is that of such a message (its
        # embedding, a search with its vector), each text new to the embedder.
        said = [f"{rng.choice(sentences)} — {QUERIES[n % len(QUERIES)]}" for n in range(samples * 5)]
        vectors = await embedder.embed(said[:samples])
        where = Where(user_key=PERSON.key, scopes=("dm",))

        embed = await _timed(samples, lambda n: embedder.embed([said[samples + n]]))
        embed_question = await _timed(samples, lambda n: embedder.embed([queries[samples + n]]))
        search = await _timed(samples, lambda n: driver.nearest(vectors[n], where, 10, with_payload=False))
        redis_trip = await _timed(samples, lambda n: client.ping())
        recall = await _timed(
            samples,
            lambda n: service.recall(
                RecallQuery(PERSON.key, queries[2 * samples + n], clock.at, limit=10, max_words=300)
            ),
        )

        # The floor of one message, in sequence: its embedding, a search with that vector, a round trip, one after
        # the other as a message needs them, just before each message the engine is sent (same load, same caches).
        in_sequence: dict[str, list[float]] = {"embed": [], "search": [], "redis": [], "floor": []}
        fresh = said[4 * samples :]

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

    floor = p50(embed) + p50(search) + p50(redis_trip)
    question_floor = p50(embed_question) + p50(search) + p50(redis_trip)
    figures = {
        "person_memories": count,
        "embed_p50_ms": p50(embed),
        "embed_question_p50_ms": p50(embed_question),
        "question_floor_ms": question_floor,
        "search_p50_ms": p50(search),
        "redis_p50_ms": p50(redis_trip),
        "floor_ms": floor,
        "recall_p50_ms": p50(recall),
        "recall_p95_ms": percentile(recall, 0.95),
        "engine_with_memory_p50_ms": p50(with_memory),
        "engine_with_memory_p95_ms": percentile(with_memory, 0.95),
        "engine_without_memory_p50_ms": p50(without_memory),
    }
    message_floor = p50(in_sequence["floor"])
    figures.update({
        "message_floor_ms": message_floor,
        "message_floor_embed_p50_ms": p50(in_sequence["embed"]),
        "message_floor_search_p50_ms": p50(in_sequence["search"]),
        "message_floor_redis_p50_ms": p50(in_sequence["redis"]),
        "engine_with_memory_x_message_floor": figures["engine_with_memory_p50_ms"] / message_floor,
        "recall_x_message_floor": figures["recall_p50_ms"] / message_floor,
    })  # fmt: skip
    figures["recall_x_floor"] = figures["recall_p50_ms"] / floor
    figures["engine_with_memory_x_floor"] = figures["engine_with_memory_p50_ms"] / floor
    figures["engine_without_memory_x_floor"] = figures["engine_without_memory_p50_ms"] / floor
    figures["engine_with_memory_x_question_floor"] = figures["engine_with_memory_p50_ms"] / question_floor
    return figures


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
    print(f"floor {f['floor_ms']:.2f} ms = embedding {f['embed_p50_ms']:.2f} + filtered vector search "
          f"{f['search_p50_ms']:.2f} + Redis round trip {f['redis_p50_ms']:.2f} (p50s)")  # fmt: skip
    print(
        f"recall path p50 {f['recall_p50_ms']:.2f} ms (p95 {f['recall_p95_ms']:.2f}) = {f['recall_x_floor']:.1f}x floor"
    )
    print(f"engine overhead with long-term memory p50 {f['engine_with_memory_p50_ms']:.2f} ms "
          f"(p95 {f['engine_with_memory_p95_ms']:.2f}) = {f['engine_with_memory_x_floor']:.1f}x floor")  # fmt: skip
    print(
        f"  (a short question's embedding instead, {f['embed_question_p50_ms']:.2f} ms, as until 2026-12-01: "
          f"floor {f['question_floor_ms']:.2f} ms, engine {f['engine_with_memory_x_question_floor']:.1f}x)"
    )
    print(
        f"the floor of one message, in sequence just before each message above: {f['message_floor_ms']:.2f} ms "
        f"(p50 of the sums; parts {f['message_floor_embed_p50_ms']:.2f} + {f['message_floor_search_p50_ms']:.2f} + "
        f"{f['message_floor_redis_p50_ms']:.2f}): engine {f['engine_with_memory_x_message_floor']:.1f}x, "
        f"recall path {f['recall_x_message_floor']:.1f}x"
    )
    print(f"engine overhead without long-term memory p50 {f['engine_without_memory_p50_ms']:.2f} ms "
          f"= {f['engine_without_memory_x_floor']:.1f}x floor")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
