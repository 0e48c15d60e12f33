"""Souvenir on the box, in a child process of its own: the real write path, the whole recall path, the floor.

Ingestion is measured as mem0's is (bench/mem0_compare/mem0_side.py): every message goes through the real write
path (`remember_exchanges`, 64 at a time, memory/evaluation/locomo.py), all but the last `tail` untimed, then
the last `tail`, timed: `ingest_per_s` is the rate into a box that already holds all the others.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.mem0_compare.box import BUDGET, Box, Scores
from bench.mem0_compare.rss import peak_rss_mb

K = 10


class _Clock:
    def __init__(self, at: Any) -> None:
        self.at = at

    def now(self) -> Any:
        return self.at


async def run_souvenir(box: Box, tail: int) -> dict[str, Any]:
    from bot.app.memory import embedder_options, index_options
    from bot.config import Settings
    from bot.engine.model import RecallQuery, UserRef, excerpts
    from memory.evaluation.locomo import PLATFORM, ingest_conversations
    from memory.index_factory import open_embedder, open_memory_index
    from memory.recall import recalled as recall_steps
    from memory.service import HYBRID_CANDIDATES, SIMILAR_CANDIDATES, LongTermMemoryService

    asked_at = {p.sample_id: p.asked_at for p in box.people}
    with tempfile.TemporaryDirectory(prefix="souvenir-vs-mem0-") as scratch:
        settings = Settings(data_dir=Path(scratch), qdrant_url=None)
        async with open_embedder(embedder_options(settings)) as embedder:
            await embedder.embed(["warm up"])  # the model load is not ingestion
            clock = _Clock(max(asked_at.values()))
            async with open_memory_index(index_options(settings), embedder, clock=clock) as store:
                service = LongTermMemoryService(store, default_timezone="UTC", recall_rows=store.recall_rows)
                split = box.memories - box.tail(tail)
                began = time.perf_counter()
                await ingest_conversations(service, box.people, stop=split)
                fill_seconds = time.perf_counter() - began
                timed, seconds = await ingest_conversations(service, box.people, start=split)
                for n in range(3):  # the first searches of a process (imports, thread start) are not timed
                    key = UserRef(PLATFORM, box.people[n % len(box.people)].sample_id).key
                    await service.recall(RecallQuery(key, f"what happened last summer? ({n})", clock.at))
                scores = Scores.empty()
                for asked in box.asked:
                    key = UserRef(PLATFORM, asked.person).key
                    query = RecallQuery(key, asked.text, asked_at[asked.person], limit=K, max_words=BUDGET)
                    began = time.perf_counter()
                    recalled = await service.recall(query)
                    latency = (time.perf_counter() - began) * 1000
                    records = {r.memory_id: r for r in await store.fetch(key, [m.memory_id for m in recalled])}
                    shown = [
                        (m.text, records[m.memory_id].source.message_ids if m.memory_id in records else (), group)
                        for group, excerpt in enumerate(excerpts(recalled))
                        for m in excerpt
                    ]
                    scores.add(asked, shown, latency)

                # The floor and the recall part by part, each question new to the embedder (a numbered variant).
                parts: dict[str, list[float]] = {
                    "query_embedding": [], "recall": [], "embedding_in_recall": [], "rank_rows": [], "selection": [],
                }  # fmt: skip
                for n, asked in enumerate(box.asked):
                    key = UserRef(PLATFORM, asked.person).key
                    began = time.perf_counter()
                    await embedder.embed([f"{asked.text} ({n}a)"])
                    parts["query_embedding"].append((time.perf_counter() - began) * 1000)
                    query = RecallQuery(key, f"{asked.text} ({n}b)", asked_at[asked.person], limit=K, max_words=BUDGET)
                    began = time.perf_counter()
                    await service.recall(query)
                    parts["recall"].append((time.perf_counter() - began) * 1000)
                    # the same steps as LongTermMemoryService.recall, timed one by one
                    query = replace(query, text=f"{asked.text} ({n}c)")
                    weights = service._weights
                    rows = await store.recall_rows(key, wait=True)  # a person let go is built again first
                    t0 = time.perf_counter()
                    vector = await store.text_vector(query.text)
                    t1 = time.perf_counter()
                    assert rows is not None
                    ranked = recall_steps.ranked_rows(rows, vector, query, weights, max(SIMILAR_CANDIDATES, K * 15),
                                             max(HYBRID_CANDIDATES, K * 10))  # fmt: skip
                    t2 = time.perf_counter()
                    recall_steps.shown(ranked, query, weights)
                    t3 = time.perf_counter()
                    for name, (a, b) in zip(
                        ("embedding_in_recall", "rank_rows", "selection"), ((t0, t1), (t1, t2), (t2, t3)), strict=True
                    ):
                        parts[name].append((b - a) * 1000)
    figures = scores.figures(timed / seconds if seconds > 0 else 0.0, peak_rss_mb())
    medians = {name: statistics.median(values) for name, values in parts.items()}
    floor = {
        "query_embedding_p50_ms": medians["query_embedding"],
        "recall_p50_ms": medians["recall"],
        "recall_x_floor": medians["recall"] / medians["query_embedding"],
        "parts_p50_ms": {k: v for k, v in medians.items() if k not in ("query_embedding", "recall")},
    }
    return {"figures": figures, "memories": box.memories, "questions": len(box.asked), "ingest_s": seconds,
            "fill_s": fill_seconds, "tail": timed, "floor": floor}  # fmt: skip
