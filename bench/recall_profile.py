"""Souvenir's recall part by part at ~3,000 memories of one person, beside one query embedding, and its profile.

    python -m bench.recall_profile [--memories 3000] [--samples 200] [--out recall_profile.txt]

bench.floor's fill (the person's messages through `remember_exchange`, 200 others holding as many), the index
opened as the app opens it (records kept, people's memories kept as rows). Each question new to the embedder: one
query embedding alone (the floor), the whole recall, the same recall through the index's two searches instead of
the rows (`index_recall`, as a server-backed index recalls), then the recall's steps timed one by one (embedding,
ranking the rows, selection); p50 of each. With `--out`, pyinstrument's profile of the whole recalls (the
embedding's worker thread shows as [await]) and, sampled finer, of the same recalls' ranking and selection (needs
the `bench` extra).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.floor import PERSON, T0, _Clock, _exchange
from bench.memory_index import QUERIES, synthetic_sentences
from bot.engine.model import RecallQuery, UserRef
from memory.embedding import UseEmbedder
from memory.index_factory import EMBEDDED_CACHED_RECORDS
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ahead import read_ahead
from memory.recall.recalled import ranked_rows, shown
from memory.recall.rows.keeper import RecallRows
from memory.service import HYBRID_CANDIDATES, SIMILAR_CANDIDATES, LongTermMemoryService

STEPS = ("embedding", "rank_rows", "selection")
ROOT = Path(__file__).resolve().parents[1]


async def run(memories: int, samples: int, out: Path | None) -> dict[str, float]:
    rng = random.Random(11)
    sentences = synthetic_sentences(max(memories, 2000), rng)
    clock = _Clock()
    with tempfile.TemporaryDirectory(prefix="souvenir-recall-profile-") as scratch:
        embedder = UseEmbedder()
        await embedder.warm_up()
        driver = await EdgeDriver.open(Path(scratch) / "qdrant", embedder.dimension)
        store = QdrantMemoryIndex(driver, embedder, clock, cached_records=EMBEDDED_CACHED_RECORDS,
                                   read_ahead=read_ahead, rows=RecallRows(embedder.dimension))  # fmt: skip
        service = LongTermMemoryService(store, default_timezone="UTC", clock=clock, recall_rows=store.recall_rows)
        by_index = LongTermMemoryService(store, default_timezone="UTC")
        for n in range(memories):
            clock.at = T0 + timedelta(minutes=30 * n)
            await service.remember_exchange(_exchange(PERSON, n, sentences[n % len(sentences)], clock.at))
            other = UserRef("bench", f"other{n % 200}")
            await service.remember_exchange(_exchange(other, n, sentences[(n * 7) % len(sentences)], clock.at))
        count = await store.count(PERSON.key)
        asked = [f"{rng.choice(sentences)} — {QUERIES[n % len(QUERIES)]}" for n in range(samples)]
        await store.recall_rows(PERSON.key, wait=True)  # built as they were written: waited for, not rebuilt
        for n in range(20):
            await service.recall(RecallQuery(PERSON.key, f"{asked[n]} (warm {n})", clock.at))
        times: dict[str, list[float]] = {k: [] for k in ("query_embedding", "recall", "index_recall", *STEPS)}
        weights = service._weights
        for n, text in enumerate(asked):
            began = time.perf_counter()
            await embedder.embed([f"{text} ({n}a)"])
            times["query_embedding"].append(time.perf_counter() - began)
            began = time.perf_counter()
            await service.recall(RecallQuery(PERSON.key, f"{text} ({n}b)", clock.at))
            times["recall"].append(time.perf_counter() - began)
            began = time.perf_counter()
            await by_index.recall(RecallQuery(PERSON.key, f"{text} ({n}i)", clock.at))
            times["index_recall"].append(time.perf_counter() - began)
            query = RecallQuery(PERSON.key, f"{text} ({n}c)", clock.at)
            rows = await store.recall_rows(PERSON.key, wait=True)
            t0 = time.perf_counter()
            vector = await store.text_vector(query.text)
            t1 = time.perf_counter()
            assert rows is not None
            ranked = ranked_rows(rows, vector, query, weights, SIMILAR_CANDIDATES, HYBRID_CANDIDATES)
            t2 = time.perf_counter()
            shown(ranked, query, weights)
            t3 = time.perf_counter()
            for step, seconds in zip(STEPS, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                times[step].append(seconds)
        if out is not None:
            from pyinstrument import Profiler

            whole = Profiler(interval=0.0005, async_mode="enabled")
            whole.start()
            for n, text in enumerate(asked):
                await service.recall(RecallQuery(PERSON.key, f"{text} ({n}d)", clock.at))
            whole.stop()
            found = []
            rows = await store.recall_rows(PERSON.key, wait=True)
            assert rows is not None
            for n, text in enumerate(asked):
                query = RecallQuery(PERSON.key, f"{text} ({n}e)", clock.at)
                found.append((await store.text_vector(query.text), query))
            ranking = Profiler(interval=0.0002)
            ranking.start()
            for vector, query in found:
                shown(ranked_rows(rows, vector, query, weights, SIMILAR_CANDIDATES, HYBRID_CANDIDATES), query, weights)
            ranking.stop()
            text = whole.output_text(unicode=True) + ranking.output_text(unicode=True)
            text = text.replace(f"{ROOT}/", "")  # paths from the project's root
            await asyncio.to_thread(out.write_text, text, encoding="utf-8")
        await store.close()
    figures = {f"{k}_p50_ms": statistics.median(v) * 1000 for k, v in times.items()}
    figures["person_memories"] = count
    figures["recall_x_floor"] = figures["recall_p50_ms"] / figures["query_embedding_p50_ms"]
    figures["index_recall_x_floor"] = figures["index_recall_p50_ms"] / figures["query_embedding_p50_ms"]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=3000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None, help="write pyinstrument's profiles here")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.memories, args.samples, args.out))
    for name, value in figures.items():
        print(f"{name}: {value:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
