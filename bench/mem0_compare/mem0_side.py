"""mem0 on the box, in a child process of its own, in each set-up its docs give for one machine.

- `qdrant_local`: its default vector store, Qdrant, at a local path (qdrant-client's local mode);
- `faiss`: `faiss-cpu` at a local path (mem0's FAISS store, euclidean distance as its docs set it: our vectors
  are unit length, so the order is the cosine's);
- `chroma`: Chroma's persistent local client at a path.

Each with `add(..., infer=False)` (every message stored as is, no LLM) and `search(query, top_k=10,
filters={"user_id": ...})`. Its embedder is swapped for the same USE model Souvenir embeds with, through
`Memory.embedding_model` (mem0 has no hook to pass an embedder object in the config), with
`embedding_model_dims=512` given to its embedder and vector store configs where they take it. mem0 insists on
`OPENAI_API_KEY` at construction even with no LLM call: a dummy is set. Telemetry off. One `add` per message:
with `infer=False` mem0 has no batch write that keeps each message's own metadata (its date, its id).
"""

from __future__ import annotations

import os
import time
from typing import Any

from bench.mem0_compare.box import Box, Scores
from bench.mem0_compare.rss import peak_rss_mb

K = 10
SETUPS = ("qdrant_local", "faiss", "chroma")


class UseForMem0:
    """The same USE model Souvenir embeds with, behind mem0's embedder interface (normalised the same way)."""

    def __init__(self) -> None:
        import numpy as np

        from memory.embedding.use import open_use

        self._np = np
        self._model = open_use(threads=1)  # exactly ours: the C++ tokenizer too
        self._model.encode(["warm up"])

    def _encode(self, texts: list[str]) -> list[list[float]]:
        np = self._np
        batch = np.asarray(self._model.encode(texts), dtype=np.float32)
        batch = batch / np.maximum(np.linalg.norm(batch, axis=1, keepdims=True), 1e-12)
        return [row.tolist() for row in batch]

    def embed(self, text: str, memory_action: str | None = None) -> list[float]:
        return self._encode([text])[0]

    def embed_batch(self, texts: list[str], memory_action: str = "add") -> list[list[float]]:
        return self._encode(list(texts))


def vector_store(setup: str, scratch: str) -> dict[str, Any]:
    if setup == "qdrant_local":
        config: dict[str, Any] = {"path": f"{scratch}/qdrant", "collection_name": "locomo", "embedding_model_dims": 512}
        return {"provider": "qdrant", "config": config}
    if setup == "faiss":
        config = {"path": f"{scratch}/faiss", "collection_name": "locomo", "distance_strategy": "euclidean",
                  "embedding_model_dims": 512}  # fmt: skip
        return {"provider": "faiss", "config": config}
    if setup == "chroma":
        return {"provider": "chroma", "config": {"path": f"{scratch}/chroma", "collection_name": "locomo"}}
    raise ValueError(f"unknown mem0 set-up {setup!r}")


def run_mem0(setup: str, box: Box, scratch: str) -> dict[str, Any]:
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["ANONYMIZED_TELEMETRY"] = "False"  # Chroma's
    os.environ.setdefault("OPENAI_API_KEY", "unused-but-required-by-mem0")
    try:
        from mem0 import Memory
    except ImportError:
        raise SystemExit("mem0 is not installed: pip install -e '.[bench]'") from None

    memory = Memory.from_config(
        {
            "vector_store": vector_store(setup, scratch),
            "embedder": {"provider": "openai", "config": {"embedding_dims": 512}},
            "history_db_path": f"{scratch}/history.db",
        }
    )
    memory.embedding_model = UseForMem0()
    started = time.perf_counter()
    items = 0
    for person in box.people:
        for turn in person.turns:
            memory.add(
                [{"role": "user", "content": f"{turn.speaker}: {turn.text}"}],
                user_id=person.sample_id,
                metadata={"dia_id": turn.dia_id, "said_at": turn.at.isoformat()},
                infer=False,
            )
            items += 1
    seconds = time.perf_counter() - started
    for n in range(3):  # as for Souvenir: the first searches of a process are not timed
        memory.search(f"what happened last summer? ({n})", top_k=K, filters={"user_id": box.people[0].sample_id})
    scores = Scores.empty()
    for asked in box.asked:
        began = time.perf_counter()
        found = memory.search(asked.text, top_k=K, filters={"user_id": asked.person})
        latency = (time.perf_counter() - began) * 1000
        results = found["results"] if isinstance(found, dict) else found
        shown = [
            (str(r.get("memory", "")), ((r.get("metadata") or {}).get("dia_id", ""),), n) for n, r in enumerate(results)
        ]
        scores.add(asked, shown, latency)
    figures = scores.figures(items / seconds if seconds > 0 else 0.0, peak_rss_mb())
    return {"figures": figures, "memories": items, "questions": len(box.asked), "ingest_s": seconds}
