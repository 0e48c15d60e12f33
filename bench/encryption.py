"""What encryption at rest costs: sealing and opening one text, its keyword vector (crc32 ids, or ids keyed per
person), the memory index's ingest and recall, and the conversation window's read and write, each without and
with SOUVENIR_ENCRYPTION_KEY.

    python -m bench.encryption [--size 10000] [--users 200]

The index runs on Qdrant Edge in a temporary dir with the same synthetic memories as bench.memory_index (real USE
vectors replayed with jitter; recall embeds each query with the real model), and the data keys live in an
embedded valkey. Both runs use the same memories and queries; only the cipher differs.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import redis.asyncio as aioredis

from bench.memory_index import ReplayEmbedder, fill, measure_recall, percentile, synthetic_sentences
from bot.engine.model import ChatTurn
from memory.embedding import UseEmbedder
from memory.privacy.crypto import PersonCipher, PlainCipher, RedisDataKeys, TextCipher, new_master_key
from memory.qdrant.edge import EdgeDriver
from memory.qdrant.index import QdrantMemoryIndex
from memory.redis.embedded import embedded_redis
from memory.redis.stores.conversation_window import RedisConversationWindow
from memory.words.sparse import KEYWORD_KEY_BYTES, encode_document, encode_query

TEXT = "My sister Julie is getting married in Annecy next June, and I am so nervous about the speech."


class _Clock:
    def now(self) -> datetime:
        return datetime.now(UTC)


def keyword_vectors(rounds: int) -> None:
    """The sparse vector of one memory and of one query: plain crc32 ids, then BLAKE2b ids under a person's key."""
    for label, key in (("crc32 ids", None), ("keyed ids", b"k" * KEYWORD_KEY_BYTES)):
        began = time.perf_counter()
        for _ in range(rounds):
            encode_document(TEXT, key)
        document_us = (time.perf_counter() - began) * 1e6 / rounds
        began = time.perf_counter()
        for _ in range(rounds):
            encode_query("Julie's wedding in Annecy", key)
        query_us = (time.perf_counter() - began) * 1e6 / rounds
        print(f"keyword vector, {label}: memory {document_us:.1f} µs, query {query_us:.1f} µs")


async def seal_and_open(cipher: PersonCipher, rounds: int) -> tuple[float, float]:
    sealer = await cipher.sealer("telegram:1")
    began = time.perf_counter()
    sealed = [sealer.seal(TEXT) for _ in range(rounds)]
    seal_us = (time.perf_counter() - began) * 1e6 / rounds
    began = time.perf_counter()
    for text in sealed:
        sealer.open(text)
    return seal_us, (time.perf_counter() - began) * 1e6 / rounds


async def index_run(
    label: str,
    cipher: TextCipher,
    embedder: ReplayEmbedder,
    sentences: list[str],
    dimension: int,
    args: argparse.Namespace,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        driver = await EdgeDriver.open(Path(tmp) / "qdrant", dimension)
        index = QdrantMemoryIndex(driver, embedder, clock=_Clock(), cipher=cipher)
        try:
            rate = await fill(index, 0, args.size, args.users, sentences)
            await measure_recall(index, args.users, 20, "hybrid")  # warm caches (and the data-key cache)
            hybrid = await measure_recall(index, args.users, args.queries, "hybrid")
            listing = []
            for n in range(args.queries):
                began = time.perf_counter()
                await index.scroll(f"telegram:{n % args.users}", 0, 50)
                listing.append((time.perf_counter() - began) * 1000)
        finally:
            await index.close()
    print(
        f"{label:9} ingest {rate:8,.0f} memories/s | recall hybrid limit 20 (incl. query embedding) "
        f"p50 {percentile(hybrid, 0.5):6.2f} ms p95 {percentile(hybrid, 0.95):6.2f} ms | "
        f"list 50 p50 {percentile(listing, 0.5):6.2f} ms p95 {percentile(listing, 0.95):6.2f} ms"
    )


async def window_run(label: str, client: aioredis.Redis, cipher: TextCipher, rounds: int) -> None:
    window = RedisConversationWindow(client, max_turns=20, ttl=timedelta(hours=1), cipher=cipher)
    conversation = f"telegram:dm:{label}"
    at = datetime(2026, 3, 1, tzinfo=UTC)
    writes, reads = [], []
    for n in range(rounds):
        turns = [ChatTurn("user", f"{TEXT} {n}", at, f"telegram:{label}"), ChatTurn("assistant", TEXT, at)]
        began = time.perf_counter()
        await window.append_turns(conversation, turns)
        writes.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        await window.recent_turns(conversation)
        reads.append((time.perf_counter() - began) * 1000)
    print(
        f"{label:9} window append 2 turns p50 {percentile(writes, 0.5):.3f} ms | read 20 turns "
        f"p50 {percentile(reads, 0.5):.3f} ms p95 {percentile(reads, 0.95):.3f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=10000, help="memories in the index")
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--distinct", type=int, default=1000, help="sentences embedded for real")
    args = parser.parse_args()

    real = UseEmbedder()
    await real.warm_up()
    sentences = synthetic_sentences(args.distinct, random.Random(1))
    base = {s: np.asarray(v, dtype=np.float32) for s, v in zip(sentences, await real.embed(sentences), strict=True)}
    embedder = ReplayEmbedder(real, base, np.random.default_rng(3))

    with tempfile.TemporaryDirectory() as tmp:
        async with embedded_redis(Path(tmp), persist=False) as url:
            client = aioredis.from_url(url)
            try:
                sealed = PersonCipher(RedisDataKeys(client, new_master_key()))
                seal_us, open_us = await seal_and_open(sealed, 20000)
                print(f"one {len(TEXT)}-character text: seal {seal_us:.1f} µs, open {open_us:.1f} µs (key cached)")
                keyword_vectors(20000)
                cold = PersonCipher(RedisDataKeys(client, new_master_key()))
                began = time.perf_counter()
                for n in range(500):
                    await cold.sealer(f"cold:{n}")
                print(f"first use of a person's data key (create, wrap, store): "
                      f"{(time.perf_counter() - began) * 1000 / 500:.3f} ms")  # fmt: skip
                for label, cipher in (("plain", PlainCipher()), ("encrypted", sealed)):
                    await window_run(label, client, cipher, 500)
                print(f"\nindex: {args.size:,} memories, {args.users} people, {args.queries} queries")
                for label, cipher in (("plain", PlainCipher()), ("encrypted", sealed)):
                    await index_run(label, cipher, embedder, sentences, real.dimension, args)
            finally:
                await client.aclose()


if __name__ == "__main__":
    asyncio.run(main())
