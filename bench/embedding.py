"""The USE embedder's cost, as recall and ingestion pay it.

    python -m bench.embedding [--queries 200] [--batch 512]

One query at a time (how recall embeds the message; through `UseEmbedder.embed`, i.e. on the event loop)
and one large batch per call (how the evaluation's ingestion embeds), on whatever else the box is doing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from memory.embedding import UseEmbedder


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=512)
    args = parser.parse_args()
    embedder = UseEmbedder()
    await embedder.warm_up()
    latencies = []
    for n in range(args.queries):
        began = time.perf_counter()
        await embedder.embed([f"What did Caroline paint in Paris last spring, question {n}?"])
        latencies.append((time.perf_counter() - began) * 1000)
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    print(f"one query per call ({args.queries} calls): p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms")
    sentences = [f"I went to the market and bought {n} apples for the pie today" for n in range(args.batch)]
    began = time.perf_counter()
    await embedder.embed(sentences)
    per_sentence = (time.perf_counter() - began) * 1000 / args.batch
    print(f"one batch of {args.batch}: {per_sentence:.2f} ms a sentence")


if __name__ == "__main__":
    asyncio.run(main())
