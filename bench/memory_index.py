"""Memory index benchmark on the embedded (Qdrant Edge) backend.

    python -m bench.memory_index [--sizes 10000,100000] [--users 1000]

Prints the real USE embedding cost, upsert throughput while the index grows to each size, hybrid
recall latency (p50/p95/p99, *including* embedding the query with the real model) and process RSS.

To stay fast, stored memories are not each run through the model: a few thousand distinct synthetic
sentences (FR + EN) are embedded for real, and every stored memory reuses one of those vectors with
a little random jitter (its text gets a unique suffix, so sparse vectors differ too). Queries are
separate sentences embedded for real on every search.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import tempfile
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from memory.embedding import UseEmbedder
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.records import IndexQuery, MemoryKind, MemoryRecord, MemorySource

T0 = datetime(2025, 1, 1, tzinfo=UTC)
BATCH = 256

_SUBJECTS_EN = ["My sister", "My cat", "My boss", "My best friend", "My son", "My neighbour", "My dad", "I"]
_VERBS_EN = ["loves", "hates", "is afraid of", "talks a lot about", "wants to try", "just discovered"]
_OBJECTS_EN = [
    "hiking in the Alps",
    "Japanese food",
    "the piano",
    "rainy Sundays",
    "old jazz records",
    "marathons",
    "gardening",
    "horror films",
    "the sea",
    "chess",
    "painting",
    "board games",
    "camping",
    "cooking curry",
]
_SUBJECTS_FR = ["Ma sœur", "Mon chat", "Mon patron", "Ma meilleure amie", "Mon fils", "Mon voisin", "Mon père"]
_VERBS_FR = ["adore", "déteste", "a peur de", "parle souvent de", "veut essayer", "vient de découvrir"]
_OBJECTS_FR = [
    "la randonnée",
    "la cuisine japonaise",
    "le piano",
    "les dimanches pluvieux",
    "le jazz",
    "le marathon",
    "le jardinage",
    "les films d'horreur",
    "la mer",
    "les échecs",
    "la peinture",
    "le camping",
]
QUERIES = [
    "What does my sister like?",
    "Qu'est-ce que mon chat adore ?",
    "Who is scared of the sea?",
    "Tell me about my boss",
    "Est-ce que mon père aime le jazz ?",
    "hobbies of my best friend",
    "Which sport does my son do?",
    "Qui aime la cuisine japonaise ?",
    "What music do I listen to?",
    "Ma voisine fait du jardinage ?",
    "Does anyone play chess?",
    "films d'horreur",
]


def synthetic_sentences(count: int, rng: random.Random) -> list[str]:
    sentences: set[str] = set()
    while len(sentences) < count:
        if rng.random() < 0.5:
            parts = (rng.choice(_SUBJECTS_EN), rng.choice(_VERBS_EN), rng.choice(_OBJECTS_EN))
        else:
            parts = (rng.choice(_SUBJECTS_FR), rng.choice(_VERBS_FR), rng.choice(_OBJECTS_FR))
        sentences.add(f"{' '.join(parts)} ({rng.randrange(1, 400)})")
    return sorted(sentences)


class ReplayEmbedder:
    """Stored texts reuse a real vector plus jitter; anything else (queries) goes to the real model."""

    def __init__(self, real: UseEmbedder, base: dict[str, np.ndarray], rng: np.random.Generator) -> None:
        self._real = real
        self._base = base
        self._rng = rng

    @property
    def dimension(self) -> int:
        return self._real.dimension

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if texts and all(t.split(" #", 1)[0] in self._base for t in texts):
            stacked = np.stack([self._base[t.split(" #", 1)[0]] for t in texts])
            stacked = stacked + self._rng.normal(0.0, 0.02, stacked.shape).astype(np.float32)
            stacked /= np.linalg.norm(stacked, axis=1, keepdims=True)
            return stacked.tolist()  # type: ignore[no-any-return]
        return await self._real.embed(texts)


def memory_mb() -> dict[str, float]:
    """Current RSS with its anonymous (heap) and file-backed (mapped shard files) parts, and the peak."""
    fields = {"VmRSS": "rss", "RssAnon": "anon", "RssFile": "file"}
    out = {"peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    with open("/proc/self/status") as status:
        for line in status:
            name = line.split(":", 1)[0]
            if name in fields:
                out[fields[name]] = int(line.split()[1]) / 1024
    return out


def rss_line() -> str:
    m = memory_mb()
    return f"RSS {m['rss']:.0f} MB (heap {m['anon']:.0f} + mapped files {m['file']:.0f}; peak {m['peak']:.0f})"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def fill(index: QdrantMemoryIndex, start: int, stop: int, users: int, sentences: list[str]) -> float:
    rng = random.Random(start)
    began = time.perf_counter()
    for first in range(start, stop, BATCH):
        batch = [
            MemoryRecord(
                memory_id=str(uuid.UUID(int=n + 1)),
                user_key=f"telegram:{n % users}",
                kind=rng.choice(list(MemoryKind)),
                text=f"{rng.choice(sentences)} #{n}",
                language="en",
                created_at=T0 + timedelta(minutes=n),
                source=MemorySource("telegram", f"telegram:dm:{n % users}"),
                scope="dm" if rng.random() < 0.9 else f"group:telegram:chat:{n % 7}",
            )
            for n in range(first, min(first + BATCH, stop))
        ]
        await index.add(batch)
    return (stop - start) / (time.perf_counter() - began)


async def measure_recall(index: QdrantMemoryIndex, users: int, queries: int, mode: str) -> list[float]:
    rng = random.Random(7)
    at = T0 + timedelta(days=3650)
    latencies = []
    for n in range(queries):
        # A numbered variant: each question new to the index's cache of recent query vectors, so it is embedded.
        text = f"{rng.choice(QUERIES)} ({mode} {n})"
        query = IndexQuery(user_key=f"telegram:{rng.randrange(users)}", text=text, at=at, limit=20, mode=mode)
        began = time.perf_counter()
        await index.search(query)
        latencies.append((time.perf_counter() - began) * 1000)
    return latencies


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated index sizes")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--distinct", type=int, default=3000, help="sentences embedded for real")
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))

    print(f"baseline: {rss_line()}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    real = UseEmbedder()
    began = time.perf_counter()
    await real.warm_up()
    print(f"USE model load: {time.perf_counter() - began:.2f} s, {rss_line()}")

    sentences = synthetic_sentences(args.distinct, random.Random(1))
    began = time.perf_counter()
    vectors = await real.embed(sentences)
    per_sentence = (time.perf_counter() - began) * 1000 / len(sentences)
    single = []
    for text in QUERIES * 5:
        t = time.perf_counter()
        await real.embed([text])
        single.append((time.perf_counter() - t) * 1000)
    print(
        f"USE embedding: {per_sentence:.2f} ms/sentence in batches of 64 ({len(sentences)} sentences); "
        f"single query p50 {statistics.median(single):.2f} ms, p95 {percentile(single, 0.95):.2f} ms"
    )
    base = {s: np.asarray(v, dtype=np.float32) for s, v in zip(sentences, vectors, strict=True)}
    del vectors
    embedder = ReplayEmbedder(real, base, np.random.default_rng(3))
    print(
        f"stored memories reuse {len(sentences)} real vectors with N(0, 0.02) jitter; "
        f"{args.users} users; queries embedded for real"
    )

    with tempfile.TemporaryDirectory() as tmp:
        path = (args.data_dir or Path(tmp)) / "qdrant"
        driver = await EdgeDriver.open(path, real.dimension)
        index = QdrantMemoryIndex(driver, embedder, clock=_Clock())
        filled = 0
        try:
            for size in sizes:
                rate = await fill(index, filled, size, args.users, sentences)
                filled = size
                print(f"\n== {size:,} memories ({size // args.users} per user) ==")
                print(f"upsert: {rate:,.0f} memories/s (batches of {BATCH}, incl. payload + sparse encoding)")
                await measure_recall(index, args.users, 20, "hybrid")  # warm caches
                for mode in ("hybrid", "dense"):
                    lat = await measure_recall(index, args.users, args.queries, mode)
                    print(
                        f"recall {mode:6} (limit 20, incl. query embedding): p50 {percentile(lat, 0.5):.2f} ms, "
                        f"p95 {percentile(lat, 0.95):.2f} ms, p99 {percentile(lat, 0.99):.2f} ms"
                    )
                print(f"{rss_line()}; load average {os.getloadavg()[0]:.2f}")
        finally:
            await index.close()


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


if __name__ == "__main__":
    asyncio.run(main())
