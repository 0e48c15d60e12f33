"""The scale curve: index search AND the whole recall path at growing index sizes (1k people), with RSS.

    python -m bench.scale_curve [--sizes 10000,100000,1000000] [--users 1000] [--queries 300] [--json OUT]
    python -m bench.scale_curve --sizes 10000,100000 --profile-html /tmp/recall.html   # pyinstrument at the largest

Reuses bench/memory_index.py's fill (stored memories replay a few thousand real USE vectors with jitter; queries are
embedded for real). At each size it times `QdrantMemoryIndex.search` (hybrid, limit 20, incl. embedding the
query) and `LongTermMemoryService.recall` over the same index: query embedding, the hybrid and the dense
searches, re-ranking and the word budget — what a reply waits for. Every question is new (a numbered
variant), so the index's cache of recent query vectors never saves the embedding. Those two open the index
without the records the app's embedded index keeps between recalls: each question goes to a person at random,
whose candidates are read from the index, as for a person's first question since the process started. Then
people in conversation, on the index as the app opens it (`cached_records`): a person at random asks three
questions in a row; their first question and the next ones are reported apart. Filling runs at ~1.5k
memories/s on a loaded 2-core box, so 1M memories takes ~11 min plus the index build.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import numpy as np

from bench.memory_index import QUERIES, T0, ReplayEmbedder, _Clock, fill, memory_mb, percentile, synthetic_sentences
from bot.engine.model import RecallQuery
from memory.embedding import UseEmbedder
from memory.index_factory import EMBEDDED_CACHED_RECORDS
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery
from memory.service import LongTermMemoryService

_asked = itertools.count()


def _fresh_question(rng: random.Random) -> str:
    """A question never asked before: the index keeps recent query vectors, a new message is never among them."""
    return f"{rng.choice(QUERIES)} ({next(_asked)})"


async def measure_search(index: QdrantMemoryIndex, users: int, queries: int) -> list[float]:
    rng = random.Random(7)
    at = T0 + timedelta(days=3650)
    latencies = []
    for _ in range(queries):
        query = IndexQuery(user_key=f"telegram:{rng.randrange(users)}", text=_fresh_question(rng), at=at, limit=20)
        began = time.perf_counter()
        await index.search(query)
        latencies.append((time.perf_counter() - began) * 1000)
    return latencies


async def measure_whole_recall(service: LongTermMemoryService, users: int, queries: int) -> list[float]:
    rng = random.Random(11)
    at = T0 + timedelta(days=3650)
    latencies = []
    for _ in range(queries):
        query = RecallQuery(user_key=f"telegram:{rng.randrange(users)}", text=_fresh_question(rng), at=at)
        began = time.perf_counter()
        await service.recall(query)
        latencies.append((time.perf_counter() - began) * 1000)
    return latencies


async def measure_conversations(
    service: LongTermMemoryService, users: int, people: int, *, seed: int, questions: int = 3
) -> tuple[list[float], list[float]]:
    """People in conversation: each of `people` (drawn with `seed`) asks `questions` new questions in a row. The
    first question of each and the ones after it, timed apart."""
    rng = random.Random(seed)
    at = T0 + timedelta(days=3650)
    first, following = [], []
    for _ in range(people):
        user_key = f"telegram:{rng.randrange(users)}"
        for n in range(questions):
            query = RecallQuery(user_key=user_key, text=_fresh_question(rng), at=at)
            began = time.perf_counter()
            await service.recall(query)
            (following if n else first).append((time.perf_counter() - began) * 1000)
    return first, following


def _summary(latencies: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(latencies, 0.5), 2), "p95_ms": round(percentile(latencies, 0.95), 2)}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated index sizes")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--distinct", type=int, default=3000, help="sentences embedded for real")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--profile-html", type=Path, help="pyinstrument profile of recall at the largest size")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))

    real = UseEmbedder()
    await real.warm_up()
    sentences = synthetic_sentences(args.distinct, random.Random(1))
    vectors = await real.embed(sentences)
    base = {s: np.asarray(v, dtype=np.float32) for s, v in zip(sentences, vectors, strict=True)}
    embedder = ReplayEmbedder(real, base, np.random.default_rng(3))
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        driver = await EdgeDriver.open(Path(tmp) / "qdrant", real.dimension)
        index = QdrantMemoryIndex(driver, embedder, clock=_Clock())
        service = LongTermMemoryService(index, clock=_Clock())
        filled = 0
        try:
            for size in sizes:
                began = time.perf_counter()
                rate = await fill(index, filled, size, args.users, sentences)
                fill_s = time.perf_counter() - began
                filled = size
                await measure_search(index, args.users, 20)  # warm caches
                await measure_whole_recall(service, args.users, 20)
                search = await measure_search(index, args.users, args.queries)
                whole = await measure_whole_recall(service, args.users, args.queries)
                # The same index as the app opens the embedded one, keeping the records recall reads: a person's
                # next questions in a conversation find their candidates read.
                app_index = QdrantMemoryIndex(driver, embedder, clock=_Clock(), cached_records=EMBEDDED_CACHED_RECORDS)
                app_service = LongTermMemoryService(app_index, clock=_Clock())
                await measure_conversations(app_service, args.users, 10, seed=17)  # warm caches, other people
                first, following = await measure_conversations(app_service, args.users, args.queries // 3, seed=13)
                mem = memory_mb()
                row = {
                    "memories": size,
                    "users": args.users,
                    "upsert_per_s": round(rate),
                    "fill_s": round(fill_s, 1),
                    "index_search": _summary(search),
                    "recall_path": _summary(whole),
                    "conversation_first_question": _summary(first),
                    "conversation_next_questions": _summary(following),
                    "rss_mb": round(mem["rss"]),
                    "rss_heap_mb": round(mem["anon"]),
                    "rss_mapped_mb": round(mem["file"]),
                    "load_average": round(os.getloadavg()[0], 2),
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
            if args.profile_html:
                from pyinstrument import Profiler

                profiler = Profiler(async_mode="enabled")
                with profiler:
                    await measure_whole_recall(service, args.users, 100)
                args.profile_html.write_text(profiler.output_html())
                print(profiler.output_text(unicode=False, color=False, show_all=False))
        finally:
            await index.close()
    if args.json:
        args.json.write_text(json.dumps({"scale": rows, "cpus": os.cpu_count()}, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
