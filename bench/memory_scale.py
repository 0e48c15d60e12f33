"""One person with a year (or three) of chatting: listing, dated events and recall at 2k / 8k / 20k memories.

    python -m bench.memory_scale [--sizes 2000,8000,20000] [--runs 20] [--busy 1]

Embedded Qdrant Edge backend, the memory service as the app uses it. Per size it prints:
- a `/memories` page (8 items) at the top, in the middle and at the end, p50 / max;
- `dated_events` p50 / max;
- recall (hybrid + dense search, ranking, selection; the query embedded for real with USE) p50 / p95;
- the worst event-loop stall during each of these, from a probe task that sleeps 5 ms in a loop and
  records how late it wakes up.
Targets: page <= 100 ms, dated_events <= 50 ms, no stall over 50 ms, recall p95 within its budget.
`--busy 1` keeps another process spinning on one of the box's two cores for the whole run: "with
other work running", the same way every time.

The fill bypasses extraction (20k messages through the writer would take the bench's whole budget):
memories are built as the writer stores them — one episode per message; one message in six also gives
a fact that says exactly the message (the episode's twin, which the writer marks hidden) and one in
fifty a dated (temporal) memory. Stored texts reuse a few hundred sentences embedded for real with USE,
plus jitter (bench.memory_index.ReplayEmbedder); recall queries are embedded for real.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from bench.memory_index import QUERIES, synthetic_sentences
from bot.config import Settings
from bot.engine.model import RecallQuery
from memory.embedding import UseEmbedder
from memory.index_factory import EMBEDDED_CACHED_RECORDS
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.recall.ahead import read_ahead
from memory.recall.rows.keeper import RecallRows
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.service import LongTermMemoryService
from memory.writing.episodes import SAID

USER = "telegram:4242"
T0 = datetime(2023, 1, 1, 8, 0, tzinfo=UTC)
PAGE = 8
BATCH = 256


class LoopLag:
    """A task that sleeps 5 ms at a time and records how late it wakes up: the loop's longest stall."""

    def __init__(self, tick: float = 0.005) -> None:
        self._tick = tick
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            await asyncio.sleep(self._tick)
            self.worst = max(self.worst, loop.time() - began - self._tick)

    def reset(self) -> float:
        worst, self.worst = self.worst, 0.0
        return worst * 1000

    def __enter__(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()


class FillEmbedder:
    """Stored texts map to one of the base sentences (real USE vectors, jittered); queries go to USE."""

    def __init__(self, real: UseEmbedder, base: dict[str, np.ndarray]) -> None:
        self._real = real
        self._base = base
        self._rng = np.random.default_rng(3)
        self.alias: dict[str, str] = {}

    @property
    def dimension(self) -> int:
        return self._real.dimension

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if texts and all(t in self.alias for t in texts):
            stacked = np.stack([self._base[self.alias[t]] for t in texts])
            stacked = stacked + self._rng.normal(0.0, 0.02, stacked.shape).astype(np.float32)
            stacked /= np.linalg.norm(stacked, axis=1, keepdims=True)
            return stacked.tolist()  # type: ignore[no-any-return]
        return await self._real.embed(texts)


def _records_of_message(n: int, rng: random.Random, sentences: list[str], alias: dict[str, str]) -> list[MemoryRecord]:
    at = T0 + timedelta(minutes=37 * n)
    sentence = rng.choice(sentences)
    said = f"{sentence} ({n})"
    source = MemorySource("telegram", f"telegram:dm:{USER}", (str(n),))
    episode = MemoryRecord(
        memory_id=str(uuid.UUID(int=(n << 8) + 1)), user_key=USER, kind=MemoryKind.EPISODIC,
        text=f"day {at.date()}: {said}", language="en", created_at=at, source=source, event_at=at,
        valid_from=at, importance=0.3, timezone="Europe/Paris", attributes={SAID: said},
    )  # fmt: skip
    out = [episode]
    roll = rng.random()
    if roll < 1 / 6:
        fact = dataclasses.replace(episode, memory_id=str(uuid.UUID(int=(n << 8) + 2)), kind=MemoryKind.SEMANTIC,
                                   text=said, importance=0.6, attributes={"episode": episode.memory_id})  # fmt: skip
        if "hidden_by" in {f.name for f in dataclasses.fields(MemoryRecord)}:
            out[0] = dataclasses.replace(episode, hidden_by=fact.memory_id)  # type: ignore[call-arg]
        out.append(fact)
    elif roll < 1 / 6 + 1 / 50:
        day = (at + timedelta(days=rng.randrange(1, 300))).date()
        out.append(
            dataclasses.replace(
                episode, memory_id=str(uuid.UUID(int=(n << 8) + 3)), kind=MemoryKind.TEMPORAL,
                text=f"exam on {day}", label="exam", local_date=day.isoformat(), event_at=at,
                attributes={"episode": episode.memory_id, "precision": "day"},
            )
        )  # fmt: skip
    for record in out:
        alias[record.text] = sentence
    return out


async def fill(index: QdrantMemoryIndex, embedder: FillEmbedder, start: int, size: int, sentences: list[str]) -> int:
    """Messages from `start` until the person holds `size` memories; returns the next message number."""
    rng = random.Random(start)
    held = await index.count(USER)
    n = start
    while held < size:
        batch: list[MemoryRecord] = []
        while len(batch) < BATCH and held + len(batch) < size:
            batch.extend(_records_of_message(n, rng, sentences, embedder.alias))
            n += 1
        await index.add(batch)
        held += len(batch)
    return n


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(runs: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    out = []
    for _ in range(runs):
        began = time.perf_counter()
        await call()
        out.append((time.perf_counter() - began) * 1000)
    return out


async def measure(service: LongTermMemoryService, lag: LoopLag, runs: int, now: datetime) -> None:
    total = (await service.list_memories(USER, 0, PAGE)).total
    lag.reset()
    for name, offset in (("top", 0), ("middle", total // 2), ("last", max(0, total - PAGE))):
        lat = await timed(runs, lambda offset=offset: service.list_memories(USER, offset, PAGE))
        print(f"  /memories page ({name:6}, offset {offset:>6}): p50 {statistics.median(lat):7.1f} ms, "
              f"max {max(lat):7.1f} ms; worst loop stall {lag.reset():6.1f} ms")  # fmt: skip
    events = await service.dated_events(USER)
    lat = await timed(runs, lambda: service.dated_events(USER))
    print(f"  dated_events ({len(events)} events):          p50 {statistics.median(lat):7.1f} ms, "
          f"max {max(lat):7.1f} ms; worst loop stall {lag.reset():6.1f} ms")  # fmt: skip
    settings = Settings()
    queries = [RecallQuery(USER, q, now, timezone="Europe/Paris", limit=settings.recall_limit,
                           max_words=settings.recall_max_words) for q in QUERIES]  # fmt: skip
    for q in queries[:3]:
        await service.recall(q)  # warm
    lag.reset()
    lat = []
    for i in range(max(runs * 3, len(queries))):
        # Trailing spaces: the same question, but not the text the index kept the embedding of (it keeps the
        # last few, for the two searches of one recall), so every call embeds its question for real.
        query = queries[i % len(queries)]
        query = dataclasses.replace(query, text=query.text + " " * (1 + i))
        began = time.perf_counter()
        await service.recall(query)
        lat.append((time.perf_counter() - began) * 1000)
    print(f"  recall ({settings.recall_limit} memories, incl. query embedding):    p50 {percentile(lat, 0.5):7.1f} ms, "
          f"p95 {percentile(lat, 0.95):7.1f} ms; worst loop stall {lag.reset():6.1f} ms")  # fmt: skip


@contextlib.contextmanager
def other_work(processes: int) -> Iterator[None]:
    """"With other work running", the same every time: processes that keep a core busy until the bench ends."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(processes)]
    if spinning:
        print(f"{processes} other process(es) kept spinning meanwhile")
    try:
        yield
    finally:
        for process in spinning:
            process.kill()
            process.wait()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="2000,8000,20000", help="comma-separated memory counts for one person")
    parser.add_argument("--runs", type=int, default=20, help="timed calls per measure")
    parser.add_argument("--distinct", type=int, default=400, help="sentences embedded for real")
    parser.add_argument("--optimize", action="store_true", help="optimize after each fill, as a restart does")
    parser.add_argument(
        "--busy", type=int, default=0, help="other processes kept spinning meanwhile (1: one core of two busy)"
    )
    args = parser.parse_args()

    real = UseEmbedder()
    await real.warm_up()
    sentences = synthetic_sentences(args.distinct, random.Random(1))
    base = {s: np.asarray(v, dtype=np.float32) for s, v in zip(sentences, await real.embed(sentences), strict=True)}
    embedder = FillEmbedder(real, base)

    with tempfile.TemporaryDirectory() as tmp, LoopLag() as lag, other_work(args.busy):
        driver = await EdgeDriver.open(Path(tmp) / "qdrant", real.dimension)
        # As the app opens the embedded index (memory.index_factory): records read by recall are kept between
        # recalls, a memory's words are read for recall as it is written, and the person's memories are kept as
        # rows that recall ranks.
        index = QdrantMemoryIndex(driver, embedder, _Clock(), cached_records=EMBEDDED_CACHED_RECORDS,
                                  read_ahead=read_ahead, rows=RecallRows(real.dimension))  # fmt: skip
        service = LongTermMemoryService(index, default_timezone="Europe/Paris", recall_rows=index.recall_rows)
        next_message = 0
        try:
            for size in sorted(int(s) for s in args.sizes.split(",")):
                began = time.perf_counter()
                next_message = await fill(index, embedder, next_message, size, sentences)
                filled = time.perf_counter() - began
                if args.optimize:
                    lag.reset()
                    began = time.perf_counter()
                    await driver.optimize()
                    print(f"  optimize: {time.perf_counter() - began:.2f} s, worst loop stall {lag.reset():.1f} ms")
                # The rows a first recall begins building in the background, waited for: recall as it is from then on.
                await index.recall_rows(USER, wait=True)
                now = T0 + timedelta(minutes=37 * next_message)
                print(f"\n== {size:,} memories for one person ({next_message:,} messages, "
                      f"filled in {filled:.0f} s) ==")  # fmt: skip
                await measure(service, lag, args.runs, now)
        finally:
            await index.close()


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


if __name__ == "__main__":
    asyncio.run(main())
