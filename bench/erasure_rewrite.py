"""What purging an erasure from the embedded index costs: the shard rewritten with its live points only.

    python -m bench.erasure_rewrite [--points 100000] [--people 100]

A shard of `--points` memories (512-d float16 vectors as USE gives, BM25 sparse vectors, full payloads) over
`--people` people is built once; then, each in a fresh process so peak RSS is its own:
- `open+close`: open the shard and close it, nothing erased (the baseline);
- `erase+close`: open, erase one person (/forget all), close (the close rewrites the shard).
- `reopen`: the open after that (it optimizes the fresh shard, building the vector graphs of the people past
  ~10,000 memories: none at 100 people and 100k memories).
It prints wall time and peak RSS (ru_maxrss) of each, and the close alone (where the rewrite runs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from memory.qdrant.driver import IndexPoint, Where
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.payload import record_to_payload
from memory.records import MemoryKind, MemoryRecord, MemorySource
from memory.words.sparse import encode_document

DIMENSION = 512
BATCH = 500
WORDS = "cat jazz boat sister birthday garden rain coffee piano train paris lyon work tired happy movie book".split()


def _user(n: int) -> str:
    return f"telegram:{1000 + n}"


async def build(path: Path, points: int, people: int) -> None:
    rng = random.Random(7)
    vectors = np.random.default_rng(7).standard_normal((points, DIMENSION), dtype=np.float32)
    driver = await EdgeDriver.open(path, DIMENSION)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    for first in range(0, points, BATCH):
        by_user: dict[str, list[IndexPoint]] = {}
        for i in range(first, min(points, first + BATCH)):
            user = _user(i % people)
            text = " ".join(rng.choice(WORDS) for _ in range(18))
            at = start + timedelta(minutes=i)
            record = MemoryRecord(str(uuid.uuid4()), user, MemoryKind.EPISODIC, text, "en", at,
                                  MemorySource("telegram", f"telegram:dm:{i % people}", (str(i),)))  # fmt: skip
            point = IndexPoint(record.memory_id, vectors[i].tolist(), encode_document(text), record_to_payload(record))
            by_user.setdefault(user, []).append(point)
        for user, batch in by_user.items():
            await driver.upsert(user, batch)
    await driver.close()


async def measure(path: Path, erase: bool) -> dict[str, float]:
    started = time.perf_counter()
    driver = await EdgeDriver.open(path, DIMENSION)
    opened = time.perf_counter()
    if erase:
        await driver.delete(Where(user_key=_user(0)))
    before = time.perf_counter()
    await driver.close()  # after an erasure, the close rewrites the shard
    return {
        "open_s": opened - started,
        "close_s": time.perf_counter() - before,
        "total_s": time.perf_counter() - started,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _du(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--phase", choices=("build", "baseline", "erase"), help=argparse.SUPPRESS)
    parser.add_argument("--path", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase == "build":
        asyncio.run(build(args.path, args.points, args.people))
        return
    if args.phase is not None:
        print(json.dumps(asyncio.run(measure(args.path, args.phase == "erase"))))
        return

    def phase(name: str, path: Path) -> dict[str, float]:
        cmd = [sys.executable, "-m", "bench.erasure_rewrite", "--phase", name, "--path", str(path),
               "--points", str(args.points), "--people", str(args.people)]  # fmt: skip
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1]) if name != "build" else {}

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "qdrant"
        started = time.perf_counter()
        phase("build", path)
        print(f"built {args.points} points over {args.people} people in {time.perf_counter() - started:.1f} s; "
              f"shard {_du(path):.0f} MB")  # fmt: skip
        base = phase("baseline", path)
        print(f"open+close (nothing erased): {base['total_s']:.2f} s (close {base['close_s']:.2f} s), "
              f"peak RSS {base['peak_rss_mb']:.0f} MB")  # fmt: skip
        erased = phase("erase", path)
        print(f"open, erase {args.points // args.people} points, close: {erased['total_s']:.2f} s "
              f"(close with rewrite {erased['close_s']:.2f} s), peak RSS {erased['peak_rss_mb']:.0f} MB; "
              f"shard after {_du(path):.0f} MB")  # fmt: skip
        again = phase("baseline", path)
        print(f"reopen after the rewrite (optimizes the fresh shard): open {again['open_s']:.2f} s, "
              f"peak RSS {again['peak_rss_mb']:.0f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
