"""Souvenir on the box, in a child process of its own: the real write path, the whole recall path, the floor.

Ingestion is measured as mem0's is (bench/mem0_compare/mem0_side.py): every message goes through the real write
path (`remember_exchanges`, 64 at a time, memory/evaluation/locomo.py), all but the last `tail` untimed, then
the last `tail`, timed (a chunk at a time, in turns with the other systems: bench/mem0_compare/child.py):
`ingest_per_s` is the rate into a box that already holds all the others.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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


@asynccontextmanager
async def opened_souvenir(box: Box, tail: int) -> AsyncIterator[SouvenirSide]:
    """Souvenir on the box, every message but the tail written (untimed), ready for the turns."""
    from bot.app.memory import embedder_options, index_options
    from bot.config import Settings
    from memory.index_factory import open_embedder, open_memory_index
    from memory.service import LongTermMemoryService

    with tempfile.TemporaryDirectory(prefix="souvenir-vs-mem0-") as scratch:
        settings = Settings(data_dir=Path(scratch), qdrant_url=None)
        async with open_embedder(embedder_options(settings)) as embedder:
            await embedder.embed(["warm up"])  # the model load is not ingestion
            clock = _Clock(max(p.asked_at for p in box.people))
            async with open_memory_index(index_options(settings), embedder, clock=clock) as store:
                service = LongTermMemoryService(store, default_timezone="UTC", recall_rows=store.recall_rows)
                side = SouvenirSide(box, embedder, store, service, box.memories - box.tail(tail))
                await side.fill()
                yield side


class SouvenirSide:
    """The timed tail a chunk at a time, the questions a round at a time, then the figures and the floor."""

    def __init__(self, box: Box, embedder: Any, store: Any, service: Any, split: int) -> None:
        self._box = box
        self._embedder = embedder
        self._store = store
        self._service = service
        self._asked_at = {p.sample_id: p.asked_at for p in box.people}
        self._split = self._next = split
        self._ingest_seconds = 0.0
        self._scores = Scores.empty()
        self.fill_seconds = 0.0

    async def fill(self) -> None:
        from bot.engine.model import RecallQuery, UserRef
        from memory.evaluation.locomo import PLATFORM, ingest_conversations

        began = time.perf_counter()
        await ingest_conversations(self._service, self._box.people, stop=self._split)
        self.fill_seconds = time.perf_counter() - began
        at = max(self._asked_at.values())
        for n in range(3):  # the first searches of a process (imports, thread start) are not timed
            key = UserRef(PLATFORM, self._box.people[n % len(self._box.people)].sample_id).key
            await self._service.recall(RecallQuery(key, f"what happened last summer? ({n})", at))

    async def ingest(self, count: int) -> None:
        from memory.evaluation.locomo import ingest_conversations

        stop = min(self._next + count, self._box.memories)
        _, seconds = await ingest_conversations(self._service, self._box.people, start=self._next, stop=stop)
        self._ingest_seconds += seconds
        self._next = stop

    async def ask(self, indices: list[int]) -> None:
        from bot.engine.model import RecallQuery, UserRef, excerpts
        from memory.evaluation.locomo import PLATFORM

        for index in indices:
            asked = self._box.asked[index]
            key = UserRef(PLATFORM, asked.person).key
            query = RecallQuery(key, asked.text, self._asked_at[asked.person], limit=K, max_words=BUDGET)
            began = time.perf_counter()
            recalled = await self._service.recall(query)
            latency = (time.perf_counter() - began) * 1000
            records = {r.memory_id: r for r in await self._store.fetch(key, [m.memory_id for m in recalled])}
            shown = [
                (m.text, records[m.memory_id].source.message_ids if m.memory_id in records else (), group)
                for group, excerpt in enumerate(excerpts(recalled))
                for m in excerpt
            ]
            self._scores.add(asked, shown, latency)

    async def finish(self) -> dict[str, Any]:
        ingested = self._next - self._split
        figures = self._scores.figures(ingested / self._ingest_seconds if self._ingest_seconds > 0 else 0.0,
                                       peak_rss_mb())  # fmt: skip
        return {"figures": figures, "memories": self._box.memories, "questions": len(self._scores.latencies_ms),
                "ingest_s": self._ingest_seconds, "fill_s": self.fill_seconds, "tail": ingested,
                "floor": await self._floor()}  # fmt: skip

    async def _floor(self) -> dict[str, Any]:
        """One query embedding, and the recall beside it part by part, each question new to the embedder (a
        numbered variant)."""
        from bot.engine.model import RecallQuery, UserRef
        from memory.evaluation.locomo import PLATFORM
        from memory.recall import recalled as recall_steps
        from memory.service import HYBRID_CANDIDATES, SIMILAR_CANDIDATES

        service, store = self._service, self._store
        parts: dict[str, list[float]] = {
            "query_embedding": [], "recall": [], "embedding_in_recall": [], "rank_rows": [], "selection": [],
        }  # fmt: skip
        for n, asked in enumerate(self._box.asked):
            key = UserRef(PLATFORM, asked.person).key
            began = time.perf_counter()
            await self._embedder.embed([f"{asked.text} ({n}a)"])
            parts["query_embedding"].append((time.perf_counter() - began) * 1000)
            at = self._asked_at[asked.person]
            query = RecallQuery(key, f"{asked.text} ({n}b)", at, limit=K, max_words=BUDGET)
            began = time.perf_counter()
            await service.recall(query)
            parts["recall"].append((time.perf_counter() - began) * 1000)
            # the same steps as LongTermMemoryService.recall, timed one by one
            query = replace(query, text=f"{asked.text} ({n}c)")
            rows = await store.recall_rows(key, wait=True)  # a person let go is built again first
            t0 = time.perf_counter()
            vector = await store.text_vector(query.text)
            t1 = time.perf_counter()
            assert rows is not None
            similar, hybrid = max(SIMILAR_CANDIDATES, K * 15), max(HYBRID_CANDIDATES, K * 10)
            ranked = recall_steps.ranked_rows(rows, vector, query, service._weights, similar, hybrid)
            t2 = time.perf_counter()
            recall_steps.shown(ranked, query, service._weights)
            t3 = time.perf_counter()
            for name, (a, b) in zip(
                ("embedding_in_recall", "rank_rows", "selection"), ((t0, t1), (t1, t2), (t2, t3)), strict=True
            ):
                parts[name].append((b - a) * 1000)
        medians = {name: statistics.median(values) for name, values in parts.items()}
        return {
            "query_embedding_p50_ms": medians["query_embedding"],
            "recall_p50_ms": medians["recall"],
            "recall_x_floor": medians["recall"] / medians["query_embedding"],
            "parts_p50_ms": {k: v for k, v in medians.items() if k not in ("query_embedding", "recall")},
        }
